// SPDX-License-Identifier: Apache-2.0
#include "epoxy/vector/adaptive_builder.h"

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

using ::epoxy::testing::ToJsonLines;
using ::testing::ElementsAre;

TEST(AdaptiveBuilderTest, LearnsAChoiceFromConflictingValues) {
  AdaptiveStruct records(&MemoryPool::Default());
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK_AND_ASSIGN(AdaptiveBuilder * amount, records.Field("amount"));
    if (i == 1) {
      ASSERT_OK(amount->AppendString("12.50"));
    } else if (i == 2) {
      ASSERT_OK(amount->AppendNull());
    } else {
      ASSERT_OK(amount->AppendInt64(1200 + i));
    }
    ASSERT_OK(records.EndRow());
  }
  ASSERT_OK_AND_ASSIGN(BatchPtr batch, records.FinishBatch());
  EXPECT_EQ(batch->schema()->ToString(), "amount: choice<bigint,string>\n");
  EXPECT_THAT(ToJsonLines(*batch), ElementsAre(R"({"amount":1200})", R"({"amount":"12.50"})",
                                               R"({"amount":null})", R"({"amount":1203})"));
}

TEST(AdaptiveBuilderTest, FieldsAppearAndAreBackfilled) {
  AdaptiveStruct records(&MemoryPool::Default());
  {
    ASSERT_OK_AND_ASSIGN(AdaptiveBuilder * a, records.Field("a"));
    ASSERT_OK(a->AppendInt64(1));
    ASSERT_OK(records.EndRow());
  }
  {
    ASSERT_OK_AND_ASSIGN(AdaptiveBuilder * b, records.Field("b"));
    ASSERT_OK_AND_ASSIGN(AdaptiveStruct * inner, b->AppendStruct());
    ASSERT_OK_AND_ASSIGN(AdaptiveBuilder * x, inner->Field("x"));
    ASSERT_OK_AND_ASSIGN(AdaptiveList * list, x->AppendList());
    ASSERT_OK(list->elements()->AppendBool(true));
    ASSERT_OK(list->elements()->AppendDouble(2.5));
    ASSERT_OK(list->EndRow());
    ASSERT_OK(inner->EndRow());
    ASSERT_OK(records.EndRow());
  }
  {
    ASSERT_OK_AND_ASSIGN(AdaptiveBuilder * a, records.Field("a"));
    ASSERT_OK(a->AppendInt64(3));
    ASSERT_OK_AND_ASSIGN(AdaptiveBuilder * dup, records.Field("a"));
    EXPECT_EQ(dup, nullptr);  // duplicate key: the first value wins
    ASSERT_OK(records.EndRow());
  }
  ASSERT_OK_AND_ASSIGN(BatchPtr batch, records.FinishBatch());
  EXPECT_EQ(batch->schema()->ToString(),
            "a: bigint\nb: struct<x:array<choice<boolean,double>>>\n");
  EXPECT_THAT(ToJsonLines(*batch), ElementsAre(R"({"a":1,"b":null})",
                                               R"({"a":null,"b":{"x":[true,2.5]}})",
                                               R"({"a":3,"b":null})"));
}

TEST(AdaptiveBuilderTest, OnlyNullsGiveTheNullType) {
  AdaptiveBuilder b(&MemoryPool::Default());
  ASSERT_OK(b.AppendNull());
  ASSERT_OK(b.AppendNull());
  ASSERT_OK_AND_ASSIGN(ArrayPtr a, b.Finish());
  EXPECT_EQ(a->type()->ToString(), "null");
  EXPECT_EQ(a->length(), 2);
  EXPECT_TRUE(a->IsNull(1));
}

TEST(AdaptiveBuilderTest, BigUnsignedBecomesDecimal) {
  AdaptiveBuilder b(&MemoryPool::Default());
  ASSERT_OK(b.AppendUInt64(18446744073709551615ULL));
  ASSERT_OK_AND_ASSIGN(ArrayPtr a, b.Finish());
  EXPECT_EQ(a->type()->ToString(), "decimal(20,0)");
  Batch batch(Schema::Make({{"n", a->type()}}), {a}, 1);
  EXPECT_THAT(ToJsonLines(batch), ElementsAre(R"({"n":"18446744073709551615"})"));
}

}  // namespace
}  // namespace epoxy
