// SPDX-License-Identifier: Apache-2.0
// Formatting and parsing with Spark datetime patterns.
#include "epoxy/expr/datetime_format.h"

#include <cctype>

#include "epoxy/expr/time_units.h"
#include "epoxy/types/value_text.h"

namespace epoxy::expr {
namespace {

const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                         "July",    "August",   "September", "October", "November", "December"};
const char* kDays[] = {"Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"};  // from 1970-01-01

std::string Padded(int64_t v, int width) {
  std::string s = std::to_string(v < 0 ? -v : v);
  if (static_cast<int>(s.size()) < width) s.insert(0, static_cast<size_t>(width) - s.size(), '0');
  return v < 0 ? "-" + s : s;
}

}  // namespace

Result<DateTimePattern> DateTimePattern::Compile(std::string_view pattern) {
  DateTimePattern out;
  size_t i = 0;
  while (i < pattern.size()) {
    char c = pattern[i];
    if (c == '\'') {
      size_t end = pattern.find('\'', i + 1);
      if (end == std::string_view::npos) return Status::InvalidInput("datetime pattern '{}': unclosed quote", pattern);
      Part p;
      p.literal = end == i + 1 ? "'" : std::string(pattern.substr(i + 1, end - i - 1));
      out.parts_.push_back(p);
      i = end + 1;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      if (std::string_view("yMdHhamsSEDZXxu").find(c) == std::string_view::npos) {
        return Status::InvalidInput("datetime pattern '{}': unsupported letter '{}'", pattern, c);
      }
      size_t start = i;
      while (i < pattern.size() && pattern[i] == c) ++i;
      Part p;
      p.letter = c;
      p.count = static_cast<int>(i - start);
      out.parts_.push_back(p);
    } else {
      Part p;
      p.literal = std::string(1, c);
      out.parts_.push_back(p);
      ++i;
    }
  }
  return out;
}

std::string DateTimePattern::Format(int64_t micros) const {
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t of_day = micros - days * kMicrosPerDay;
  int64_t year = 0;
  unsigned month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  int64_t hour = of_day / 3600000000, minute = of_day / 60000000 % 60, second = of_day / 1000000 % 60;
  int64_t fraction = of_day % 1000000;
  std::string out;
  for (const auto& p : parts_) {
    switch (p.letter) {
      case 0: out += p.literal; break;
      case 'y':
      case 'u': out += p.count == 2 ? Padded(year % 100, 2) : Padded(year, p.count); break;
      case 'M':
        if (p.count >= 4) out += kMonths[month - 1];
        else if (p.count == 3) out += std::string(kMonths[month - 1]).substr(0, 3);
        else out += Padded(month, p.count);
        break;
      case 'd': out += Padded(day, p.count); break;
      case 'D': out += Padded(days - DaysFromCivil(year, 1, 1) + 1, p.count); break;
      case 'H': out += Padded(hour, p.count); break;
      case 'h': out += Padded(hour % 12 == 0 ? 12 : hour % 12, p.count); break;
      case 'a': out += hour < 12 ? "AM" : "PM"; break;
      case 'm': out += Padded(minute, p.count); break;
      case 's': out += Padded(second, p.count); break;
      case 'S': out += Padded(fraction, 6).substr(0, static_cast<size_t>(std::min(p.count, 6))); break;
      case 'E': {
        std::string name = kDays[((days % 7) + 7) % 7];
        out += p.count >= 4 ? name : name.substr(0, 3);
        break;
      }
      default: out += p.count >= 5 ? "Z" : "+0000"; break;  // offsets: timestamps are UTC
    }
  }
  return out;
}

bool DateTimePattern::Parse(std::string_view text, int64_t* micros) const {
  int64_t year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, fraction = 0;
  bool pm = false, has_ampm = false;
  size_t at = 0;
  auto number = [&](int min_digits, int max_digits, int64_t* out) {
    size_t start = at;
    while (at < text.size() && static_cast<int>(at - start) < max_digits && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    if (static_cast<int>(at - start) < min_digits) return false;
    *out = 0;
    for (size_t k = start; k < at; ++k) *out = *out * 10 + (text[k] - '0');
    return true;
  };
  for (size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    // A field followed directly by another field takes exactly its width; otherwise up to a maximum.
    bool adjacent = k + 1 < parts_.size() && parts_[k + 1].letter != 0;
    int max = adjacent ? p.count : 9;
    switch (p.letter) {
      case 0:
        if (text.substr(at, p.literal.size()) != p.literal) return false;
        at += p.literal.size();
        break;
      case 'y':
      case 'u':
        if (!number(p.count == 2 ? 2 : 1, p.count == 2 ? 2 : (adjacent ? std::max(p.count, 4) : 9), &year)) return false;
        if (p.count == 2) year += 2000;
        break;
      case 'M':
        if (p.count >= 3) {
          bool found = false;
          for (int m = 0; m < 12 && !found; ++m) {
            std::string name = kMonths[m];
            if (p.count == 3) name = name.substr(0, 3);
            if (text.substr(at, name.size()) == name) {
              month = m + 1;
              at += name.size();
              found = true;
            }
          }
          if (!found) return false;
        } else if (!number(1, p.count == 2 && adjacent ? 2 : 2, &month)) {
          return false;
        }
        break;
      case 'd': if (!number(1, 2, &day)) return false; break;
      case 'H':
      case 'h': if (!number(1, 2, &hour)) return false; break;
      case 'm': if (!number(1, 2, &minute)) return false; break;
      case 's': if (!number(1, 2, &second)) return false; break;
      case 'S': {
        size_t start = at;
        if (!number(1, max, &fraction)) return false;
        for (size_t digits = at - start; digits < 6; ++digits) fraction *= 10;
        for (size_t digits = at - start; digits > 6; --digits) fraction /= 10;
        break;
      }
      case 'a':
        if (text.substr(at, 2) == "AM" || text.substr(at, 2) == "am") pm = false;
        else if (text.substr(at, 2) == "PM" || text.substr(at, 2) == "pm") pm = true;
        else return false;
        has_ampm = true;
        at += 2;
        break;
      default: return false;  // E, D and offsets are format-only here
    }
  }
  if (at != text.size()) return false;
  if (has_ampm) hour = hour % 12 + (pm ? 12 : 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return false;
  int64_t days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  int64_t y2 = 0;
  unsigned m2 = 0, d2 = 0;
  CivilFromDays(days, &y2, &m2, &d2);
  if (m2 != month || d2 != day) return false;  // 2026-02-30 is not a date
  *micros = days * kMicrosPerDay + ((hour * 60 + minute) * 60 + second) * 1000000 + fraction;
  return true;
}

}  // namespace epoxy::expr
