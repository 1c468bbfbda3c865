// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/csv/csv_reader.h"

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

using ::epoxy::testing::ReadOutcome;
using ::epoxy::testing::ReadText;
using ::epoxy::testing::TempDir;
using ::testing::ElementsAre;

ReadOutcome Csv(std::string_view text, const FormatOptions& options = {},
                int64_t block_size = 8 << 20) {
  return ReadText(FileFormat::kCsv, text, options, "input.csv", block_size);
}

TEST(CsvReaderTest, HeaderTypesAndNulls) {
  auto out = Csv("id,name,score,day\n1,\"a\",1.5,2026-08-17\n2,,,\n3,\"\",2,2026-08-18\n");
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  EXPECT_EQ(out.schema->ToString(), "id: int\nname: string\nscore: double\nday: date\n");
  EXPECT_THAT(out.rows,
              ElementsAre(R"({"id":1,"name":"a","score":1.5,"day":"2026-08-17"})",
                          R"({"id":2,"name":null,"score":null,"day":null})",
                          R"({"id":3,"name":"","score":2,"day":"2026-08-18"})"));
  EXPECT_TRUE(out.errors.empty());
}

TEST(CsvReaderTest, WithoutHeaderColumnsAreNumbered) {
  auto out = Csv("a,1\nb,2\n", {{"withHeader", "false"}});
  EXPECT_EQ(out.schema->ToString(), "col0: string\ncol1: int\n");
  EXPECT_EQ(out.rows.size(), 2u);
  auto detected = Csv("x,y\nz,w\n");  // all strings: no header (Glue's rule)
  EXPECT_EQ(detected.schema->ToString(), "col0: string\ncol1: string\n");
  EXPECT_EQ(detected.rows.size(), 2u);
}

TEST(CsvReaderTest, ShortRowsArePaddedLongRowsAreErrors) {
  auto out = Csv("a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":1,"b":2,"c":3})", R"({"a":4,"b":5,"c":null})",
                                    R"({"a":10,"b":11,"c":12})"));
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].line, 4);
  EXPECT_EQ(out.errors[0].reason, "record has 4 fields, the header has 3");
  EXPECT_NE(out.errors[0].path.find("input.csv"), std::string::npos);
}

TEST(CsvReaderTest, DriftBecomesAChoiceWithoutFailing) {
  std::string text = "user_id\n";
  for (int i = 0; i < 50; ++i) text += std::to_string(4000000000LL + i) + "\n";
  text += "N/A\n";
  auto out = Csv(text);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.schema->ToString(), "user_id: choice<bigint,string>\n");
  EXPECT_EQ(out.rows.back(), R"({"user_id":"N/A"})");
  EXPECT_EQ(out.rows.front(), R"({"user_id":4000000000})");
}

TEST(CsvReaderTest, ValueBeyondTheSampleDoesNotFailTheRead) {
  std::string text = "n\n";
  for (int i = 0; i < 2000; ++i) text += "1\n";
  text += "99999999999\n";  // past the 1000-row sample, does not fit int
  auto out = Csv(text);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.schema->ToString(), "n: choice<int,string>\n");
  EXPECT_EQ(out.rows.back(), R"({"n":"99999999999"})");
}

TEST(CsvReaderTest, ParallelSplitsKeepQuotedNewlines) {
  // Tiny blocks force many split points, several of them inside quoted fields.
  std::string text = "id,note\n";
  for (int i = 0; i < 500; ++i) text += std::to_string(i) + ",\"line one\nline, two \"\"q\"\"\"\n";
  auto out = Csv(text, {}, /*block_size=*/64);
  ASSERT_TRUE(out.status.ok());
  EXPECT_TRUE(out.errors.empty());
  ASSERT_EQ(out.rows.size(), 500u);
  EXPECT_GT(out.num_batches, 50);
  for (int i = 0; i < 500; ++i) {
    ASSERT_EQ(out.rows[i], "{\"id\":" + std::to_string(i) +
                               R"(,"note":"line one\nline, two \"q\""})");
  }
}

TEST(CsvReaderTest, OptionsSeparatorQuoteEscaperSkipFirst) {
  auto out = Csv("junk line\na|b\n'x|y'|\\'z\n",
                 {{"separator", "|"}, {"quoteChar", "'"}, {"escaper", "\\"}, {"skipFirst", "true"},
                  {"withHeader", "true"}});
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":"x|y","b":"'z"})"));
}

TEST(CsvReaderTest, SniffsSeparatorAndStripsTheByteOrderMark) {
  auto out = Csv("\xEF\xBB\xBFid;name\r\n1;Mark\r\n2;Hannes\r\n");
  EXPECT_EQ(out.schema->ToString(), "id: int\nname: string\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"id":1,"name":"Mark"})", R"({"id":2,"name":"Hannes"})"));
}

TEST(CsvReaderTest, InvalidUtf8RecordsAreErrors) {
  auto out = Csv("a,b\n1,ok\n2,bad\xff\xfe\n3,fine\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":1,"b":"ok"})", R"({"a":3,"b":"fine"})"));
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].line, 3);
  EXPECT_EQ(out.errors[0].reason, "invalid UTF-8");
}

TEST(CsvReaderTest, UnterminatedQuoteKeepsTheRest) {
  auto out = Csv("a,b\n1,\"open\n2,x\n3,y\n");
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].line, 2);
  EXPECT_EQ(out.errors[0].reason, "unterminated quoted field");
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":2,"b":"x"})", R"({"a":3,"b":"y"})"));
}

