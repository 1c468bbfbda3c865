// SPDX-License-Identifier: Apache-2.0
#include "epoxy/catalog/partition_expression.h"

#include <gtest/gtest.h>

namespace epoxy::catalog {
namespace {

const std::vector<PartitionKey> kKeys = {{"year", "string"}, {"month", "int"}, {"dt", "date"}};

std::string Sql(const std::string& expression) {
  auto r = TranslatePartitionExpression(expression, kKeys);
  EXPECT_TRUE(r.ok()) << expression << ": " << r.status().ToString();
  return r.ok() ? r->sql + " | " + [&] {
    std::string p;
    for (const auto& x : r->params) p += (p.empty() ? "" : ",") + x;
    return p;
  }() : "";
}

TEST(PartitionExpressionTest, GlueExamples) {
  EXPECT_EQ(Sql("year='2015'"), "(v0 = ?) | 2015");
  EXPECT_EQ(Sql("year>'2016' AND year<'2018'"), "((v0 > ?) AND (v0 < ?)) | 2016,2018");
  EXPECT_EQ(Sql("month BETWEEN 3 AND 5"),
            "(CAST(v1 AS INTEGER) BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)) | 3,5");
  EXPECT_EQ(Sql("year IN ('2015','2016')"), "(v0 IN (?, ?)) | 2015,2016");
  EXPECT_EQ(Sql("year LIKE '%7'"), "(v0 LIKE ?) | %7");
  EXPECT_EQ(Sql("NOT (year = '1' OR month <> 2)"),
            "(NOT ((v0 = ?) OR (CAST(v1 AS INTEGER) <> CAST(? AS INTEGER)))) | 1,2");
  EXPECT_EQ(Sql("dt >= DATE '2026-08-16' and dt is not null"), "((v2 >= ?) AND (v2 IS NOT NULL)) | 2026-08-16");
  EXPECT_EQ(Sql("month != '10'"), "(CAST(v1 AS INTEGER) <> CAST(? AS INTEGER)) | 10");
  EXPECT_EQ(Sql("year NOT IN ('a')"), "(v0 NOT IN (?)) | a");
}

TEST(PartitionExpressionTest, ErrorsNameThePosition) {
  auto bad = [](const std::string& e) { return TranslatePartitionExpression(e, kKeys).status(); };
  EXPECT_NE(bad("color = 'red'").message().find("'color' is not a partition key"), std::string::npos);
  EXPECT_NE(bad("year = ").message().find("position 7"), std::string::npos);
  EXPECT_NE(bad("year = '1' AND").message().find("expected a partition key"), std::string::npos);
  EXPECT_NE(bad("month = 'x'").message().find("not a number"), std::string::npos);
  EXPECT_EQ(bad("year ~ 1").code(), StatusCode::kInvalidInput);
  EXPECT_EQ(bad("(year = '1'").code(), StatusCode::kInvalidInput);
  EXPECT_EQ(bad("year = 'open").code(), StatusCode::kInvalidInput);
  EXPECT_EQ(bad(std::string(3000, ' ')).code(), StatusCode::kInvalidInput);
  std::string deep(500, '(');
  EXPECT_EQ(bad(deep + "year = '1'").code(), StatusCode::kInvalidInput);
}

}  // namespace
}  // namespace epoxy::catalog
