// SPDX-License-Identifier: Apache-2.0
// RowOrder::Sort (radix sort over prefixes, comparison sort for ties and nulls, parallel above a
// size) against a plain comparison sort with the full order, over keys with many ties.
#include <random>

#include <gtest/gtest.h>

#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/sort_keys.h"
#include "epoxy/vector/builder.h"

namespace epoxy::exec {
namespace {

struct Keys {
  std::vector<BatchPtr> batches;
  std::vector<plan::SortKey> order;
};

/// `rows` rows over `batches` batches: a double with few distinct values (and nulls when asked), a
/// bigint, and a string whose first 8 bytes are often equal.
Keys MakeKeys(int64_t rows, int batches, bool nulls, std::vector<std::pair<int, bool>> order) {
  std::mt19937_64 random(42);
  auto schema = Schema::Make({{"d", DataType::Double()}, {"b", DataType::BigInt()}, {"s", DataType::String()}});
  Keys keys;
  for (int k = 0; k < batches; ++k) {
    DoubleBuilder d(DataType::Double(), &MemoryPool::Default());
    Int64Builder b(DataType::BigInt(), &MemoryPool::Default());
    StringBuilder s(DataType::String(), &MemoryPool::Default());
    const int64_t n = rows / batches;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t r = random();
      if (nulls && r % 17 == 0) {
        EXPECT_TRUE(d.AppendNull().ok());
      } else {
        EXPECT_TRUE(d.Append(static_cast<double>(static_cast<int64_t>(r % 301) - 150) / 4).ok());
      }
      EXPECT_TRUE(b.Append(static_cast<int64_t>(r >> 20) % 1000 - 500).ok());
      EXPECT_TRUE(s.Append("prefix--" + std::to_string(r % 997)).ok());
    }
    keys.batches.push_back(Batch::Make(schema, {*d.Finish(), *b.Finish(), *s.Finish()}, n));
  }
  for (auto [column, ascending] : order) {
    plan::SortKey key;
    key.expr = plan::ColumnRef(*schema, column);
    key.ascending = ascending;
    key.nulls_first = ascending;
    keys.order.push_back(key);
  }
  return keys;
}

void ExpectSortedLikeAComparisonSort(const Keys& keys, ThreadPool* pool) {
  RowOrder order(keys.order, 0);
  std::vector<SortEntry> entries = order.EntriesOf(keys.batches, pool);
  std::vector<SortEntry> expected = entries;
  auto full = [&](const SortEntry& a, const SortEntry& b) {
    return order.Compare(*keys.batches[a.ref >> 32], a.ref & 0xffffffffu, *keys.batches[b.ref >> 32], b.ref & 0xffffffffu) < 0;
  };
  std::stable_sort(expected.begin(), expected.end(), full);
  order.Sort(&entries, keys.batches, pool);
  ASSERT_EQ(entries.size(), expected.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const SortEntry& a = entries[i];
    const SortEntry& b = expected[i];
    // Rows with equal keys may come in any order: compare the keys at each position.
    ASSERT_EQ(order.Compare(*keys.batches[a.ref >> 32], a.ref & 0xffffffffu, *keys.batches[b.ref >> 32], b.ref & 0xffffffffu), 0)
        << "position " << i;
  }
}

TEST(RowOrderTest, RadixSortOrdersAsTheKeysDo) {
  ThreadPool pool(3);
  for (bool nulls : {false, true}) {
    for (auto order : std::vector<std::vector<std::pair<int, bool>>>{
             {{0, true}}, {{0, false}, {1, true}}, {{1, true}, {0, false}, {2, true}}, {{2, false}, {1, true}}, {{2, true}}}) {
      for (int64_t rows : {int64_t{50}, int64_t{5000}, int64_t{100000}}) {
        SCOPED_TRACE(::testing::Message() << "rows " << rows << " nulls " << nulls << " keys " << order.size());
        Keys keys = MakeKeys(rows, 7, nulls, order);
        ExpectSortedLikeAComparisonSort(keys, nullptr);
        ExpectSortedLikeAComparisonSort(keys, &pool);
      }
    }
  }
}

}  // namespace
}  // namespace epoxy::exec
