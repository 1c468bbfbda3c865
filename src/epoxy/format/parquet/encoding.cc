// SPDX-License-Identifier: Apache-2.0
// Parquet encodings.
#include "epoxy/format/parquet/encoding.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <utility>

namespace epoxy::parquet {
namespace {

Status Truncated(std::string_view what) {
  return Status::InvalidData("{} data ends before its values do", what);
}

bool ReadUleb(const uint8_t* data, size_t size, size_t* pos, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= size) return false;
    uint8_t b = data[(*pos)++];
    v |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}

bool ReadZigZag(const uint8_t* data, size_t size, size_t* pos, int64_t* out) {
  uint64_t u;
  if (!ReadUleb(data, size, pos, &u)) return false;
  *out = static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  return true;
}

/// Value `index` of a little-endian bit-packed stream of `width`-bit values (width <= 64).
/// REQUIRES: the bytes holding it are inside [data, data + size).
uint64_t UnpackOne(const uint8_t* data, int64_t index, int width) {
  uint64_t bit = static_cast<uint64_t>(index) * static_cast<uint64_t>(width);
  uint64_t byte = bit >> 3;
  int shift = static_cast<int>(bit & 7);
  uint64_t result = 0;
  int got = 0;
  int need = width + shift;
  for (int i = 0; got < need; ++i, got += 8) {
    uint64_t b = data[byte + static_cast<uint64_t>(i)];
    if (got == 0) {
      result = b;
    } else if (got < 64) {
      result |= b << got;
    }
  }
  uint64_t value = result >> shift;
  if (shift > 0 && width + shift > 64) {
    // The top bits came from the byte beyond the first 64 bits.
    value |= static_cast<uint64_t>(data[byte + 8]) << (64 - shift);
  }
  return width == 64 ? value : value & ((uint64_t{1} << width) - 1);
}

/// Unpacks `groups` groups of 8 values of W bits (each group W bytes) from `in` to `out`, reading
/// 8 bytes at a time; `in` must be followed by at least 8 readable bytes past the last group.
template <int W>
void UnpackGroups(const uint8_t* in, uint32_t* out, int64_t groups) {
  constexpr uint64_t kMask = W == 32 ? 0xffffffffULL : (uint64_t{1} << W) - 1;
  for (int64_t g = 0; g < groups; ++g, in += W, out += 8) {
    for (int j = 0; j < 8; ++j) {
      uint64_t word;
      std::memcpy(&word, in + (j * W) / 8, 8);
      out[j] = static_cast<uint32_t>((word >> ((j * W) % 8)) & kMask);
    }
  }
}

using UnpackFn = void (*)(const uint8_t*, uint32_t*, int64_t);

template <int... W>
constexpr std::array<UnpackFn, sizeof...(W)> UnpackTable(std::integer_sequence<int, W...>) {
  return {&UnpackGroups<W + 1>...};
}

/// Unpacks `groups` whole groups of `width`-bit values (1 to 32), the last ones through a padded
/// copy so nothing is read past `avail` bytes.
void UnpackWholeGroups(const uint8_t* in, size_t avail, int width, uint32_t* out, int64_t groups) {
  static constexpr auto kTable = UnpackTable(std::make_integer_sequence<int, 32>());
  const UnpackFn unpack = kTable[static_cast<size_t>(width - 1)];
  const size_t w = static_cast<size_t>(width);
  // Groups whose 8-byte reads stay inside the buffer go directly.
  const int64_t direct = avail >= 8 + w ? std::min<int64_t>(groups, static_cast<int64_t>((avail - 8) / w)) : 0;
  unpack(in, out, direct);
  for (int64_t g = direct; g < groups; ++g) {
    uint8_t padded[32 + 8] = {};
    std::memcpy(padded, in + static_cast<size_t>(g) * w, std::min(w, avail - static_cast<size_t>(g) * w));
    unpack(padded, out + g * 8, 1);
  }
}

}  // namespace

