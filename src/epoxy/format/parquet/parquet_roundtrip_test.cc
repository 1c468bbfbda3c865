// SPDX-License-Identifier: Apache-2.0
// Writer and reader against each other: every type, nulls at every level, nesting, every codec,
// several row groups, projection and row-group pruning.
#include <gtest/gtest.h>

#include "epoxy/format/parquet/page_codec.h"
#include "epoxy/format/parquet/parquet_reader.h"
#include "epoxy/format/parquet/parquet_writer.h"
#include "epoxy/storage/local_file_system.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::parquet {
namespace {

using ::epoxy::testing::ReadPaths;
using ::epoxy::testing::ReadText;
using ::epoxy::testing::TempDir;

/// Reads JSON Lines text into batches (the adaptive builders give nested types and nulls).
std::vector<BatchPtr> JsonBatches(std::string_view text) {
  TempDir dir;
  std::string path = dir.Write("in.json", text);
  ErrorSink errors;
  ReadOptions options;
  options.errors = &errors;
  auto reader = *MakeRecordReader(FileFormat::kJson, {*LocalFileSystem().GetFileInfo(path)}, options);
  std::vector<BatchPtr> out;
  while (auto batch = *reader->Next()) out.push_back(batch);
  return out;
}

Status WriteFile(const std::string& path, const std::vector<BatchPtr>& batches,
                 ParquetWriteOptions options = {}) {
  LocalFileSystem fs;
  EPOXY_ASSIGN_OR_RETURN(auto sink, fs.OpenForWrite(path));
  EPOXY_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(std::move(sink), batches[0]->schema(), options));
  for (const auto& b : batches) EPOXY_RETURN_NOT_OK(writer->Write(*b));
  return writer->Close();
}

std::vector<std::string> Lines(const std::vector<BatchPtr>& batches) {
  std::vector<std::string> out;
  for (const auto& b : batches) {
    for (auto& l : testing::ToJsonLines(*b)) out.push_back(std::move(l));
  }
  return out;
}

const char kNested[] =
    R"({"id":1,"name":"a","tags":["x","y"],"attrs":{"k":"v","n":null},"score":1.5,"ok":true,"deep":[[1,2],[],null]}
{"id":2,"name":null,"tags":[],"attrs":null,"score":null,"ok":false,"deep":null}
{"id":null,"name":"c","tags":null,"attrs":{"k":null,"n":7},"score":-0.25,"ok":null,"deep":[[3]]}
{"id":4,"name":"","tags":[null,"z"],"attrs":{"k":"w","n":8},"score":1e300,"ok":true,"deep":[null,[null,5]]}
)";

TEST(ParquetRoundTripTest, NestedValuesAndNullsAtEveryLevel) {
  TempDir dir;
  auto batches = JsonBatches(kNested);
  std::string path = dir.path() + "/nested.parquet";
  ASSERT_OK(WriteFile(path, batches));
  auto out = ReadPaths(FileFormat::kParquet, {path});
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  EXPECT_EQ(out.rows, Lines(batches));
  EXPECT_EQ(out.schema->ToString(), batches[0]->schema()->ToString());
}

