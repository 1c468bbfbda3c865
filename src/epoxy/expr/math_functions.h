// SPDX-License-Identifier: Apache-2.0
// Spark's math functions on doubles: sqrt, cbrt, exp, expm1, ln/log (with a base), log2, log10,
// log1p, pow/power, sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, degrees, radians,
// rint, signum/sign, hypot, pmod, factorial, e, pi. Non-ANSI: a logarithm of zero or less, and
// other values outside a function's domain, give null, as Spark gives.
#pragma once

#include <optional>

#include "epoxy/expr/datum.h"
#include "epoxy/expr/expression.h"

namespace epoxy::expr {

/// Types a bound call (casting its arguments); false when `call->op` is not one of these.
Result<bool> BindMathFunction(Expr* call);

/// Evaluates a bound call; nullopt when `call.op` is not one of these functions.
Result<std::optional<Datum>> CallMathFunction(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                              MemoryPool* pool);

}  // namespace epoxy::expr