int BitWidth(uint64_t max_value) {
  int w = 0;
  while (max_value != 0) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

Status RleDecoder::NextRun() {
  uint64_t header;
  if (!ReadUleb(data_, size_, &pos_, &header)) return Truncated("RLE");
  if (header & 1) {
    uint64_t groups = header >> 1;
    if (groups == 0 || groups > (uint64_t{1} << 28)) return Status::InvalidData("RLE bit-packed run of {} groups", groups);
    packed_left_ = static_cast<int64_t>(groups * 8);
    packed_pos_ = pos_;
    packed_index_ = 0;
    uint64_t bytes = groups * static_cast<uint64_t>(bit_width_);
    // A final run may be cut short within its last group (some writers do so): clamp.
    if (bytes > size_ - pos_) {
      int64_t available = static_cast<int64_t>((size_ - pos_) * 8 / std::max(bit_width_, 1));
      packed_left_ = bit_width_ == 0 ? packed_left_ : available;
      pos_ = size_;
    } else {
      pos_ += bytes;
    }
  } else {
    rle_left_ = static_cast<int64_t>(header >> 1);
    int bytes = (bit_width_ + 7) / 8;
    if (static_cast<size_t>(bytes) > size_ - pos_) return Truncated("RLE");
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += static_cast<size_t>(bytes);
    rle_value_ = v;
    if (rle_left_ == 0) return Status::InvalidData("RLE run of length 0");
  }
  return Status::OK();
}

Status RleDecoder::Decode(uint32_t* out, int64_t n) {
  if (bit_width_ < 0 || bit_width_ > 32) return Status::InvalidData("RLE bit width {} is invalid", bit_width_);
  int64_t done = 0;
  while (done < n) {
    if (rle_left_ == 0 && packed_left_ == 0) EPOXY_RETURN_NOT_OK(NextRun());
    if (rle_left_ > 0) {
      int64_t k = std::min(rle_left_, n - done);
      std::fill(out + done, out + done + k, rle_value_);
      done += k;
      rle_left_ -= k;
    } else {
      int64_t k = std::min(packed_left_, n - done);
      const uint8_t* base = data_ + packed_pos_;
      if (bit_width_ == 0) {
        std::fill(out + done, out + done + k, 0u);
      } else if (bit_width_ == 1) {
        for (int64_t i = 0; i < k; ++i) {
          int64_t idx = packed_index_ + i;
          out[done + i] = (base[idx >> 3] >> (idx & 7)) & 1;
        }
      } else {
        int64_t i = 0;
        for (; i < k && ((packed_index_ + i) & 7) != 0; ++i) {
          out[done + i] = static_cast<uint32_t>(UnpackOne(base, packed_index_ + i, bit_width_));
        }
        // Whole groups of 8 values are `bit_width_` bytes each.
        const int64_t groups = (k - i) / 8;
        if (groups > 0) {
          const size_t group_byte = static_cast<size_t>((packed_index_ + i) >> 3) * static_cast<size_t>(bit_width_);
          UnpackWholeGroups(base + group_byte, size_ - packed_pos_ - group_byte, bit_width_, out + done + i, groups);
          i += groups * 8;
        }
        for (; i < k; ++i) {
          out[done + i] = static_cast<uint32_t>(UnpackOne(base, packed_index_ + i, bit_width_));
        }
      }
      packed_index_ += k;
      packed_left_ -= k;
      done += k;
    }
  }
  return Status::OK();
}

Status DecodeBitPackedLegacy(const uint8_t* data, size_t size, int bit_width, int64_t n,
                             uint32_t* out) {
  uint64_t bits = static_cast<uint64_t>(n) * static_cast<uint64_t>(bit_width);
  if ((bits + 7) / 8 > size) return Truncated("BIT_PACKED");
  for (int64_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    for (int b = 0; b < bit_width; ++b) {
      uint64_t bit = static_cast<uint64_t>(i) * bit_width + b;
      v = (v << 1) | ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
    }
    out[i] = v;
  }
  return Status::OK();
}

Status DecodeDeltaBinaryPacked(const uint8_t* data, size_t size, int64_t n, bool is_int32,
                               std::vector<int64_t>* out, size_t* consumed) {
  size_t pos = 0;
  uint64_t block_size, miniblocks, total;
  int64_t first;
  if (!ReadUleb(data, size, &pos, &block_size) || !ReadUleb(data, size, &pos, &miniblocks) ||
      !ReadUleb(data, size, &pos, &total) || !ReadZigZag(data, size, &pos, &first)) {
    return Truncated("DELTA_BINARY_PACKED header");
  }
  if (block_size == 0 || block_size % 128 != 0 || miniblocks == 0 || block_size % miniblocks != 0 ||
      (block_size / miniblocks) % 32 != 0 || block_size > (1 << 20)) {
    return Status::InvalidData("DELTA_BINARY_PACKED block of {} values in {} miniblocks is invalid",
                               block_size, miniblocks);
  }
  if (static_cast<int64_t>(total) < n) {
    return Status::InvalidData("DELTA_BINARY_PACKED holds {} values, {} expected", total, n);
  }
  uint64_t per_mini = block_size / miniblocks;
  out->clear();
  out->reserve(static_cast<size_t>(n));
  uint64_t value = static_cast<uint64_t>(first);
  auto emit = [&](uint64_t v) {
    out->push_back(is_int32 ? static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v)))
                            : static_cast<int64_t>(v));
  };
  if (total > 0) emit(value);
  uint64_t remaining = total > 0 ? total - 1 : 0;
  std::vector<uint8_t> widths(static_cast<size_t>(miniblocks));
  while (remaining > 0) {
    int64_t min_delta;
    if (!ReadZigZag(data, size, &pos, &min_delta)) return Truncated("DELTA_BINARY_PACKED");
    if (miniblocks > size - pos) return Truncated("DELTA_BINARY_PACKED");
    std::memcpy(widths.data(), data + pos, static_cast<size_t>(miniblocks));
    pos += static_cast<size_t>(miniblocks);
    for (uint64_t m = 0; m < miniblocks && remaining > 0; ++m) {
      int w = widths[m];
      if (w > (is_int32 ? 32 : 64)) return Status::InvalidData("DELTA_BINARY_PACKED bit width {}", w);
      uint64_t bytes = per_mini * static_cast<uint64_t>(w) / 8;
      uint64_t count = std::min(per_mini, remaining);
      // Only the values actually present must be inside the data; padding may be cut.
      uint64_t need = (count * static_cast<uint64_t>(w) + 7) / 8;
      if (need > size - pos) return Truncated("DELTA_BINARY_PACKED");
      const uint8_t* base = data + pos;
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t packed = w == 0 ? 0 : UnpackOne(base, static_cast<int64_t>(i), w);
        value += static_cast<uint64_t>(min_delta) + packed;
        if (is_int32) value = static_cast<uint32_t>(value);
        emit(value);
      }
      remaining -= count;
      pos += static_cast<size_t>(std::min<uint64_t>(bytes, size - pos));
    }
  }
  if (static_cast<int64_t>(out->size()) > n) out->resize(static_cast<size_t>(n));
  *consumed = pos;
  return Status::OK();
}

