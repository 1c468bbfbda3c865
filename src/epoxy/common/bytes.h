// SPDX-License-Identifier: Apache-2.0
// Equality and copies of short byte strings without a call to memcmp or memcpy: JSON keys, string
// values and dictionary entries are mostly a few bytes long, handled millions of times, and the
// library call dominated.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace epoxy {

inline bool EqualBytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  if (n > 16) return std::memcmp(p, q, n) == 0;
  auto load8 = [](const char* s) {
    uint64_t v;
    std::memcpy(&v, s, 8);
    return v;
  };
  auto load4 = [](const char* s) {
    uint32_t v;
    std::memcpy(&v, s, 4);
    return v;
  };
  // Two loads that overlap cover every length from their width to twice it.
  if (n >= 8) return load8(p) == load8(q) && load8(p + n - 8) == load8(q + n - 8);
  if (n >= 4) return load4(p) == load4(q) && load4(p + n - 4) == load4(q + n - 4);
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != q[i]) return false;
  }
  return true;
}

/// memcpy for byte strings that are usually short; never touches bytes outside [0, n).
inline void CopyBytes(void* dst, const void* src, size_t n) {
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  if (n > 16) {
    std::memcpy(d, s, n);
  } else if (n >= 8) {  // two overlapping 8-byte moves, both loaded before either is stored
    uint64_t head, tail;
    std::memcpy(&head, s, 8);
    std::memcpy(&tail, s + n - 8, 8);
    std::memcpy(d, &head, 8);
    std::memcpy(d + n - 8, &tail, 8);
  } else if (n >= 4) {
    uint32_t head, tail;
    std::memcpy(&head, s, 4);
    std::memcpy(&tail, s + n - 4, 4);
    std::memcpy(d, &head, 4);
    std::memcpy(d + n - 4, &tail, 4);
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  }
}

}  // namespace epoxy
