// SPDX-License-Identifier: Apache-2.0
#include "epoxy/types/type_merge.h"

#include <gtest/gtest.h>

namespace epoxy {
namespace {

std::string Merge(const char* a, const char* b, MergeMode mode) {
  return MergeTypes(*ParseType(a), *ParseType(b), mode)->ToString();
}

TEST(TypeMergeTest, CatalogWidens) {
  const auto kCatalog = MergeMode::kCatalog;
  EXPECT_EQ(Merge("int", "bigint", kCatalog), "bigint");
  EXPECT_EQ(Merge("tinyint", "smallint", kCatalog), "smallint");
  EXPECT_EQ(Merge("int", "double", kCatalog), "double");
  EXPECT_EQ(Merge("float", "double", kCatalog), "double");
  EXPECT_EQ(Merge("bigint", "string", kCatalog), "string");
  EXPECT_EQ(Merge("boolean", "int", kCatalog), "string");
  EXPECT_EQ(Merge("date", "timestamp", kCatalog), "timestamp");
  EXPECT_EQ(Merge("decimal(12,2)", "decimal(10,4)", kCatalog), "decimal(14,4)");
  EXPECT_EQ(Merge("decimal(5,2)", "bigint", kCatalog), "decimal(21,2)");
  EXPECT_EQ(Merge("decimal(38,10)", "decimal(38,0)", kCatalog), "double");
  EXPECT_EQ(Merge("struct<a:int>", "string", kCatalog), "string");
  EXPECT_EQ(Merge("null", "int", kCatalog), "int");
}

TEST(TypeMergeTest, DynamicFrameKeepsChoices) {
  const auto kFrame = MergeMode::kDynamicFrame;
  EXPECT_EQ(Merge("bigint", "string", kFrame), "choice<bigint,string>");
  EXPECT_EQ(Merge("int", "double", kFrame), "choice<int,double>");
  EXPECT_EQ(Merge("choice<bigint,string>", "double", kFrame), "choice<bigint,string,double>");
  EXPECT_EQ(Merge("choice<bigint,string>", "string", kFrame), "choice<bigint,string>");
  EXPECT_EQ(Merge("null", "string", kFrame), "string");
}

TEST(TypeMergeTest, StructsMergeFieldByField) {
  EXPECT_EQ(Merge("struct<a:int,b:string>", "struct<b:bigint,c:double>", MergeMode::kCatalog),
            "struct<a:int,b:string,c:double>");
  EXPECT_EQ(Merge("struct<a:int,b:string>", "struct<b:bigint,c:double>", MergeMode::kDynamicFrame),
            "struct<a:int,b:choice<string,bigint>,c:double>");
  EXPECT_EQ(Merge("array<struct<a:int>>", "array<struct<b:int>>", MergeMode::kDynamicFrame),
            "array<struct<a:int,b:int>>");
  EXPECT_EQ(Merge("choice<struct<a:int>,string>", "struct<b:int>", MergeMode::kDynamicFrame),
            "choice<struct<a:int,b:int>,string>");
}

TEST(TypeMergeTest, CatalogViewOfAFrame) {
  TypePtr frame = *ParseType("struct<id:choice<bigint,string>,amount:choice<int,double>,n:null>");
  EXPECT_EQ(ToCatalogType(frame)->ToString(), "struct<id:string,amount:double,n:string>");
}

TEST(TypeMergeTest, SchemasMergeByName) {
  Schema a({{"x", DataType::Int()}, {"y", DataType::String()}});
  Schema b({{"y", DataType::String()}, {"z", DataType::Date()}, {"x", DataType::BigInt()}});
  EXPECT_EQ(MergeSchemas(a, b, MergeMode::kCatalog)->ToString(), "x: bigint\ny: string\nz: date\n");
}

}  // namespace
}  // namespace epoxy
