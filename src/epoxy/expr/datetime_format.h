// SPDX-License-Identifier: Apache-2.0
// Spark's datetime patterns (yyyy-MM-dd HH:mm:ss.SSS and friends) for date_format, to_date,
// to_timestamp, unix_timestamp and from_unixtime.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::expr {

/// A compiled pattern. Letters: y (year), M (month; MMM short name, MMMM full name), d (day),
/// H (hour 0-23), h (1-12), a (AM/PM), m, s, S (fraction), E (day name), D (day of year),
/// Z/X/x (offset, always UTC here); text in single quotes is literal.
class DateTimePattern {
 public:
  static Result<DateTimePattern> Compile(std::string_view pattern);
  std::string Format(int64_t micros) const;
  /// Parses the whole of `text`; false when it does not fit the pattern.
  bool Parse(std::string_view text, int64_t* micros) const;

 private:
  struct Part {
    char letter = 0;  // 0 for literal text
    int count = 0;
    std::string literal;
  };
  std::vector<Part> parts_;
};

}  // namespace epoxy::expr