TEST(ParquetRoundTripTest, EveryScalarType) {
  TempDir dir;
  std::string csv = "b,i8,i16,i32,i64,f,d,dec,big,s,dt,ts\n";
  for (int i = 0; i < 3000; ++i) {
    csv += fmt::format("{},{},{},{},{},{},{},{}.{:02},{}12345678901234567890.5,s{},2026-08-{:02},2026-08-17 09:{:02}:00.25\n",
                       i % 2 ? "true" : "false", i % 100 - 50, i * 3, i * 100000, int64_t{i} * 10000000000LL,
                       i / 4.0, i / 3.0, i, i % 100, i % 10, i, i % 28 + 1, i % 60);
  }
  csv += ",,,,,,,,,,,\n";  // a row of nulls
  std::string csv_path = dir.Write("in.csv", csv);
  auto read = ReadPaths(FileFormat::kCsv, {csv_path});
  ASSERT_TRUE(read.status.ok());
  // Narrow some columns so that every Glue type is written.
  ErrorSink errors;
  ReadOptions options;
  options.errors = &errors;
  auto reader = *MakeRecordReader(FileFormat::kCsv, {*LocalFileSystem().GetFileInfo(csv_path)}, options);
  std::vector<BatchPtr> batches;
  while (auto b = *reader->Next()) batches.push_back(b);
  ASSERT_EQ(batches[0]->schema()->ToString(),
            "b: boolean\ni8: int\ni16: int\ni32: int\ni64: bigint\nf: double\nd: decimal(19,16)\n"
            "dec: double\nbig: decimal(22,1)\ns: string\ndt: date\nts: timestamp\n");
  for (const char* codec : {"snappy", "zstd", "gzip", "none", "lz4_raw", "brotli"}) {
    ParquetWriteOptions wo;
    wo.codec = *ParseCodecName(codec);
    wo.row_group_bytes = 4096;  // several row groups
    wo.page_rows = 100;         // several pages per chunk
    std::string path = dir.path() + "/types_" + codec + ".parquet";
    ASSERT_OK(WriteFile(path, batches, wo));
    auto out = ReadPaths(FileFormat::kParquet, {path});
    ASSERT_TRUE(out.status.ok()) << codec << ": " << out.status.ToString();
    EXPECT_EQ(out.rows, Lines(batches)) << codec;
    auto file = ParquetFile::Open(path);
    ASSERT_TRUE(file.ok());
    EXPECT_GT((*file)->num_row_groups(), 1) << codec;
    EXPECT_EQ(*(*file)->metadata().created_by, CreatedBy());
  }
}

TEST(ParquetRoundTripTest, ProjectionReadsOnlyAskedColumns) {
  TempDir dir;
  auto batches = JsonBatches(kNested);
  std::string path = dir.path() + "/p.parquet";
  ASSERT_OK(WriteFile(path, batches));
  auto out = ReadPaths(FileFormat::kParquet, {path}, {{"columns", "score,id"}});
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.schema->ToString(), "score: double\nid: bigint\n");
  EXPECT_EQ(out.rows[0], R"({"score":1.5,"id":1})");
  auto missing = ReadPaths(FileFormat::kParquet, {path}, {{"columns", "nope"}});
  EXPECT_EQ(missing.status.code(), StatusCode::kInvalidInput);
  EXPECT_NE(missing.status.message().find("columns: id, name"), std::string::npos);
}

TEST(ParquetRoundTripTest, BytesReadCountOnlyTheChunksRead) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 3000; ++i) text += fmt::format("{{\"n\":{},\"wide\":\"{}{}\"}}\n", i, i, std::string(200, char('a' + i % 26)));
  std::string path = dir.path() + "/wide.parquet";
  ParquetWriteOptions wo;
  wo.codec = Codec::kUncompressed;
  ASSERT_OK(WriteFile(path, JsonBatches(text), wo));
  auto file = *ParquetFile::Open(path);
  int64_t chunks = 0;
  for (int g = 0; g < file->num_row_groups(); ++g) chunks += file->ChunkBytes(g, {0});
  ErrorSink errors;
  ReadCounters counters;
  ReadOptions options;
  options.errors = &errors;
  options.counters = &counters;
  options.format_options = {{"columns", "n"}};
  const FileInfo info = *LocalFileSystem().GetFileInfo(path);
  auto reader = *MakeParquetReader({info}, options);
  while (auto b = *reader->Next()) {
  }
  // The footer and the chunks of n: a small part of a file that is mostly the wide column.
  EXPECT_EQ(counters.bytes_read.load(), file->footer_bytes() + chunks);
  EXPECT_LT(counters.bytes_read.load(), info.size / 10);
}

TEST(ParquetRoundTripTest, RowGroupsWithTooManyStringBytesAreCutIntoRanges) {
  TempDir dir;
  std::string more = kNested;
  for (int i = 0; i < 200; ++i) {
    more += fmt::format("{{\"id\":{},\"name\":\"{}\",\"tags\":[\"{}\",null],\"attrs\":{{\"k\":\"{}\",\"n\":{}}},\"score\":{},\"ok\":{},\"deep\":[[{}],[]]}}\n",
                        i, std::string(static_cast<size_t>(i % 50), 'n'), i, i % 3 == 0 ? "" : "kk", i, i * 0.5, i % 2 ? "true" : "false", i);
  }
  std::string path = dir.path() + "/ranges.parquet";
  ASSERT_OK(WriteFile(path, JsonBatches(more)));
  auto file = *ParquetFile::Open(path);
  ASSERT_EQ(file->num_row_groups(), 1);
  std::vector<int> fields;
  for (size_t i = 0; i < file->schema().fields.size(); ++i) fields.push_back(static_cast<int>(i));
  ThreadPool pool(2);
  auto whole = *file->ReadRowGroup(0, fields, true, &pool);
  auto cut = *file->ReadRowGroup(0, fields, true, &pool, 300);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_GT(cut.size(), 5u);
  auto schema = Schema::Make(file->schema().schema->fields());
  auto lines = [&](const std::vector<std::vector<ArrayPtr>>& ranges) {
    std::vector<std::string> out;
    for (const auto& arrays : ranges) {
      auto batch = Batch::Make(schema, arrays, arrays[0]->length());
      for (auto& l : testing::ToJsonLines(*batch)) out.push_back(std::move(l));
    }
    return out;
  };
  EXPECT_EQ(lines(cut), lines(whole));
  EXPECT_EQ(lines(whole).size(), 204u);
}

