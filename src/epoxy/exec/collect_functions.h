// SPDX-License-Identifier: Apache-2.0
// Accumulators whose state is a collection: collect_list, collect_set, DISTINCT aggregates (their
// state is the set of distinct arguments, the inner aggregate sees each once) and
// approx_count_distinct (HyperLogLog registers).
#pragma once

#include "epoxy/exec/aggregate_functions.h"

namespace epoxy::exec {

/// collect_list / collect_set(x): the non-null values of x per group, as an array (a set keeps
/// each value once).
Result<std::unique_ptr<Accumulator>> MakeCollectAccumulator(const expr::Expr& call, bool set, MemoryPool* pool);

/// f(DISTINCT x, ...): each distinct argument tuple of a group counted once by f.
Result<std::unique_ptr<Accumulator>> MakeDistinctAccumulator(const expr::Expr& call, MemoryPool* pool);

/// approx_count_distinct(x[, rsd]): HyperLogLog with 2^p registers, p from the relative standard
/// deviation (default 0.05) as Spark chooses it.
Result<std::unique_ptr<Accumulator>> MakeApproxDistinctAccumulator(const expr::Expr& call, MemoryPool* pool);

}  // namespace epoxy::exec