Status DecodeDeltaLengthByteArray(const uint8_t* data, size_t size, int64_t n,
                                  std::vector<std::string_view>* out) {
  std::vector<int64_t> lengths;
  size_t consumed = 0;
  EPOXY_RETURN_NOT_OK(DecodeDeltaBinaryPacked(data, size, n, true, &lengths, &consumed));
  size_t pos = consumed;
  out->clear();
  out->reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t len = lengths[static_cast<size_t>(i)];
    if (len < 0 || static_cast<uint64_t>(len) > size - pos) return Truncated("DELTA_LENGTH_BYTE_ARRAY");
    out->emplace_back(reinterpret_cast<const char*>(data + pos), static_cast<size_t>(len));
    pos += static_cast<size_t>(len);
  }
  return Status::OK();
}

Status DecodeDeltaByteArray(const uint8_t* data, size_t size, int64_t n,
                            std::vector<std::string_view>* out, std::string* storage) {
  std::vector<int64_t> prefixes;
  size_t consumed = 0;
  EPOXY_RETURN_NOT_OK(DecodeDeltaBinaryPacked(data, size, n, true, &prefixes, &consumed));
  std::vector<std::string_view> suffixes;
  EPOXY_RETURN_NOT_OK(DecodeDeltaLengthByteArray(data + consumed, size - consumed, n, &suffixes));
  // Rebuild every value into one string first (views are taken after, so growth cannot move them).
  std::vector<std::pair<size_t, size_t>> spans;
  spans.reserve(static_cast<size_t>(n));
  storage->clear();
  size_t prev_start = 0, prev_len = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t prefix = prefixes[static_cast<size_t>(i)];
    if (prefix < 0 || static_cast<size_t>(prefix) > prev_len) {
      return Status::InvalidData("DELTA_BYTE_ARRAY prefix {} is longer than the previous value", prefix);
    }
    size_t start = storage->size();
    storage->append(*storage, prev_start, static_cast<size_t>(prefix));
    storage->append(suffixes[static_cast<size_t>(i)]);
    prev_start = start;
    prev_len = storage->size() - start;
    spans.emplace_back(start, prev_len);
  }
  out->clear();
  for (const auto& [start, len] : spans) out->emplace_back(storage->data() + start, len);
  return Status::OK();
}

Status DecodeByteStreamSplit(const uint8_t* data, size_t size, int64_t n, int width, uint8_t* out) {
  uint64_t need = static_cast<uint64_t>(n) * static_cast<uint64_t>(width);
  if (need > size) return Truncated("BYTE_STREAM_SPLIT");
  // Streams are laid out over the whole page: stream j starts at j * (size / width).
  uint64_t stride = size / static_cast<uint64_t>(width);
  for (int64_t i = 0; i < n; ++i) {
    for (int j = 0; j < width; ++j) {
      out[static_cast<uint64_t>(i) * width + j] = data[j * stride + static_cast<uint64_t>(i)];
    }
  }
  return Status::OK();
}

