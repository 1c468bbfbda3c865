// SPDX-License-Identifier: Apache-2.0
// MemoryPool: counts the bytes of column buffers and refuses allocations past a budget.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "epoxy/common/result.h"

namespace epoxy {

/// A node in a two-level tree (process, then job run). Allocations charge the pool and its parent;
/// one that would take either past its limit fails with kOutOfMemory and charges nothing.
/// Thread-safe.
class MemoryPool {
 public:
  /// `limit_bytes` 0 means no limit of its own (the parent's still applies).
  MemoryPool(std::string name, int64_t limit_bytes, MemoryPool* parent = nullptr);
  ~MemoryPool() = default;
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  /// The process-wide pool. Its limit comes from SetProcessMemoryLimit(), EPOXY_MEMORY_LIMIT
  /// (bytes, or with a K/M/G suffix), or 80% of physical memory.
  static MemoryPool& Default();

  /// 64-byte aligned, uninitialised memory. `what` names the allocation in the error message.
  Result<uint8_t*> Allocate(int64_t size, const char* what = "buffer");
  /// Grows or shrinks an allocation made here; the contents up to min(old, new) are kept.
  Result<uint8_t*> Reallocate(uint8_t* data, int64_t old_size, int64_t new_size,
                              const char* what = "buffer");
  void Free(uint8_t* data, int64_t size);

  /// Charges bytes held outside Allocate (for example a decompression window).
  Status Reserve(int64_t bytes, const char* what);
  void Release(int64_t bytes);

  int64_t bytes_allocated() const { return allocated_.load(std::memory_order_relaxed); }
  int64_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_.load(std::memory_order_relaxed); }
  void set_limit(int64_t limit_bytes) { limit_.store(limit_bytes, std::memory_order_relaxed); }
  const std::string& name() const { return name_; }

 private:
  Status Charge(int64_t bytes, const char* what);
  void Uncharge(int64_t bytes);

  std::string name_;
  std::atomic<int64_t> limit_;
  MemoryPool* parent_;
  std::atomic<int64_t> allocated_{0};
  std::atomic<int64_t> peak_{0};
};

/// Charges the bytes of memory held outside pool buffers (std::vector, std::string) to a pool, as
/// their holder reports them; released when destroyed. Not thread-safe.
class MemoryReservation {
 public:
  explicit MemoryReservation(MemoryPool* pool) : pool_(pool) {}
  ~MemoryReservation() { pool_->Release(charged_); }
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;
  /// Brings the charge to `bytes` (errors when the pool refuses more).
  Status Set(int64_t bytes, const char* what);
  int64_t bytes() const { return charged_; }

 private:
  MemoryPool* pool_;
  int64_t charged_ = 0;
};

/// How many units of work (batches, row groups, blocks of about `unit_bytes` each) a reader or a
/// pipeline keeps in flight: `wanted`, fewer when the process's memory limit is small, so that at
/// most a quarter of the limit is in flight; at least one.
int InFlight(int wanted, int64_t unit_bytes);

/// Parses "512M", "2G", "1048576" into bytes.
Result<int64_t> ParseByteSize(std::string_view text);
/// Sets the limit of MemoryPool::Default().
void SetProcessMemoryLimit(int64_t bytes);

}  // namespace epoxy
