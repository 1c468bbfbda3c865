// SPDX-License-Identifier: Apache-2.0
#include "epoxy/types/spark_ddl.h"

#include <gtest/gtest.h>

namespace epoxy {
namespace {

std::string Parsed(std::string_view text) {
  auto t = ParseDdlSchema(text);
  return t.ok() ? (*t)->ToString() : "error: " + t.status().message();
}

TEST(SparkDdlTest, ColumnListsAndTypes) {
  EXPECT_EQ(Parsed("a INT, b DOUBLE"), "struct<a:int,b:double>");
  EXPECT_EQ(Parsed("STRUCT<teacher: STRING, student: ARRAY<STRUCT<name: STRING, rank: INT>>>"),
            "struct<teacher:string,student:array<struct<name:string,rank:int>>>");
  EXPECT_EQ(Parsed("array<int>"), "array<int>");
  EXPECT_EQ(Parsed("map<string, bigint>"), "map<string,bigint>");
  EXPECT_EQ(Parsed("time Timestamp"), "struct<time:timestamp>");
  EXPECT_EQ(Parsed("`a b` LONG NOT NULL COMMENT 'the `a`', c DEC(5, 2)"),
            "struct<`a b`:bigint,c:decimal(5,2)>");
  EXPECT_EQ(Parsed("struct<a int, b: short, c byte, d real, e numeric>"),
            "struct<a:int,b:smallint,c:tinyint,d:float,e:decimal(10,0)>");
  EXPECT_EQ(Parsed("STRUCT<>"), "struct<>");
  EXPECT_EQ(Parsed("int int"), "struct<int:int>");
}

TEST(SparkDdlTest, Errors) {
  EXPECT_NE(Parsed("a FOO").find("UNSUPPORTED_DATATYPE"), std::string::npos);
  EXPECT_NE(Parsed("a INT,").find("error"), std::string::npos);
  EXPECT_NE(Parsed("a VARCHAR(3)").find("UNSUPPORTED_CHAR_OR_VARCHAR_AS_STRING"), std::string::npos);
  EXPECT_NE(Parsed("a DECIMAL(39, 1)").find("precision"), std::string::npos);
  EXPECT_NE(Parsed(std::string(500, '<')).find("error"), std::string::npos);
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "array<";
  EXPECT_NE(Parsed(deep + "int" + std::string(200, '>')).find("deeply"), std::string::npos);
}

TEST(SparkDdlTest, SqlText) {
  auto t = ParseDdlSchema("a BIGINT, `b c` ARRAY<MAP<STRING, DECIMAL(38,18)>>, `1` BOOLEAN, d VOID");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(SparkSqlTypeText(**t),
            "STRUCT<a: BIGINT, `b c`: ARRAY<MAP<STRING, DECIMAL(38,18)>>, `1`: BOOLEAN, d: VOID>");
  EXPECT_EQ(QuoteIdentifierIfNeeded("a`b"), "`a``b`");
  EXPECT_EQ(QuoteIdentifierIfNeeded("_c0"), "_c0");
}

}  // namespace
}  // namespace epoxy
