// SPDX-License-Identifier: Apache-2.0
// Accumulators: the per-group state of one aggregate call, updated a batch at a time from input
// rows (a partial aggregation) or from other accumulators' states (the final merge), with
// Spark's results: count, count_if, sum, avg, min, max, first, last, any_value, bool_and, bool_or,
// stddev and variance (sample and population), collect_list, collect_set, approx_count_distinct,
// and DISTINCT over any of them.
#pragma once

#include <memory>
#include <vector>

#include "epoxy/expr/expression.h"
#include "epoxy/memory/memory_pool.h"
#include "epoxy/vector/array.h"

namespace epoxy::exec {

/// State for groups 0..num_groups-1 of one table. Not thread-safe (one per table).
class Accumulator {
 public:
  virtual ~Accumulator() = default;
  /// Makes room for groups up to `num_groups` (new groups start empty). Called before their use.
  virtual Status Resize(int64_t num_groups) = 0;
  /// Adds `n` input rows: row r goes to group ids[r]; `args` are the call's evaluated arguments.
  virtual Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) = 0;
  /// Adds `n` rows of partial states (columns as States() makes them) to groups ids[r].
  virtual Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) = 0;
  /// The states of every group, as columns of StateTypes().
  virtual Result<std::vector<ArrayPtr>> States() = 0;
  virtual std::vector<TypePtr> StateTypes() const = 0;
  /// The result of every group, of the call's type.
  virtual Result<ArrayPtr> Finalize() = 0;
  /// Bytes held (charged by the owning table).
  virtual int64_t memory_bytes() const = 0;
};

/// An accumulator for a bound aggregate call.
Result<std::unique_ptr<Accumulator>> MakeAccumulator(const expr::Expr& call, MemoryPool* pool);

/// The state column types MakeAccumulator(call) produces (for schemas of partial results).
Result<std::vector<TypePtr>> AccumulatorStateTypes(const expr::Expr& call);

}  // namespace epoxy::exec
