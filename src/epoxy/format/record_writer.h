// SPDX-License-Identifier: Apache-2.0
// Text output of records: JSON Lines (the stable machine interface), CSV and an aligned table.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "epoxy/vector/array.h"

namespace epoxy {

/// Appends the JSON text of row `row` of `array`: dates and timestamps as ISO-8601 strings,
/// decimals as strings, binary as base64, NaN and infinities as strings, a choice as its value.
void AppendJsonValue(const Array& array, int64_t row, std::string* out);
/// Appends `text` as a JSON string literal.
void AppendJsonString(std::string_view text, std::string* out);
/// Plain text of a value for CSV and tables: scalars as they read, nested values as JSON. Nulls
/// give "".
void AppendPlainValue(const Array& array, int64_t row, std::string* out);

/// kSpark: rows as spark-sql prints them (spark_row_writer.h), timestamps in UTC.
enum class TextFormat { kJsonLines, kCsv, kTable, kSpark };

/// Writes batches as text to a sink. Not thread-safe.
class RecordWriter {
 public:
  using Sink = std::function<Status(std::string_view)>;
  virtual ~RecordWriter() = default;
  virtual Status Write(const Batch& batch) = 0;
  /// Flushes what is buffered (the table is printed here).
  virtual Status Finish() = 0;

  /// `max_rows` limits a table's rows (it buffers them); -1 means the default of 20 for tables and
  /// no limit otherwise.
  static std::unique_ptr<RecordWriter> Make(TextFormat format, Sink sink, int64_t max_rows = -1);
};

}  // namespace epoxy
