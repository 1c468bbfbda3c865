// SPDX-License-Identifier: Apache-2.0
#include "epoxy/expr/parser.h"

#include <gtest/gtest.h>

namespace epoxy::expr {
namespace {

std::string Parsed(std::string_view text) {
  auto e = ParseExpression(text);
  return e.ok() ? (*e)->ToString() : "error: " + e.status().message();
}

TEST(ExpressionParserTest, PrecedenceAndShapes) {
  EXPECT_EQ(Parsed("a + b * 2"), "(a + (b * 2))");
  EXPECT_EQ(Parsed("(a + b) * 2"), "((a + b) * 2)");
  EXPECT_EQ(Parsed("a = 1 AND b > 2 OR NOT c"), "(((a = 1) AND (b > 2)) OR (NOT c))");
  EXPECT_EQ(Parsed("x BETWEEN 1 AND 5"), "((x >= 1) AND (x <= 5))");
  EXPECT_EQ(Parsed("x NOT IN (1, 2)"), "(NOT (x IN (1, 2)))");
  EXPECT_EQ(Parsed("name LIKE 'a%' AND name IS NOT NULL"), "(like(name, a%) AND (name IS NOT NULL))");
  EXPECT_EQ(Parsed("`weird col`.`x` <> 3"), "(x != 3)");
  EXPECT_EQ(Parsed("device.os == 'ios'"), "(os = ios)");
  EXPECT_EQ(Parsed("CAST(a AS BIGINT)"), "CAST(a AS BIGINT)");
  EXPECT_EQ(Parsed("cast(a as decimal(10, 2))"), "CAST(a AS DECIMAL(10,2))");
  EXPECT_EQ(Parsed("CASE WHEN a > 1 THEN 'big' ELSE 'small' END"), "CASE WHEN (a > 1) THEN big ELSE small END");
  EXPECT_EQ(Parsed("CASE a WHEN 1 THEN 'one' END"), "CASE WHEN (a = 1) THEN one END");
  EXPECT_EQ(Parsed("count(*)"), "count(1)");
  EXPECT_EQ(Parsed("COUNT(DISTINCT user_id)"), "count(DISTINCT user_id)");
  EXPECT_EQ(Parsed("DATE '2026-08-17'"), "DATE '2026-08-17'");
  EXPECT_EQ(Parsed("-5"), "-5");
  EXPECT_EQ(Parsed("- a"), "(- a)");
  EXPECT_EQ(Parsed("'it''s'"), "error: syntax error: expected the end of the expression at position 5 of ''it''s'', found 's'");
  EXPECT_EQ(Parsed("'it\\'s'"), "it's");
  EXPECT_EQ(Parsed("a || b"), "concat(a, b)");
  EXPECT_EQ(Parsed("10L + 1.5"), "(10 + 1.5)");
  EXPECT_EQ(Parsed("INTERVAL 1 YEAR 2 DAYS"), "INTERVAL 12 MONTHS 172800000000 MICROSECONDS");
  EXPECT_EQ(Parsed("ts - INTERVAL -3 HOURS - 1"), "((ts - INTERVAL -10800000000 MICROSECONDS) - 1)");
}

TEST(ExpressionParserTest, ErrorsNameThePosition) {
  EXPECT_EQ(Parsed("a +"), "error: syntax error: expected an expression at position 4 of 'a +', found the end");
  EXPECT_EQ(Parsed("a = = 1"), "error: syntax error: expected an expression at position 5 of 'a = = 1', found '='");
  EXPECT_EQ(Parsed("f(a"), "error: syntax error: expected ')' at position 4 of 'f(a', found the end");
  EXPECT_EQ(Parsed("'open"), "error: unclosed string at position 1 of ''open'");
  EXPECT_EQ(Parsed("a NOT 3"), "error: syntax error: expected the end of the expression at position 3 of 'a NOT 3', found 'NOT'");
  EXPECT_EQ(Parsed("CAST(a AS nonsense)"), "error: unknown type 'nonsense' in 'CAST(a AS nonsense)'");
  EXPECT_EQ(Parsed("INTERVAL 2 FORTNIGHTS"), "error: unknown interval unit 'fortnight' in 'INTERVAL 2 FORTNIGHTS'");
  EXPECT_EQ(Parsed("INTERVAL DAY"), "error: syntax error: expected an interval amount at position 10 of 'INTERVAL DAY', found 'DAY'");
  EXPECT_EQ(Parsed("DATE '2026-13-01'"), "error: invalid DATE '2026-13-01' in 'DATE '2026-13-01''");
  std::string deep(5000, '(');
  EXPECT_NE(Parsed(deep).find("nested too deeply"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "NOT ";
  EXPECT_NE(Parsed(nots + "a").find("nested too deeply"), std::string::npos);
}

}  // namespace
}  // namespace epoxy::expr
