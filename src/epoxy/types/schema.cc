// SPDX-License-Identifier: Apache-2.0
// Schema.
#include "epoxy/types/schema.h"

namespace epoxy {

int Schema::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::string Schema::ColumnNames() const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields_[i].name;
  }
  return out;
}

std::string Schema::ToString() const {
  std::string out;
  for (const auto& f : fields_) {
    out += f.name;
    out += ": ";
    out += f.type->ToString();
    out += '\n';
  }
  return out;
}

bool Schema::Equals(const Schema& other) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name != other.fields_[i].name ||
        !fields_[i].type->Equals(*other.fields_[i].type)) {
      return false;
    }
  }
  return true;
}

}  // namespace epoxy
