// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/compression.h"

#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

using ::epoxy::testing::ReadText;
using ::testing::ElementsAre;

std::string Gzip(std::string_view data) {
  z_stream s{};
  deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&s, data.size()) + 64, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  s.avail_in = static_cast<uInt>(data.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  deflate(&s, Z_FINISH);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

std::string Zstd(std::string_view data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3));
  return out;
}

std::string Bzip2(std::string_view data) {
  std::string out(data.size() * 2 + 600, '\0');
  unsigned size = static_cast<unsigned>(out.size());
  BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(data.data()),
                           static_cast<unsigned>(data.size()), 9, 0, 0);
  out.resize(size);
  return out;
}

std::string ManyLines(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += "{\"i\":" + std::to_string(i) + "}\n";
  return out;
}

TEST(CompressionTest, DetectsByMagicThenExtension) {
  EXPECT_EQ(DetectCompression("x.json", Gzip("a")), Compression::kGzip);
  EXPECT_EQ(DetectCompression("x", Zstd("a")), Compression::kZstd);
  EXPECT_EQ(DetectCompression("x.csv", Bzip2("abc")), Compression::kBzip2);
  EXPECT_EQ(DetectCompression("x.gz", "plain"), Compression::kNone);  // content wins
  EXPECT_EQ(DetectCompression("x.gz", ""), Compression::kGzip);
}

TEST(CompressionTest, ReadsEveryCodecAcrossBlocks) {
  std::string text = ManyLines(20000);
  for (auto [name, data] : {std::pair<const char*, std::string>{"a.json.gz", Gzip(text)},
                            {"a.json.zst", Zstd(text)}, {"a.json.bz2", Bzip2(text)}}) {
    auto out = ReadText(FileFormat::kJson, data, {}, name, /*block_size=*/4096);
    ASSERT_TRUE(out.status.ok()) << name << ": " << out.status.ToString();
    EXPECT_TRUE(out.errors.empty()) << name;
    ASSERT_EQ(out.rows.size(), 20000u) << name;
    EXPECT_EQ(out.rows[12345], R"({"i":12345})") << name;
    EXPECT_GT(out.num_batches, 10) << name;  // split into many blocks, parsed in parallel
  }
}

TEST(CompressionTest, ConcatenatedGzipMembersAllRead) {
  auto out = ReadText(FileFormat::kJson, Gzip("{\"a\":1}\n") + Gzip("{\"a\":2}\n"), {}, "x.gz");
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":1})", R"({"a":2})"));
}

TEST(CompressionTest, TruncatedStreamsAreReportedByName) {
  std::string text = ManyLines(5000);
  for (auto [name, data] : {std::pair<const char*, std::string>{"t.json.gz", Gzip(text)},
                            {"t.json.zst", Zstd(text)}, {"t.json.bz2", Bzip2(text)}}) {
    std::string truncated = data.substr(0, data.size() / 2);
    auto out = ReadText(FileFormat::kJson, truncated, {}, name);
    ASSERT_TRUE(out.status.ok()) << out.status.ToString();
    ASSERT_EQ(out.errors.size(), 1u) << name;
    EXPECT_NE(out.errors[0].reason.find("truncated"), std::string::npos) << out.errors[0].reason;
    EXPECT_NE(out.errors[0].path.find(name), std::string::npos);
  }
}

TEST(CompressionTest, GarbageAfterMagicIsCorruptNotACrash) {
  std::string data = "\x1f\x8b\x08\x00garbage garbage garbage";
  auto out = ReadText(FileFormat::kCsv, data, {}, "bad.csv.gz");
  ASSERT_TRUE(out.status.ok());
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_NE(out.errors[0].reason.find("gzip"), std::string::npos);
}

}  // namespace
}  // namespace epoxy
