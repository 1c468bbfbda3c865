// SPDX-License-Identifier: Apache-2.0
#include "epoxy/memory/buffer.h"

#include <gtest/gtest.h>

namespace epoxy {
namespace {

TEST(BufferTest, BuilderGrowsGeometrically) {
  MemoryPool pool("test", 0);
  BufferBuilder builder(&pool);
  int reallocations = 0;
  int64_t capacity = builder.capacity();
  for (int i = 0; i < 100000; ++i) {
    ASSERT_TRUE(builder.Append(&i, sizeof(i)).ok());
    if (builder.capacity() != capacity) {
      ++reallocations;
      capacity = builder.capacity();
    }
  }
  EXPECT_LT(reallocations, 20);  // doubling: O(log n) copies, not O(n)
  auto buffer = builder.Finish();
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ((*buffer)->size(), 400000);
  EXPECT_EQ((*buffer)->data_as<int>()[99999], 99999);
  EXPECT_EQ(builder.size(), 0);
  EXPECT_GE(pool.bytes_allocated(), 400000);
  buffer->reset();
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

TEST(BufferTest, SliceKeepsTheParentAlive) {
  BufferPtr slice;
  {
    auto whole = Buffer::CopyOf("hello world");
    ASSERT_TRUE(whole.ok());
    slice = Buffer::Slice(*whole, 6, 5);
  }
  EXPECT_EQ(slice->view(), "world");
}

TEST(BufferTest, AllocationOverTheLimitFails) {
  MemoryPool pool("small", 1024);
  BufferBuilder builder(&pool);
  EXPECT_TRUE(builder.AppendZeros(1000).ok());
  Status st = builder.AppendZeros(10000);
  EXPECT_EQ(st.code(), StatusCode::kOutOfMemory);
  EXPECT_EQ(builder.size(), 1000);  // unchanged
}

}  // namespace
}  // namespace epoxy
