// SPDX-License-Identifier: Apache-2.0
#include "epoxy/vector/builder.h"

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

using ::epoxy::testing::ToJsonLines;
using ::testing::ElementsAre;

TEST(BuilderTest, IntegersWithNulls) {
  Int64Builder b(DataType::BigInt(), &MemoryPool::Default());
  ASSERT_OK(b.Append(1));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK(b.Append(-3));
  ASSERT_OK_AND_ASSIGN(ArrayPtr a, b.Finish());
  EXPECT_EQ(a->length(), 3);
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_TRUE(a->IsValid(0));
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->values<int64_t>()[2], -3);
  // The builder is reusable after Finish.
  ASSERT_OK(b.Append(7));
  ASSERT_OK_AND_ASSIGN(ArrayPtr again, b.Finish());
  EXPECT_EQ(again->length(), 1);
  EXPECT_EQ(again->null_count(), 0);
  EXPECT_EQ(again->buffers()[0], nullptr);  // no bitmap when nothing is null
}

TEST(BuilderTest, ManyValuesAcrossBitmapBytes) {
  BooleanBuilder b(&MemoryPool::Default());
  for (int i = 0; i < 1000; ++i) {
    if (i % 7 == 0) {
      ASSERT_OK(b.AppendNull());
    } else {
      ASSERT_OK(b.Append(i % 2 == 0));
    }
  }
  ASSERT_OK_AND_ASSIGN(ArrayPtr a, b.Finish());
  EXPECT_EQ(a->null_count(), 143);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(a->IsNull(i), i % 7 == 0) << i;
    if (i % 7 != 0) {
      ASSERT_EQ(a->GetBool(i), i % 2 == 0) << i;
    }
  }
}

TEST(BuilderTest, NestedTypesFromAType) {
  TypePtr type = *ParseType("struct<id:bigint,tags:array<string>,attrs:map<string,int>>");
  ASSERT_OK_AND_ASSIGN(auto generic, MakeBuilder(type));
  auto* st = static_cast<StructBuilder*>(generic.get());
  auto* id = static_cast<Int64Builder*>(st->field(0));
  auto* tags = static_cast<ListBuilder*>(st->field(1));
  auto* attrs = static_cast<MapBuilder*>(st->field(2));
  // row 0
  ASSERT_OK(id->Append(1));
  ASSERT_OK(static_cast<StringBuilder*>(tags->child())->Append("a"));
  ASSERT_OK(static_cast<StringBuilder*>(tags->child())->Append("b"));
  ASSERT_OK(tags->AppendList());
  ASSERT_OK(static_cast<StringBuilder*>(attrs->keys())->Append("k"));
  ASSERT_OK(static_cast<Int32Builder*>(attrs->values())->Append(5));
  ASSERT_OK(attrs->AppendMap());
  ASSERT_OK(st->AppendStruct());
  // row 1: null struct
  ASSERT_OK(st->AppendNull());
  ASSERT_OK_AND_ASSIGN(ArrayPtr a, st->Finish());
  Batch batch(Schema::Make({{"s", type}}), {a}, 2);
  EXPECT_THAT(ToJsonLines(batch),
              ElementsAre(R"({"s":{"id":1,"tags":["a","b"],"attrs":{"k":5}}})", R"({"s":null})"));
}

TEST(BuilderTest, ChoiceIsASparseUnion) {
  TypePtr type = DataType::Choice({DataType::BigInt(), DataType::String()});
  ASSERT_OK_AND_ASSIGN(auto generic, MakeBuilder(type));
  auto* choice = static_cast<ChoiceBuilder*>(generic.get());
  ASSERT_OK(static_cast<Int64Builder*>(choice->member(0))->Append(42));
  ASSERT_OK(choice->AppendMember(0));
  ASSERT_OK(static_cast<StringBuilder*>(choice->member(1))->Append("N/A"));
  ASSERT_OK(choice->AppendMember(1));
  ASSERT_OK(choice->AppendNull());
  ASSERT_OK_AND_ASSIGN(ArrayPtr a, choice->Finish());
  EXPECT_EQ(a->length(), 3);
  EXPECT_EQ(a->child(0)->length(), 3);  // sparse: every member as long as the choice
  EXPECT_EQ(a->child(1)->length(), 3);
  EXPECT_EQ(a->choice_index(1), 1);
  EXPECT_TRUE(a->IsNull(2));
  EXPECT_EQ(a->null_count(), 1);
  Batch batch(Schema::Make({{"v", type}}), {a}, 3);
  EXPECT_THAT(ToJsonLines(batch), ElementsAre(R"({"v":42})", R"({"v":"N/A"})", R"({"v":null})"));
}