TEST(ParquetRoundTripTest, RowGroupsArePrunedByStatistics) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 4000; ++i) text += fmt::format("{{\"n\":{},\"day\":\"2026-08-{:02}\"}}\n", i, i / 1000 + 1);
  auto batches = JsonBatches(text);
  std::string path = dir.path() + "/pruned.parquet";
  ParquetWriteOptions wo;
  wo.row_group_bytes = 8 << 10;
  ASSERT_OK(WriteFile(path, batches, wo));
  auto file = ParquetFile::Open(path);
  ASSERT_TRUE(file.ok());
  int groups = (*file)->num_row_groups();
  ASSERT_GT(groups, 3);
  ErrorSink errors;
  ReadOptions options;
  options.errors = &errors;
  auto predicate = Predicate::And({Predicate::Compare("n", Predicate::Op::kGe, int64_t{3500}),
                                   Predicate::Compare("day", Predicate::Op::kEq, std::string("2026-08-04"))});
  auto reader = *MakeParquetReader({*LocalFileSystem().GetFileInfo(path)}, options, predicate);
  int64_t rows = 0;
  while (auto b = *reader->Next()) rows += b->num_rows();
  // Only the row groups holding n >= 3500 are read (whole row groups, so a little more).
  EXPECT_GE(rows, 500);
  EXPECT_LT(rows, 4000 / groups * 2 + 600);
  auto stats = (*file)->RowGroupStats(0, 0);
  ASSERT_NE(stats, nullptr);
  EXPECT_TRUE(stats->has_bounds);
  EXPECT_EQ(std::get<int64_t>(stats->min), 0);
}

TEST(ParquetRoundTripTest, EmptyFileKeepsItsSchema) {
  TempDir dir;
  std::string csv = dir.Write("h.csv", "a,b\n");
  auto read = ReadPaths(FileFormat::kCsv, {csv});
  ErrorSink errors;
  ReadOptions options;
  options.errors = &errors;
  auto reader = *MakeRecordReader(FileFormat::kCsv, {*LocalFileSystem().GetFileInfo(csv)}, options);
  std::vector<BatchPtr> batches{*reader->Next()};
  ASSERT_NE(batches[0], nullptr);
  std::string path = dir.path() + "/empty.parquet";
  ASSERT_OK(WriteFile(path, batches));
  auto out = ReadPaths(FileFormat::kParquet, {path});
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  EXPECT_TRUE(out.rows.empty());
  EXPECT_EQ(out.schema->ToString(), "a: string\nb: string\n");
}

TEST(ParquetRoundTripTest, DictionaryFallsBackToPlain) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 30000; ++i) text += fmt::format("{{\"u\":\"unique-{}\",\"r\":\"v{}\"}}\n", i, i % 3);
  auto batches = JsonBatches(text);
  std::string path = dir.path() + "/dict.parquet";
  ASSERT_OK(WriteFile(path, batches));
  auto file = ParquetFile::Open(path);
  ASSERT_TRUE(file.ok());
  const auto& cols = (*file)->metadata().row_groups[0].columns;
  EXPECT_FALSE(cols[0].meta_data->dictionary_page_offset.has_value());  // unique: PLAIN
  EXPECT_TRUE(cols[1].meta_data->dictionary_page_offset.has_value());   // repeating: dictionary
  auto out = ReadPaths(FileFormat::kParquet, {path});
  EXPECT_EQ(out.rows, Lines(batches));
}

}  // namespace
}  // namespace epoxy::parquet
