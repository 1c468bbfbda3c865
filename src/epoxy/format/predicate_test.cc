// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/predicate.h"

#include <gtest/gtest.h>

namespace epoxy {
namespace {

bool May(const PredicatePtr& p, const ColumnStats& s) {
  return MayMatch(*p, [&](const std::string& c) { return c == "x" ? &s : nullptr; });
}

ColumnStats Range(int64_t lo, int64_t hi, int64_t nulls = 0) {
  ColumnStats s;
  s.has_bounds = true;
  s.min = lo;
  s.max = hi;
  s.has_null_count = true;
  s.null_count = nulls;
  s.num_values = 100;
  return s;
}

TEST(PredicateTest, ComparisonsAgainstBounds) {
  using Op = Predicate::Op;
  ColumnStats s = Range(10, 20);
  EXPECT_TRUE(May(Predicate::Compare("x", Op::kEq, int64_t{15}), s));
  EXPECT_FALSE(May(Predicate::Compare("x", Op::kEq, int64_t{25}), s));
  EXPECT_FALSE(May(Predicate::Compare("x", Op::kLt, int64_t{10}), s));
  EXPECT_TRUE(May(Predicate::Compare("x", Op::kLe, int64_t{10}), s));
  EXPECT_FALSE(May(Predicate::Compare("x", Op::kGt, int64_t{20}), s));
  EXPECT_TRUE(May(Predicate::Compare("x", Op::kGe, int64_t{20}), s));
  EXPECT_TRUE(May(Predicate::Compare("x", Op::kGt, 19.5), s));  // int bounds, double literal
  EXPECT_FALSE(May(Predicate::Compare("x", Op::kNe, int64_t{5}), Range(5, 5)));
  EXPECT_TRUE(May(Predicate::Compare("y", Op::kEq, int64_t{99}), s));  // unknown column
}

TEST(PredicateTest, NullsAndLogic) {
  using Op = Predicate::Op;
  EXPECT_FALSE(May(Predicate::IsNull("x"), Range(1, 2, 0)));
  EXPECT_TRUE(May(Predicate::IsNull("x"), Range(1, 2, 3)));
  ColumnStats all_null = Range(0, 0, 100);
  EXPECT_FALSE(May(Predicate::Compare("x", Op::kEq, int64_t{0}), all_null));
  EXPECT_FALSE(May(Predicate::IsNull("x", /*negated=*/true), all_null));
  auto in_range = Predicate::Compare("x", Op::kGe, int64_t{15});
  auto out_of_range = Predicate::Compare("x", Op::kGt, int64_t{30});
  EXPECT_FALSE(May(Predicate::And({in_range, out_of_range}), Range(10, 20)));
  EXPECT_TRUE(May(Predicate::Or({in_range, out_of_range}), Range(10, 20)));
}

TEST(PredicateTest, Strings) {
  ColumnStats s;
  s.has_bounds = true;
  s.min = std::string("2026-08-01");
  s.max = std::string("2026-08-31");
  s.num_values = 10;
  EXPECT_TRUE(May(Predicate::Compare("x", Predicate::Op::kEq, std::string("2026-08-17")), s));
  EXPECT_FALSE(May(Predicate::Compare("x", Predicate::Op::kEq, std::string("2026-09-01")), s));
}

}  // namespace
}  // namespace epoxy
