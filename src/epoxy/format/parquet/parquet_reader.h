// SPDX-License-Identifier: Apache-2.0
// Reading Parquet files: the footer, projection, row-group pruning from statistics, and batches.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "epoxy/format/parquet/metadata.h"
#include "epoxy/format/parquet/schema.h"
#include "epoxy/format/predicate.h"
#include "epoxy/format/record_reader.h"

namespace epoxy::parquet {

/// An open Parquet file: its metadata and schema. Thread-safe for concurrent ReadRowGroup calls.
class ParquetFile {
 public:
  /// Reads and checks the footer. A file that is not Parquet, truncated, encrypted or whose
  /// metadata is corrupt gives an error naming the file and the problem.
  static Result<std::unique_ptr<ParquetFile>> Open(const std::string& path);
  /// The same over an already open file (tests and fuzzing read from memory).
  static Result<std::unique_ptr<ParquetFile>> Open(std::unique_ptr<RandomAccessFile> file);

  const std::string& path() const { return path_; }
  const FileMetaData& metadata() const { return metadata_; }
  const FileSchema& schema() const { return *schema_; }
  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }

  /// Rows of row group `index`, for the top-level fields `fields` (indexes into schema().fields):
  /// one array each per range of rows, the ranges in order and cut so that the string values of
  /// one range take at most `max_string_bytes` (string offsets are 32-bit).
  Result<std::vector<std::vector<ArrayPtr>>> ReadRowGroup(int index, const std::vector<int>& fields, bool verify_crc,
                                                          ThreadPool* pool,
                                                          int64_t max_string_bytes = kMaxBatchStringBytes) const;
  static constexpr int64_t kMaxBatchStringBytes = int64_t{1} << 30;

  /// Bytes of the column chunks ReadRowGroup reads for `fields`, and of the footer.
  int64_t ChunkBytes(int index, const std::vector<int>& fields) const;
  int64_t footer_bytes() const { return footer_bytes_; }

  /// Statistics of a flat top-level column in a row group, usable for pruning; null when the
  /// column has none that can be trusted (see parquet-format §9).
  std::unique_ptr<ColumnStats> RowGroupStats(int row_group, int field) const;

 private:
  std::string path_;
  std::unique_ptr<RandomAccessFile> file_;
  FileMetaData metadata_;
  std::unique_ptr<FileSchema> schema_;
  int64_t footer_bytes_ = 0;
};

/// RecordReader over Parquet files. Options (format_options): "columns" = comma-separated
/// top-level columns to read; "verifyChecksums" = true|false (default true).
Result<std::unique_ptr<RecordReader>> MakeParquetReader(std::vector<FileInfo> files,
                                                        const ReadOptions& options,
                                                        PredicatePtr predicate = nullptr);

}  // namespace epoxy::parquet
