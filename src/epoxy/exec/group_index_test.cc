// SPDX-License-Identifier: Apache-2.0
#include "epoxy/exec/group_index.h"

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy::exec {
namespace {

/// Group ids of every row of `json_lines` keyed by `columns`, and the rows that began groups.
std::pair<std::vector<uint32_t>, std::vector<int32_t>> Groups(std::string_view json_lines,
                                                             const std::vector<std::string>& columns) {
  BatchPtr batch = testing::JsonBatch(json_lines);
  std::vector<ArrayPtr> keys;
  for (const auto& c : columns) keys.push_back(batch->column(batch->schema()->FieldIndex(c)));
  GroupIndex index(nullptr);
  std::vector<uint32_t> ids;
  std::vector<int32_t> fresh;
  EXPECT_TRUE(index.Add(keys, batch->num_rows(), &fresh, &ids).ok());
  EXPECT_EQ(index.num_groups(), static_cast<int64_t>(fresh.size()));
  return {ids, fresh};
}

TEST(GroupIndexTest, EqualKeysShareAnIdNullsIncluded) {
  auto [ids, fresh] = Groups(R"({"a": 1, "s": "x"}
{"a": 2, "s": "x"}
{"a": 1, "s": "x"}
{"a": null, "s": "x"}
{"a": null, "s": "x"}
{"a": 1, "s": null}
{"a": 1, "s": ""}
)", {"a", "s"});
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 0, 2, 2, 3, 4}));
  EXPECT_EQ(fresh, (std::vector<int32_t>{0, 1, 3, 5, 6}));
}

TEST(GroupIndexTest, ColumnBoundariesDoNotBlur) {
  // "ab"+"c" and "a"+"bc" concatenate alike; the key keeps each column's length.
  auto [ids, fresh] = Groups(R"({"x": "ab", "y": "c"}
{"x": "a", "y": "bc"}
)", {"x", "y"});
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1}));
}

TEST(GroupIndexTest, ZerosAndNaNsGroupAsSparkDoes) {
  BatchPtr batch = testing::JsonBatch("{\"d\": 0.0}\n{\"d\": -0.0}\n{\"d\": 1.5}\n");
  GroupIndex index(nullptr);
  std::vector<uint32_t> ids;
  std::vector<int32_t> fresh;
  ASSERT_TRUE(index.Add({batch->column(0)}, 3, &fresh, &ids).ok());
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 1}));
  std::string nan1, nan2;
  auto a = Array::Make(DataType::Double(), 2, {nullptr, *Buffer::CopyOf(std::string_view("\0\0\0\0\0\0\xf8\x7f\x01\0\0\0\0\0\xf8\x7f", 16))}, {}, 0);
  AppendGroupKey(*a, 0, &nan1);
  AppendGroupKey(*a, 1, &nan2);
  EXPECT_EQ(nan1, nan2);  // two NaN payloads, one group
}

TEST(GroupIndexTest, NestedValuesCompareMemberByMember) {
  auto [ids, fresh] = Groups(R"({"d": {"os": "ios", "v": 1}, "items": [1, 2]}
{"d": {"os": "ios", "v": 1}, "items": [1, 2]}
{"d": {"os": "ios", "v": 2}, "items": [1, 2]}
{"d": {"os": "ios", "v": 1}, "items": [1]}
{"d": {"os": "ios", "v": 1}, "items": []}
{"d": null, "items": null}
)", {"d", "items"});
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 1, 2, 3, 4}));
}

TEST(GroupIndexTest, GroupsPersistAcrossBatchesAndTheTableGrows) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "{\"k\": " + std::to_string(i % 3000) + "}\n";
  BatchPtr batch = testing::JsonBatch(text);
  GroupIndex index(nullptr);
  std::vector<int32_t> fresh;
  ASSERT_TRUE(index.Add({batch->column(0)}, batch->num_rows(), &fresh).ok());
  EXPECT_EQ(fresh.size(), 3000u);
  ASSERT_TRUE(index.Add({batch->column(0)}, batch->num_rows(), &fresh).ok());
  EXPECT_TRUE(fresh.empty());  // the second batch holds no new key
  EXPECT_EQ(index.num_groups(), 3000);
}

}  // namespace
}  // namespace epoxy::exec
