// SPDX-License-Identifier: Apache-2.0
// Spark's constructors and functions of arrays, maps and structs: array, struct, named_struct,
// map, element_at, get, array_contains, array_position, array_remove, array_distinct, array_max,
// array_min, array_join, slice, flatten, array_union, array_intersect, array_except,
// arrays_overlap, array_append, array_prepend, array_insert, array_repeat, array_compact,
// arrays_zip, map_keys, map_values. Non-ANSI semantics: an index out of range gives null.
#pragma once

#include <optional>

#include "epoxy/expr/datum.h"
#include "epoxy/expr/expression.h"

namespace epoxy::expr {

/// Types a bound call to one of these functions (casting its arguments as Spark coerces them).
/// False when `call->op` is not one of them.
Result<bool> BindCollectionFunction(Expr* call);

/// Evaluates a bound call; nullopt when `call.op` is not one of these functions.
Result<std::optional<Datum>> CallCollectionFunction(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                                    MemoryPool* pool);

}  // namespace epoxy::expr
