// SPDX-License-Identifier: Apache-2.0
// Equality of short byte strings without a call to memcmp: JSON keys and dictionary values are
// mostly a few bytes long, compared millions of times, and the library call dominated.
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

}  // namespace epoxy
