// SPDX-License-Identifier: Apache-2.0
// Casts with Spark 3.5's non-ANSI semantics: an invalid value gives null, never an error;
// `CAST('12.50' AS BIGINT)` is 12; integers narrow by wrapping and fractions truncate toward zero.
#pragma once

#include "epoxy/expr/datum.h"

namespace epoxy::expr {

/// Whether a cast from `from` to `to` exists (Spark's Cast.canCast, for the types epoxy has).
bool CanCast(const DataType& from, const DataType& to);

/// Whose rules a cast follows. They differ on text to integers: Spark's CAST takes "12.50" as 12,
/// Glue's ResolveChoice `cast:long` gives null for any text that is not a whole number.
enum class CastRules { kSpark, kGlueResolveChoice };

/// Casts every row of `input` to `to`. REQUIRES: CanCast(input.type(), to).
Result<ArrayPtr> CastArray(const ArrayPtr& input, const TypePtr& to, MemoryPool* pool = nullptr,
                           CastRules rules = CastRules::kSpark);

/// Spark's string-to-integer rule: trimmed, optional sign, digits, and an optional fraction that
/// is dropped ("12.50" is 12). False for anything else or out of int64 range.
bool ParseSparkInteger(std::string_view text, int64_t* out);

/// Spark's text for a double or float ("1.0", "1.0E20", "NaN", "Infinity").
std::string SparkDoubleText(double value, bool is_float = false);

}  // namespace epoxy::expr
