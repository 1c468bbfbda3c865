// SPDX-License-Identifier: Apache-2.0
// Ordering rows by ORDER BY keys: a 64-bit prefix of the first key that orders like the key
// (integers, dates, timestamps and floats exactly; strings by their first 8 bytes), and a full
// comparison of the keys when prefixes tie. Shared by sort, top-n and windows.
#pragma once

#include <cstdint>
#include <vector>

#include "epoxy/plan/logical_plan.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {

/// A row to sort: its key prefix and where it is (batch, row).
struct SortEntry {
  uint64_t prefix;
  RowRef ref;
  bool null;  // the first key is null
};

/// Compares rows by keys whose values sit in columns [first_key, first_key + n) of the batches.
class RowOrder {
 public:
  RowOrder(std::vector<plan::SortKey> keys, int first_key);

  /// Entries for every row of `batch` (the batch's index among the sorted ones is `batch_index`).
  void AddEntries(const Batch& batch, uint32_t batch_index, std::vector<SortEntry>* out) const;
  /// <0, 0, >0: row `a` of `x` against row `b` of `y`, over every key.
  int Compare(const Batch& x, int64_t a, const Batch& y, int64_t b) const;
  /// Whether `a` orders before `b` (entries of `batches`).
  bool Less(const SortEntry& a, const SortEntry& b, const std::vector<BatchPtr>& batches) const {
    if (a.null != b.null) return a.null == keys_[0].nulls_first;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    if (exact_) return false;
    return Compare(*batches[a.ref >> 32], static_cast<int64_t>(a.ref & 0xffffffffu), *batches[b.ref >> 32],
                   static_cast<int64_t>(b.ref & 0xffffffffu)) < 0;
  }
  /// Sorts `entries` of `batches`, in parallel on `pool` for large inputs.
  void Sort(std::vector<SortEntry>* entries, const std::vector<BatchPtr>& batches, ThreadPool* pool) const;

 private:
  std::vector<plan::SortKey> keys_;
  int first_key_;
  bool exact_ = false;  // the prefix alone orders the rows (one fixed-width key)
};

/// The columns [0, num_columns) of the rows `entries` point at, in order, as batches of at most
/// `batch_rows` rows under `schema`.
Result<std::vector<BatchPtr>> GatherSorted(const std::vector<SortEntry>& entries, const std::vector<BatchPtr>& batches,
                                           const SchemaPtr& schema, int64_t batch_rows, MemoryPool* pool);

}  // namespace epoxy::exec
