// SPDX-License-Identifier: Apache-2.0
// Most-significant-digit radix sort of sort entries by their 64-bit prefixes, a byte at a time,
// skipping the bytes a range shares; small ranges and ranges whose prefixes are all equal go to a
// comparison sort with the full order. The first partitions of a large input run in parallel.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/sort_keys.h"

namespace epoxy::exec::radix {

constexpr size_t kComparisonSortBelow = 96;
constexpr size_t kParallelAbove = size_t{1} << 16;

/// Byte `d` of an entry's key: the prefix's 8 bytes (most significant first), then prefix2's.
inline unsigned KeyByte(const SortEntry& e, int d) {
  return d < 8 ? static_cast<unsigned>(e.prefix >> (56 - 8 * d)) & 0xff
               : static_cast<unsigned>(e.prefix2 >> (56 - 8 * (d - 8))) & 0xff;
}

/// The first byte at or after `d` (of `bytes`) where the keys of [a, a + n) differ; `bytes` when
/// they are all equal.
inline int FirstDifferingByte(const SortEntry* a, size_t n, int d, int bytes) {
  uint64_t x1 = 0, x2 = 0;
  for (size_t i = 1; i < n; ++i) {
    x1 |= a[i].prefix ^ a[0].prefix;
    x2 |= a[i].prefix2 ^ a[0].prefix2;
  }
  int first = bytes;
  if (x1 != 0) {
    first = __builtin_clzll(x1) / 8;
  } else if (bytes > 8 && x2 != 0) {
    first = 8 + __builtin_clzll(x2) / 8;
  }
  return std::max(first, d);
}

/// Counts of byte `d` over [a, a + n) and where each byte's run starts.
inline void Histogram(const SortEntry* a, size_t n, int d, size_t count[256], size_t start[257]) {
  std::fill(count, count + 256, size_t{0});
  for (size_t i = 0; i < n; ++i) ++count[KeyByte(a[i], d)];
  size_t sum = 0;
  for (int b = 0; b < 256; ++b) {
    start[b] = sum;
    sum += count[b];
  }
  start[256] = n;
}

/// Scatters [from, from + n) into `to` by byte `d`; `start` gets where each byte's run begins.
inline void Scatter(const SortEntry* from, SortEntry* to, size_t n, int d, size_t start[257]) {
  size_t count[256], at[256];
  Histogram(from, n, d, count, start);
  std::copy(start, start + 256, at);
  for (size_t i = 0; i < n; ++i) to[at[KeyByte(from[i], d)]++] = from[i];
}

template <typename Less>
void SortInto(SortEntry* from, SortEntry* to, size_t n, int d, int bytes, const Less& less);

/// Sorts [a, a + n) in place on one thread; `tmp` is scratch of the same size. Each level scatters
/// once into the other buffer and the next level sorts from there back (SortInto), so entries are
/// copied back only at the leaves that end in the wrong buffer.
template <typename Less>
void SortRange(SortEntry* a, SortEntry* tmp, size_t n, int d, int bytes, const Less& less) {
  if (n < 2) return;
  if (n <= kComparisonSortBelow || (d = FirstDifferingByte(a, n, d, bytes)) >= bytes) {
    std::sort(a, a + n, less);  // few rows, or equal prefixes: the full order decides
    return;
  }
  size_t start[257];
  Scatter(a, tmp, n, d, start);
  for (int b = 0; b < 256; ++b) {
    SortInto(tmp + start[b], a + start[b], start[b + 1] - start[b], d + 1, bytes, less);
  }
}

/// Sorts the n entries at `from` into `to`; `from` is scratch afterwards.
template <typename Less>
void SortInto(SortEntry* from, SortEntry* to, size_t n, int d, int bytes, const Less& less) {
  if (n == 0) return;
  if (n <= kComparisonSortBelow || (d = FirstDifferingByte(from, n, d, bytes)) >= bytes) {
    std::memcpy(static_cast<void*>(to), from, n * sizeof(SortEntry));
    std::sort(to, to + n, less);
    return;
  }
  size_t start[257];
  Scatter(from, to, n, d, start);
  for (int b = 0; b < 256; ++b) SortRange(to + start[b], from + start[b], start[b + 1] - start[b], d + 1, bytes, less);
}

/// Sorts [a, a + n): large ranges are partitioned by parallel tasks (a histogram and a scatter per
/// slice of the range), then each bucket is sorted by its own task.
template <typename Less>
void ParallelSort(SortEntry* a, SortEntry* tmp, size_t n, int d, int bytes, const Less& less, ThreadPool& pool) {
  if (n < kParallelAbove || pool.num_threads() <= 1) return SortRange(a, tmp, n, d, bytes, less);
  d = FirstDifferingByte(a, n, d, bytes);
  if (d >= bytes) {
    std::sort(a, a + n, less);
    return;
  }
  const size_t slices = static_cast<size_t>(pool.num_threads()) * 2;
  std::vector<std::array<size_t, 256>> counts(slices);
  auto slice_begin = [&](size_t s) { return n * s / slices; };
  {
    TaskGroup tasks(pool);
    for (size_t s = 0; s < slices; ++s) {
      tasks.Spawn([&, s] {
        counts[s].fill(0);
        for (size_t i = slice_begin(s); i < slice_begin(s + 1); ++i) ++counts[s][KeyByte(a[i], d)];
        return Status::OK();
      });
    }
    (void)tasks.Wait();
  }
  std::vector<std::array<size_t, 256>> at(slices);
  size_t start[257];
  size_t sum = 0;
  for (int b = 0; b < 256; ++b) {
    start[b] = sum;
    for (size_t s = 0; s < slices; ++s) {
      at[s][static_cast<size_t>(b)] = sum;
      sum += counts[s][static_cast<size_t>(b)];
    }
  }
  start[256] = n;
  {
    TaskGroup tasks(pool);
    for (size_t s = 0; s < slices; ++s) {
      tasks.Spawn([&, s] {
        for (size_t i = slice_begin(s); i < slice_begin(s + 1); ++i) tmp[at[s][KeyByte(a[i], d)]++] = a[i];
        return Status::OK();
      });
    }
    (void)tasks.Wait();
  }
  // The buckets sit in tmp: each task sorts one back into a (a large one in parallel again).
  TaskGroup tasks(pool);
  for (int b = 0; b < 256; ++b) {
    const size_t lo = start[b], len = start[b + 1] - start[b];
    if (len == 0) continue;
    tasks.Spawn([&, lo, len] {
      if (len >= kParallelAbove) {
        std::memcpy(static_cast<void*>(a + lo), tmp + lo, len * sizeof(SortEntry));
        ParallelSort(a + lo, tmp + lo, len, d + 1, bytes, less, pool);
      } else {
        SortInto(tmp + lo, a + lo, len, d + 1, bytes, less);
      }
      return Status::OK();
    });
  }
  (void)tasks.Wait();
}

}  // namespace epoxy::exec::radix
