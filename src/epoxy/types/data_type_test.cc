// SPDX-License-Identifier: Apache-2.0
#include "epoxy/types/data_type.h"

#include <gtest/gtest.h>

namespace epoxy {
namespace {

TEST(DataTypeTest, TypeStringsRoundTrip) {
  for (const char* text :
       {"boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "decimal(10,2)",
        "decimal(38,0)", "string", "binary", "date", "timestamp", "array<int>", "map<string,bigint>",
        "struct<a:int,b:string>", "array<struct<sku:string,qty:bigint>>",
        "map<string,array<struct<x:double>>>", "choice<int,string>", "struct<`a b`:int,`x:y`:string>",
        "struct<`we``ird`:int>", "struct<>"}) {
    auto type = ParseType(text);
    ASSERT_TRUE(type.ok()) << text << ": " << type.status().ToString();
    EXPECT_EQ((*type)->ToString(), text);
  }
}

TEST(DataTypeTest, AcceptsAliases) {
  EXPECT_EQ((*ParseType("long"))->ToString(), "bigint");
  EXPECT_EQ((*ParseType("INTEGER"))->ToString(), "int");
  EXPECT_EQ((*ParseType("short"))->ToString(), "smallint");
  EXPECT_EQ((*ParseType("byte"))->ToString(), "tinyint");
  EXPECT_EQ((*ParseType("decimal"))->ToString(), "decimal(10,0)");
  EXPECT_EQ((*ParseType("varchar(20)"))->ToString(), "string");
  EXPECT_EQ((*ParseType(" array < int > "))->ToString(), "array<int>");
}

TEST(DataTypeTest, ErrorsNameThePosition) {
  auto bad = ParseType("struct<a:int,b:strin>");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(bad.status().message().find("unknown type 'strin'"), std::string::npos);
  EXPECT_NE(bad.status().message().find("position 15"), std::string::npos);
  EXPECT_FALSE(ParseType("decimal(40,2)").ok());
  EXPECT_FALSE(ParseType("decimal(5,6)").ok());
  EXPECT_FALSE(ParseType("array<int").ok());
  EXPECT_FALSE(ParseType("int extra").ok());
  EXPECT_FALSE(ParseType("").ok());
}

TEST(DataTypeTest, DeepNestingIsRefusedNotOverflowed) {
  std::string deep;
  for (int i = 0; i < 10000; ++i) deep += "array<";
  deep += "int";
  for (int i = 0; i < 10000; ++i) deep += ">";
  auto t = ParseType(deep);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("nested too deeply"), std::string::npos);
}

TEST(DataTypeTest, ChoiceFlattensAndDeduplicates) {
  TypePtr inner = DataType::Choice({DataType::BigInt(), DataType::String()});
  TypePtr outer = DataType::Choice({inner, DataType::Double(), DataType::String(), DataType::Null()});
  EXPECT_EQ(outer->ToString(), "choice<bigint,string,double>");
  EXPECT_EQ(DataType::Choice({DataType::Int()})->ToString(), "int");
  EXPECT_EQ(outer->MemberIndex(*DataType::Double()), 2);
}

TEST(DataTypeTest, EqualityIsStructural) {
  EXPECT_TRUE((*ParseType("struct<a:int>"))->Equals(*DataType::Struct({{"a", DataType::Int()}})));
  EXPECT_FALSE((*ParseType("struct<a:int>"))->Equals(*DataType::Struct({{"b", DataType::Int()}})));
  EXPECT_FALSE(DataType::Decimal(10, 2)->Equals(*DataType::Decimal(10, 3)));
}

}  // namespace
}  // namespace epoxy
