// SPDX-License-Identifier: Apache-2.0
// Lowering a scan's bound filter to the readers' statistics predicate (format/predicate.h), so
// Parquet row groups whose min/max cannot match are never read.
#pragma once

#include "epoxy/expr/expression.h"
#include "epoxy/format/predicate.h"
#include "epoxy/types/schema.h"

namespace epoxy::plan {

/// The part of `filter` readers can test against statistics: comparisons of a top-level column
/// of `schema` with a constant, IS [NOT] NULL, and AND/OR of those. Conjuncts it cannot express
/// are left out (the filter still runs on the rows), so the result may match more, never less.
/// Null when nothing can be lowered.
PredicatePtr LowerToPredicate(const expr::Expr& filter, const Schema& schema);

}  // namespace epoxy::plan
