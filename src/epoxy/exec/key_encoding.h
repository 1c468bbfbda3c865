// SPDX-License-Identifier: Apache-2.0
// Key encoding for hash tables: a row's key columns as 1 to 4 64-bit words when every key is fixed
// width (integers, dates, timestamps, floats, decimals, booleans) and they fit 32 bytes, else as
// serialised bytes (exec/group_index's AppendGroupKey). Equal encodings mean equal keys under
// Spark's grouping rules: nulls equal nulls, -0.0 equals 0.0, NaN equals NaN.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/vector/array.h"

namespace epoxy::exec {

/// The encoded keys of a batch's rows, with their hashes.
struct EncodedKeys {
  int64_t num_rows = 0;
  std::vector<uint64_t> words;   // fixed layout: num_rows * words per row
  std::string bytes;             // variable layout: row i is bytes[offsets[i], offsets[i + 1])
  std::vector<uint32_t> offsets;
  std::vector<uint64_t> hashes;
  /// Per row, bit k set when key k is null; empty when no key of any row is null.
  std::vector<uint32_t> null_keys;

  std::string_view Bytes(int64_t i) const {
    return std::string_view(bytes).substr(offsets[static_cast<size_t>(i)], offsets[static_cast<size_t>(i) + 1] - offsets[static_cast<size_t>(i)]);
  }
  uint32_t NullKeys(int64_t i) const { return null_keys.empty() ? 0 : null_keys[static_cast<size_t>(i)]; }
};

/// How one set of key types is encoded. Immutable; shared by the threads of a table.
class KeyEncoder {
 public:
  /// With one key and no `null_bits`, a null key is not encoded (its row carries null_keys and its
  /// words are zero): grouping keeps the null group apart, joins skip null keys. With several keys,
  /// or `null_bits`, nulls are part of the encoding (null-safe joins compare them).
  KeyEncoder(std::vector<TypePtr> types, bool null_bits);

  bool fixed() const { return words_ > 0; }
  /// 64-bit words per row in the fixed layout (1 to 4), 0 in the variable one.
  int words() const { return words_; }
  int num_keys() const { return static_cast<int>(types_.size()); }
  /// Whether a null key is encoded (rather than only flagged in null_keys).
  bool encodes_nulls() const { return encodes_nulls_; }
  const std::vector<TypePtr>& types() const { return types_; }

  /// Encodes and hashes rows [0, n) of `keys`. With `hashes`, those are taken instead of computed
  /// (rows carried between phases keep their hash).
  Status Encode(const std::vector<ArrayPtr>& keys, int64_t n, EncodedKeys* out,
                const uint64_t* hashes = nullptr) const;

 private:
  Status EncodeBytes(const std::vector<ArrayPtr>& keys, int64_t n, EncodedKeys* out) const;

  std::vector<TypePtr> types_;
  std::vector<int> offsets_;  // byte offset of each key in the fixed layout
  int mask_offset_ = -1;      // byte offset of the null mask, -1 when nulls are not encoded
  int words_ = 0;
  bool encodes_nulls_ = false;
};

/// The 64-bit mix used for one-word keys (a full-avalanche finalizer).
inline uint64_t MixHash(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace epoxy::exec
