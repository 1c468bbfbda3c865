// SPDX-License-Identifier: Apache-2.0
// Vectorized evaluation of bound expressions over batches: each node runs one typed kernel over
// the whole batch; constants stay one-row datums read with stride 0.
#pragma once

#include "epoxy/expr/datum.h"
#include "epoxy/expr/expression.h"

namespace epoxy::expr {

/// Evaluates bound `e` over `batch`. Thread-safe: the expression is not modified.
Result<Datum> Evaluate(const Expr& e, const Batch& batch, MemoryPool* pool = nullptr);

/// Like Evaluate, with a constant expanded to the batch's length.
Result<ArrayPtr> EvaluateToArray(const Expr& e, const Batch& batch, MemoryPool* pool = nullptr);

/// The rows where a boolean predicate is true (null counts as false), as indexes for Take.
Result<std::vector<int32_t>> SelectTrue(const Datum& predicate, int64_t num_rows);

/// Evaluates a function call whose arguments are already evaluated (functions.cc).
Result<Datum> CallFunction(const Expr& call, const std::vector<Datum>& args, int64_t num_rows, MemoryPool* pool);

}  // namespace epoxy::expr
