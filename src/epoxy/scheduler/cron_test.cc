// SPDX-License-Identifier: Apache-2.0
// Next fire times of Glue schedule expressions, from a table written from AWS's documented cron
// syntax (the expected dates were worked out with a calendar, not with this code).
#include "epoxy/scheduler/cron.h"

#include <gtest/gtest.h>

#include <ctime>

namespace epoxy::scheduler {
namespace {

/// "2026-12-03 08:00" (UTC) as epoch seconds.
int64_t At(const char* text) {
  std::tm tm{};
  strptime(text, "%Y-%m-%d %H:%M", &tm);
  return timegm(&tm);
}

std::string Next(const char* expression, const char* after) {
  auto c = CronSchedule::Parse(expression);
  EXPECT_TRUE(c.ok()) << expression << ": " << c.status().ToString();
  if (!c.ok()) return "";
  auto next = c->NextAfter(At(after));
  if (!next) return "never";
  std::time_t t = *next;
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M", std::gmtime(&t));
  return buffer;
}

struct Case {
  const char* expression;
  const char* after;
  const char* next;
};

TEST(CronTest, NextFireTimes) {
  const Case cases[] = {
      {"cron(15 12 * * ? *)", "2026-12-03 08:00", "2026-12-03 12:15"},
      {"cron(15 12 * * ? *)", "2026-12-03 12:15", "2026-12-04 12:15"},  // strictly after
      {"cron(15 12 * * ? *)", "2026-12-31 23:59", "2027-01-01 12:15"},
      {"cron(0/15 * * * ? *)", "2026-12-03 08:01", "2026-12-03 08:15"},
      {"cron(5,35 8-10/2 * * ? *)", "2026-12-03 08:40", "2026-12-03 10:05"},
      {"cron(5,35 8-10/2 * * ? *)", "2026-12-03 10:35", "2026-12-04 08:05"},
      {"0 2 L * ? *", "2026-02-01 00:00", "2026-02-28 02:00"},            // month end
      {"cron(0 2 L * ? *)", "2028-02-01 00:00", "2028-02-29 02:00"},      // leap year
      {"cron(0 2 L * ? *)", "2026-04-30 02:00", "2026-05-31 02:00"},
      {"cron(0 0 L-2 * ? *)", "2027-02-01 00:00", "2027-02-26 00:00"},
      {"cron(0 0 29 2 ? *)", "2025-03-01 00:00", "2028-02-29 00:00"},     // the next leap day
      {"cron(0 0 29 2 ? *)", "2096-03-01 00:00", "2104-02-29 00:00"},     // 2100 is not a leap year
      {"cron(0 12 31 * ? *)", "2026-04-01 00:00", "2026-05-31 12:00"},    // April has no 31st
      {"cron(0 8 15W * ? *)", "2026-08-01 00:00", "2026-08-14 08:00"},    // Saturday 15th: Friday
      {"cron(0 8 15W * ? *)", "2026-11-01 00:00", "2026-11-16 08:00"},    // Sunday 15th: Monday
      {"cron(0 8 1W * ? *)", "2026-08-01 00:00", "2026-08-03 08:00"},     // Saturday 1st: Monday 3rd
      {"cron(0 0 LW * ? *)", "2026-01-01 00:00", "2026-01-30 00:00"},     // Saturday 31st: Friday
      {"cron(0 0 LW * ? *)", "2026-05-01 00:00", "2026-05-29 00:00"},     // Sunday 31st: Friday
      {"cron(0 10 ? * 6L *)", "2026-12-01 00:00", "2026-12-25 10:00"},    // the last Friday
      {"cron(0 9 ? * 2#1 *)", "2026-12-08 00:00", "2027-01-04 09:00"},    // the first Monday
      {"cron(0 9 ? * MON#1 *)", "2026-12-08 00:00", "2027-01-04 09:00"},
      {"cron(0 12 ? JAN-MAR MON-FRI 2027)", "2026-12-03 08:00", "2027-01-01 12:00"},
      {"cron(0 12 ? * SAT,SUN *)", "2026-12-03 08:00", "2026-12-05 12:00"},
      {"cron(0 12 ? * L *)", "2026-12-03 08:00", "2026-12-05 12:00"},     // L alone: Saturday
      {"cron(0 0 1 1 ? 2020)", "2026-12-03 08:00", "never"},               // its years are past
      {"cron(0 0 30 2 ? *)", "2026-12-03 08:00", "never"},                 // no 30 February
      {"cron(30 23 ? * 1#5 2027-2029)", "2027-01-01 00:00", "2027-01-31 23:30"},  // a fifth Sunday
  };
  for (const auto& c : cases) EXPECT_EQ(Next(c.expression, c.after), c.next) << c.expression << " after " << c.after;
}

TEST(CronTest, BadExpressionsAreRefusedWithTheField) {
  auto error = [](const char* e) {
    auto c = CronSchedule::Parse(e);
    EXPECT_FALSE(c.ok()) << e;
    return c.ok() ? std::string() : c.status().message();
  };
  EXPECT_NE(error("cron(0 12 * * * *)").find("Day-of-month and Day-of-week"), std::string::npos);
  EXPECT_NE(error("cron(0 12 ? * ? *)").find("Day-of-month and Day-of-week"), std::string::npos);
  EXPECT_NE(error("cron(0 12 * * ?)").find("6 fields"), std::string::npos);
  EXPECT_NE(error("cron(60 * * * ? *)").find("Minutes"), std::string::npos);
  EXPECT_NE(error("cron(* 24 * * ? *)").find("Hours"), std::string::npos);
  EXPECT_NE(error("cron(* * * 13 ? *)").find("Month"), std::string::npos);
  EXPECT_NE(error("cron(* * ? * 8 *)").find("Day-of-week"), std::string::npos);
  EXPECT_NE(error("cron(* * ? * 2#6 *)").find("Day-of-week"), std::string::npos);
  EXPECT_NE(error("cron(* * 5-2 * ? *)").find("ends before it starts"), std::string::npos);
  EXPECT_NE(error("cron(*/0 * * * ? *)").find("step"), std::string::npos);
  EXPECT_NE(error("cron(* * * * ? 2300)").find("Year"), std::string::npos);
  EXPECT_NE(error("cron(* * * FOO ? *)").find("Month"), std::string::npos);
  error("rate(5 minutes)");
  error("");
}

}  // namespace
}  // namespace epoxy::scheduler
