// SPDX-License-Identifier: Apache-2.0
// Window function values over one sorted partition: ranking (row_number, rank, dense_rank,
// percent_rank, cume_dist, ntile), offsets (lag, lead, nth_value, first_value, last_value) and
// count, sum, avg, min and max over ROWS or RANGE frames, with Spark's default frames.
#pragma once

#include <vector>

#include "epoxy/expr/expression.h"
#include "epoxy/vector/array.h"

namespace epoxy::exec {

/// One sorted partition of a window's input: rows [0, n) ordered by (PARTITION BY, ORDER BY), cut
/// into segments (one per PARTITION BY value) and, within them, peer groups (equal ORDER BY).
struct WindowRows {
  int64_t num_rows = 0;
  std::vector<int64_t> segment_start;  // per row: the first row of its segment
  std::vector<int64_t> segment_end;    // per row: one past its segment's last row
  std::vector<int64_t> peer_start;     // per row: the first row of its peer group
  std::vector<int64_t> peer_end;       // per row: one past its peer group's last row
  const Array* order_key = nullptr;    // the single ORDER BY value (RANGE frames with offsets)
  bool order_ascending = true;
};

/// The value of windowed `call` for every row, with `args` its arguments evaluated over the
/// sorted rows (the call's window gives its frame).
Result<ArrayPtr> ComputeWindowFunction(const expr::Expr& call, const std::vector<ArrayPtr>& args, const WindowRows& rows,
                                       MemoryPool* pool);

}  // namespace epoxy::exec
