// SPDX-License-Identifier: Apache-2.0
// Spark's type coercion rules shared by the binder and the function entries: widening numbers,
// the common type of CASE/COALESCE-like arguments, the type two compared values meet at.
#pragma once

#include "epoxy/expr/expression.h"

namespace epoxy::expr {

/// The wider of two numeric types. A decimal meets an integer or another decimal as Spark's
/// widerDecimalType, and a float or double as double.
TypePtr WiderNumeric(const TypePtr& a, const TypePtr& b);

/// The decimal an operand converts to beside another decimal: an integer literal takes the
/// narrowest decimal holding it (Spark's literalPickMinimumPrecision), other integers their type's.
/// Null for an operand that is neither (a NULL).
TypePtr AsDecimal(const Expr& e);

/// Spark's implicit type for comparing values of types `a` and `b` (a string meets the other
/// side's type); kInvalidInput when they cannot be compared.
Result<TypePtr> ComparisonType(const TypePtr& a, const TypePtr& b);

/// The type values of `a` and `b` share in CASE, COALESCE or a UNION's column: numbers widen, a
/// string absorbs anything; kInvalidInput when there is none.
Result<TypePtr> CommonType(const TypePtr& a, const TypePtr& b);

/// Spark's findWiderTypeWithoutStringPromotion (an inline table's column type): numbers widen, a
/// date meets a timestamp, arrays, maps and structs (same field count) widen element by element;
/// a string never absorbs another type. Null when there is none.
TypePtr WiderTypeWithoutStringPromotion(const TypePtr& a, const TypePtr& b);

}  // namespace epoxy::expr
