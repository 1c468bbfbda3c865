// SPDX-License-Identifier: Apache-2.0
#include "epoxy/scheduler/cron.h"

#include <cctype>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "epoxy/types/value_text.h"

namespace epoxy::scheduler {
namespace {

constexpr int kFirstYear = 1970, kLastYear = 2199;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int DaysInMonth(int year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

/// 1 (Sunday) .. 7 (Saturday).
int Weekday(int year, int month, int day) {
  const int64_t days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));  // a Thursday
  return static_cast<int>(((days + 4) % 7 + 7) % 7) + 1;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t at = text.find(sep, start);
    out.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

struct FieldSpec {
  const char* name;
  int min, max;
  const std::vector<std::string>* names;  // names[i] is min + i
};

Status FieldError(const FieldSpec& f, std::string_view text, std::string_view why) {
  return Status::InvalidInput("{} field '{}' of the cron expression {} (allowed: {}-{}{})", f.name, text, why, f.min,
                              f.max, f.names ? fmt::format(" or {}-{}", f.names->front(), f.names->back()) : "");
}

Result<int> Value(const FieldSpec& f, std::string_view text) {
  if (f.names != nullptr) {
    const std::string upper = Upper(text);
    for (size_t i = 0; i < f.names->size(); ++i) {
      if ((*f.names)[i] == upper) return f.min + static_cast<int>(i);
    }
  }
  if (text.empty() || text.size() > 4) return FieldError(f, text, "is not a value");
  int v = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return FieldError(f, text, "is not a value");
    v = v * 10 + (c - '0');
  }
  if (v < f.min || v > f.max) return FieldError(f, text, "is out of range");
  return v;
}

/// A list of `*`, values, ranges and steps into `bits` (index = value).
template <size_t N>
Status ParseList(const FieldSpec& f, std::string_view text, std::bitset<N>* bits, int offset = 0) {
  for (std::string_view item : Split(text, ',')) {
    std::string_view range = item;
    int step = 1;
    if (size_t slash = item.find('/'); slash != std::string_view::npos) {
      range = item.substr(0, slash);
      std::string_view s = item.substr(slash + 1);
      if (s.empty() || s.size() > 4) return FieldError(f, item, "has a bad step");
      step = 0;
      for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return FieldError(f, item, "has a bad step");
        step = step * 10 + (c - '0');
      }
      if (step < 1) return FieldError(f, item, "has a bad step");
    }
    int lo = f.min, hi = f.max;
    if (range != "*") {
      size_t dash = range.find('-');
      EPOXY_ASSIGN_OR_RETURN(lo, Value(f, range.substr(0, dash)));
      if (dash != std::string_view::npos) {
        EPOXY_ASSIGN_OR_RETURN(hi, Value(f, range.substr(dash + 1)));
        if (hi < lo) return FieldError(f, item, "is a range that ends before it starts");
      } else if (item.find('/') == std::string_view::npos) {
        hi = lo;
      }
    }
    for (int v = lo; v <= hi; v += step) bits->set(static_cast<size_t>(v - offset));
  }
  return Status::OK();
}

const std::vector<std::string> kMonths = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                          "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
const std::vector<std::string> kWeekdays = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

}  // namespace

