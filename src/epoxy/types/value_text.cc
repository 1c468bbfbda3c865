// SPDX-License-Identifier: Apache-2.0
// Text parsing and printing of scalar values.
#include "epoxy/types/value_text.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace epoxy {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

/// Parses exactly `n` digits at text[pos].
bool Digits(std::string_view text, size_t pos, size_t n, int* out) {
  if (pos + n > text.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = text[pos + i];
    if (!IsDigit(c)) return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

bool ValidCivil(int year, int month, int day) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  int max = kDays[month - 1] + (month == 2 && leap ? 1 : 0);
  (void)year;
  return day <= max;
}

}  // namespace

bool ParseInt64(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  size_t i = 0;
  bool negative = false;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    i = 1;
    if (text.size() == 1) return false;
  }
  uint64_t value = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (!IsDigit(c)) return false;
    if (value > (UINT64_MAX - 9) / 10) return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (negative) {
    if (value > static_cast<uint64_t>(INT64_MAX) + 1) return false;
    *out = static_cast<int64_t>(0 - value);
  } else {
    if (value > static_cast<uint64_t>(INT64_MAX)) return false;
    *out = static_cast<int64_t>(value);
  }
  return true;
}

bool ParseDouble(std::string_view text, double* out) {
  if (text.empty()) return false;
  if (text[0] == '+') text.remove_prefix(1);
  bool has_digit = false;
  for (char c : text) {
    if (IsDigit(c)) {
      has_digit = true;
    } else if (c != '.' && c != '-' && c != 'e' && c != 'E' && c != '+') {
      return false;
    }
  }
  if (!has_digit) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  if (ec == std::errc::result_out_of_range) {
    // Keep magnitude: overflow becomes infinity, underflow zero, as strtod does.
    *out = std::strtod(std::string(text).c_str(), nullptr);
    return ptr == end;
  }
  return ec == std::errc() && ptr == end;
}

bool ParseBoolean(std::string_view text, bool* out) {
  if (text.size() == 4 && (text[0] == 't' || text[0] == 'T') && (text[1] | 0x20) == 'r' &&
      (text[2] | 0x20) == 'u' && (text[3] | 0x20) == 'e') {
    *out = true;
    return true;
  }
  if (text.size() == 5 && (text[0] == 'f' || text[0] == 'F') && (text[1] | 0x20) == 'a' &&
      (text[2] | 0x20) == 'l' && (text[3] | 0x20) == 's' && (text[4] | 0x20) == 'e') {
    *out = false;
    return true;
  }
  return false;
}

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilFromDays(int64_t z, int64_t* year, unsigned* month, unsigned* day) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = mp < 10 ? mp + 3 : mp - 9;
  *year = y + (*month <= 2);
}

bool ParseDate(std::string_view text, int32_t* days) {
  int y, m, d;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  if (!Digits(text, 0, 4, &y) || !Digits(text, 5, 2, &m) || !Digits(text, 8, 2, &d)) return false;
  if (!ValidCivil(y, m, d)) return false;
  *days = static_cast<int32_t>(DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)));
  return true;
}

