// SPDX-License-Identifier: Apache-2.0
#include "epoxy/vector/take.h"

#include <gtest/gtest.h>

#include "epoxy/vector/builder.h"

namespace epoxy {
namespace {

/// The rows as text, for the types this test builds.
std::string Json(const Array& a) {
  std::string out;
  for (int64_t i = 0; i < a.length(); ++i) {
    if (i > 0) out += ",";
    if (a.IsNull(i)) {
      out += "null";
    } else if (a.type_id() == TypeId::kBigInt) {
      out += std::to_string(a.values<int64_t>()[i]);
    } else if (a.type_id() == TypeId::kString) {
      out += "\"" + std::string(a.GetView(i)) + "\"";
    } else if (a.type_id() == TypeId::kBoolean) {
      out += a.GetBool(i) ? "true" : "false";
    } else {
      out += "[" + Json(*a.child(0)->Slice(a.offsets()[i], a.offsets()[i + 1] - a.offsets()[i])) + "]";
    }
  }
  return out;
}

TEST(TakeTest, FlatAndNestedColumns) {
  Int64Builder ints(DataType::BigInt(), nullptr);
  StringBuilder strings(DataType::String(), nullptr);
  BooleanBuilder bools(nullptr);
  auto list_type = DataType::Array(DataType::BigInt());
  auto list = MakeBuilder(list_type);
  ASSERT_TRUE(list.ok());
  auto* lb = static_cast<ListBuilder*>(list->get());
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE((i == 2 ? ints.AppendNull() : ints.Append(i * 10)).ok());
    ASSERT_TRUE((i == 3 ? strings.AppendNull() : strings.Append(std::string(static_cast<size_t>(i), 'x'))).ok());
    ASSERT_TRUE(bools.Append(i % 2 == 0).ok());
    for (int k = 0; k < i; ++k) ASSERT_TRUE(static_cast<Int64Builder*>(lb->child())->Append(k).ok());
    ASSERT_TRUE(lb->AppendList().ok());
  }
  std::vector<int32_t> idx = {4, 2, 3, 0};
  EXPECT_EQ(Json(**Take(**ints.Finish(), idx)), "40,null,30,0");
  EXPECT_EQ(Json(**Take(**strings.Finish(), idx)), "\"xxxx\",\"xx\",null,\"\"");
  EXPECT_EQ(Json(**Take(**bools.Finish(), idx)), "true,true,false,true");
  EXPECT_EQ(Json(**Take(**(*list)->Finish(), idx)), "[0,1,2,3],[0,1],[0,1,2],[]");
  auto none = Take(**ints.Finish(), {});
  EXPECT_EQ((*none)->length(), 0);
}

}  // namespace
}  // namespace epoxy