Result<CronSchedule> CronSchedule::Parse(std::string_view expression) {
  CronSchedule c;
  c.text_ = std::string(expression);
  std::string_view body = expression;
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.front()))) body.remove_prefix(1);
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.remove_suffix(1);
  if (body.size() > 5 && Upper(body.substr(0, 5)) == "CRON(" && body.back() == ')') {
    body = body.substr(5, body.size() - 6);
  }
  std::vector<std::string_view> fields;
  for (std::string_view f : Split(body, ' ')) {
    if (!f.empty()) fields.push_back(f);
  }
  if (fields.size() != 6) {
    return Status::InvalidInput("'{}' is not a schedule: cron(Minutes Hours Day-of-month Month Day-of-week Year) "
                                "takes 6 fields, not {}", expression, fields.size());
  }
  static const FieldSpec kMinute{"Minutes", 0, 59, nullptr}, kHour{"Hours", 0, 23, nullptr},
      kDom{"Day-of-month", 1, 31, nullptr}, kMonth{"Month", 1, 12, &kMonths},
      kDow{"Day-of-week", 1, 7, &kWeekdays}, kYear{"Year", kFirstYear, kLastYear, nullptr};
  EPOXY_RETURN_NOT_OK(ParseList(kMinute, fields[0], &c.minutes_));
  EPOXY_RETURN_NOT_OK(ParseList(kHour, fields[1], &c.hours_));
  EPOXY_RETURN_NOT_OK(ParseList(kMonth, fields[3], &c.months_));
  EPOXY_RETURN_NOT_OK(ParseList(kYear, fields[5], &c.years_, kFirstYear));

  const std::string dom = Upper(fields[2]), dow = Upper(fields[4]);
  if ((dom == "?") == (dow == "?")) {
    return Status::InvalidInput("'{}': one of Day-of-month and Day-of-week must be '?' and the other not "
                                "(they cannot both be given)", expression);
  }
  if (dom == "?") {
    c.any_day_of_month_ = true;
  } else if (dom == "*") {
    c.any_day_of_month_ = true;
  } else if (dom == "L") {
    c.last_day_of_month_ = true;
  } else if (dom.rfind("L-", 0) == 0) {
    EPOXY_ASSIGN_OR_RETURN(c.last_day_offset_, Value(FieldSpec{"Day-of-month", 0, 30, nullptr}, dom.substr(2)));
    c.last_day_of_month_ = true;
  } else if (dom == "LW") {
    c.nearest_weekday_to_ = -1;
  } else if (dom.size() > 1 && dom.back() == 'W') {
    EPOXY_ASSIGN_OR_RETURN(c.nearest_weekday_to_, Value(kDom, std::string_view(dom).substr(0, dom.size() - 1)));
  } else {
    EPOXY_RETURN_NOT_OK(ParseList(kDom, dom, &c.days_of_month_));
  }
  if (dow == "?" || dow == "*") {
    c.any_day_of_week_ = true;
  } else if (dow == "L") {
    c.days_of_week_.set(7);  // L alone is Saturday, the week's last day
  } else if (dow.size() > 1 && dow.back() == 'L') {
    EPOXY_ASSIGN_OR_RETURN(c.last_weekday_, Value(kDow, std::string_view(dow).substr(0, dow.size() - 1)));
  } else if (size_t hash = dow.find('#'); hash != std::string::npos) {
    EPOXY_ASSIGN_OR_RETURN(c.nth_weekday_, Value(kDow, std::string_view(dow).substr(0, hash)));
    EPOXY_ASSIGN_OR_RETURN(c.nth_, Value(FieldSpec{"Day-of-week", 1, 5, nullptr}, std::string_view(dow).substr(hash + 1)));
  } else {
    EPOXY_RETURN_NOT_OK(ParseList(kDow, dow, &c.days_of_week_));
  }
  // The '?' side matches every day; the other one decides.
  if (dom == "?") c.any_day_of_month_ = true;
  if (dow == "?") c.any_day_of_week_ = true;
  return c;
}

bool CronSchedule::DayMatches(int year, int month, int day) const {
  const int dim = DaysInMonth(year, month);
  bool dom = any_day_of_month_;
  if (!dom) {
    if (last_day_of_month_) {
      dom = day == dim - last_day_offset_;
    } else if (nearest_weekday_to_ != 0) {
      int target = nearest_weekday_to_ < 0 ? dim : nearest_weekday_to_;
      if (target > dim) return false;
      const int w = Weekday(year, month, target);
      if (w == 7) target = target == 1 ? 3 : target - 1;           // Saturday: the Friday before
      else if (w == 1) target = target == dim ? target - 2 : target + 1;  // Sunday: the Monday after
      dom = day == target;
    } else {
      dom = days_of_month_[static_cast<size_t>(day)];
    }
  }
  if (!dom) return false;
  if (any_day_of_week_) return true;
  const int w = Weekday(year, month, day);
  if (last_weekday_ != 0) return w == last_weekday_ && day + 7 > dim;
  if (nth_weekday_ != 0) return w == nth_weekday_ && (day - 1) / 7 + 1 == nth_;
  return days_of_week_[static_cast<size_t>(w)];
}

std::optional<int64_t> CronSchedule::NextAfter(int64_t after) const {
  const int64_t minute = FloorDiv(after, 60) + 1;  // the next whole minute
  int64_t days = FloorDiv(minute, 1440);
  int first_minute_of_day = static_cast<int>(minute - days * 1440);
  while (true) {
    int64_t civil_year;
    unsigned civil_month, civil_day;
    CivilFromDays(days, &civil_year, &civil_month, &civil_day);
    const int year = static_cast<int>(civil_year), month = static_cast<int>(civil_month), day = static_cast<int>(civil_day);
    if (year > kLastYear) return std::nullopt;
    if (year < kFirstYear || !years_[static_cast<size_t>(year - kFirstYear)]) {
      days = DaysFromCivil(year + 1, 1, 1);
      first_minute_of_day = 0;
      continue;
    }
    if (!months_[static_cast<size_t>(month)]) {
      days = month == 12 ? DaysFromCivil(year + 1, 1, 1) : DaysFromCivil(year, civil_month + 1, 1);
      first_minute_of_day = 0;
      continue;
    }
    if (DayMatches(year, month, day)) {
      for (int m = first_minute_of_day; m < 1440; ++m) {
        if (hours_[static_cast<size_t>(m / 60)] && minutes_[static_cast<size_t>(m % 60)]) {
          return (days * 1440 + m) * 60;
        }
      }
    }
    ++days;
    first_minute_of_day = 0;
  }
}

}  // namespace epoxy::scheduler
