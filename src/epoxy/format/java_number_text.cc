// SPDX-License-Identifier: Apache-2.0
// Java's Double.toString and Float.toString from the shortest round-trip digits.
#include "epoxy/format/java_number_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace epoxy {
namespace {

/// Lays out shortest `digits` (no sign, no point) whose first digit stands at 10^`exponent` as
/// Java does.
void AppendJavaLayout(bool negative, std::string_view digits, int exponent, bool plain,
                      std::string* out) {
  if (negative) out->push_back('-');
  if (!plain) {
    out->push_back(digits[0]);
    out->push_back('.');
    if (digits.size() > 1) {
      out->append(digits.substr(1));
    } else {
      out->push_back('0');
    }
    out->push_back('E');
    out->append(std::to_string(exponent));
    return;
  }
  if (exponent < 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-exponent - 1), '0');
    out->append(digits);
    return;
  }
  const size_t integer_digits = static_cast<size_t>(exponent) + 1;
  if (digits.size() <= integer_digits) {
    out->append(digits);
    out->append(integer_digits - digits.size(), '0');
    out->append(".0");
  } else {
    out->append(digits.substr(0, integer_digits));
    out->push_back('.');
    out->append(digits.substr(integer_digits));
  }
}

template <typename T>
void AppendJavaFloating(T value, std::string* out) {
  if (std::isnan(value)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "Infinity" : "-Infinity");
    return;
  }
  const bool negative = std::signbit(value);
  if (value == 0) {
    out->append(negative ? "-0.0" : "0.0");
    return;
  }
  T magnitude = std::fabs(value);
  // Shortest round-trip digits in scientific form: "d[.ddd]e[+-]xx".
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof(buf), magnitude, std::chars_format::scientific);
  std::string_view text(buf, static_cast<size_t>(result.ptr - buf));
  size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits.push_back(c);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  if (digits.size() == 1) {
    // Java always prints two digits at least (d.d), and picks the two-digit decimal closest to
    // the exact value when it still reads back as the same number: 4.9E-324, not 5.0E-324.
    result = std::to_chars(buf, buf + sizeof(buf), magnitude, std::chars_format::scientific, 1);
    T back{};
    std::from_chars(buf, result.ptr, back);
    if (back == magnitude) {
      text = std::string_view(buf, static_cast<size_t>(result.ptr - buf));
      e = text.find('e');
      digits = {text[0], text[2]};
      if (digits[1] == '0') digits.pop_back();
      exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
    }
  }
  const bool plain = magnitude >= static_cast<T>(1e-3) && magnitude < static_cast<T>(1e7);
  AppendJavaLayout(negative, digits, exponent, plain, out);
}

}  // namespace

void AppendJavaDouble(double value, std::string* out) { AppendJavaFloating(value, out); }

void AppendJavaFloat(float value, std::string* out) { AppendJavaFloating(value, out); }

}  // namespace epoxy
