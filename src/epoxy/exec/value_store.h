// SPDX-License-Identifier: Apache-2.0
// ValueStore: values of any type kept by reference (the input arrays they came in, retained)
// rather than copied row by row; gathered into one array when needed. Accumulators of first,
// last, min/max of strings and nested values, and collect_* keep their values here.
#pragma once

#include <vector>

#include "epoxy/vector/take.h"

namespace epoxy::exec {

class ValueStore {
 public:
  ValueStore(TypePtr type, MemoryPool* pool) : type_(std::move(type)), pool_(pool) {}

  /// Keeps `array` alive and returns the index its refs use.
  Result<uint32_t> Retain(const ArrayPtr& array);
  const Array& chunk(uint32_t index) const { return *chunks_[index]; }
  const Array& At(RowRef ref) const { return *chunks_[ref >> 32]; }
  static int64_t Row(RowRef ref) { return static_cast<int64_t>(ref & 0xffffffffu); }

  /// The values at `refs` (kNullRow: null) as one array.
  Result<ArrayPtr> Gather(const std::vector<RowRef>& refs) const { return TakeFrom(chunks_, refs, type_, pool_); }

  /// When many arrays are held, copies the values `refs` use into one and points `refs` at it,
  /// so arrays whose values were all replaced are released. `refs` must be every live ref.
  Status Compact(std::vector<RowRef>* refs);
  bool NeedsCompaction() const { return chunks_.size() >= kMaxChunks; }

  /// Bytes of the arrays held (already charged to the pool that allocated them).
  int64_t memory_bytes() const { return retained_bytes_; }

 private:
  static constexpr size_t kMaxChunks = 64;
  TypePtr type_;
  MemoryPool* pool_;
  std::vector<ArrayPtr> chunks_;
  int64_t retained_bytes_ = 0;
};

}  // namespace epoxy::exec
