// SPDX-License-Identifier: Apache-2.0
// Scalar: one typed constant (a literal, a folded expression, a partition value).
#pragma once

#include <string>
#include <variant>

#include "epoxy/types/data_type.h"
#include "epoxy/vector/array.h"
#include "epoxy/vector/builder.h"

namespace epoxy::expr {

/// Integers, dates (days) and timestamps (micros) are held as int64, float and double as double,
/// strings and binary as std::string, decimals as their unscaled 128-bit value.
struct Scalar {
  TypePtr type = DataType::Null();
  std::variant<std::monostate, bool, int64_t, double, std::string, __int128> value;

  bool is_null() const { return std::holds_alternative<std::monostate>(value); }
  static Scalar Null(TypePtr type = DataType::Null()) { return Scalar{std::move(type), std::monostate()}; }
  static Scalar Boolean(bool v) { return Scalar{DataType::Boolean(), v}; }
  static Scalar Integer(TypePtr type, int64_t v) { return Scalar{std::move(type), v}; }
  static Scalar Double(double v) { return Scalar{DataType::Double(), v}; }
  static Scalar String(std::string v) { return Scalar{DataType::String(), std::move(v)}; }

  /// The SQL text of the value ("NULL", "12", "'abc'", "DATE '2026-08-17'").
  std::string ToSql() const;
};

/// Appends `scalar` (null or a value of the builder's type) to `builder`.
Status AppendScalar(ArrayBuilder* builder, const Scalar& scalar);
/// A column of `length` copies of `scalar`.
Result<ArrayPtr> MakeArrayFromScalar(const Scalar& scalar, int64_t length, MemoryPool* pool = nullptr);
/// Row `row` of `array` as a scalar.
Scalar ScalarAt(const Array& array, int64_t row);

}  // namespace epoxy::expr
