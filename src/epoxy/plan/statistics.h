// SPDX-License-Identifier: Apache-2.0
// Cardinality estimates for join ordering and build-side choice: row counts from Parquet footers
// (file sizes for text formats), and textbook selectivities for filters.
#pragma once

#include "epoxy/plan/logical_plan.h"

namespace epoxy::plan {

/// Rows a scan's source holds before any filter: the footers' row counts for Parquet (up to 64
/// footers read, the rest extrapolated by size), bytes / 100 for CSV and JSON. Cached per source
/// for the process. A source that cannot be listed counts 1,000,000.
double SourceRows(const ScanSource& source);

/// The estimated number of rows `plan` produces.
double EstimateRows(const PlanNode& plan);

/// The fraction of rows a boolean predicate keeps (= 0.1, ranges 0.33, LIKE 0.2, AND multiplies...).
double Selectivity(const expr::Expr& predicate);

/// An upper bound on the distinct values of output column `column` of `plan`: the unfiltered
/// rows of the relation it comes from (a key is at most as varied as its table is long).
double DistinctBound(const PlanNode& plan, int column);

}  // namespace epoxy::plan
