// SPDX-License-Identifier: Apache-2.0
// MemoryPool: accounting on top of aligned malloc.
#include "epoxy/memory/memory_pool.h"

#include <algorithm>

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace epoxy {
namespace {

constexpr int64_t kAlignment = 64;

int64_t DefaultProcessLimit() {
  if (const char* env = std::getenv("EPOXY_MEMORY_LIMIT")) {
    auto parsed = ParseByteSize(env);
    if (parsed.ok()) return *parsed;
  }
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<int64_t>(pages) * page_size / 10 * 8;
}

std::string HumanBytes(int64_t bytes) {
  if (bytes >= (int64_t{1} << 30)) return fmt::format("{:.1f} GiB", bytes / double(1 << 30));
  if (bytes >= (int64_t{1} << 20)) return fmt::format("{:.1f} MiB", bytes / double(1 << 20));
  if (bytes >= 1024) return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{} bytes", bytes);
}

/// Column buffers of a few MB are allocated and freed for every batch. Above glibc's default mmap
/// threshold each would be a fresh mmap whose pages fault in zeroed, so they stay on the heap to be
/// reused; how much freed heap glibc may keep is bounded by the limit, so that the resident set
/// stays near what the pool counts.
void TuneAllocator(int64_t limit) {
  const int64_t cap = limit > 0 ? limit : INT64_MAX;
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(std::clamp<int64_t>(cap / 32, 1 << 20, 64 << 20)));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(std::clamp<int64_t>(cap / 16, 4 << 20, 256 << 20)));
}

}  // namespace

MemoryPool::MemoryPool(std::string name, int64_t limit_bytes, MemoryPool* parent)
    : name_(std::move(name)), limit_(limit_bytes), parent_(parent) {}

MemoryPool& MemoryPool::Default() {
  static MemoryPool pool = [] {
    const int64_t limit = DefaultProcessLimit();
    TuneAllocator(limit);
    return MemoryPool("process", limit);
  }();
  return pool;
}

Status MemoryPool::Charge(int64_t bytes, const char* what) {
  int64_t now = allocated_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  int64_t limit = limit_.load(std::memory_order_relaxed);
  if (limit > 0 && now > limit) {
    allocated_.fetch_sub(bytes, std::memory_order_relaxed);
    return Status::OutOfMemory(
        "{} of {} exceeds the memory limit of the {} pool ({} in use, limit {}; raise it with "
        "--memory-limit or EPOXY_MEMORY_LIMIT)",
        what, HumanBytes(bytes), name_, HumanBytes(now - bytes), HumanBytes(limit));
  }
  if (parent_ != nullptr) {
    Status st = parent_->Charge(bytes, what);
    if (!st.ok()) {
      allocated_.fetch_sub(bytes, std::memory_order_relaxed);
      return st;
    }
  }
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return Status::OK();
}

void MemoryPool::Uncharge(int64_t bytes) {
  allocated_.fetch_sub(bytes, std::memory_order_relaxed);
  if (parent_ != nullptr) parent_->Uncharge(bytes);
}

Result<uint8_t*> MemoryPool::Allocate(int64_t size, const char* what) {
  if (size < 0) return Status::Internal("negative allocation size {} for {}", size, what);
  EPOXY_RETURN_NOT_OK(Charge(size, what));
  void* p = nullptr;
  if (posix_memalign(&p, kAlignment, static_cast<size_t>(size == 0 ? kAlignment : size)) != 0) {
    Uncharge(size);
    return Status::OutOfMemory("the system refused {} for {}", HumanBytes(size), what);
  }
  return static_cast<uint8_t*>(p);
}

Result<uint8_t*> MemoryPool::Reallocate(uint8_t* data, int64_t old_size, int64_t new_size,
                                        const char* what) {
  EPOXY_ASSIGN_OR_RETURN(uint8_t* fresh, Allocate(new_size, what));
  if (data != nullptr) {
    std::memcpy(fresh, data, static_cast<size_t>(std::min(old_size, new_size)));
    Free(data, old_size);
  }
  return fresh;
}

void MemoryPool::Free(uint8_t* data, int64_t size) {
  if (data == nullptr) return;
  std::free(data);
  Uncharge(size);
}

Status MemoryPool::Reserve(int64_t bytes, const char* what) { return Charge(bytes, what); }

void MemoryPool::Release(int64_t bytes) { Uncharge(bytes); }

int InFlight(int wanted, int64_t unit_bytes) {
  const int64_t limit = MemoryPool::Default().limit();
  if (limit <= 0 || unit_bytes <= 0) return wanted;
  const int64_t fits = limit / 4 / unit_bytes;
  return static_cast<int>(std::clamp<int64_t>(fits, 1, wanted));
}

Status MemoryReservation::Set(int64_t bytes, const char* what) {
  if (bytes > charged_) {
    EPOXY_RETURN_NOT_OK(pool_->Reserve(bytes - charged_, what));
  } else if (bytes < charged_) {
    pool_->Release(charged_ - bytes);
  }
  charged_ = bytes;
  return Status::OK();
}

Result<int64_t> ParseByteSize(std::string_view text) {
  if (text.empty()) return Status::InvalidInput("empty byte size");
  int64_t multiplier = 1;
  char last = text.back();
  switch (last) {
    case 'k': case 'K': multiplier = int64_t{1} << 10; break;
    case 'm': case 'M': multiplier = int64_t{1} << 20; break;
    case 'g': case 'G': multiplier = int64_t{1} << 30; break;
    case 't': case 'T': multiplier = int64_t{1} << 40; break;
    default: break;
  }
  std::string_view digits = multiplier == 1 ? text : text.substr(0, text.size() - 1);
  if (digits.empty()) return Status::InvalidInput("byte size '{}' has no number", text);
  int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') {
      return Status::InvalidInput("byte size '{}' is not a number with an optional K/M/G/T suffix",
                                  text);
    }
    if (value > (INT64_MAX - 9) / 10) return Status::InvalidInput("byte size '{}' is too large", text);
    value = value * 10 + (c - '0');
  }
  if (value > INT64_MAX / multiplier) return Status::InvalidInput("byte size '{}' is too large", text);
  return value * multiplier;
}

void SetProcessMemoryLimit(int64_t bytes) {
  MemoryPool::Default().set_limit(bytes);
  TuneAllocator(bytes);
}

}  // namespace epoxy
