// SPDX-License-Identifier: Apache-2.0
// OutputFile: one file being written as Parquet, CSV or JSON Lines, behind one interface.
#pragma once

#include <memory>
#include <string>

#include "epoxy/format/parquet/parquet_writer.h"
#include "epoxy/format/record_writer.h"

namespace epoxy {

enum class OutputFormat { kParquet, kCsv, kJson };

/// "parquet", "csv" or "json"/"jsonl".
Result<OutputFormat> ParseOutputFormat(std::string_view name);
/// The file extension: parquet, csv or json.
const char* OutputExtension(OutputFormat format);

struct OutputFileOptions {
  std::string compression = "snappy";  // Parquet codec
  int64_t row_group_bytes = parquet::kDefaultRowGroupBytes;
};

class OutputFile {
 public:
  static Result<std::unique_ptr<OutputFile>> Open(OutputFormat format, const std::string& path,
                                                  const SchemaPtr& schema, const OutputFileOptions& options);
  const SchemaPtr& schema() const { return schema_; }
  const std::string& path() const { return path_; }
  /// REQUIRES: batch has the file's schema.
  Status Write(const Batch& batch);
  Status Close();
  int64_t rows() const { return rows_; }
  /// Bytes in the file so far (Parquet: row groups flushed; text: everything written).
  int64_t bytes() const;

 private:
  SchemaPtr schema_;
  std::string path_;
  std::unique_ptr<parquet::ParquetWriter> parquet_;
  std::unique_ptr<FileWriter> sink_;
  std::unique_ptr<RecordWriter> text_;
  int64_t rows_ = 0;
  int64_t text_bytes_ = 0;
};

}  // namespace epoxy