void RleEncoder::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void RleEncoder::FlushRepeat() {
  WriteVarint(static_cast<uint64_t>(repeat_count_) << 1);
  int bytes = (bit_width_ + 7) / 8;
  for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<char>((repeat_value_ >> (8 * i)) & 0xFF));
  repeat_count_ = 0;
}

void RleEncoder::FlushLiterals(bool final) {
  // Emits the pending literals as one bit-packed run (padded to a group of 8 at the end).
  if (literals_.empty()) return;
  if (final) {
    while (literals_.size() % 8 != 0) literals_.push_back(0);
  }
  size_t groups = literals_.size() / 8;
  WriteVarint((static_cast<uint64_t>(groups) << 1) | 1);
  // Pack LSB first through a 64-bit accumulator (bit_width_ <= 32, so it never overflows).
  uint64_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < groups * 8; ++i) {
    acc |= static_cast<uint64_t>(literals_[i]) << bits;
    bits += bit_width_;
    while (bits >= 8) {
      out_.push_back(static_cast<char>(acc & 0xFF));
      acc >>= 8;
      bits -= 8;
    }
  }
  // groups * 8 values of bit_width_ bits always end on a byte boundary.
  literals_.erase(literals_.begin(), literals_.begin() + static_cast<std::ptrdiff_t>(groups * 8));
}

void RleEncoder::EndRun() {
  if (repeat_count_ == 0) return;
  // Literals must fill whole groups of 8 before an RLE run: top them up from the run.
  while (!literals_.empty() && literals_.size() % 8 != 0 && repeat_count_ > 0) {
    literals_.push_back(repeat_value_);
    --repeat_count_;
  }
  if (repeat_count_ >= 8) {
    FlushLiterals(false);
    FlushRepeat();
    return;
  }
  for (int64_t i = 0; i < repeat_count_; ++i) literals_.push_back(repeat_value_);
  repeat_count_ = 0;
  if (literals_.size() >= 504) FlushLiterals(false);  // keep runs to a one-byte header
}

void RleEncoder::Put(uint32_t value) {
  if (repeat_count_ > 0 && value == repeat_value_) {
    ++repeat_count_;
    return;
  }
  EndRun();
  repeat_value_ = value;
  repeat_count_ = 1;
}

void RleEncoder::PutRun(uint32_t value, int64_t count) {
  if (count <= 0) return;
  if (repeat_count_ > 0 && value == repeat_value_) {
    repeat_count_ += count;
    return;
  }
  EndRun();
  repeat_value_ = value;
  repeat_count_ = count;
}

namespace {
/// The end of the run of equal values starting at i; compares eight bytes at a time, since
/// definition levels are mostly one long run.
template <typename T>
int64_t RunEnd(const T* values, int64_t i, int64_t n) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4);
  const T v = values[i];
  uint64_t pattern = static_cast<std::make_unsigned_t<T>>(v);
  for (size_t width = sizeof(T) * 8; width < 64; width *= 2) pattern |= pattern << width;
  constexpr int64_t kPerWord = 8 / sizeof(T);
  int64_t j = i + 1;
  while (j + kPerWord <= n) {
    uint64_t word;
    std::memcpy(&word, values + j, 8);
    if (word != pattern) break;
    j += kPerWord;
  }
  while (j < n && values[j] == v) ++j;
  return j;
}
}  // namespace

template <typename T>
void RleEncoder::PutRuns(const T* values, int64_t n) {
  int64_t i = 0;
  while (i < n) {
    const T v = values[i];
    const int64_t j = RunEnd(values, i, n);
    if (j - i >= 8 || (repeat_count_ > 0 && static_cast<uint32_t>(v) == repeat_value_)) {
      PutRun(static_cast<uint32_t>(v), j - i);
    } else {
      // Too short for a run of its own: straight into the literals.
      EndRun();
      literals_.insert(literals_.end(), values + i, values + j);
      if (literals_.size() >= 504) FlushLiterals(false);  // keep runs to a one-byte header
    }
    i = j;
  }
}

void RleEncoder::PutAll(const int16_t* values, int64_t n) { PutRuns(values, n); }
void RleEncoder::PutAll(const uint32_t* values, int64_t n) { PutRuns(values, n); }

std::string RleEncoder::Finish() {
  EndRun();
  FlushLiterals(true);
  std::string out = std::move(out_);
  out_.clear();
  return out;
}

}  // namespace epoxy::parquet
