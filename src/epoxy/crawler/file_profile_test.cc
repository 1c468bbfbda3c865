// SPDX-License-Identifier: Apache-2.0
#include "epoxy/crawler/file_profile.h"

#include <filesystem>

#include "epoxy/crawler/crawler.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::crawler {
namespace {

FileProfile Profile(const testing::TempDir& dir, const std::string& name, std::string_view content) {
  FileInfo info;
  info.path = dir.Write(name, content);
  info.size = static_cast<int64_t>(std::filesystem::file_size(info.path));
  return ProfileFile(info, 1000);
}

TEST(FileProfileTest, ClassifiesByContentNotExtension) {
  testing::TempDir dir;
  EXPECT_EQ(Profile(dir, "a.txt", "{\"a\": 1}\n{\"a\": 2}\n").classification, "json");
  EXPECT_EQ(Profile(dir, "noext", "x,y\n1,2\n3,4\n").classification, "csv");
  EXPECT_EQ(Profile(dir, "b.json", "just some prose without any structure\n").classification, "UNKNOWN");
}

TEST(FileProfileTest, CsvDelimiterAndHeaderAsGlueDecides) {
  testing::TempDir dir;
  FileProfile with_header = Profile(dir, "h.csv", "id|name\n1|ann\n2|bob\n");
  EXPECT_EQ(with_header.classification, "csv");
  EXPECT_EQ(with_header.delimiter, '|');
  EXPECT_TRUE(with_header.header);
  EXPECT_EQ(with_header.schema->ToString(), "id: bigint\nname: string\n") << "crawled integers are bigint";
  // Every column is a string: no evidence of a header, so the first line is data.
  FileProfile all_strings = Profile(dir, "s.csv", "a,b\nc,d\ne,f\n");
  EXPECT_FALSE(all_strings.header);
}

TEST(FileProfileTest, ProblemsAreSkipReasonsNotErrors) {
  testing::TempDir dir;
  FileProfile empty = Profile(dir, "e.json", "");
  EXPECT_EQ(empty.classification, "UNKNOWN");
  EXPECT_EQ(empty.skip_kind, "empty file");
  FileProfile corrupt = Profile(dir, "c.parquet", "PAR1 not really parquet PAR1");
  EXPECT_EQ(corrupt.classification, "UNKNOWN");
  EXPECT_EQ(corrupt.skip_kind, "corrupt");
  EXPECT_EQ(corrupt.skip_reason.find(corrupt.file.path), std::string::npos) << "the log prints the path once";
  FileProfile orc = Profile(dir, "o.orc", "ORC and then some bytes");
  EXPECT_EQ(orc.skip_kind, "format not read");
}

TEST(TableNameTest, GlueNaming) {
  EXPECT_EQ(TableNameFor("Events-2026", ""), "events_2026");
  EXPECT_EQ(TableNameFor("clicks", "raw_"), "raw_clicks");
  EXPECT_EQ(TableNameFor(std::string(200, 'a'), "").size(), 128u);
}

}  // namespace
}  // namespace epoxy::crawler
