// SPDX-License-Identifier: Apache-2.0
// Logical rewrites before execution: filters pushed down (through projections, joins, aggregates
// and unions, into scans), inner joins reordered by estimated sizes, grouped join inputs reduced by
// semi-joins, and unused columns pruned.
#pragma once

#include "epoxy/plan/logical_plan.h"

namespace epoxy::plan {

/// Moves filters as far down as their meaning allows: into scans (conjuncts over partition keys
/// prune partitions before their files are listed, the rest run in the scan and prune Parquet row
/// groups by statistics), below projections, to the side of a join that decides them (and turns
/// equalities across a cross join into its keys), below aggregates (conjuncts on group keys) and
/// into each input of a union. `(a AND b) OR (a AND c)` is first factored into `a AND (b OR c)`.
PlanPtr PushDownFilters(const PlanPtr& plan);

/// Reorders each tree of inner and cross joins: the pair with the smallest estimated result joins
/// first (a greedy order over the join graph), each with its smaller side built.
PlanPtr ReorderJoins(const PlanPtr& plan);

/// A join with an aggregate grouped by its keys on a side that may lose unmatched rows (a
/// decorrelated scalar subquery) gets that aggregate's input semi-joined with the much smaller
/// subtree the other side's key comes from, so only groups that can match are computed. A semi
/// join on one key goes down through joins to where its key column is produced.
PlanPtr ReduceGroupedJoinInputs(const PlanPtr& plan);

/// Drops columns no node above uses: scans read only the columns that are used, and every join,
/// aggregate and sort carries only what its parents need.
PlanPtr PruneColumns(const PlanPtr& plan);

/// All of the above, in order: what the executor runs.
PlanPtr Optimize(const PlanPtr& plan);

/// `(a AND b) OR (a AND c)` as `a AND (b OR c)`, recursively (so join keys inside ORs are found).
expr::ExprPtr FactorCommonConjuncts(const expr::ExprPtr& e);

}  // namespace epoxy::plan
