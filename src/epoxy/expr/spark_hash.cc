// SPDX-License-Identifier: Apache-2.0
// Murmur3 x86 32-bit as Spark applies it.
#include "epoxy/expr/spark_hash.h"

#include <cstring>

namespace epoxy::expr {
namespace {

constexpr uint32_t kC1 = 0xcc9e2d51;
constexpr uint32_t kC2 = 0x1b873593;

uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

uint32_t MixK1(uint32_t k1) {
  k1 *= kC1;
  k1 = Rotl(k1, 15);
  return k1 * kC2;
}

uint32_t MixH1(uint32_t h1, uint32_t k1) {
  h1 ^= k1;
  h1 = Rotl(h1, 13);
  return h1 * 5 + 0xe6546b64;
}

int32_t Finish(uint32_t h1, uint32_t length) {
  h1 ^= length;
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6b;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35;
  h1 ^= h1 >> 16;
  return static_cast<int32_t>(h1);
}

}  // namespace

int32_t SparkHashInt(int32_t value, int32_t seed) {
  return Finish(MixH1(static_cast<uint32_t>(seed), MixK1(static_cast<uint32_t>(value))), 4);
}

int32_t SparkHashLong(int64_t value, int32_t seed) {
  uint64_t v = static_cast<uint64_t>(value);
  uint32_t h1 = MixH1(static_cast<uint32_t>(seed), MixK1(static_cast<uint32_t>(v)));
  h1 = MixH1(h1, MixK1(static_cast<uint32_t>(v >> 32)));
  return Finish(h1, 8);
}

int32_t SparkHashBytes(const uint8_t* data, int64_t size, int32_t seed) {
  uint32_t h1 = static_cast<uint32_t>(seed);
  int64_t aligned = size - size % 4;
  for (int64_t i = 0; i < aligned; i += 4) {
    uint32_t word;
    std::memcpy(&word, data + i, 4);  // little-endian, as Spark reads it on x86
    h1 = MixH1(h1, MixK1(word));
  }
  for (int64_t i = aligned; i < size; ++i) {
    h1 = MixH1(h1, MixK1(static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(data[i])))));
  }
  return Finish(h1, static_cast<uint32_t>(size));
}

int32_t SparkHashValue(const Array& a, int64_t row, int32_t seed) {
  if (a.IsNull(row)) return seed;
  switch (a.type_id()) {
    case TypeId::kNull: return seed;
    case TypeId::kBoolean: return SparkHashInt(a.GetBool(row) ? 1 : 0, seed);
    case TypeId::kTinyInt: return SparkHashInt(a.values<int8_t>()[row], seed);
    case TypeId::kSmallInt: return SparkHashInt(a.values<int16_t>()[row], seed);
    case TypeId::kInt:
    case TypeId::kDate: return SparkHashInt(a.values<int32_t>()[row], seed);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return SparkHashLong(a.values<int64_t>()[row], seed);
    case TypeId::kFloat: {
      float f = a.values<float>()[row];
      if (f == 0.0f) f = 0.0f;  // -0.0 hashes as 0.0
      int32_t bits;
      std::memcpy(&bits, &f, 4);
      if (f != f) bits = 0x7fc00000;  // one NaN, as Java's floatToIntBits
      return SparkHashInt(bits, seed);
    }
    case TypeId::kDouble: {
      double d = a.values<double>()[row];
      if (d == 0.0) d = 0.0;
      int64_t bits;
      std::memcpy(&bits, &d, 8);
      if (d != d) bits = 0x7ff8000000000000LL;
      return SparkHashLong(bits, seed);
    }
    case TypeId::kDecimal: {
      __int128 v = a.values<__int128>()[row];
      if (a.type()->precision() <= 18) return SparkHashLong(static_cast<int64_t>(v), seed);
      // Wider decimals hash the unscaled value's minimal big-endian two's complement bytes.
      uint8_t bytes[16];
      for (int i = 0; i < 16; ++i) bytes[15 - i] = static_cast<uint8_t>(static_cast<unsigned __int128>(v) >> (8 * i));
      int start = 0;
      while (start < 15 && ((bytes[start] == 0x00 && !(bytes[start + 1] & 0x80)) ||
                            (bytes[start] == 0xff && (bytes[start + 1] & 0x80)))) {
        ++start;
      }
      return SparkHashBytes(bytes + start, 16 - start, seed);
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view v = a.GetView(row);
      return SparkHashBytes(reinterpret_cast<const uint8_t*>(v.data()), static_cast<int64_t>(v.size()), seed);
    }
    case TypeId::kArray: {
      const int32_t* o = a.offsets();
      for (int32_t i = o[row]; i < o[row + 1]; ++i) seed = SparkHashValue(*a.child(0), i, seed);
      return seed;
    }
    case TypeId::kMap: {
      const int32_t* o = a.offsets();
      const Array& entries = *a.child(0);
      for (int32_t i = o[row]; i < o[row + 1]; ++i) {
        seed = SparkHashValue(*entries.child(0), i, seed);
        seed = SparkHashValue(*entries.child(1), i, seed);
      }
      return seed;
    }
    case TypeId::kStruct: {
      for (const auto& field : a.children()) seed = SparkHashValue(*field, row, seed);
      return seed;
    }
    case TypeId::kChoice: return SparkHashValue(*a.child(a.choice_index(row)), row, seed);
  }
  return seed;
}

}  // namespace epoxy::expr
