// SPDX-License-Identifier: Apache-2.0
// CsvOptions: Glue's CSV format options, and the dialect sniffed when they are left out.
#pragma once

#include <optional>

#include "epoxy/format/record_reader.h"

namespace epoxy {

/// How fields and records are delimited. -1 disables quoting or escaping.
struct CsvDialect {
  char separator = ',';
  int quote = '"';
  int escape = -1;
};

/// Glue's csv format_options: separator, quoteChar, escaper, withHeader, multiLine, skipFirst; and
/// Spark's inferSchema.
struct CsvOptions {
  std::optional<char> separator;      // sniffed per file when absent
  int quote = '"';                    // quoteChar; "-1" disables quoting
  int escape = -1;                    // escaper
  std::optional<bool> with_header;    // detected per file when absent (Glue's classifier rule)
  bool skip_first = false;            // skip the file's first line, then read the header if any
  int64_t sample_rows = 1000;         // rows used to infer column types
  bool infer_types = true;            // inferSchema=false reads every column as string

  static Result<CsvOptions> FromFormatOptions(const FormatOptions& options);
};

/// Delimiters tried when none is given, in order of preference.
inline constexpr char kCandidateSeparators[] = {',', '\t', '|', ';', '\x01'};

}  // namespace epoxy
