// SPDX-License-Identifier: Apache-2.0
// DataType factories, printing and equality.
#include "epoxy/types/data_type.h"

#include "epoxy/common/check.h"

namespace epoxy {

#define EPOXY_PRIMITIVE_FACTORY(Name, id)             \
  TypePtr DataType::Name() {                          \
    static const TypePtr kType = New(TypeId::id);     \
    return kType;                                     \
  }
EPOXY_PRIMITIVE_FACTORY(Null, kNull)
EPOXY_PRIMITIVE_FACTORY(Boolean, kBoolean)
EPOXY_PRIMITIVE_FACTORY(TinyInt, kTinyInt)
EPOXY_PRIMITIVE_FACTORY(SmallInt, kSmallInt)
EPOXY_PRIMITIVE_FACTORY(Int, kInt)
EPOXY_PRIMITIVE_FACTORY(BigInt, kBigInt)
EPOXY_PRIMITIVE_FACTORY(Float, kFloat)
EPOXY_PRIMITIVE_FACTORY(Double, kDouble)
EPOXY_PRIMITIVE_FACTORY(String, kString)
EPOXY_PRIMITIVE_FACTORY(Binary, kBinary)
EPOXY_PRIMITIVE_FACTORY(Date, kDate)
EPOXY_PRIMITIVE_FACTORY(Timestamp, kTimestamp)
#undef EPOXY_PRIMITIVE_FACTORY

TypePtr DataType::Decimal(int precision, int scale) {
  EPOXY_CHECK(precision >= 1 && precision <= 38 && scale >= 0 && scale <= precision)
      << "decimal(" << precision << "," << scale << ")";
  auto t = New(TypeId::kDecimal);
  t->precision_ = precision;
  t->scale_ = scale;
  return t;
}

TypePtr DataType::Array(TypePtr element) {
  auto t = New(TypeId::kArray);
  t->fields_.push_back({"element", std::move(element)});
  return t;
}

TypePtr DataType::Map(TypePtr key, TypePtr value) {
  auto t = New(TypeId::kMap);
  t->fields_.push_back({"key", std::move(key)});
  t->fields_.push_back({"value", std::move(value)});
  return t;
}

TypePtr DataType::Struct(std::vector<Field> fields) {
  auto t = New(TypeId::kStruct);
  t->fields_ = std::move(fields);
  return t;
}

TypePtr DataType::Choice(std::vector<TypePtr> members) {
  std::vector<TypePtr> flat;
  auto add = [&flat](const TypePtr& m) {
    if (m->id() == TypeId::kNull) return;
    for (const auto& existing : flat) {
      if (existing->Equals(*m)) return;
    }
    flat.push_back(m);
  };
  for (const auto& m : members) {
    if (m->id() == TypeId::kChoice) {
      for (const auto& inner : m->members()) add(inner);
    } else {
      add(m);
    }
  }
  if (flat.empty()) return Null();
  if (flat.size() == 1) return flat[0];
  auto t = New(TypeId::kChoice);
  t->members_ = std::move(flat);
  return t;
}

int DataType::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int DataType::MemberIndex(const DataType& type) const {
  for (size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->Equals(type)) return static_cast<int>(i);
  }
  return -1;
}

int DataType::byte_width() const {
  switch (id_) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInt:
    case TypeId::kFloat:
    case TypeId::kDate: return 4;
    case TypeId::kBigInt:
    case TypeId::kDouble:
    case TypeId::kTimestamp: return 8;
    case TypeId::kDecimal: return 16;
    default: return 0;
  }
}

bool NeedsQuoting(std::string_view name) {
  if (name.empty()) return true;
  for (char c : name) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '$' || c == '-' || c == '.' || c == '@';
    if (!plain) return true;
  }
  return false;
}

std::string DataType::ToString() const {
  switch (id_) {
    case TypeId::kNull: return "null";
    case TypeId::kBoolean: return "boolean";
    case TypeId::kTinyInt: return "tinyint";
    case TypeId::kSmallInt: return "smallint";
    case TypeId::kInt: return "int";
    case TypeId::kBigInt: return "bigint";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDecimal: return fmt::format("decimal({},{})", precision_, scale_);
    case TypeId::kString: return "string";
    case TypeId::kBinary: return "binary";
    case TypeId::kDate: return "date";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kArray: return "array<" + element()->ToString() + ">";
    case TypeId::kMap: return "map<" + key()->ToString() + "," + value()->ToString() + ">";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i > 0) out += ',';
        const std::string& name = fields_[i].name;
        if (NeedsQuoting(name)) {
          out += '`';
          for (char c : name) {
            if (c == '`') out += '`';  // a backtick inside a quoted name is doubled
            out += c;
          }
          out += '`';
        } else {
          out += name;
        }
        out += ':';
        out += fields_[i].type->ToString();
      }
      return out + ">";
    }
    case TypeId::kChoice: {
      std::string out = "choice<";
      for (size_t i = 0; i < members_.size(); ++i) {
        if (i > 0) out += ',';
        out += members_[i]->ToString();
      }
      return out + ">";
    }
  }
  return "unknown";
}

bool DataType::Equals(const DataType& other) const {
  if (this == &other) return true;
  if (id_ != other.id_ || precision_ != other.precision_ || scale_ != other.scale_ ||
      fields_.size() != other.fields_.size() || members_.size() != other.members_.size()) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name != other.fields_[i].name ||
        !fields_[i].type->Equals(*other.fields_[i].type)) {
      return false;
    }
  }
  for (size_t i = 0; i < members_.size(); ++i) {
    if (!members_[i]->Equals(*other.members_[i])) return false;
  }
  return true;
}

std::string_view DataType::ChoiceMemberName() const {
  switch (id_) {
    case TypeId::kBoolean: return "boolean";
    case TypeId::kTinyInt: return "byte";
    case TypeId::kSmallInt: return "short";
    case TypeId::kInt: return "int";
    case TypeId::kBigInt: return "long";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDecimal: return "decimal";
    case TypeId::kString: return "string";
    case TypeId::kBinary: return "binary";
    case TypeId::kDate: return "date";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kArray: return "array";
    case TypeId::kMap: return "map";
    case TypeId::kStruct: return "struct";
    case TypeId::kChoice: return "choice";
    case TypeId::kNull: return "null";
  }
  return "unknown";
}

}  // namespace epoxy