TEST(BuilderTest, SliceIsZeroCopyAndRecountsNulls) {
  StringBuilder b(DataType::String(), &MemoryPool::Default());
  for (const char* s : {"a", "bb", "", "dddd"}) ASSERT_OK(b.Append(s));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK_AND_ASSIGN(ArrayPtr a, b.Finish());
  ArrayPtr s = a->Slice(2, 3);
  EXPECT_EQ(s->length(), 3);
  EXPECT_EQ(s->GetView(0), "");
  EXPECT_EQ(s->GetView(1), "dddd");
  EXPECT_TRUE(s->IsNull(2));
  EXPECT_EQ(s->null_count(), 1);
  EXPECT_EQ(s->buffers()[2].get(), a->buffers()[2].get());  // shares the bytes
}

TEST(BuilderTest, ConcatenateCopiesEveryRow) {
  TypePtr type = *ParseType("array<struct<x:int>>");
  std::vector<ArrayPtr> parts;
  for (int p = 0; p < 3; ++p) {
    ASSERT_OK_AND_ASSIGN(auto generic, MakeBuilder(type));
    auto* list = static_cast<ListBuilder*>(generic.get());
    auto* st = static_cast<StructBuilder*>(list->child());
    ASSERT_OK(static_cast<Int32Builder*>(st->field(0))->Append(p));
    ASSERT_OK(st->AppendStruct());
    ASSERT_OK(list->AppendList());
    ASSERT_OK(list->AppendNull());
    ASSERT_OK_AND_ASSIGN(ArrayPtr part, list->Finish());
    parts.push_back(part);
  }
  ASSERT_OK_AND_ASSIGN(ArrayPtr all, Concatenate(parts));
  Batch batch(Schema::Make({{"l", type}}), {all}, 6);
  EXPECT_THAT(ToJsonLines(batch),
              ElementsAre(R"({"l":[{"x":0}]})", R"({"l":null})", R"({"l":[{"x":1}]})",
                          R"({"l":null})", R"({"l":[{"x":2}]})", R"({"l":null})"));
}

TEST(BuilderTest, TruncateTakesBackNestedValues) {
  auto type = DataType::Struct({{"a", DataType::BigInt()},
                                {"l", DataType::Array(DataType::String())},
                                {"b", DataType::Boolean()}});
  ASSERT_OK_AND_ASSIGN(auto builder, MakeBuilder(type, &MemoryPool::Default()));
  auto* st = static_cast<StructBuilder*>(builder.get());
  auto* list = static_cast<ListBuilder*>(st->field(1));
  auto append_row = [&](int64_t a, std::vector<std::string> items, bool b) {
    ASSERT_OK(static_cast<Int64Builder*>(st->field(0))->Append(a));
    for (const auto& s : items) ASSERT_OK(static_cast<StringBuilder*>(list->child())->Append(s));
    ASSERT_OK(list->AppendList());
    ASSERT_OK(static_cast<BooleanBuilder*>(st->field(2))->Append(b));
    ASSERT_OK(st->AppendStruct());
  };
  append_row(1, {"x"}, true);
  ASSERT_OK(st->AppendNull());
  append_row(2, {"y", "z"}, true);
  append_row(3, {"w"}, true);
  st->Truncate(2);  // drops rows 2 and 3 (and their list elements)
  append_row(4, {"v"}, false);
  ASSERT_OK_AND_ASSIGN(ArrayPtr a, st->Finish());
  EXPECT_EQ(a->length(), 3);
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_THAT(ToJsonLines(*Batch::Make(Schema::Make({{"s", type}}), {a}, 3)),
              ElementsAre(R"({"s":{"a":1,"l":["x"],"b":true}})", R"({"s":null})",
                          R"({"s":{"a":4,"l":["v"],"b":false}})"));
}

}  // namespace
}  // namespace epoxy
