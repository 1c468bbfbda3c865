// SPDX-License-Identifier: Apache-2.0
// Rows as the spark-sql command-line tool prints them (Spark 3.5's HiveResult): the format of the
// Spark gold cases and what users diff against their Spark jobs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "epoxy/format/record_writer.h"

namespace epoxy {

struct SparkTextOptions {
  /// Turns a timestamp (an instant, microseconds since the epoch in UTC) into the wall-clock
  /// microseconds of the session time zone, in which Spark prints it. Null: UTC.
  std::function<int64_t(int64_t utc_micros)> to_session_time;
};

/// Appends row `row` of `array` as Spark prints it. At the top level (`nested` false) a null is
/// `NULL` and a string is bare; inside arrays, maps and structs a null is `null` and strings are
/// quoted (without escaping, as Spark). Arrays print as `[1,2]`, maps as `{"k":1}` (entries sorted
/// by their text, as Spark sorts them), structs as `{"a":1,"b":"x"}`; dates `2021-01-01`,
/// timestamps `2021-01-01 00:00:00[.fraction]` (trailing zeros dropped); doubles and floats as
/// Java prints them; decimals with their scale; binary as its bytes read as UTF-8 (unquoted, even
/// inside collections). Malformed UTF-8 in strings and binary prints as U+FFFD, as Java decodes it.
void AppendSparkValue(const Array& array, int64_t row, bool nested, const SparkTextOptions& options,
                      std::string* out);

/// Appends row `row` of `batch`: its columns' values joined by a tab (no newline).
void AppendSparkRow(const Batch& batch, int64_t row, const SparkTextOptions& options,
                    std::string* out);

/// Writes each row as AppendSparkRow prints it, one a line.
std::unique_ptr<RecordWriter> MakeSparkRowWriter(RecordWriter::Sink sink,
                                                 SparkTextOptions options = {});

}  // namespace epoxy
