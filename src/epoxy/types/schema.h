// SPDX-License-Identifier: Apache-2.0
// Schema: the ordered, named columns of a batch or table.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "epoxy/types/data_type.h"

namespace epoxy {

class Schema;
using SchemaPtr = std::shared_ptr<const Schema>;

/// Immutable list of fields. Column names are unique within a schema.
class Schema {
 public:
  explicit Schema(std::vector<Field> fields) : fields_(std::move(fields)) {}
  static SchemaPtr Make(std::vector<Field> fields) {
    return std::make_shared<const Schema>(std::move(fields));
  }

  const std::vector<Field>& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const Field& field(int i) const { return fields_[i]; }
  /// Index of the column named `name`, or -1.
  int FieldIndex(std::string_view name) const;
  /// Comma-separated column names, for error messages that list what is available.
  std::string ColumnNames() const;

  /// One "name: type" line per column, as `epoxy schema` prints it.
  std::string ToString() const;
  bool Equals(const Schema& other) const;
  /// The schema as a struct type (for nesting and merging).
  TypePtr AsStruct() const { return DataType::Struct(fields_); }

 private:
  std::vector<Field> fields_;
};

}  // namespace epoxy
