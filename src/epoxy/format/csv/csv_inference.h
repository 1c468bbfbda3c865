// SPDX-License-Identifier: Apache-2.0
// Guessing what a CSV file holds: the separator, whether the first record is a header, and each
// column's type, from a sample of records.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "epoxy/format/csv/csv_tokenizer.h"
#include "epoxy/types/data_type.h"

namespace epoxy {

/// Accumulates the values of one column and names the narrowest type that holds all of its typed
/// values: boolean, int, bigint, decimal (only where a double would lose digits), double, date,
/// timestamp (Hive's "yyyy-MM-dd HH:mm:ss[.f]"), else string. A few values that read only as text
/// ("N/A") do not count, as in a DynamicFrame where each record carries its own type: the reader
/// turns them into the string member of a choice. When more than 1 in 10 values are text only, the
/// column is string (a hex id that happens to be all digits must not make a choice). Integers with
/// leading zeros ("08123") are text, since a number would lose the zero. Nulls are ignored.
class CsvTypeGuess {
 public:
  void Observe(std::string_view text);
  /// string when nothing but nulls was seen.
  TypePtr Type() const;
  /// Whether every value seen was text only (and at least one was seen).
  bool only_strings() const { return num_text_ > 0 && num_typed_ == 0; }

 private:
  /// Whether `text` reads as any type other than string.
  static bool IsTyped(std::string_view text);

  int64_t num_text_ = 0;
  int64_t num_typed_ = 0;
  bool could_bool_ = true;
  bool could_int32_ = true;
  bool could_int64_ = true;
  bool could_decimal_ = true;  // every value is a plain decimal ("-12.50")
  bool could_double_ = true;
  bool could_date_ = true;
  bool could_timestamp_ = true;
  int max_integer_digits_ = 0;
  int max_fraction_digits_ = 0;
};

/// The separator that splits the first records into the most rows of one width (at least 2);
/// ',' when none does.
char SniffSeparator(std::string_view data, const CsvDialect& base);

/// Glue's CSV classifier rule: the first record is a header when every cell is a string, all but
/// the last are non-empty and under 150 characters, and some column of the other records is not
/// all strings. A lone record of such strings is a header of an empty table.
bool DetectHeader(std::string_view data, const CsvTokens& sample, const CsvDialect& dialect);

/// Column names made unique and non-empty: "" becomes "col<i>", repeats get "_1", "_2", ...
std::vector<std::string> NormalizeColumnNames(std::vector<std::string> names);

}  // namespace epoxy
