// SPDX-License-Identifier: Apache-2.0
// Converting values to and from text: strict parsers used by type inference and the text readers,
// and the canonical printed forms of dates, timestamps and decimals.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace epoxy {

/// Optional sign and decimal digits only; false on overflow or any other character.
bool ParseInt64(std::string_view text, int64_t* out);
/// A decimal number with at least one digit ("1", "-2.5", "1e10", ".5"); false for words such as
/// "nan" or "inf", which text readers keep as strings.
bool ParseDouble(std::string_view text, double* out);
/// "true"/"false", any case.
bool ParseBoolean(std::string_view text, bool* out);
/// "YYYY-MM-DD" into days since 1970-01-01.
bool ParseDate(std::string_view text, int32_t* days);
/// "YYYY-MM-DD HH:MM:SS[.fraction]" into microseconds since the epoch. With `allow_iso` also the
/// 'T' separator and a trailing "Z" or "+HH:MM"/"-HH:MM" offset (normalised to UTC).
bool ParseTimestamp(std::string_view text, int64_t* micros, bool allow_iso = false);
/// A plain decimal ("-12.50") into an unscaled 128-bit value at `scale`; false when it has more
/// fractional digits than `scale` or does not fit `precision`.
bool ParseDecimal(std::string_view text, int precision, int scale, __int128* out);
/// Digits of a plain decimal: integer digits and fraction digits (leading zeros of the integer part
/// not counted); false when `text` is not a plain decimal.
bool DecimalShape(std::string_view text, int* integer_digits, int* fraction_digits);

int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);
void CivilFromDays(int64_t days, int64_t* year, unsigned* month, unsigned* day);

/// "2026-08-17".
std::string FormatDate(int32_t days);
/// "2026-08-17 09:05:00" or with `iso` "2026-08-17T09:05:00"; a fraction is printed only when
/// non-zero, without trailing zeros.
std::string FormatTimestamp(int64_t micros, bool iso = false);
/// "-12.50" for unscaled -1250 at scale 2.
std::string FormatDecimal(__int128 unscaled, int scale);
/// Shortest text that reads back as the same double ("1.5", "1e+300", "NaN", "Infinity").
std::string FormatDouble(double value);

}  // namespace epoxy
