// SPDX-License-Identifier: Apache-2.0
#include "epoxy/common/thread_pool.h"

#include <atomic>

#include <gtest/gtest.h>

namespace epoxy {
namespace {

TEST(ThreadPoolTest, RunsEveryTask) {
  ThreadPool pool(3);
  std::atomic<int> sum{0};
  TaskGroup group(pool);
  for (int i = 1; i <= 100; ++i) {
    group.Spawn([&sum, i] {
      sum += i;
      return Status::OK();
    });
  }
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(sum.load(), 5050);
}

TEST(ThreadPoolTest, KeepsTheFirstError) {
  ThreadPool pool(2);
  TaskGroup group(pool);
  for (int i = 0; i < 20; ++i) {
    group.Spawn([i] { return i == 7 ? Status::InvalidData("task {}", i) : Status::OK(); });
  }
  Status st = group.Wait();
  EXPECT_EQ(st.code(), StatusCode::kInvalidData);
  EXPECT_EQ(st.message(), "task 7");
  EXPECT_TRUE(group.failed());
}

TEST(ThreadPoolTest, NestedGroupsDoNotDeadlock) {
  // Every worker waits on inner tasks; Wait() helps run them.
  ThreadPool pool(2);
  std::atomic<int> done{0};
  TaskGroup outer(pool);
  for (int i = 0; i < 4; ++i) {
    outer.Spawn([&pool, &done] {
      TaskGroup inner(pool);
      for (int j = 0; j < 4; ++j) {
        inner.Spawn([&done] {
          ++done;
          return Status::OK();
        });
      }
      return inner.Wait();
    });
  }
  EXPECT_TRUE(outer.Wait().ok());
  EXPECT_EQ(done.load(), 16);
}

TEST(ThreadPoolTest, DefaultCountFollowsTheSetting) {
  EXPECT_GE(DefaultThreadCount(), 1);
  SetDefaultThreadCount(3);
  EXPECT_EQ(DefaultThreadCount(), 3);
  SetDefaultThreadCount(0);
}

}  // namespace
}  // namespace epoxy
