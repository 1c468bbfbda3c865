// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/csv/csv_inference.h"

#include <gtest/gtest.h>

namespace epoxy {
namespace {

std::string Guess(std::initializer_list<const char*> values) {
  CsvTypeGuess g;
  for (const char* v : values) g.Observe(v);
  return g.Type()->ToString();
}

TEST(CsvInferenceTest, NarrowestTypeThatHoldsTheValues) {
  EXPECT_EQ(Guess({"true", "FALSE"}), "boolean");
  EXPECT_EQ(Guess({"1", "-2"}), "int");
  EXPECT_EQ(Guess({"1", "4301440528"}), "bigint");
  EXPECT_EQ(Guess({"1", "2.5"}), "double");
  EXPECT_EQ(Guess({"0.00", "12.34"}), "double");
  EXPECT_EQ(Guess({"12345678901234567.89"}), "decimal(19,2)");  // a double would lose digits
  EXPECT_EQ(Guess({"123456789012345678901234"}), "decimal(24,0)");
  EXPECT_EQ(Guess({"2026-08-17"}), "date");
  EXPECT_EQ(Guess({"2026-08-17 09:00:00", "2026-08-17 10:00:00.5"}), "timestamp");
  EXPECT_EQ(Guess({"2026-08-17T09:00:00.000Z"}), "string");  // as Glue: ISO with a zone stays text
  EXPECT_EQ(Guess({"08123", "12345"}), "string");              // leading zeros are kept
  EXPECT_EQ(Guess({}), "string");
}

TEST(CsvInferenceTest, AFewTextValuesBecomeAChoiceLater) {
  CsvTypeGuess g;
  for (int i = 0; i < 99; ++i) g.Observe(std::to_string(i));
  g.Observe("N/A");
  EXPECT_EQ(g.Type()->ToString(), "int");
  CsvTypeGuess mostly_text;
  for (int i = 0; i < 50; ++i) mostly_text.Observe("a" + std::to_string(i));
  mostly_text.Observe("1234");
  EXPECT_EQ(mostly_text.Type()->ToString(), "string");
}

TEST(CsvInferenceTest, SniffsTheSeparator) {
  EXPECT_EQ(SniffSeparator("a,b,c\n1,2,3\n", {}), ',');
  EXPECT_EQ(SniffSeparator("a|b|c\n1|2,5|3\n", {}), '|');
  EXPECT_EQ(SniffSeparator("a\tb\n1\t2\n", {}), '\t');
  EXPECT_EQ(SniffSeparator("a;b\n\"x;y\";2\n", {}), ';');
  EXPECT_EQ(SniffSeparator("single\ncolumn\n", {}), ',');
}

TEST(CsvInferenceTest, DetectsHeadersTheGlueWay) {
  auto detect = [](std::string_view data) {
    CsvTokens t;
    EXPECT_TRUE(TokenizeCsv(data, {}, 100, &t).ok());
    return DetectHeader(data, t, {});
  };
  EXPECT_TRUE(detect("id,name\n1,a\n2,b\n"));
  EXPECT_FALSE(detect("a,b\nc,d\n"));          // all strings: col0, col1
  EXPECT_FALSE(detect("1,2\n3,4\n"));          // numeric first row
  EXPECT_TRUE(detect("creationDate, Id\n"));   // a lone row of names is a header
  EXPECT_FALSE(detect(",name\n1,a\n"));        // an empty name (not last)
  EXPECT_TRUE(detect("id,\n1,\n"));            // the last may be empty
}

TEST(CsvInferenceTest, NamesAreMadeUnique) {
  EXPECT_EQ(NormalizeColumnNames({"a", "a", "", "a"}),
            (std::vector<std::string>{"a", "a_1", "col2", "a_2"}));
}

}  // namespace
}  // namespace epoxy
