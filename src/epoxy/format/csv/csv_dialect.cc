// SPDX-License-Identifier: Apache-2.0
// CsvOptions from Glue format_options.
#include "epoxy/format/csv/csv_dialect.h"

namespace epoxy {

Result<CsvOptions> CsvOptions::FromFormatOptions(const FormatOptions& options) {
  static const char* kKnown[] = {"separator", "quoteChar", "escaper", "withHeader", "multiLine",
                                 "skipFirst", "sampleRows", "writeHeader", "optimizePerformance",
                                 "strictCheckForQuoting", "inferSchema"};
  for (const auto& [key, value] : options) {
    bool known = false;
    for (const char* k : kKnown) known = known || key == k;
    if (!known) {
      return Status::InvalidInput(
          "unknown csv option '{}' (known: separator, quoteChar, escaper, withHeader, multiLine, "
          "skipFirst, sampleRows, inferSchema)",
          key);
    }
  }
  CsvOptions out;
  if (options.count("separator")) {
    EPOXY_ASSIGN_OR_RETURN(int sep, CharOption(options, "separator", ','));
    if (sep < 0 || sep == '\n' || sep == '\r') {
      return Status::InvalidInput("csv option separator must be one character other than a line end");
    }
    out.separator = static_cast<char>(sep);
  }
  EPOXY_ASSIGN_OR_RETURN(out.quote, CharOption(options, "quoteChar", '"'));
  EPOXY_ASSIGN_OR_RETURN(out.escape, CharOption(options, "escaper", -1));
  if (options.count("withHeader")) {
    EPOXY_ASSIGN_OR_RETURN(bool header, BooleanOption(options, "withHeader", false));
    out.with_header = header;
  }
  // multiLine is accepted for compatibility: quoted newlines are always read correctly.
  EPOXY_ASSIGN_OR_RETURN(bool multi_line, BooleanOption(options, "multiLine", false));
  (void)multi_line;
  EPOXY_ASSIGN_OR_RETURN(out.skip_first, BooleanOption(options, "skipFirst", false));
  EPOXY_ASSIGN_OR_RETURN(out.infer_types, BooleanOption(options, "inferSchema", true));
  if (auto it = options.find("sampleRows"); it != options.end()) {
    char* end = nullptr;
    long long n = std::strtoll(it->second.c_str(), &end, 10);
    if (end == it->second.c_str() || *end != '\0' || n < 1) {
      return Status::InvalidInput("csv option sampleRows must be a positive number, got '{}'",
                                  it->second);
    }
    out.sample_rows = n;
  }
  if (out.separator.has_value() && (static_cast<int>(*out.separator) == out.quote ||
                                    static_cast<int>(*out.separator) == out.escape)) {
    return Status::InvalidInput("csv separator, quoteChar and escaper must differ");
  }
  return out;
}

}  // namespace epoxy
