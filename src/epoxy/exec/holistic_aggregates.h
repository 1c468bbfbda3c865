// SPDX-License-Identifier: Apache-2.0
// Aggregates computed from all of a group's values at once: median, mode, product, skewness,
// kurtosis, covar_pop, covar_samp and corr. Their state is the group's non-null values (as
// collect_list keeps them, so partial states merge and spill like any other); the statistic is
// computed when the group is finalized.
#pragma once

#include "epoxy/exec/aggregate_functions.h"

namespace epoxy::exec {

/// Whether `op` is one of these aggregates.
bool IsHolisticAggregate(const std::string& op);

Result<std::unique_ptr<Accumulator>> MakeHolisticAccumulator(const expr::Expr& call, MemoryPool* pool);

}  // namespace epoxy::exec
