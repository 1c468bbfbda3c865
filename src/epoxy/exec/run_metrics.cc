// SPDX-License-Identifier: Apache-2.0
// Printing run metrics.
#include "epoxy/exec/run_metrics.h"

#include <fmt/format.h>

namespace epoxy::exec {
namespace {

/// (name, value text, JSON value) of every metric, in print order.
std::vector<std::pair<std::string, std::string>> Rows(const RunMetrics& m) {
  std::vector<std::pair<std::string, std::string>> rows = {
      {"partitions listed", std::to_string(m.partitions_listed)},
      {"partitions pruned", std::to_string(m.partitions_pruned)},
      {"files listed", std::to_string(m.files_listed)},
      {"files read", std::to_string(m.files_read)},
      {"files pruned", std::to_string(m.files_pruned)},
      {"row groups read", std::to_string(m.row_groups_read)},
      {"row groups pruned", std::to_string(m.row_groups_pruned)},
      {"bytes listed", std::to_string(m.bytes_listed)},
      {"bytes read", std::to_string(m.bytes_read)},
      {"rows read", std::to_string(m.rows_read)},
      {"rows out", std::to_string(m.rows_out)},
      {"output files", std::to_string(m.output_files)},
      {"output bytes", std::to_string(m.output_bytes)},
      {"wall seconds", fmt::format("{:.6f}", m.wall_seconds)},
      {"cpu seconds", fmt::format("{:.6f}", m.cpu_seconds)},
      {"peak memory", std::to_string(m.peak_memory)},
      {"spilled bytes", std::to_string(m.spilled_bytes)},
      {"spill files", std::to_string(m.spill_files)},
  };
  for (const auto& [name, value] : m.operator_rows) rows.push_back({name, std::to_string(value)});
  return rows;
}

}  // namespace

void RunMetrics::Add(const RunMetrics& o) {
  partitions_listed += o.partitions_listed;
  partitions_pruned += o.partitions_pruned;
  files_listed += o.files_listed;
  files_read += o.files_read;
  files_pruned += o.files_pruned;
  row_groups_read += o.row_groups_read;
  row_groups_pruned += o.row_groups_pruned;
  bytes_listed += o.bytes_listed;
  bytes_read += o.bytes_read;
  rows_read += o.rows_read;
  for (const auto& r : o.operator_rows) operator_rows.push_back(r);
}

std::string RunMetrics::ToText() const {
  std::string out;
  for (const auto& [name, value] : Rows(*this)) out += name + ": " + value + "\n";
  return out;
}

std::string RunMetrics::ToJson() const {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, value] : Rows(*this)) {
    out += fmt::format("{}\"{}\":{}", first ? "" : ",", name, value);
    first = false;
  }
  return out + "}";
}

}  // namespace epoxy::exec
