// SPDX-License-Identifier: Apache-2.0
// What one run of a plan did: listing, pruning, reading, rows per operator, output, time, memory.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace epoxy::exec {

struct RunMetrics {
  int64_t partitions_listed = 0;
  int64_t partitions_pruned = 0;   // by the partition filter, before their files were listed
  int64_t files_listed = 0;
  int64_t files_read = 0;
  int64_t files_pruned = 0;        // listed, but every row group ruled out by statistics
  int64_t row_groups_read = 0;
  int64_t row_groups_pruned = 0;
  int64_t bytes_listed = 0;
  int64_t bytes_read = 0;
  int64_t rows_read = 0;
  int64_t rows_out = 0;
  int64_t output_files = 0;
  int64_t output_bytes = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;
  int64_t peak_memory = 0;
  int64_t spilled_bytes = 0;       // written to temporary files by aggregations, joins and sorts
  int64_t spill_files = 0;
  std::vector<std::pair<std::string, int64_t>> operator_rows;  // "Filter rows out" -> n, in plan order

  /// Adds the reading counters and operator rows of `other` (a join's build side) to these.
  void Add(const RunMetrics& other);

  /// One `name: value` line per metric.
  std::string ToText() const;
  /// The same as one JSON object.
  std::string ToJson() const;
};

}  // namespace epoxy::exec
