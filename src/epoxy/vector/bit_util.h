// SPDX-License-Identifier: Apache-2.0
// Bit-level helpers for validity bitmaps and boolean values (LSB-first, as in Arrow).
#pragma once

#include <cstdint>

namespace epoxy::bit_util {

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline void SetBitTo(uint8_t* bits, int64_t i, bool value) {
  if (value) {
    SetBit(bits, i);
  } else {
    ClearBit(bits, i);
  }
}
inline int64_t BytesForBits(int64_t bits) { return (bits + 7) >> 3; }

}  // namespace epoxy::bit_util
