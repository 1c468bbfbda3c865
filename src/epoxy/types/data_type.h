// SPDX-License-Identifier: Apache-2.0
// DataType: Glue/Hive types with their exact type strings, plus the DynamicFrame `choice` type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy {

enum class TypeId : uint8_t {
  kNull,  // a field only ever seen as null (DynamicFrame NullType); "null"
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInt,
  kBigInt,
  kFloat,
  kDouble,
  kDecimal,
  kString,
  kBinary,
  kDate,       // days since 1970-01-01 (int32)
  kTimestamp,  // microseconds since 1970-01-01 00:00:00 UTC (int64), as in Spark
  kArray,
  kMap,
  kStruct,
  kChoice,  // one of several member types per row (DynamicFrame)
};

class DataType;
using TypePtr = std::shared_ptr<const DataType>;

/// A named member of a struct (or a column of a schema).
struct Field {
  std::string name;
  TypePtr type;
};

/// An immutable type. Shared freely between threads. Build with the factories below.
class DataType {
 public:
  static TypePtr Null();
  static TypePtr Boolean();
  static TypePtr TinyInt();
  static TypePtr SmallInt();
  static TypePtr Int();
  static TypePtr BigInt();
  static TypePtr Float();
  static TypePtr Double();
  static TypePtr String();
  static TypePtr Binary();
  static TypePtr Date();
  static TypePtr Timestamp();
  /// REQUIRES: 1 <= precision <= 38, 0 <= scale <= precision.
  static TypePtr Decimal(int precision, int scale);
  static TypePtr Array(TypePtr element);
  static TypePtr Map(TypePtr key, TypePtr value);
  static TypePtr Struct(std::vector<Field> fields);
  /// Flattens nested choices and drops duplicates and nulls; one remaining member is returned as
  /// itself rather than as a choice.
  static TypePtr Choice(std::vector<TypePtr> members);

  TypeId id() const { return id_; }
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  /// Struct fields; for a map the two fields "key" and "value"; for an array one field "element".
  const std::vector<Field>& fields() const { return fields_; }
  const TypePtr& element() const { return fields_[0].type; }  // REQUIRES: array
  const TypePtr& key() const { return fields_[0].type; }      // REQUIRES: map
  const TypePtr& value() const { return fields_[1].type; }    // REQUIRES: map
  const std::vector<TypePtr>& members() const { return members_; }  // REQUIRES: choice
  /// Index of the struct field named `name`, or -1.
  int FieldIndex(std::string_view name) const;
  /// Index of the choice member equal to `type`, or -1.
  int MemberIndex(const DataType& type) const;

  bool is_integer() const { return id_ >= TypeId::kTinyInt && id_ <= TypeId::kBigInt; }
  bool is_floating() const { return id_ == TypeId::kFloat || id_ == TypeId::kDouble; }
  bool is_numeric() const { return is_integer() || is_floating() || id_ == TypeId::kDecimal; }
  bool is_nested() const { return id_ >= TypeId::kArray; }
  /// Bytes per value for fixed-width types (booleans count 0: they are bit-packed), else 0.
  int byte_width() const;

  /// The Glue type string: "bigint", "decimal(10,2)", "array<struct<a:int>>", "choice<int,string>".
  std::string ToString() const;
  bool Equals(const DataType& other) const;

  /// The name Glue's make_cols and make_struct give a member of this type ("long", "string", ...).
  std::string_view ChoiceMemberName() const;

 private:
  explicit DataType(TypeId id) : id_(id) {}
  static std::shared_ptr<DataType> New(TypeId id) {
    return std::shared_ptr<DataType>(new DataType(id));
  }

  TypeId id_;
  int precision_ = 0;
  int scale_ = 0;
  std::vector<Field> fields_;
  std::vector<TypePtr> members_;
};

/// Parses a Glue type string. Accepts the aliases integer, long, short, byte and a bare `decimal`
/// (decimal(10,0), as Hive). Errors name the offending position.
Result<TypePtr> ParseType(std::string_view text);

/// Whether a struct field name must be written in backticks inside a type string.
bool NeedsQuoting(std::string_view name);

}  // namespace epoxy
