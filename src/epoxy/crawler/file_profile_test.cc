// SPDX-License-Identifier: Apache-2.0
#include "epoxy/crawler/file_profile.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "epoxy/crawler/crawler.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::crawler {
namespace {

FileProfile Profile(const testing::TempDir& dir, const std::string& name, std::string_view content) {
  FileInfo info;
  info.path = dir.Write(name, content);
  info.size = static_cast<int64_t>(std::filesystem::file_size(info.path));
  return ProfileFile(info, ProfileOptions{});
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

FileProfile ProfileWith(const testing::TempDir& dir, const std::string& name, std::string_view content,
                        const std::vector<nlohmann::json>& definitions) {
  std::vector<CustomClassifier> classifiers;
  for (const auto& d : definitions) {
    auto c = CompileClassifier(d);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    if (c.ok()) classifiers.push_back(std::move(*c));
  }
  FileInfo info;
  info.path = dir.Write(name, content);
  info.size = static_cast<int64_t>(std::filesystem::file_size(info.path));
  ProfileOptions options;
  options.classifiers = &classifiers;
  return ProfileFile(info, options);
}

TEST(CustomClassifierTest, CsvWithExplicitOptions) {
  testing::TempDir dir;
  // '#' is no built-in delimiter; the header is absent and the names come from the classifier.
  nlohmann::json hashes = {{"CsvClassifier", {{"Name", "hashes"}, {"Delimiter", "#"}, {"QuoteSymbol", "'"},
                                              {"ContainsHeader", "ABSENT"}, {"Header", {"id", "label"}}}}};
  FileProfile p = ProfileWith(dir, "h.txt", "1#'a#b'\n2#c\n3#d\n", {hashes});
  ASSERT_EQ(p.classification, "csv") << p.skip_reason;
  EXPECT_EQ(p.classifier, "hashes");
  EXPECT_EQ(p.delimiter, '#');
  EXPECT_FALSE(p.header);
  EXPECT_EQ(p.schema->ToString(), "id: bigint\nlabel: string\n");
  EXPECT_EQ(p.records, 3);
  // Without the classifier the file is not CSV at all.
  EXPECT_EQ(Profile(dir, "h2.txt", "1#'a#b'\n2#c\n3#d\n").classification, "UNKNOWN");
  // CustomDatatypes limits what inference may choose.
  nlohmann::json strings = {{"CsvClassifier", {{"Name", "strings"}, {"Delimiter", ","}, {"ContainsHeader", "PRESENT"},
                                               {"CustomDatatypeConfigured", true}, {"CustomDatatypes", {"STRING"}}}}};
  FileProfile s = ProfileWith(dir, "s.csv", "a,b\n1,2\n3,4\n", {strings});
  EXPECT_EQ(s.schema->ToString(), "a: string\nb: string\n");
}

TEST(CustomClassifierTest, JsonPathPicksTheRecords) {
  testing::TempDir dir;
  nlohmann::json nested = {{"JsonClassifier", {{"Name", "nested"}, {"JsonPath", "$.records[*]"}}}};
  FileProfile p = ProfileWith(dir, "n.json", R"({"meta": {"v": 1}, "records": [{"id": 1}, {"id": 2, "x": "a"}]})",
                              {nested});
  ASSERT_EQ(p.classification, "json") << p.skip_reason;
  EXPECT_EQ(p.classifier, "nested");
  EXPECT_EQ(p.schema->ToString(), "id: bigint\nx: string\n");
  EXPECT_EQ(p.read_options.at("jsonPath"), "$.records[*]");
  // A path that finds nothing leaves the file to the built-in classifiers.
  FileProfile other = ProfileWith(dir, "o.json", "{\"id\": 1}\n{\"id\": 2}\n", {nested});
  EXPECT_EQ(other.classification, "json");
  EXPECT_EQ(other.classifier, "");
  EXPECT_EQ(other.schema->ToString(), "id: bigint\n");
}

TEST(CustomClassifierTest, GrokClassifiesLogs) {
  testing::TempDir dir;
  nlohmann::json app = {{"GrokClassifier", {{"Name", "applog"}, {"Classification", "applog"},
                                            {"GrokPattern", "%{TIMESTAMP_ISO8601:ts} %{LOGLEVEL:level} %{INT:code:int} %{GREEDYDATA:message}"}}}};
  std::string log = "2026-11-29T10:00:00Z INFO 200 started\n2026-11-29T10:00:01Z WARN 301 slow, disk 91%\n";
  FileProfile p = ProfileWith(dir, "app.log", log, {app});
  ASSERT_EQ(p.classification, "applog") << p.skip_reason;
  EXPECT_EQ(p.schema->ToString(), "ts: string\nlevel: string\ncode: int\nmessage: string\n");
  EXPECT_EQ(p.records, 2);
  EXPECT_FALSE(p.grok_pattern.empty());
  // A pattern matching only some lines loses to a certain built-in classifier, and wins when there is none.
  FileProfile csv = ProfileWith(dir, "c.csv", "a,b\n1,2\n", {app});
  EXPECT_EQ(csv.classification, "csv");
  FileProfile partial = ProfileWith(dir, "p.log", log + "garbage line\n", {app});
  EXPECT_EQ(partial.classification, "applog");
}

TEST(CustomClassifierTest, FirstCertainClassifierWins) {
  testing::TempDir dir;
  nlohmann::json semi = {{"CsvClassifier", {{"Name", "semi"}, {"Delimiter", ";"}}}};
  nlohmann::json comma = {{"CsvClassifier", {{"Name", "comma"}, {"Delimiter", ","}}}};
  FileProfile p = ProfileWith(dir, "x.csv", "a;b,c\n1;2,3\n4;5,6\n", {semi, comma});
  EXPECT_EQ(p.classifier, "semi");
  EXPECT_EQ(p.delimiter, ';');
  p = ProfileWith(dir, "y.csv", "a;b,c\n1;2,3\n4;5,6\n", {comma, semi});
  EXPECT_EQ(p.classifier, "comma");
}

TEST(CustomClassifierTest, InvalidDefinitionsAreRefusedWithTheSetting) {
  auto error = [](const nlohmann::json& d) {
    auto c = CompileClassifier(d);
    return c.ok() ? std::string("ok") : c.status().message();
  };
  EXPECT_NE(error({{"CsvClassifier", {{"Name", "c"}, {"Delimiter", "ab"}}}}).find("Delimiter must be one character"),
            std::string::npos);
  EXPECT_NE(error({{"CsvClassifier", {{"Name", "c"}, {"ContainsHeader", "MAYBE"}}}}).find("ContainsHeader"),
            std::string::npos);
  EXPECT_NE(error({{"CsvClassifier", {{"Name", "c"}, {"Delimiter", "'"}, {"QuoteSymbol", "'"}}}}).find("must differ"),
            std::string::npos);
  EXPECT_NE(error({{"JsonClassifier", {{"Name", "j"}, {"JsonPath", "records"}}}}).find("must start with '$'"),
            std::string::npos);
  EXPECT_NE(error({{"GrokClassifier", {{"Name", "g"}, {"Classification", "x"}, {"GrokPattern", "%{NOPE:a}"}}}})
                .find("unknown pattern 'NOPE'"),
            std::string::npos);
  EXPECT_NE(error({{"GrokClassifier", {{"Name", "g"}, {"Classification", "x"}, {"GrokPattern", std::string(2049, 'a')}}}})
                .find("the limit is 2048"),
            std::string::npos);
  EXPECT_NE(error({{"GrokClassifier", {{"Name", "g"}, {"GrokPattern", "%{INT:a}"}}}}).find("needs Classification"),
            std::string::npos);
}

TEST(TableNameTest, GlueNaming) {
  EXPECT_EQ(TableNameFor("Events-2026", ""), "events_2026");
  EXPECT_EQ(TableNameFor("clicks", "raw_"), "raw_clicks");
  EXPECT_EQ(TableNameFor(std::string(200, 'a'), "").size(), 128u);
}

}  // namespace
}  // namespace epoxy::crawler
