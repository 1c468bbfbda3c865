// SPDX-License-Identifier: Apache-2.0
// Spark 3.5's decimal arithmetic: the result types of + - * / % sum and avg (with
// spark.sql.decimalOperations.allowPrecisionLoss at its default, true), literal typing, and exact
// vectorized kernels over the unscaled 128-bit values (a 256-bit path where a product or a scaled
// dividend does not fit). Results that do not fit their precision are null (non-ANSI mode).
#pragma once

#include <cstdint>

#include "epoxy/expr/datum.h"

namespace epoxy::expr {

inline constexpr int kMaxDecimalPrecision = 38;
/// Spark's MINIMUM_ADJUSTED_SCALE: precision loss never cuts the scale below this.
inline constexpr int kMinAdjustedScale = 6;

/// 10^n for 0 <= n <= 38.
__int128 DecimalPow10(int n);

/// Spark's DecimalType.adjustPrecisionScale: a precision above 38 keeps the integer digits and
/// gives up scale, down to min(scale, 6).
TypePtr AdjustedDecimal(int precision, int scale);
/// DecimalType.bounded: both capped at 38.
TypePtr BoundedDecimal(int precision, int scale);

/// The decimal an integer type converts to in arithmetic (tinyint (3,0), smallint (5,0), int
/// (10,0), bigint (20,0)); null for other types.
TypePtr DecimalForIntegral(TypeId id);
/// The narrowest decimal holding integer literal `v` (Spark's literalPickMinimumPrecision).
TypePtr DecimalForIntegerLiteral(int64_t v);
/// The type Spark gives a number literal with a decimal point and no exponent ("0.06" is
/// decimal(2,2), "100.00" decimal(5,2)); null when it needs more than 38 digits.
TypePtr DecimalLiteralType(std::string_view digits, __int128* unscaled);

/// Result type of `a op b` for two decimals, op one of + - * / %.
TypePtr DecimalArithmeticType(const std::string& op, const DataType& a, const DataType& b);
/// Spark's widerDecimalType: the decimal both sides of a comparison or CASE convert to.
TypePtr WiderDecimal(const DataType& a, const DataType& b);
/// sum(decimal(p,s)) is decimal(p+10, s); avg(decimal(p,s)) is decimal(p+4, s+4), both bounded.
TypePtr DecimalSumType(const DataType& input);
TypePtr DecimalAvgType(const DataType& input);

/// `a op b` over decimals (op + - * / %), computed exactly and rounded HALF_UP to `result`'s
/// scale; a zero divisor or a value beyond `result`'s precision gives null.
Result<ArrayPtr> DecimalArithmetic(const std::string& op, const Datum& a, const Datum& b, int64_t n,
                                   const TypePtr& result, MemoryPool* pool);

/// Unscaled `v` at scale `from` brought to scale `to`, rounding HALF_UP; false when the result's
/// magnitude reaches 10^precision.
bool RescaleDecimal(__int128 v, int from, int to, int precision, __int128* out);

/// A whole decimal column rescaled to `to` (HALF_UP), nulls where it does not fit.
Result<ArrayPtr> CastDecimalToDecimal(const Array& input, const TypePtr& to, MemoryPool* pool);
/// Integers (any width) to decimal `to`, nulls where they do not fit.
Result<ArrayPtr> CastIntegerToDecimal(const Array& input, const TypePtr& to, MemoryPool* pool);

/// `sum / count` for avg: Spark's decimal division of the sum (at `sum_type`) by the count
/// (decimal(20,0)), then the cast to `result`; false when it does not fit.
bool DecimalAverage(__int128 sum, const DataType& sum_type, int64_t count, const DataType& result, __int128* out);

/// Rounds `v` at scale `from` to `digits` fraction digits (HALF_UP, or HALF_EVEN for bround) and
/// returns it at scale `to` (>= digits). Negative `digits` round to tens, hundreds...
bool RoundDecimal(__int128 v, int from, int digits, int to, int precision, bool half_even, __int128* out);

}  // namespace epoxy::expr
