// SPDX-License-Identifier: Apache-2.0
#include "epoxy/catalog/partition_expression.h"

#include <gtest/gtest.h>

namespace epoxy::catalog {
namespace {

const std::vector<PartitionKey> kKeys = {
    {"year", "string"}, {"month", "int"}, {"dt", "date"}, {"ts", "timestamp"}, {"price", "decimal(10,2)"},
    {"ratio", "double"}};

std::string Sql(const std::string& expression) {
  auto r = TranslatePartitionExpression(expression, kKeys);
  EXPECT_TRUE(r.ok()) << expression << ": " << r.status().ToString();
  return r.ok() ? r->sql + " | " + [&] {
    std::string p;
    for (const auto& x : r->params) p += (p.empty() ? "" : ",") + x;
    return p;
  }() : "";
}

std::string Message(const std::string& expression) {
  auto r = TranslatePartitionExpression(expression, kKeys);
  EXPECT_FALSE(r.ok()) << expression;
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidInput) << expression;
  return r.status().message();
}

TEST(PartitionExpressionTest, GlueExamples) {
  EXPECT_EQ(Sql("year='2015'"), "(v0 = ?) | 2015");
  EXPECT_EQ(Sql("year>'2016' AND year<'2018'"), "((v0 > ?) AND (v0 < ?)) | 2016,2018");
  EXPECT_EQ(Sql("month BETWEEN 3 AND 5"),
            "(epoxy_partition_key('int', v1) BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)) | 3,5");
  EXPECT_EQ(Sql("year IN ('2015','2016')"), "(v0 IN (?, ?)) | 2015,2016");
  EXPECT_EQ(Sql("year LIKE '%7'"), "(v0 LIKE ?) | %7");
  EXPECT_EQ(Sql("NOT (year = '1' OR month <> 2)"),
            "(NOT ((v0 = ?) OR (epoxy_partition_key('int', v1) <> CAST(? AS INTEGER)))) | 1,2");
  EXPECT_EQ(Sql("dt >= DATE '2026-08-16' and dt is not null"),
            "((epoxy_partition_key('date', v2) >= ?) AND (v2 IS NOT NULL)) | 2026-08-16");
  EXPECT_EQ(Sql("month != '10'"), "(epoxy_partition_key('int', v1) <> CAST(? AS INTEGER)) | 10");
  EXPECT_EQ(Sql("year NOT IN ('a')"), "(v0 NOT IN (?)) | a");
  EXPECT_EQ(Sql("year = 2"), "(v0 = ?) | 2");  // a number against a string key compares as text
}

TEST(PartitionExpressionTest, TypedLiteralsAreCanonical) {
  EXPECT_EQ(Sql("ts = '2022-02-01 00:00:00'"),
            "(epoxy_partition_key('timestamp', v3) = ?) | 2022-02-01 00:00:00.000000000");
  EXPECT_EQ(Sql("ts < '2022-02-01 00:00:00.0000009'"),
            "(epoxy_partition_key('timestamp', v3) < ?) | 2022-02-01 00:00:00.000000900");
  EXPECT_EQ(Sql("price between 2 AND 3e10"),
            "(epoxy_partition_key('decimal', v4) BETWEEN CAST(? AS REAL) AND CAST(? AS REAL)) | 2,30000000000");
  EXPECT_EQ(Sql("dt IN ('2024-02-29')"), "(epoxy_partition_key('date', v2) IN (?)) | 2024-02-29");
}

TEST(PartitionExpressionTest, ParenthesesAroundOperandsAndConnectives) {
  EXPECT_EQ(Sql("(month) = ((2)) (OR) (((month))) = (2)"),
            "((epoxy_partition_key('int', v1) = CAST(? AS INTEGER)) OR "
            "(epoxy_partition_key('int', v1) = CAST(? AS INTEGER))) | 2,2");
  EXPECT_EQ(Sql("((year = '1'))"), "(v0 = ?) | 1");
  EXPECT_EQ(Sql("(year = '1') (AND) (month = 2)"),
            "((v0 = ?) AND (epoxy_partition_key('int', v1) = CAST(? AS INTEGER))) | 1,2");
}

TEST(PartitionExpressionTest, GlueErrors) {
  EXPECT_EQ(Message("color = 'red'"), "Invalid partition expression!");
  EXPECT_EQ(Message("color IS NULL"), "Invalid partition expression!");
  EXPECT_NE(Message("month = 'test'").find("\"test\" is not an integer"), std::string::npos);
  EXPECT_NE(Message("month in (2.5)").find("\"2.5\" is not an integer"), std::string::npos);
  EXPECT_NE(Message("price = 'x'").find("is not a decimal"), std::string::npos);
  EXPECT_NE(Message("dt = '2022-02-32'").find("is not a date"), std::string::npos);
  EXPECT_NE(Message("dt = '2023-02-29'").find("is not a date"), std::string::npos);
  EXPECT_NE(Message("ts = '2022-02-01'").find("is not a timestamp"), std::string::npos);
  EXPECT_NE(Message("ts = '2022-02-15 00:00:00.'").find("is not a timestamp"), std::string::npos);
  EXPECT_EQ(Message("month LIKE '2'"), "Integral data type doesn't support operation 'LIKE'");
  EXPECT_EQ(Message("price LIKE '2'"), "Decimal data type doesn't support operation 'LIKE'");
  EXPECT_EQ(Message("dt LIKE '2'"), "Date data type doesn't support operation 'LIKE'");
  EXPECT_EQ(Message("ts LIKE '2'"), "Timestamp data type doesn't support operation 'LIKE'");
  EXPECT_EQ(Message("ratio = 3.14"), "Unknown type : 'double'");
  EXPECT_NE(Message("year = ").find("position 7"), std::string::npos);
  EXPECT_EQ(Message("year = ").rfind("Unsupported expression", 0), 0u);
  EXPECT_NE(Message("year = '1' AND").find("expected a partition key"), std::string::npos);
  EXPECT_NE(Message("year IS test' AND not parsable").find("Unsupported expression"), std::string::npos);
  Message("year ~ 1");
  Message("(year = '1'");
  Message("year = 'open");
  Message("year = -");
  Message(std::string(3000, ' '));
  Message(std::string(500, '(') + "year = '1'");
  Message(std::string(500, '(') + "year" + std::string(500, ')') + " = '1'");
}

TEST(PartitionExpressionTest, StoredValuesAreTyped) {
  EXPECT_EQ(ParseTypedKeyValue("int", "-42")->integer, -42);
  EXPECT_EQ(ParseTypedKeyValue("int", "int").status().message(), "\"int\" is not an integer");
  EXPECT_FALSE(ParseTypedKeyValue("int", "99999999999999999999").ok());
  EXPECT_DOUBLE_EQ(ParseTypedKeyValue("decimal", "3e14")->real, 3e14);
  EXPECT_FALSE(ParseTypedKeyValue("decimal", "inf").ok());
  EXPECT_EQ(ParseTypedKeyValue("timestamp", "2022-02-01 00:00:00.000000")->text, "2022-02-01 00:00:00.000000000");
  EXPECT_FALSE(ParseTypedKeyValue("timestamp", "2022-02-01 24:00:00").ok());
  EXPECT_EQ(ParseTypedKeyValue("date", "2000-02-29")->text, "2000-02-29");
  EXPECT_FALSE(ParseTypedKeyValue("date", "1900-02-29").ok());
}

}  // namespace
}  // namespace epoxy::catalog
