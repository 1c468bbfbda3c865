// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/parquet/encoding.h"

#include <random>

#include <gtest/gtest.h>

namespace epoxy::parquet {
namespace {

std::vector<uint32_t> RoundTrip(const std::vector<uint32_t>& values, int width, bool bulk = false) {
  RleEncoder enc(width);
  if (bulk) {
    // In pieces, so that runs continue across calls.
    for (size_t at = 0; at < values.size(); at += 37) {
      enc.PutAll(values.data() + at, static_cast<int64_t>(std::min<size_t>(37, values.size() - at)));
    }
  } else {
    for (uint32_t v : values) enc.Put(v);
  }
  std::string bytes = enc.Finish();
  std::vector<uint32_t> out(values.size());
  RleDecoder dec(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), width);
  EXPECT_TRUE(dec.Decode(out.data(), static_cast<int64_t>(out.size())).ok());
  // Again in pieces of 5, so reads start inside groups of 8 too.
  std::vector<uint32_t> pieces(values.size());
  RleDecoder again(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), width);
  for (size_t at = 0; at < pieces.size(); at += 5) {
    EXPECT_TRUE(again.Decode(pieces.data() + at, static_cast<int64_t>(std::min<size_t>(5, pieces.size() - at))).ok());
  }
  EXPECT_EQ(pieces, out) << "decoded in pieces, width " << width;
  return out;
}

TEST(EncodingTest, RleHybridRoundTrips) {
  std::mt19937 rng(7);
  for (int width = 1; width <= 32; ++width) {
    std::vector<uint32_t> values;
    uint32_t mask = width == 32 ? 0xFFFFFFFFu : (1u << width) - 1;
    for (int run = 0; run < 200; ++run) {
      uint32_t v = rng() & mask;
      int len = static_cast<int>(rng() % 30) + 1;  // short and long runs mixed
      for (int i = 0; i < len; ++i) values.push_back(rng() % 3 == 0 ? (rng() & mask) : v);
    }
    EXPECT_EQ(RoundTrip(values, width), values) << "width " << width;
    EXPECT_EQ(RoundTrip(values, width, /*bulk=*/true), values) << "bulk, width " << width;
  }
}

TEST(EncodingTest, BulkLevelsMatchOneByOne) {
  std::mt19937 rng(11);
  std::vector<int16_t> levels;
  for (int run = 0; run < 500; ++run) {
    int16_t v = static_cast<int16_t>(rng() % 3);
    int len = run % 5 == 0 ? static_cast<int>(rng() % 2000) : static_cast<int>(rng() % 9) + 1;
    levels.insert(levels.end(), static_cast<size_t>(len), v);
  }
  RleEncoder one(2), bulk(2);
  for (int16_t v : levels) one.Put(static_cast<uint32_t>(v));
  bulk.PutAll(levels.data(), static_cast<int64_t>(levels.size()));
  std::string bytes = bulk.Finish();
  std::vector<uint32_t> out(levels.size());
  RleDecoder dec(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 2);
  ASSERT_TRUE(dec.Decode(out.data(), static_cast<int64_t>(out.size())).ok());
  for (size_t i = 0; i < levels.size(); ++i) ASSERT_EQ(out[i], static_cast<uint32_t>(levels[i])) << i;
  EXPECT_LE(bytes.size(), one.Finish().size() + 8);  // no worse than value by value
}

TEST(EncodingTest, KnownBytesFromTheSpecification) {
  // Bit-packed 0..7 at width 3 (one group): 88 C6 FA.
  const uint8_t packed[] = {0x03, 0x88, 0xC6, 0xFA};  // header 3 = one group, bit-packed
  std::vector<uint32_t> out(8);
  RleDecoder dec(packed, sizeof(packed), 3);
  ASSERT_TRUE(dec.Decode(out.data(), 8).ok());
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Legacy BIT_PACKED, most significant bit first: 05 39 77.
  const uint8_t legacy[] = {0x05, 0x39, 0x77};
  ASSERT_TRUE(DecodeBitPackedLegacy(legacy, sizeof(legacy), 3, 8, out.data()).ok());
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(EncodingTest, TruncatedRunsAreErrors) {
  const uint8_t rle[] = {0x10};  // a run of 8 with no value byte
  std::vector<uint32_t> out(8);
  RleDecoder dec(rle, sizeof(rle), 8);
  EXPECT_FALSE(dec.Decode(out.data(), 8).ok());
  RleDecoder empty(nullptr, 0, 1);
  EXPECT_FALSE(empty.Decode(out.data(), 1).ok());
}

TEST(EncodingTest, DeltaBinaryPacked) {
  // block 128, 4 miniblocks, 5 values, first 1; min delta 1; widths 1,0,0,0; deltas 0,1,0,1.
  std::vector<uint8_t> bytes = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x01, 0x00, 0x00, 0x00};
  bytes.push_back(0x0A);  // bits 0,1,0,1 LSB first -> 0b1010
  bytes.resize(bytes.size() + 3, 0);
  std::vector<int64_t> values;
  size_t consumed = 0;
  ASSERT_TRUE(DecodeDeltaBinaryPacked(bytes.data(), bytes.size(), 5, false, &values, &consumed).ok());
  EXPECT_EQ(values, (std::vector<int64_t>{1, 2, 4, 5, 7}));
  EXPECT_FALSE(DecodeDeltaBinaryPacked(bytes.data(), 3, 5, false, &values, &consumed).ok());
}

TEST(EncodingTest, ByteStreamSplit) {
  // Two 4-byte values: stream j holds byte j of each value.
  const uint8_t data[] = {1, 5, 2, 6, 3, 7, 4, 8};
  uint8_t out[8];
  ASSERT_TRUE(DecodeByteStreamSplit(data, 8, 2, 4, out).ok());
  EXPECT_EQ(std::vector<uint8_t>(out, out + 8), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

}  // namespace
}  // namespace epoxy::parquet
