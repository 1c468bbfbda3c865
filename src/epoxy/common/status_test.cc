// SPDX-License-Identifier: Apache-2.0
#include "epoxy/common/status.h"

#include <gtest/gtest.h>

#include "epoxy/common/result.h"

namespace epoxy {
namespace {

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidInput("{} is odd", x);
  return x / 2;
}

Result<int> Quarter(int x) {
  EPOXY_ASSIGN_OR_RETURN(int half, Half(x));
  EPOXY_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

TEST(StatusTest, OkIsEmpty) {
  Status st;
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kOk);
  EXPECT_EQ(st.ToString(), "OK");
  EXPECT_EQ(st.message(), "");
}

TEST(StatusTest, CarriesCodeAndMessage) {
  Status st = Status::NotFound("table {}.{} is missing", "db", "t");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  EXPECT_EQ(st.ToString(), "NotFound: table db.t is missing");
  Status copy = st;
  EXPECT_EQ(copy.ToString(), st.ToString());
  EXPECT_EQ(st.WithContext("reading x").message(), "reading x: table db.t is missing");
  EXPECT_TRUE(Status::OK().WithContext("ignored").ok());
}

TEST(StatusTest, ResultPropagatesTheFirstError) {
  EXPECT_EQ(*Quarter(8), 2);
  Result<int> r = Quarter(6);  // 6 -> 3, which is odd
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "3 is odd");
}

TEST(StatusTest, ReturnNotOkStopsEarly) {
  int calls = 0;
  auto step = [&](bool fail) {
    ++calls;
    return fail ? Status::IOError("disk") : Status::OK();
  };
  auto run = [&]() -> Status {
    EPOXY_RETURN_NOT_OK(step(false));
    EPOXY_RETURN_NOT_OK(step(true));
    EPOXY_RETURN_NOT_OK(step(false));
    return Status::OK();
  };
  EXPECT_EQ(run().code(), StatusCode::kIOError);
  EXPECT_EQ(calls, 2);
}

TEST(StatusDeathTest, ValueOfFailedResultAborts) {
  Result<int> r = Status::Internal("boom");
  EXPECT_DEATH((void)r.ValueOrDie(), "boom");
}

}  // namespace
}  // namespace epoxy
