// SPDX-License-Identifier: Apache-2.0
#include "epoxy/types/value_text.h"

#include <gtest/gtest.h>

namespace epoxy {
namespace {

TEST(ValueTextTest, Integers) {
  int64_t v;
  EXPECT_TRUE(ParseInt64("-9223372036854775808", &v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(ParseInt64("+42", &v));
  EXPECT_EQ(v, 42);
  EXPECT_FALSE(ParseInt64("9223372036854775808", &v));
  EXPECT_FALSE(ParseInt64("12.5", &v));
  EXPECT_FALSE(ParseInt64("-", &v));
  EXPECT_FALSE(ParseInt64("", &v));
  EXPECT_FALSE(ParseInt64(" 1", &v));
}

TEST(ValueTextTest, Doubles) {
  double d;
  EXPECT_TRUE(ParseDouble("12.50", &d));
  EXPECT_EQ(d, 12.5);
  EXPECT_TRUE(ParseDouble("-1e3", &d));
  EXPECT_EQ(d, -1000);
  EXPECT_TRUE(ParseDouble(".5", &d));
  EXPECT_FALSE(ParseDouble("nan", &d));
  EXPECT_FALSE(ParseDouble("inf", &d));
  EXPECT_FALSE(ParseDouble("1.2.3", &d));
  EXPECT_FALSE(ParseDouble("N/A", &d));
}

TEST(ValueTextTest, DatesAndTimestamps) {
  int32_t days;
  EXPECT_TRUE(ParseDate("1970-01-01", &days));
  EXPECT_EQ(days, 0);
  EXPECT_TRUE(ParseDate("2024-02-29", &days));
  EXPECT_EQ(FormatDate(days), "2024-02-29");
  EXPECT_FALSE(ParseDate("2023-02-29", &days));
  EXPECT_FALSE(ParseDate("2023-13-01", &days));
  EXPECT_FALSE(ParseDate("2023-1-01", &days));
  EXPECT_TRUE(ParseDate("1900-03-01", &days));
  EXPECT_EQ(FormatDate(days), "1900-03-01");

  int64_t micros;
  EXPECT_TRUE(ParseTimestamp("2026-08-17 09:05:00", &micros));
  EXPECT_EQ(FormatTimestamp(micros), "2026-08-17 09:05:00");
  EXPECT_TRUE(ParseTimestamp("2026-08-17 09:05:00.125", &micros));
  EXPECT_EQ(FormatTimestamp(micros, true), "2026-08-17T09:05:00.125");
  EXPECT_FALSE(ParseTimestamp("2026-08-17T09:05:00Z", &micros));  // Hive form only by default
  EXPECT_TRUE(ParseTimestamp("2026-08-17T09:05:00Z", &micros, true));
  int64_t utc = micros;
  EXPECT_TRUE(ParseTimestamp("2026-08-17T11:05:00+02:00", &micros, true));
  EXPECT_EQ(micros, utc);
  EXPECT_TRUE(ParseTimestamp("1969-12-31 23:59:59.5", &micros));
  EXPECT_EQ(micros, -500000);
  EXPECT_EQ(FormatTimestamp(micros), "1969-12-31 23:59:59.5");
  EXPECT_FALSE(ParseTimestamp("2026-08-17 24:00:00", &micros));
}

TEST(ValueTextTest, Decimals) {
  __int128 v;
  EXPECT_TRUE(ParseDecimal("-12.5", 10, 2, &v));
  EXPECT_EQ(FormatDecimal(v, 2), "-12.50");
  EXPECT_FALSE(ParseDecimal("1.234", 10, 2, &v));
  EXPECT_FALSE(ParseDecimal("123456789.1", 10, 2, &v));
  EXPECT_TRUE(ParseDecimal("12345678901234567890123456789012345678", 38, 0, &v));
  EXPECT_EQ(FormatDecimal(v, 0), "12345678901234567890123456789012345678");
  EXPECT_EQ(FormatDecimal(5, 3), "0.005");
  int i, f;
  EXPECT_TRUE(DecimalShape("007.250", &i, &f));
  EXPECT_EQ(i, 1);
  EXPECT_EQ(f, 3);
}

TEST(ValueTextTest, DoublesPrintShortest) {
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(12.0), "12");
  EXPECT_EQ(FormatDouble(1e300), "1e+300");
  EXPECT_EQ(FormatDouble(-0.0), "-0");
}

}  // namespace
}  // namespace epoxy
