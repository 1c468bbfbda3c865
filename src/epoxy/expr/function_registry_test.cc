// SPDX-License-Identifier: Apache-2.0
#include "epoxy/expr/function_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "epoxy/expr/function_signature.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::expr {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

TEST(FunctionRegistryTest, FindsNamesAndAliasesInAnyCase) {
  const FunctionRegistry& r = FunctionRegistry::Builtins();
  ASSERT_NE(r.Find("coalesce"), nullptr);
  EXPECT_EQ(r.Find("NVL"), r.Find("coalesce"));
  EXPECT_EQ(r.Find("stddev")->name, "stddev_samp");
  EXPECT_EQ(r.Find("array_agg")->kind, FunctionKind::kAggregate);
  EXPECT_EQ(r.Find("row_number")->kind, FunctionKind::kWindow);
  EXPECT_EQ(r.Find("no_such_function"), nullptr);
}

TEST(FunctionRegistryTest, EveryEntryIsDocumentedAndNamedOnce) {
  const FunctionRegistry& r = FunctionRegistry::Builtins();
  std::vector<std::string> names = r.Names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_THAT(names, Contains("upper"));
  for (const FunctionEntry* e : r.Entries()) {
    EXPECT_FALSE(e->doc.group.empty()) << e->name << " has no group";
  }
}

TEST(FunctionRegistryTest, ClosestNamesForTypos) {
  const FunctionRegistry& r = FunctionRegistry::Builtins();
  EXPECT_THAT(r.Closest("uper"), Contains("upper"));
  EXPECT_THAT(r.Closest("regexp_extrct"), Contains("regexp_extract"));
  EXPECT_TRUE(r.Closest("zzzzzzzzzzzz").empty());
}

TEST(FunctionSignatureTest, ParsesOptionalAndRepeatedArguments) {
  ASSERT_OK_AND_ASSIGN(Signature s, ParseSignature("string, int, [string] -> string"));
  EXPECT_EQ(s.args.size(), 3u);
  EXPECT_EQ(s.required, 2u);
  EXPECT_FALSE(s.variadic);
  EXPECT_EQ(s.result_type->ToString(), "string");
  ASSERT_OK_AND_ASSIGN(Signature v, ParseSignature("string, any... -> arg0"));
  EXPECT_TRUE(v.variadic);
  EXPECT_EQ(v.required, 1u);
  EXPECT_EQ(v.result, Signature::Result::kArgument);
  ASSERT_OK_AND_ASSIGN(Signature t, ParseSignature("T, T... -> array<T>"));
  EXPECT_EQ(t.result, Signature::Result::kArrayOfCommon);
  EXPECT_FALSE(ParseSignature("string, int").ok());
}

TEST(FunctionSignatureTest, ImplicitCastsAreSparks) {
  ArgSpec numeric{ArgSpec::Kind::kNumeric, nullptr};
  ArgSpec integral{ArgSpec::Kind::kIntegral, nullptr};
  ArgSpec text{ArgSpec::Kind::kConcrete, DataType::String()};
  ArgSpec date{ArgSpec::Kind::kConcrete, DataType::Date()};
  EXPECT_EQ((*ImplicitCastTarget(DataType::String(), numeric))->ToString(), "double");
  EXPECT_EQ((*ImplicitCastTarget(DataType::Int(), numeric))->ToString(), "int");
  EXPECT_EQ((*ImplicitCastTarget(DataType::String(), integral))->ToString(), "bigint");
  EXPECT_EQ((*ImplicitCastTarget(DataType::Boolean(), text))->ToString(), "string");
  EXPECT_EQ((*ImplicitCastTarget(DataType::String(), date))->ToString(), "date");
  EXPECT_FALSE(ImplicitCastTarget(DataType::Boolean(), numeric).ok());
  EXPECT_FALSE(ImplicitCastTarget(DataType::Array(DataType::Int()), text).ok());
  EXPECT_FALSE(ImplicitCastTarget(DataType::Int(), date).ok());
}

}  // namespace
}  // namespace epoxy::expr
