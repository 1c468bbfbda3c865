// SPDX-License-Identifier: Apache-2.0
// Parquet value and level encodings: the RLE/bit-packing hybrid (levels, dictionary indices),
// legacy BIT_PACKED levels, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
// BYTE_STREAM_SPLIT decoding, and the encoders the writer uses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::parquet {

/// Decodes RLE/bit-packed hybrid runs of `bit_width`-bit values (0 to 32). Bounds-checked.
class RleDecoder {
 public:
  RleDecoder(const uint8_t* data, size_t size, int bit_width)
      : data_(data), size_(size), bit_width_(bit_width) {}
  /// Decodes exactly `n` values into `out`; InvalidData if the runs end first.
  Status Decode(uint32_t* out, int64_t n);

 private:
  Status NextRun();

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  int bit_width_;
  // The current run.
  int64_t rle_left_ = 0;
  uint32_t rle_value_ = 0;
  int64_t packed_left_ = 0;     // values left in the bit-packed run
  size_t packed_pos_ = 0;       // byte offset of the bit-packed run's next group
  int64_t packed_index_ = 0;    // index of the next value within the run
};

/// Legacy BIT_PACKED levels (most significant bit first, no length prefix).
Status DecodeBitPackedLegacy(const uint8_t* data, size_t size, int bit_width, int64_t n,
                             uint32_t* out);

/// DELTA_BINARY_PACKED integers; `*consumed` receives the bytes used (DELTA_LENGTH_BYTE_ARRAY
/// needs to know where the lengths end).
Status DecodeDeltaBinaryPacked(const uint8_t* data, size_t size, int64_t n, bool is_int32,
                               std::vector<int64_t>* out, size_t* consumed);

/// Byte-array values as views into `data` or into `*storage` (for DELTA_BYTE_ARRAY, whose values
/// are rebuilt). `storage` must outlive the views.
Status DecodeDeltaLengthByteArray(const uint8_t* data, size_t size, int64_t n,
                                  std::vector<std::string_view>* out);
Status DecodeDeltaByteArray(const uint8_t* data, size_t size, int64_t n,
                            std::vector<std::string_view>* out, std::string* storage);
/// BYTE_STREAM_SPLIT: `n` values of `width` bytes into `out` (n * width bytes).
Status DecodeByteStreamSplit(const uint8_t* data, size_t size, int64_t n, int width, uint8_t* out);

/// Bits needed to hold `max_value` (0 for 0).
int BitWidth(uint64_t max_value);

/// Encodes values with the hybrid: runs of 8 or more equal values as RLE, the rest bit-packed.
class RleEncoder {
 public:
  explicit RleEncoder(int bit_width) : bit_width_(bit_width) {}
  void Put(uint32_t value);
  /// `count` copies of `value`.
  void PutRun(uint32_t value, int64_t count);
  /// Every value of `values` in order, taken run by run: levels come in long runs, and a run
  /// costs one step instead of one call per value.
  void PutAll(const int16_t* values, int64_t n);
  void PutAll(const uint32_t* values, int64_t n);
  /// The encoded runs (without a length prefix). Resets the encoder.
  std::string Finish();

 private:
  void EndRun();
  void FlushLiterals(bool final);
  void FlushRepeat();
  void WriteVarint(uint64_t v);
  template <typename T>
  void PutRuns(const T* values, int64_t n);

  int bit_width_;
  std::string out_;
  std::vector<uint32_t> literals_;  // pending bit-packed values (a multiple of 8 once flushed)
  uint32_t repeat_value_ = 0;
  int64_t repeat_count_ = 0;
};

}  // namespace epoxy::parquet
