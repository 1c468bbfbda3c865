// SPDX-License-Identifier: Apache-2.0
// RowRanges and SliceLeaf walk a leaf's levels: a repetition level of 0 starts a row (every entry
// is a row without repetition), a definition level at its maximum carries a value.
#include "epoxy/format/parquet/row_ranges.h"

namespace epoxy::parquet {
namespace {

/// Calls visit(row, entry, value) for every entry; value is -1 for entries without one.
template <typename Visit>
void Walk(const LeafData& leaf, LeafLevels levels, Visit&& visit) {
  int64_t row = -1, value = 0;
  for (int64_t i = 0; i < leaf.num_entries; ++i) {
    if (levels.max_rep == 0 || leaf.rep[static_cast<size_t>(i)] == 0) ++row;
    const bool present = levels.max_def == 0 || leaf.DefAt(i) == levels.max_def;
    visit(row, i, present ? value++ : -1);
  }
}

}  // namespace

std::vector<std::pair<int64_t, int64_t>> RowRanges(const std::vector<LeafData>& data, const std::vector<int>& leaves,
                                                   const std::vector<LeafLevels>& levels, int64_t num_rows,
                                                   int64_t max_bytes) {
  int64_t total = 0;
  for (int leaf : leaves) {
    total += data[static_cast<size_t>(leaf)].binary_bytes;
  }
  if (total <= max_bytes || num_rows <= 1) return {{0, num_rows}};
  std::vector<int64_t> row_bytes(static_cast<size_t>(num_rows), 0);
  for (int leaf : leaves) {
    const LeafData& d = data[static_cast<size_t>(leaf)];
    if (d.binary.empty()) continue;
    Walk(d, levels[static_cast<size_t>(leaf)], [&](int64_t row, int64_t, int64_t value) {
      if (value >= 0 && row >= 0 && row < num_rows) {
        row_bytes[static_cast<size_t>(row)] += static_cast<int64_t>(d.binary[static_cast<size_t>(value)].size());
      }
    });
  }
  std::vector<std::pair<int64_t, int64_t>> ranges;
  int64_t start = 0, bytes = 0;
  for (int64_t r = 0; r < num_rows; ++r) {
    const int64_t b = row_bytes[static_cast<size_t>(r)];
    if (r > start && bytes + b > max_bytes) {
      ranges.emplace_back(start, r);
      start = r;
      bytes = 0;
    }
    bytes += b;
  }
  ranges.emplace_back(start, num_rows);
  return ranges;
}

LeafData SliceLeaf(const LeafData& leaf, LeafLevels levels, int64_t start, int64_t end) {
  int64_t first_entry = leaf.num_entries, last_entry = leaf.num_entries;
  int64_t first_value = -1, last_value = -1;
  int64_t values_before = 0;
  Walk(leaf, levels, [&](int64_t row, int64_t entry, int64_t value) {
    if (row < start) {
      if (value >= 0) values_before = value + 1;
      return;
    }
    if (row >= end) {
      if (last_entry == leaf.num_entries) last_entry = entry;
      return;
    }
    if (first_entry == leaf.num_entries) first_entry = entry;
    if (value >= 0) {
      if (first_value < 0) first_value = value;
      last_value = value;
    }
  });
  if (first_entry > last_entry) first_entry = last_entry;
  LeafData out;
  out.num_entries = last_entry - first_entry;
  out.width = leaf.width;
  auto slice = [&](const std::vector<int16_t>& v) {
    return v.empty() ? std::vector<int16_t>() : std::vector<int16_t>(v.begin() + first_entry, v.begin() + last_entry);
  };
  out.def = slice(leaf.def);
  out.uniform_def = leaf.uniform_def;
  out.rep = slice(leaf.rep);
  const int64_t from = first_value >= 0 ? first_value : values_before;
  const int64_t count = first_value >= 0 ? last_value - first_value + 1 : 0;
  out.num_values = count;
  if (!leaf.binary.empty() && count > 0) {
    out.binary.assign(leaf.binary.begin() + from, leaf.binary.begin() + from + count);
    for (const auto& v : out.binary) out.binary_bytes += static_cast<int64_t>(v.size());
  }
  if (!leaf.fixed.empty() && leaf.width > 0) {
    out.fixed = leaf.fixed.substr(static_cast<size_t>(from * leaf.width), static_cast<size_t>(count * leaf.width));
  }
  return out;
}

}  // namespace epoxy::parquet
