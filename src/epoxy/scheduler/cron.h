// SPDX-License-Identifier: Apache-2.0
// Glue's schedule expressions, `cron(Minutes Hours Day-of-month Month Day-of-week Year)` in UTC,
// parsed once and asked for the next time they fire. The syntax is AWS's: lists (`,`), ranges
// (`-`), steps (`/`), `*`, `?` (no value: one of the two day fields must be `?`), `L` (the last
// day of the month, or with a weekday the last such weekday), `W` (the weekday nearest a day),
// `#` (the n-th weekday of the month); months JAN-DEC, weekdays SUN-SAT (1 is Sunday); years
// 1970-2199.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "epoxy/common/result.h"

namespace epoxy::scheduler {

class CronSchedule {
 public:
  /// "cron(0 12 * * ? *)" (the "cron(...)" around the six fields may be left out).
  static Result<CronSchedule> Parse(std::string_view expression);

  /// The first firing time strictly after `after` (seconds since the epoch, UTC), on a whole
  /// minute; nothing when the schedule never fires again (its years are past, or it names a day
  /// that does not exist, such as 30 February).
  std::optional<int64_t> NextAfter(int64_t after) const;

  const std::string& text() const { return text_; }

 private:
  bool DayMatches(int year, int month, int day) const;

  std::string text_;
  std::bitset<60> minutes_;
  std::bitset<24> hours_;
  std::bitset<13> months_;     // 1..12
  std::bitset<230> years_;     // year - 1970, up to 2199
  // Day of month: a set of days, or L (last day, minus an offset), or nW / LW (nearest weekday).
  bool any_day_of_month_ = false;  // '?' or '*'
  std::bitset<32> days_of_month_;
  bool last_day_of_month_ = false;
  int last_day_offset_ = 0;     // L-3: three days before the last
  int nearest_weekday_to_ = 0;  // nW (0: none); -1 for LW
  // Day of week: a set of weekdays (1 Sunday .. 7 Saturday), or dL (last such weekday), or d#n.
  bool any_day_of_week_ = false;
  std::bitset<8> days_of_week_;
  int last_weekday_ = 0;  // dL
  int nth_weekday_ = 0, nth_ = 0;  // d#n
};

}  // namespace epoxy::scheduler
