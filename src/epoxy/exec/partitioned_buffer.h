// SPDX-License-Identifier: Apache-2.0
// A hash-partitioned exchange on one machine: batches appended to partitions by many threads,
// held in memory and spilled to temporary files when the memory budget says so, then read back
// one partition at a time. The cut a multi-machine driver will make at the same place.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "epoxy/exec/spill_file.h"

namespace epoxy::exec {

/// When operators give memory back: past `soft_limit` bytes allocated in the pool, tables flush
/// and exchanges spill; the pool's own limit stays the hard stop. The soft limit is a quarter of
/// the pool's: scans in flight, join indexes, output batches and the allocator's free lists are
/// not all counted, and the resident set must stay near the limit.
struct SpillPolicy {
  MemoryPool* pool = nullptr;
  int64_t soft_limit = 0;  // 0: a quarter of the pool's limit
  SpillSpace* space = nullptr;
  int num_threads = 1;

  bool OverBudget() const;
  int64_t limit() const;
  /// What one task's table may hold when partitions are merged or joined in parallel; a
  /// partition whose table grows past it (and the pool past the soft limit) is split again.
  int64_t task_budget() const { return limit() * 3 / (2 * num_threads); }
};

class PartitionedBuffer {
 public:
  PartitionedBuffer(SchemaPtr schema, int num_partitions, const SpillPolicy* policy);

  /// Thread-safe. Empty batches are dropped.
  Status Append(int partition, BatchPtr batch);
  /// Writes every partition held in memory to its file (thread-safe).
  Status SpillAll();

  int num_partitions() const { return static_cast<int>(partitions_.size()); }
  const SchemaPtr& schema() const { return schema_; }
  /// Bytes of partition `p`, in memory and on disk.
  int64_t partition_bytes(int p) const;
  /// Rows of partition `p` (whether it is empty).
  int64_t partition_rows(int p) const;
  int64_t spilled_bytes() const { return spilled_bytes_.load(); }
  bool spilled() const { return spilled_bytes_.load() > 0; }

  /// The batches of partition `p` (those on disk, then those in memory); the partition is emptied
  /// as they are read. Call once per partition, after the last Append.
  class Reader {
   public:
    Result<BatchPtr> Next();

   private:
    friend class PartitionedBuffer;
    Reader(std::vector<BatchPtr> memory, std::unique_ptr<SpillFile> file);
    std::vector<BatchPtr> memory_;
    size_t next_ = 0;
    std::unique_ptr<SpillFile> file_;
    std::unique_ptr<SpillFile::Reader> reader_;
  };
  Result<Reader> Read(int p);

 private:
  struct Partition {
    mutable std::mutex mu;
    std::vector<BatchPtr> batches;
    int64_t memory_bytes = 0;
    std::unique_ptr<SpillFile> file;
    int64_t file_bytes = 0;
    int64_t rows = 0;  // in memory and on disk
  };
  Status SpillLocked(Partition& p);

  SchemaPtr schema_;
  const SpillPolicy* policy_;
  std::vector<std::unique_ptr<Partition>> partitions_;
  std::atomic<int64_t> spilled_bytes_{0};
};

/// The partition of `hash` at recursion `depth` among 2^bits partitions (high bits first).
inline int PartitionOf(uint64_t hash, int bits, int depth) {
  const int shift = 64 - bits * (depth + 1);
  return static_cast<int>((hash >> shift) & ((uint64_t{1} << bits) - 1));
}

}  // namespace epoxy::exec
