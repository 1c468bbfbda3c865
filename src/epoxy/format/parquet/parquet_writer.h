// SPDX-License-Identifier: Apache-2.0
// Writing Parquet files that Spark, DuckDB, Athena and pyarrow read: dictionary encoding with a
// PLAIN fallback, RLE levels, v1 data pages, statistics, column and offset indexes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "epoxy/format/parquet/metadata.h"
#include "epoxy/common/thread_pool.h"
#include "epoxy/storage/file_system.h"
#include "epoxy/vector/array.h"

namespace epoxy::parquet {

/// Row groups of 32 MiB: as fast to write as 64 or 128 MiB with less memory (two are held while
/// one is encoded: W1 peaks at 411 MB resident instead of 519), and more read tasks for a file.
constexpr int64_t kDefaultRowGroupBytes = 32 << 20;

struct ParquetWriteOptions {
  Codec codec = Codec::kSnappy;
  int64_t row_group_bytes = kDefaultRowGroupBytes;  // target uncompressed bytes per row group
  int64_t page_bytes = 1 << 20;          // target bytes per data page
  int64_t page_rows = 20000;             // at most this many rows per data page
  int64_t dictionary_bytes = 1 << 20;    // a dictionary larger than this falls back to PLAIN
  std::vector<KeyValue> key_value_metadata;
  ThreadPool* pool = nullptr;            // columns are encoded in parallel; default pool if null
};

/// Writes batches of one schema to one file. Only the current row group is held in memory. Not
/// thread-safe. Nothing is visible at the path until Close() succeeds.
class ParquetWriter {
 public:
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  static Result<std::unique_ptr<ParquetWriter>> Open(std::unique_ptr<FileWriter> sink,
                                                     SchemaPtr schema,
                                                     const ParquetWriteOptions& options);
  /// REQUIRES: batch.schema() equals the writer's schema.
  Status Write(const Batch& batch);
  /// Flushes the last row group, writes the page indexes and the footer, and publishes the file.
  Status Close();

  int64_t rows_written() const;
  int64_t bytes_written() const;

 private:
  class Impl;
  explicit ParquetWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// "epoxy version 0.1.0 (build <id>)".
std::string CreatedBy();

}  // namespace epoxy::parquet
