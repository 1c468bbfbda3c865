// SPDX-License-Identifier: Apache-2.0
// Runs the shared CSV corpus (../shared/conformance/csv) in place: csv-spectrum and Pollock against
// their expected tables, and the DuckDB and commons-csv cases against what INDEX.md states.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "epoxy/format/record_writer.h"
#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

using ::epoxy::testing::ReadOutcome;
using ::epoxy::testing::ReadPaths;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ReadOutcome ReadCsv(const std::string& path, FormatOptions options) {
  return ReadPaths(FileFormat::kCsv, {path}, options);
}

/// Pollock's clean tables quote every cell, so they cannot tell null from "": compare as "".
std::vector<std::string> NullsAsEmpty(std::vector<std::string> rows) {
  for (auto& row : rows) {
    for (size_t at; (at = row.find("\":null")) != std::string::npos;) row.replace(at, 6, "\":\"\"");
  }
  return rows;
}

TEST(CsvConformanceTest, CsvSpectrum) {
  EPOXY_REQUIRE_SHARED("conformance/csv/csv-spectrum", root);
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root + "/csvs")) {
    std::string name = entry.path().stem().string();
    std::string expected_json = Slurp(root + "/json/" + name + ".json");
    simdjson::dom::parser parser;
    simdjson::dom::element expected;
    ASSERT_FALSE(parser.parse(expected_json).get(expected)) << name;
    std::vector<std::string> expected_rows;
    for (simdjson::dom::element row : expected.get_array()) {
      std::string line = "{";
      bool first = true;
      for (auto field : row.get_object()) {
        if (!first) line += ',';
        first = false;
        AppendJsonString(field.key, &line);
        line += ':';
        AppendJsonString(std::string_view(field.value.get_string()), &line);
      }
      expected_rows.push_back(line + "}");
    }
    // The corpus copy stores newlines_crlf.csv with LF line ends; trust the bytes.
    if (Slurp(entry.path().string()).find('\r') == std::string::npos) {
      for (auto& row : expected_rows) {
        for (size_t at; (at = row.find("\\r\\n")) != std::string::npos;) row.replace(at, 4, "\\n");
      }
    }
    auto out = ReadCsv(entry.path().string(), {{"withHeader", "true"}, {"inferSchema", "false"}});
    ASSERT_TRUE(out.status.ok()) << name << ": " << out.status.ToString();
    EXPECT_TRUE(out.errors.empty()) << name;
    EXPECT_EQ(out.rows, expected_rows) << name;
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

/// Pollock: load the polluted file with its dialect and compare with the clean table.
class PollockTest : public ::testing::TestWithParam<std::string> {};

struct PollockParameters {
  FormatOptions options;
  int header_lines = 1;
  int preamble_lines = 0;
};

PollockParameters LoadParameters(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::element p = parser.load(path);
  PollockParameters out;
  std::string_view delimiter = p["delimiter"].get_string().value_unsafe();
  std::string_view quote = p["quotechar"].get_string().value_unsafe();
  std::string_view escape = p["escapechar"].get_string().value_unsafe();
  out.header_lines = static_cast<int>(int64_t(p["header_lines"].get_int64().value_unsafe()));
  out.preamble_lines = static_cast<int>(int64_t(p["preamble_lines"].get_int64().value_unsafe()));
  if (!delimiter.empty()) out.options["separator"] = std::string(delimiter);
  out.options["quoteChar"] = quote.empty() ? "-1" : std::string(quote);
  if (!escape.empty() && escape != quote) out.options["escaper"] = std::string(escape);
  out.options["withHeader"] = out.header_lines > 0 ? "true" : "false";
  out.options["inferSchema"] = "false";
  if (out.preamble_lines == 1) out.options["skipFirst"] = "true";
  return out;
}

TEST_P(PollockTest, MatchesTheCleanTable) {
  EPOXY_REQUIRE_SHARED("conformance/csv/pollock", root);
  const std::string name = GetParam();
  if (!std::filesystem::exists(root + "/csv/" + name)) GTEST_SKIP() << name << " not in the corpus";
  PollockParameters params = LoadParameters(root + "/parameters/" + name + "_parameters.json");
  auto out = ReadCsv(root + "/csv/" + name, params.options);
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  FormatOptions clean_options = {{"withHeader", params.header_lines > 0 ? "true" : "false"},
                                 {"inferSchema", "false"}, {"separator", ","}};
  auto clean = ReadCsv(root + "/clean/" + name, clean_options);
  ASSERT_TRUE(clean.status.ok());
  out.rows = NullsAsEmpty(std::move(out.rows));
  clean.rows = NullsAsEmpty(std::move(clean.rows));
  // Files no reader can take back to the clean table: unquoted values holding the space that is
  // also the delimiter, and a stray quote that opens a field in the header. They must read
  // without a crash and lose no line silently (each one is a row or an error record).
  if (name == "file_field_delimiter_0x20.csv" || name == "row_extra_quote0_col3.csv") {
    EXPECT_GT(out.rows.size() + out.errors.size(), 0u);
    return;
  }
  if (name == "file_escape_char_0x5C.csv") {
    // Glue's escaper makes any next character literal (\' reads as '); Pollock's clean table
    // keeps the backslash before characters other than the quote.
    for (auto& row : clean.rows) {
      for (size_t at; (at = row.find("\\\\'")) != std::string::npos;) row.replace(at, 3, "'");
    }
  }
  bool row_level_pollution = name.rfind("row_", 0) == 0;
  if (!row_level_pollution) {
    EXPECT_EQ(out.schema->ToString(), clean.schema->ToString());
    EXPECT_EQ(out.rows, clean.rows);
    EXPECT_TRUE(out.errors.empty());
    return;
  }
  // One polluted row: every other row must read exactly; the polluted one is an error record or
  // a padded row, never a crash or a shifted table.
  size_t matching = 0;
  for (const auto& row : out.rows) {
    matching += std::count(clean.rows.begin(), clean.rows.end(), row) > 0 ? 1 : 0;
  }
  EXPECT_GE(matching + 1, clean.rows.size()) << name;
  EXPECT_LE(out.rows.size(), clean.rows.size()) << name;
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, PollockTest,
    ::testing::Values("source.csv", "file_double_trailing_newline.csv", "file_escape_char_0x5C.csv",
                      "file_field_delimiter_0x20.csv", "file_field_delimiter_0x3B.csv",
                      "file_field_delimiter_0x9.csv", "file_header_only.csv", "file_no_header.csv",
                      "file_no_payload.csv", "file_one_data_row.csv",
                      "file_quotation_char_0x27.csv", "file_record_delimiter_0xA.csv",
                      "row_extra_quote0_col3.csv", "row_field_delimiter_20_0x20.csv",
                      "row_less_sep_row10_col2.csv", "row_less_sep_row1_col1.csv",
                      "row_more_sep_row5_col6.csv"),
    [](const auto& info) {
      std::string n = info.param.substr(0, info.param.size() - 4);
      for (char& c : n) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return n;
    });

TEST(CsvConformanceTest, DuckDbCases) {
  EPOXY_REQUIRE_SHARED("conformance/csv/duckdb", root);
  auto read = [&](const std::string& relative, FormatOptions options = {}) {
    return ReadCsv(root + "/" + relative, options);
  };
  {
    auto out = read("auto/utf8bom.csv");
    EXPECT_EQ(out.schema->ToString(), "id: int\nname: string\n");
    EXPECT_EQ(out.rows, (std::vector<std::string>{R"({"id":1,"name":"Mark"})",
                                                  R"({"id":2,"name":"Hannes"})"}));
  }
  {
    auto out = read("test/quoted_newline.csv");
    ASSERT_EQ(out.rows.size(), 2u);
    EXPECT_EQ(out.rows[0], R"({"col0":"hello\nworld","col1":5})");
    EXPECT_NE(out.rows[1].find(R"("col1":6)"), std::string::npos);  // 5 + 6 = 11
  }
  {
    auto out = read("auto/multi_column_string_r.csv");
    EXPECT_EQ(out.rows.size(), 9u);  // bare CR line ends
    EXPECT_EQ(out.rows[8], R"({"col0":100000000,"col1":15519,"col2":785,"col3":"p9"})");
  }
  {
    auto out = read("auto/backslash_escape.csv", {{"escaper", "\\"}});
    ASSERT_EQ(out.rows.size(), 3u);
    EXPECT_EQ(out.rows[1], R"({"col0":345,"col1":"TEST7","col2":"text\"2\""})");
    EXPECT_EQ(out.rows[2], R"({"col0":567,"col1":"TEST7","col2":"text3"})");
  }
  {
    auto out = read("auto/duplicate_header_columns.csv");
    ASSERT_EQ(out.schema->num_fields(), 13);
    EXPECT_EQ(out.schema->field(1).name, "a_1");
    EXPECT_EQ(out.schema->field(11).name, "a_11");
    EXPECT_EQ(out.schema->field(12).name, "col12");
  }
  {
    auto out = read("auto/semicolon_quote.csv");
    ASSERT_EQ(out.rows.size(), 3u);
    EXPECT_EQ(out.rows[2], R"({"col0":567,"col1":"TEST10","col2":"te;xt3"})");
  }
  {
    auto out = read("auto/tab.csv");
    EXPECT_EQ(out.schema->num_fields(), 3);
    EXPECT_EQ(out.rows.size(), 3u);
  }
  {
    auto out = read("rejects/incorrect_columns/small_mix.csv");
    EXPECT_EQ(out.errors.size(), 1u);  // the 5-field row
    EXPECT_EQ(out.rows.size(), 3u);    // the 3-field row padded
    EXPECT_EQ(out.rows[1], R"({"a":1,"b":2,"c":3,"d":null})");
  }
  {
    auto out = read("test/error_too_many.csv");
    ASSERT_EQ(out.errors.size(), 1u);
    EXPECT_EQ(out.errors[0].line, 6);
  }
  {
    auto out = read("test/invalid_utf.csv");
    ASSERT_EQ(out.errors.size(), 1u);
    EXPECT_EQ(out.errors[0].line, 1);
    EXPECT_EQ(out.errors[0].reason, "invalid UTF-8");
  }
  {
    auto out = read("test/unterminated.csv");
    EXPECT_FALSE(out.errors.empty());
    EXPECT_EQ(out.errors[0].reason, "unterminated quoted field");
  }
  {
    auto out = read("test/empty.csv");
    EXPECT_TRUE(out.status.ok());
    EXPECT_TRUE(out.rows.empty());
  }
  {
    auto out = read("headers/single_line.csv");
    EXPECT_TRUE(out.rows.empty());
    EXPECT_EQ(out.schema->ToString(), "creationDate: string\n Id: string\n");
  }
  {
    auto out = read("encodings/latin1.csv");  // not UTF-8: every such record is reported
    EXPECT_TRUE(out.status.ok());
    EXPECT_FALSE(out.errors.empty());
  }
  {
    auto out = read("unescaped_quotes/unescaped_quote.csv");
    EXPECT_TRUE(out.status.ok());
    bool kept = false;
    for (const auto& r : out.rows) kept = kept || r.find(R"(pedro \"pdet\" holanda)") != std::string::npos;
    EXPECT_TRUE(kept);  // bare inner quotes are kept as data
  }
}

TEST(CsvConformanceTest, CommonsCsvCases) {
  EPOXY_REQUIRE_SHARED("conformance/csv/commons-csv", root);
  auto bom = ReadCsv(root + "/CSVFileParser/bom.csv", {});
  ASSERT_TRUE(bom.status.ok());
  EXPECT_EQ(bom.schema->field(0).name, "Date");
  EXPECT_GT(bom.rows.size(), 100u);
  auto psql = ReadCsv(root + "/CSV-290/psql.csv", {{"withHeader", "false"}, {"inferSchema", "false"}});
  ASSERT_TRUE(psql.status.ok());
  ASSERT_EQ(psql.rows.size(), 3u);
  EXPECT_EQ(psql.rows[0],
            R"({"col0":"1","col1":"abc","col2":"test line 1\ntest line 2","col3":null,"col4":""})");
  auto emoji = ReadCsv(root + "/CSV-196/emoji.csv", {});
  EXPECT_TRUE(emoji.status.ok());
  EXPECT_TRUE(emoji.errors.empty());
}

}  // namespace
}  // namespace epoxy