TEST(CsvReaderTest, EmptyAndHeaderOnlyFiles) {
  auto empty = Csv("");
  EXPECT_TRUE(empty.status.ok());
  EXPECT_TRUE(empty.rows.empty());
  EXPECT_TRUE(empty.errors.empty());
  auto header_only = Csv("creationDate, Id\n");
  EXPECT_TRUE(header_only.rows.empty());
  EXPECT_EQ(header_only.schema->ToString(), "creationDate: string\n Id: string\n");
}

TEST(CsvReaderTest, BinaryGarbageNeverCrashes) {
  std::string garbage;
  uint32_t x = 12345;
  for (int i = 0; i < 100000; ++i) {
    x = x * 1103515245 + 12345;
    garbage.push_back(static_cast<char>(x >> 16));
  }
  auto out = Csv(garbage, {}, 4096);
  EXPECT_TRUE(out.status.ok()) << out.status.ToString();
  EXPECT_FALSE(out.errors.empty());
}

TEST(CsvReaderTest, OneHugeLine) {
  std::string text = "a,b\n1,x\n2,";
  text.append(100 << 20, 'x');  // a 100 MB field, far past the 1 MB block size
  text += "\n3,y\n";
  auto out = Csv(text, {}, 1 << 20);
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  ASSERT_EQ(out.rows.size(), 3u);
  EXPECT_EQ(out.rows[1].size(), (100u << 20) + 14);  // {"a":2,"b":"..."}
  EXPECT_EQ(out.rows[2], R"({"a":3,"b":"y"})");
}

TEST(CsvReaderTest, BadOptionsAreRejected) {
  EXPECT_EQ(Csv("a\n", {{"separator", "ab"}}).status.code(), StatusCode::kInvalidInput);
  EXPECT_EQ(Csv("a\n", {{"withHeader", "maybe"}}).status.code(), StatusCode::kInvalidInput);
  EXPECT_EQ(Csv("a\n", {{"sepparator", ","}}).status.code(), StatusCode::kInvalidInput);
}

TEST(CsvReaderTest, FilesWithTheSameHeaderShareTypes) {
  TempDir dir;
  dir.Write("dt=1/a.csv", "id,v\n1,x\n");
  dir.Write("dt=2/b.csv", "id,v\n2,y\n");
  dir.Write("dt=3/c.csv", "id,w\nz,9\n");
  auto out = testing::ReadPaths(FileFormat::kCsv, {dir.path()});
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.schema->ToString(), "id: choice<int,string>\nv: string\nw: int\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"id":1,"v":"x"})", R"({"id":2,"v":"y"})",
                                    R"({"id":"z","w":9})"));
}

}  // namespace
}  // namespace epoxy

namespace epoxy {
namespace {

TEST(SmallFilesTest, ShareTasksAndBatchesAndKeepTheirLineNumbers) {
  testing::TempDir dir;
  for (int i = 0; i < 300; ++i) {
    std::string body = "id,name\n" + std::to_string(i) + ",a\n";
    if (i == 150) body += "7,y,z\n";  // line 3 of file 150 is malformed
    body += std::to_string(i) + ",b\n";
    if (i == 150) {
      for (int k = 0; k < 20; ++k) body += "9,c\n";  // enough good rows for the header to be seen
    }
    char name[32];
    std::snprintf(name, sizeof(name), "f%03d.csv", i);
    dir.Write(name, body);
  }
  // A file with another header (schema) in the middle keeps its own batch.
  dir.Write("f200x.csv", "other\nq\n");
  testing::ReadOutcome out = testing::ReadPaths(FileFormat::kCsv, {dir.path()});
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  EXPECT_EQ(out.rows.size(), 622u);  // 300 files of 2 rows, 20 more in file 150, 2 in the other file
  EXPECT_LT(out.num_batches, 10) << "small files are parsed in groups and joined into few batches";
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_NE(out.errors[0].path.find("f150.csv"), std::string::npos);
  EXPECT_EQ(out.errors[0].line, 3);
  EXPECT_EQ(out.rows[0], "{\"id\":0,\"name\":\"a\"}");
}

}  // namespace
}  // namespace epoxy

namespace epoxy {
namespace {

TEST(ProjectionTest, TextReadersBuildOnlyTheColumnsAskedFor) {
  testing::ReadOutcome csv = testing::ReadText(FileFormat::kCsv, "id,name,score\n1,a,2.5\n2,b,3.5\n",
                                               {{"columns", "score,id"}});
  ASSERT_TRUE(csv.status.ok()) << csv.status.ToString();
  EXPECT_EQ(csv.rows, (std::vector<std::string>{"{\"id\":1,\"score\":2.5}", "{\"id\":2,\"score\":3.5}"}));
  testing::ReadOutcome json = testing::ReadText(FileFormat::kJson, "{\"a\": 1, \"b\": {\"c\": 2}}\n{\"b\": null}\n",
                                                {{"columns", "a"}});
  ASSERT_TRUE(json.status.ok()) << json.status.ToString();
  EXPECT_EQ(json.rows, (std::vector<std::string>{"{\"a\":1}", "{\"a\":null}"})) << "rows are kept, keys left out";
}

}  // namespace
}  // namespace epoxy
