// SPDX-License-Identifier: Apache-2.0
// Units of dates (days since 1970-01-01) and timestamps (microseconds since the epoch), and the
// floor division that turns one into the other for times before 1970 too.
#pragma once

#include <cstdint>

namespace epoxy::expr {

inline constexpr int64_t kMicrosPerSecond = 1000000;
inline constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

/// a / b rounded toward negative infinity. REQUIRES: b > 0.
inline int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace epoxy::expr
