// SPDX-License-Identifier: Apache-2.0
// Spark 3.5's decimal semantics: literal types, result types, exact values, rounding, overflow.
#include "epoxy/expr/decimal.h"

#include <gtest/gtest.h>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/parser.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::expr {
namespace {

const char* kRows = "{\"q\": 24}\n{\"q\": 7}\n";

/// "type = value|value" of `text` over kRows (constant expressions give one value per row).
std::string Eval(std::string_view text) {
  BatchPtr batch = testing::JsonBatch(kRows);
  auto parsed = ParseExpression(text);
  if (!parsed.ok()) return "error: " + parsed.status().message();
  auto bound = Bind(*parsed, *batch->schema());
  if (!bound.ok()) return "error: " + bound.status().message();
  auto out = EvaluateToArray(**bound, *batch);
  if (!out.ok()) return "error: " + out.status().message();
  std::string values;
  AppendJsonValue(**out, 0, &values);
  return (*bound)->type->ToString() + " = " + values;
}

TEST(DecimalTest, LiteralTypes) {
  EXPECT_EQ(Eval("0.06"), "decimal(2,2) = \"0.06\"");
  EXPECT_EQ(Eval("100.00"), "decimal(5,2) = \"100.00\"");
  EXPECT_EQ(Eval("-0.06"), "decimal(2,2) = \"-0.06\"");
  EXPECT_EQ(Eval("1.5BD"), "decimal(2,1) = \"1.5\"");
  EXPECT_EQ(Eval("12BD"), "decimal(2,0) = \"12\"");
  EXPECT_EQ(Eval("99999999999999999999"), "decimal(20,0) = \"99999999999999999999\"") << "past bigint";
  EXPECT_EQ(Eval("1.5e0"), "double = 1.5");
  EXPECT_EQ(Eval("1.5D"), "double = 1.5");
  EXPECT_EQ(Eval("12"), "int = 12");
}

TEST(DecimalTest, ExactSumsWhereDoubleIsNot) {
  EXPECT_EQ(Eval("0.06 + 0.01"), "decimal(3,2) = \"0.07\"");
  EXPECT_EQ(Eval("0.06 - 0.01"), "decimal(3,2) = \"0.05\"");
  EXPECT_EQ(Eval("0.1 + 0.2 = 0.3"), "boolean = true");
  EXPECT_EQ(Eval("1 + 1.5"), "decimal(3,1) = \"2.5\"") << "an integer literal takes its narrowest decimal";
  EXPECT_EQ(Eval("q * 0.5"), "decimal(22,1) = \"12.0\"") << "a bigint column is decimal(20,0)";
  EXPECT_EQ(Eval("0.5 + 1.5D"), "double = 2") << "a double operand makes the result double";
}

TEST(DecimalTest, ResultTypesFollowSpark) {
  EXPECT_EQ(Eval("CAST(1 AS DECIMAL(15,2)) * CAST(1 AS DECIMAL(16,2))"), "decimal(32,4) = \"1.0000\"");
  EXPECT_EQ(Eval("CAST(1 AS DECIMAL(38,10)) * CAST(1 AS DECIMAL(38,10))"), "decimal(38,6) = \"1.000000\"")
      << "precision past 38 gives up scale down to 6";
  EXPECT_EQ(Eval("CAST(1 AS DECIMAL(10,2)) / 3"), "decimal(14,6) = \"0.333333\"");
  EXPECT_EQ(Eval("CAST(2 AS DECIMAL(10,2)) / 3"), "decimal(14,6) = \"0.666667\"") << "HALF_UP";
  EXPECT_EQ(Eval("CAST(-2 AS DECIMAL(10,2)) / 3"), "decimal(14,6) = \"-0.666667\"");
  EXPECT_EQ(Eval("CAST(7 AS DECIMAL(5,1)) % CAST(2.5 AS DECIMAL(3,2))"), "decimal(3,2) = \"2.00\"");
  EXPECT_EQ(Eval("CAST(-7 AS DECIMAL(5,1)) % 2"), "decimal(2,1) = \"-1.0\"") << "the dividend's sign";
  EXPECT_EQ(Eval("CAST(1 AS DECIMAL(25,2)) / 7.0"), "decimal(30,6) = \"0.142857\"");
}

TEST(DecimalTest, WidePathsAreExact) {
  EXPECT_EQ(Eval("CAST(12345678901234567890123.12345678 AS DECIMAL(38,8)) * CAST(1000.5 AS DECIMAL(38,8))"),
            "decimal(38,6) = \"12351851740685185174068185.018508\"");
  EXPECT_EQ(Eval("CAST(100000000000000000000 AS DECIMAL(38,0)) / CAST(0.5 AS DECIMAL(38,37))"),
            "decimal(38,6) = \"200000000000000000000.000000\"");
}

TEST(DecimalTest, OverflowAndZeroDivisorAreNull) {
  EXPECT_EQ(Eval("CAST(99999999999999999999999999999999999999 AS DECIMAL(38,0)) + 1"), "decimal(38,0) = null");
  EXPECT_EQ(Eval("1.5 / 0"), "decimal(7,6) = null");
  EXPECT_EQ(Eval("CAST(1234.5 AS DECIMAL(4,1))"), "decimal(4,1) = null") << "1234.5 needs precision 5";
  EXPECT_EQ(Eval("CAST(123.45 AS DECIMAL(4,1))"), "decimal(4,1) = \"123.5\"");
  EXPECT_EQ(Eval("CAST(12.345 AS DECIMAL(4,2))"), "decimal(4,2) = \"12.35\"");
}

TEST(DecimalTest, RoundAbsAndCasts) {
  EXPECT_EQ(Eval("round(CAST(2.345 AS DECIMAL(10,3)), 2)"), "decimal(10,2) = \"2.35\"");
  EXPECT_EQ(Eval("bround(CAST(2.345 AS DECIMAL(10,3)), 2)"), "decimal(10,2) = \"2.34\"");
  EXPECT_EQ(Eval("round(CAST(-2.5 AS DECIMAL(3,1)))"), "decimal(3,0) = \"-3\"");
  EXPECT_EQ(Eval("round(CAST(1234 AS DECIMAL(6,0)), -2)"), "decimal(7,0) = \"1200\"");
  EXPECT_EQ(Eval("abs(-1.25)"), "decimal(3,2) = \"1.25\"");
  EXPECT_EQ(Eval("-(1.25)"), "decimal(3,2) = \"-1.25\"");
  EXPECT_EQ(Eval("CAST('1.005' AS DECIMAL(10,2))"), "decimal(10,2) = \"1.01\"");
  EXPECT_EQ(Eval("CAST(0.1 AS DOUBLE)"), "double = 0.1");
  EXPECT_EQ(Eval("CAST(q AS DECIMAL(3,1))"), "decimal(3,1) = \"24.0\"");
}

TEST(DecimalTest, ComparisonsMeetAtTheWiderDecimal) {
  EXPECT_EQ(Eval("CAST(0.07 AS DECIMAL(15,2)) BETWEEN 0.06 - 0.01 AND 0.06 + 0.01"), "boolean = true");
  EXPECT_EQ(Eval("CAST(24 AS DECIMAL(15,2)) < 24"), "boolean = false");
  EXPECT_EQ(Eval("CAST(1.10 AS DECIMAL(5,2)) = CAST(1.1 AS DECIMAL(9,1))"), "boolean = true");
  EXPECT_EQ(Eval("CASE WHEN q > 10 THEN CAST(1 AS DECIMAL(32,4)) ELSE 0 END"), "decimal(32,4) = \"1.0000\"");
}

TEST(DecimalTest, AverageRoundsAsSparkDoes) {
  __int128 out = 0;
  // avg of decimal(15,2) values 1.00, 2.00, 2.00: 5.00 / 3 at decimal(19,6) is 1.666667.
  ASSERT_TRUE(DecimalAverage(500, *DataType::Decimal(25, 2), 3, *DataType::Decimal(19, 6), &out));
  EXPECT_EQ(static_cast<int64_t>(out), 1666667);
  EXPECT_FALSE(DecimalAverage(500, *DataType::Decimal(25, 2), 0, *DataType::Decimal(19, 6), &out));
  EXPECT_EQ(DecimalSumType(*DataType::Decimal(15, 2))->ToString(), "decimal(25,2)");
  EXPECT_EQ(DecimalAvgType(*DataType::Decimal(15, 2))->ToString(), "decimal(19,6)");
  EXPECT_EQ(DecimalSumType(*DataType::Decimal(38, 6))->ToString(), "decimal(38,6)");
}

}  // namespace
}  // namespace epoxy::expr
