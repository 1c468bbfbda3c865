// SPDX-License-Identifier: Apache-2.0
// Ordering rows by ORDER BY keys: 64-bit prefixes of the first two keys that order like the keys
// (integers, dates, timestamps and floats exactly; strings by their first 8 bytes), and a full
// comparison of the keys when prefixes tie and do not decide. Shared by sort, top-n and windows.
#pragma once

#include <cstdint>
#include <vector>

#include "epoxy/plan/logical_plan.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {

/// A row to sort: its key prefixes and where it is (batch, row).
struct SortEntry {
  uint64_t prefix;   // of the first key
  uint64_t prefix2;  // of the second key, when the first key's prefix is exact (else 0)
  RowRef ref;
  bool null;   // the first key is null
  bool null2;  // the second key is null
};

/// Compares rows by keys whose values sit in columns [first_key, first_key + n) of the batches.
class RowOrder {
 public:
  RowOrder(std::vector<plan::SortKey> keys, int first_key);

  /// Entries for every row of `batch` (the batch's index among the sorted ones is `batch_index`).
  void AddEntries(const Batch& batch, uint32_t batch_index, std::vector<SortEntry>* out) const;
  /// The same into `out[0, batch.num_rows())`.
  void FillEntries(const Batch& batch, uint32_t batch_index, SortEntry* out) const;
  /// Entries for every row of `batches`, in order, built in parallel on `pool` for large inputs.
  std::vector<SortEntry> EntriesOf(const std::vector<BatchPtr>& batches, ThreadPool* pool) const;
  /// <0, 0, >0: row `a` of `x` against row `b` of `y`, over every key.
  int Compare(const Batch& x, int64_t a, const Batch& y, int64_t b) const;
  /// Whether `a` orders before `b` (entries of `batches`).
  bool Less(const SortEntry& a, const SortEntry& b, const std::vector<BatchPtr>& batches) const {
    if (a.null != b.null) return a.null == keys_[0].nulls_first;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    if (decided_ == 0) return CompareFrom(0, a, b, batches) < 0;
    if (keys_.size() == 1) return false;
    if (a.null2 != b.null2) return a.null2 == keys_[1].nulls_first;
    if (a.prefix2 != b.prefix2) return a.prefix2 < b.prefix2;
    if (decided_ == keys_.size()) return false;
    return CompareFrom(decided_, a, b, batches) < 0;
  }
  /// Sorts `entries` of `batches`, in parallel on `pool` for large inputs (parts sorted by their
  /// own tasks, then merged pairwise, each merge cut into pieces that tasks merge side by side).
  void Sort(std::vector<SortEntry>* entries, const std::vector<BatchPtr>& batches, ThreadPool* pool) const;

 private:
  int CompareFrom(size_t key, const SortEntry& a, const SortEntry& b, const std::vector<BatchPtr>& batches) const {
    return Compare(*batches[a.ref >> 32], static_cast<int64_t>(a.ref & 0xffffffffu), *batches[b.ref >> 32],
                   static_cast<int64_t>(b.ref & 0xffffffffu), key);
  }
  int Compare(const Batch& x, int64_t a, const Batch& y, int64_t b, size_t from_key) const;

  std::vector<plan::SortKey> keys_;
  int first_key_;
  /// How many leading keys equal prefixes decide: 0 (the first key's prefix is not exact), 1 (the
  /// first is, the second is not or there is none), or 2.
  size_t decided_ = 0;
};

/// The columns [0, num_columns) of the rows `entries` point at, in order, as batches of at most
/// `batch_rows` rows under `schema`.
Result<std::vector<BatchPtr>> GatherSorted(const std::vector<SortEntry>& entries, const std::vector<BatchPtr>& batches,
                                           const SchemaPtr& schema, int64_t batch_rows, MemoryPool* pool);

}  // namespace epoxy::exec
