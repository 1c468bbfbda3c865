// SPDX-License-Identifier: Apache-2.0
// CsvTokenizer: finds the fields of every record in a block (RFC 4180 plus escapes), without
// copying; CsvFieldText turns one field into its value text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/format/csv/csv_dialect.h"

namespace epoxy {

/// Field positions of a tokenized block, record-major.
struct CsvTokens {
  static constexpr uint8_t kQuoted = 1;         // the field was in quotes (so never null)
  static constexpr uint8_t kNeedsUnescape = 2;  // doubled quotes or escapes inside

  std::vector<uint32_t> field_begin;  // byte offsets into the block
  std::vector<uint32_t> field_end;
  std::vector<uint8_t> field_flags;
  std::vector<uint32_t> record_first_field;  // one per record, plus one past the end
  std::vector<uint32_t> record_offset;       // byte offset where each record starts
  /// Records the tokenizer could not close (an unterminated quote), by record index.
  std::vector<uint32_t> unterminated;

  int64_t num_records() const { return static_cast<int64_t>(record_offset.size()); }
  uint32_t num_fields(int64_t record) const {
    return record_first_field[record + 1] - record_first_field[record];
  }
  void Clear();
};

/// Tokenizes `data` (whole records). Blank lines are skipped. `max_records` stops early (for
/// sampling); 0 means all. Stops with an error only for a block over 4 GiB.
Status TokenizeCsv(std::string_view data, const CsvDialect& dialect, int64_t max_records,
                   CsvTokens* tokens);

/// The text of field `f`: a view into `data` when no unescaping is needed, else a copy in `*scratch`.
std::string_view CsvFieldText(std::string_view data, const CsvTokens& tokens, uint32_t f,
                              const CsvDialect& dialect, std::string* scratch);

/// The end of the last whole record in `data` (0 if none) for the dialect's quoting rules.
int64_t CsvRecordBoundary(std::string_view data, const CsvDialect& dialect);

}  // namespace epoxy