bool ParseTimestamp(std::string_view text, int64_t* micros, bool allow_iso) {
  if (text.size() < 19) return false;
  int32_t days;
  if (!ParseDate(text.substr(0, 10), &days)) return false;
  char sep = text[10];
  if (sep != ' ' && !(allow_iso && sep == 'T')) return false;
  int hh, mm, ss;
  if (!Digits(text, 11, 2, &hh) || text[13] != ':' || !Digits(text, 14, 2, &mm) ||
      text[16] != ':' || !Digits(text, 17, 2, &ss)) {
    return false;
  }
  if (hh > 23 || mm > 59 || ss > 59) return false;
  size_t pos = 19;
  int64_t fraction = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    size_t digits = 0;
    while (pos < text.size() && IsDigit(text[pos])) {
      if (digits < 6) fraction = fraction * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0 || digits > 9) return false;
    for (size_t i = digits; i < 6; ++i) fraction *= 10;
  }
  int64_t offset_seconds = 0;
  if (pos < text.size()) {
    if (!allow_iso) return false;
    if (text[pos] == 'Z' && pos + 1 == text.size()) {
      ++pos;
    } else if ((text[pos] == '+' || text[pos] == '-') && pos + 6 == text.size() &&
               text[pos + 3] == ':') {
      int oh, om;
      if (!Digits(text, pos + 1, 2, &oh) || !Digits(text, pos + 4, 2, &om)) return false;
      offset_seconds = (oh * 3600 + om * 60) * (text[pos] == '+' ? 1 : -1);
      pos = text.size();
    } else {
      return false;
    }
  }
  int64_t seconds = static_cast<int64_t>(days) * 86400 + hh * 3600 + mm * 60 + ss - offset_seconds;
  *micros = seconds * 1000000 + fraction;
  return true;
}

bool DecimalShape(std::string_view text, int* integer_digits, int* fraction_digits) {
  if (text.empty()) return false;
  size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  int int_digits = 0, frac_digits = 0;
  bool seen_point = false, any_digit = false, leading = true;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (seen_point) return false;
      seen_point = true;
      continue;
    }
    if (!IsDigit(c)) return false;
    any_digit = true;
    if (seen_point) {
      ++frac_digits;
    } else if (!(leading && c == '0')) {
      leading = false;
      ++int_digits;
    }
  }
  if (!any_digit) return false;
  *integer_digits = int_digits;
  *fraction_digits = frac_digits;
  return true;
}

bool ParseDecimal(std::string_view text, int precision, int scale, __int128* out) {
  int int_digits, frac_digits;
  if (!DecimalShape(text, &int_digits, &frac_digits)) return false;
  if (frac_digits > scale || int_digits > precision - scale) return false;
  bool negative = text[0] == '-';
  __int128 value = 0;
  for (char c : text) {
    if (IsDigit(c)) value = value * 10 + (c - '0');
  }
  for (int i = frac_digits; i < scale; ++i) value *= 10;
  *out = negative ? -value : value;
  return true;
}

std::string FormatDate(int32_t days) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  if (y >= 0 && y <= 9999) return fmt::format("{:04}-{:02}-{:02}", y, m, d);
  return fmt::format("{}-{:02}-{:02}", y, m, d);
}

std::string FormatTimestamp(int64_t micros, bool iso) {
  int64_t seconds = micros / 1000000;
  int64_t fraction = micros % 1000000;
  if (fraction < 0) {
    fraction += 1000000;
    seconds -= 1;
  }
  int64_t days = seconds / 86400;
  int64_t rem = seconds % 86400;
  if (rem < 0) {
    rem += 86400;
    days -= 1;
  }
  std::string out = FormatDate(static_cast<int32_t>(days));
  out += iso ? 'T' : ' ';
  out += fmt::format("{:02}:{:02}:{:02}", rem / 3600, (rem / 60) % 60, rem % 60);
  if (fraction != 0) {
    std::string f = fmt::format("{:06}", fraction);
    while (!f.empty() && f.back() == '0') f.pop_back();
    out += '.';
    out += f;
  }
  return out;
}

std::string FormatDecimal(__int128 unscaled, int scale) {
  bool negative = unscaled < 0;
  unsigned __int128 v = negative ? static_cast<unsigned __int128>(-(unscaled + 1)) + 1
                                 : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  while (static_cast<int>(digits.size()) <= scale) digits.push_back('0');
  std::string out = negative ? "-" : "";
  for (size_t i = digits.size(); i-- > 0;) {
    out.push_back(digits[i]);
    if (scale > 0 && i == static_cast<size_t>(scale)) out.push_back('.');
  }
  return out;
}

std::string FormatDouble(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  (void)ec;
  std::string out(buf, ptr);
  return out;
}

}  // namespace epoxy
