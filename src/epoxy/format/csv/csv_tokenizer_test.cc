// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/csv/csv_tokenizer.h"

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

using ::testing::ElementsAre;

std::vector<std::vector<std::string>> Tokenize(std::string_view data, CsvDialect d = {}) {
  CsvTokens t;
  EXPECT_TRUE(TokenizeCsv(data, d, 0, &t).ok());
  std::vector<std::vector<std::string>> out;
  std::string scratch;
  for (int64_t r = 0; r < t.num_records(); ++r) {
    std::vector<std::string> fields;
    for (uint32_t f = t.record_first_field[r]; f < t.record_first_field[r + 1]; ++f) {
      fields.emplace_back(CsvFieldText(data, t, f, d, &scratch));
    }
    out.push_back(fields);
  }
  return out;
}

using Rows = std::vector<std::vector<std::string>>;

TEST(CsvTokenizerTest, QuotedNewlineStaysInField) {
  EXPECT_EQ(Tokenize("a\n\"x\ny\"\n"), (Rows{{"a"}, {"x\ny"}}));
}

TEST(CsvTokenizerTest, DoubledQuotesAndDelimitersInQuotes) {
  EXPECT_EQ(Tokenize("\"ha \"\"ha\"\" ha\",\"a,b\"\r\n"), (Rows{{"ha \"ha\" ha", "a,b"}}));
}

TEST(CsvTokenizerTest, LineEndingsAndBlankLines) {
  EXPECT_EQ(Tokenize("a,b\r\n\r\nc,d\re,f"), (Rows{{"a", "b"}, {"c", "d"}, {"e", "f"}}));
  EXPECT_EQ(Tokenize("a,\n"), (Rows{{"a", ""}}));
  EXPECT_EQ(Tokenize("a,"), (Rows{{"a", ""}}));
}

TEST(CsvTokenizerTest, QuoteOnlyOpensAtFieldStart) {
  EXPECT_EQ(Tokenize("a, \"b\" ,c\n"), (Rows{{"a", " \"b\" ", "c"}}));
}

TEST(CsvTokenizerTest, BareInnerQuotesAreKept) {
  CsvDialect d;
  d.separator = ';';
  EXPECT_EQ(Tokenize("\"pedro \"pdet\" holanda\";x\n", d), (Rows{{"pedro \"pdet\" holanda", "x"}}));
}

TEST(CsvTokenizerTest, EscaperMakesTheNextCharacterLiteral) {
  CsvDialect d;
  d.escape = '\\';
  EXPECT_EQ(Tokenize("\"text\\\"2\\\"\",a\\,b\n", d), (Rows{{"text\"2\"", "a,b"}}));
}

TEST(CsvTokenizerTest, QuotingCanBeDisabled) {
  CsvDialect d;
  d.quote = -1;
  EXPECT_EQ(Tokenize("\"a\",b\n", d), (Rows{{"\"a\"", "b"}}));
}

TEST(CsvTokenizerTest, UnterminatedQuoteIsReportedAndDoesNotSwallowTheFile) {
  CsvTokens t;
  std::string data = "a,\"open\nb,c\nd,e\n";
  ASSERT_TRUE(TokenizeCsv(data, {}, 0, &t).ok());
  // The quote closes nowhere: the record is flagged and reading resumes on the next line.
  EXPECT_THAT(t.unterminated, ElementsAre(0u));
  EXPECT_EQ(t.num_records(), 3);
}

TEST(CsvTokenizerTest, RecordBoundaryRespectsQuotes) {
  CsvDialect d;
  EXPECT_EQ(CsvRecordBoundary("a,b\nc,\"d\ne", d), 4);  // the last newline is inside quotes
  EXPECT_EQ(CsvRecordBoundary("a,\"x\ny\"\nz", d), 8);
  EXPECT_EQ(CsvRecordBoundary("no newline", d), 0);
  CsvDialect e;
  e.escape = '\\';
  EXPECT_EQ(CsvRecordBoundary("a,\\\"b\nc", e), 6);  // the escaped quote does not open a field
}

}  // namespace
}  // namespace epoxy
