// SPDX-License-Identifier: Apache-2.0
#include "epoxy/memory/memory_pool.h"

#include <gtest/gtest.h>

namespace epoxy {
namespace {

TEST(MemoryPoolTest, CountsAndReleases) {
  MemoryPool pool("test", 0);
  auto a = pool.Allocate(1000);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(pool.bytes_allocated(), 1000);
  auto b = pool.Reallocate(*a, 1000, 5000);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(pool.bytes_allocated(), 5000);
  pool.Free(*b, 5000);
  EXPECT_EQ(pool.bytes_allocated(), 0);
  EXPECT_EQ(pool.peak_bytes(), 6000);  // both were live during the copy
}

TEST(MemoryPoolTest, RefusesPastTheLimitAndChargesNothing) {
  MemoryPool pool("job", 4096);
  auto a = pool.Allocate(3000);
  ASSERT_TRUE(a.ok());
  auto b = pool.Allocate(2000, "a column chunk");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kOutOfMemory);
  EXPECT_NE(b.status().message().find("exceeds the memory limit"), std::string::npos);
  EXPECT_NE(b.status().message().find("a column chunk"), std::string::npos);
  EXPECT_EQ(pool.bytes_allocated(), 3000);
  pool.Free(*a, 3000);
}

TEST(MemoryPoolTest, ChildChargesItsParent) {
  MemoryPool process("process", 10000);
  MemoryPool run("run", 0, &process);
  auto a = run.Allocate(8000);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(process.bytes_allocated(), 8000);
  auto b = run.Allocate(4000);  // within the run's own (absent) limit, over the parent's
  EXPECT_FALSE(b.ok());
  EXPECT_EQ(run.bytes_allocated(), 8000);
  run.Free(*a, 8000);
  EXPECT_EQ(process.bytes_allocated(), 0);
}

TEST(MemoryPoolTest, ParsesByteSizes) {
  EXPECT_EQ(*ParseByteSize("1048576"), 1048576);
  EXPECT_EQ(*ParseByteSize("512M"), 512LL << 20);
  EXPECT_EQ(*ParseByteSize("2g"), 2LL << 30);
  EXPECT_FALSE(ParseByteSize("").ok());
  EXPECT_FALSE(ParseByteSize("12X").ok());
  EXPECT_FALSE(ParseByteSize("G").ok());
  EXPECT_FALSE(ParseByteSize("99999999999999999999").ok());
}

}  // namespace
}  // namespace epoxy
