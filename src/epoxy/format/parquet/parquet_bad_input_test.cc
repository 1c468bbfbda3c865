// SPDX-License-Identifier: Apache-2.0
// Corrupt Parquet files give clear errors naming the file and the problem, never a crash or an
// unbounded allocation.
#include <gtest/gtest.h>

#include "epoxy/format/parquet/metadata.h"
#include "epoxy/format/parquet/parquet_reader.h"
#include "epoxy/format/parquet/parquet_writer.h"
#include "epoxy/storage/local_file_system.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::parquet {
namespace {

using ::epoxy::testing::ReadPaths;
using ::epoxy::testing::TempDir;

/// A small valid file's bytes.
std::string ValidFile(const TempDir& dir, const std::string& rows_json) {
  std::string in = dir.Write("in.json", rows_json);
  ErrorSink errors;
  ReadOptions options;
  options.errors = &errors;
  auto reader = *MakeRecordReader(FileFormat::kJson, {*LocalFileSystem().GetFileInfo(in)}, options);
  BatchPtr batch = *reader->Next();
  std::string path = dir.path() + "/valid.parquet";
  LocalFileSystem fs;
  auto writer = *ParquetWriter::Open(*fs.OpenForWrite(path), batch->schema(), {});
  EXPECT_TRUE(writer->Write(*batch).ok());
  EXPECT_TRUE(writer->Close().ok());
  return *ReadWholeFile(fs, path);
}

Status ReadBytes(const TempDir& dir, const std::string& bytes) {
  std::string path = dir.Write("bad.parquet", bytes);
  auto out = ReadPaths(FileFormat::kParquet, {path});
  if (out.status.ok()) return Status::OK();
  EXPECT_NE(out.status.message().find("bad.parquet"), std::string::npos) << out.status.ToString();
  return out.status;
}

TEST(ParquetBadInputTest, TruncatedMagicAndFooter) {
  TempDir dir;
  std::string good = ValidFile(dir, "{\"a\":1,\"s\":\"x\"}\n{\"a\":2,\"s\":\"y\"}\n");
  EXPECT_TRUE(ReadBytes(dir, good).ok());
  EXPECT_EQ(ReadBytes(dir, good.substr(0, good.size() / 2)).code(), StatusCode::kInvalidData);
  EXPECT_EQ(ReadBytes(dir, "PAR1").code(), StatusCode::kInvalidData);
  std::string wrong_magic = good;
  wrong_magic[wrong_magic.size() - 1] = 'X';
  EXPECT_NE(ReadBytes(dir, wrong_magic).message().find("not a Parquet file"), std::string::npos);
  std::string long_footer = good;
  uint32_t huge = 0x7FFFFFFF;
  std::memcpy(&long_footer[long_footer.size() - 8], &huge, 4);
  EXPECT_NE(ReadBytes(dir, long_footer).message().find("footer length"), std::string::npos);
  std::string encrypted = good;
  encrypted.replace(encrypted.size() - 4, 4, "PARE");
  Status st = ReadBytes(dir, encrypted);
  EXPECT_EQ(st.code(), StatusCode::kNotSupported);
  EXPECT_NE(st.message().find("encrypted"), std::string::npos);
}

TEST(ParquetBadInputTest, EveryFlippedByteGivesAnErrorOrData) {
  // Corrupting any single byte must never crash or hang; it either still reads or fails cleanly.
  TempDir dir;
  std::string good = ValidFile(dir, "{\"a\":1,\"s\":\"x\",\"l\":[1,2]}\n{\"a\":2,\"s\":\"y\",\"l\":null}\n");
  for (size_t i = 0; i < good.size(); ++i) {
    for (uint8_t delta : {0x01, 0x80, 0xFF}) {
      std::string bad = good;
      bad[i] = static_cast<char>(static_cast<uint8_t>(bad[i]) ^ delta);
      (void)ReadBytes(dir, bad);
    }
  }
}

TEST(ParquetBadInputTest, ANestedPageStartingInsideARecordIsCorrupt) {
  TempDir dir;
  std::string rows;
  for (int i = 0; i < 10; ++i) rows += fmt::format("{{\"l\":[{}]}}\n", i);
  std::string in = dir.Write("in.json", rows);
  ErrorSink errors;
  ReadOptions read;
  read.errors = &errors;
  BatchPtr batch = *(*MakeRecordReader(FileFormat::kJson, {*LocalFileSystem().GetFileInfo(in)}, read))->Next();
  std::string path = dir.path() + "/nested.parquet";
  LocalFileSystem fs;
  ParquetWriteOptions options;
  options.codec = Codec::kUncompressed;
  auto writer = *ParquetWriter::Open(*fs.OpenForWrite(path), batch->schema(), options);
  ASSERT_OK(writer->Write(*batch));
  ASSERT_OK(writer->Close());
  std::string bytes = *ReadWholeFile(fs, path);
  // The data page's repetition levels: a u32 length, then one RLE run of ten 0s (header 10 << 1,
  // value 0). Making the value 1 starts the chunk inside a record.
  auto file = *ParquetFile::Open(path);
  const int64_t offset = *&file->metadata().row_groups[0].columns[0].meta_data->data_page_offset;
  size_t header_size = 0;
  auto header = DecodePageHeader(reinterpret_cast<const uint8_t*>(bytes.data()) + offset, bytes.size() - static_cast<size_t>(offset), &header_size);
  ASSERT_TRUE(header.ok());
  ASSERT_EQ(header->type, static_cast<int32_t>(PageType::kDataPage));
  const size_t levels = static_cast<size_t>(offset) + header_size + 4;
  ASSERT_EQ(static_cast<uint8_t>(bytes[levels]), 10 << 1);
  ASSERT_EQ(bytes[levels + 1], 0);
  bytes[levels + 1] = 1;
  std::string bad = dir.Write("bad.parquet", bytes);
  auto out = ReadPaths(FileFormat::kParquet, {bad}, {{"verifyChecksums", "false"}});
  ASSERT_EQ(out.status.code(), StatusCode::kInvalidData) << out.status.ToString();
  for (const char* part : {"bad.parquet", "'element'", "page 1", "begins inside a record that was never started"}) {
    EXPECT_NE(out.status.message().find(part), std::string::npos) << part << " in " << out.status.ToString();
  }
}

TEST(ParquetBadInputTest, PageClaimingAHugeSizeIsRefusedBeforeInflating) {
  // Rewrite the first page header to claim 2 GiB uncompressed.
  TempDir dir;
  std::string good = ValidFile(dir, "{\"s\":\"aaaaaaaaaaaaaaaaaaaa\"}\n");
  size_t header_size = 0;
  auto header = DecodePageHeader(reinterpret_cast<const uint8_t*>(good.data()) + 4, good.size() - 4, &header_size);
  ASSERT_TRUE(header.ok());
  PageHeader bomb = *header;
  bomb.uncompressed_page_size = 0x7FFFFFF0;
  std::string encoded = EncodePageHeader(bomb);
  std::string bad = good.substr(0, 4) + encoded + good.substr(4 + header_size);
  SetProcessMemoryLimit(1 << 30);
  Status st = ReadBytes(dir, bad);
  SetProcessMemoryLimit(0);
  EXPECT_FALSE(st.ok());
}

TEST(ParquetBadInputTest, AValueLargerThanTheMemoryLimit) {
  TempDir dir;
  std::string big(8 << 20, 'x');
  std::string good = ValidFile(dir, "{\"s\":\"" + big + "\"}\n");
  std::string path = dir.Write("big.parquet", good);
  EXPECT_TRUE(ReadPaths(FileFormat::kParquet, {path}).status.ok());
  SetProcessMemoryLimit(4 << 20);
  auto out = ReadPaths(FileFormat::kParquet, {path});
  SetProcessMemoryLimit(0);
  EXPECT_EQ(out.status.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(out.status.message().find("exceeds the memory limit"), std::string::npos);
}

}  // namespace
}  // namespace epoxy::parquet
