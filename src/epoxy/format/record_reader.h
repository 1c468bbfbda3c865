// SPDX-License-Identifier: Apache-2.0
// RecordReader: the interface every format reader implements, and choosing one for a set of files.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/common/thread_pool.h"
#include "epoxy/format/record_error.h"
#include "epoxy/storage/file_system.h"
#include "epoxy/vector/array.h"

namespace epoxy {

enum class FileFormat { kCsv, kJson, kParquet };

std::string_view FileFormatName(FileFormat format);
Result<FileFormat> ParseFileFormat(std::string_view name);

/// Glue's format_options, by name ("separator", "withHeader", "jsonPath", ...). Values are strings,
/// as in a Glue script's dict.
using FormatOptions = std::map<std::string, std::string>;

/// What readers did, for a run's metrics. Shared by concurrent readers.
struct ReadCounters {
  std::atomic<int64_t> files_opened{0};
  std::atomic<int64_t> bytes_read{0};  // what a scan costs: Parquet footers and column chunks read, whole CSV/JSON files
  std::atomic<int64_t> row_groups_read{0};
  std::atomic<int64_t> row_groups_pruned{0};  // skipped by their statistics
};

/// What every reader shares.
struct ReadOptions {
  FormatOptions format_options;
  /// Target bytes per parse task; each becomes about one batch.
  int64_t block_size = 8 << 20;
  /// Small files (up to 256 KB each) are parsed together in tasks of about this many bytes (Glue's
  /// groupFiles/groupSize); 0 parses each file on its own.
  int64_t group_bytes = 4 << 20;
  /// Blocks parsed ahead at most (0: eight a thread, which keeps the pool busy behind a writer).
  /// A schema sample reading one batch sets 1, so it does not parse whole files ahead.
  int max_blocks_in_flight = 0;
  ThreadPool* pool = nullptr;  // the default pool when null
  MemoryPool* memory = nullptr;
  /// Where malformed records go. Required.
  ErrorSink* errors = nullptr;
  /// Counts what was read, when set.
  ReadCounters* counters = nullptr;
};

/// Streams batches of records. Batches come in file order. Each batch carries its own schema (a
/// DynamicFrame's schema is the merge of them). Not thread-safe.
class RecordReader {
 public:
  virtual ~RecordReader() = default;
  /// The next batch, or nullptr at the end.
  virtual Result<BatchPtr> Next() = 0;
};

/// A reader over `files` in `format`.
Result<std::unique_ptr<RecordReader>> MakeRecordReader(FileFormat format,
                                                       std::vector<FileInfo> files,
                                                       const ReadOptions& options);

/// Guesses the format of a file from its name and first bytes (for `--format` left out).
Result<FileFormat> DetectFileFormat(const FileInfo& file);

/// Reads an option as a boolean ("true"/"false", any case). Absent gives `fallback`.
Result<bool> BooleanOption(const FormatOptions& options, const std::string& key, bool fallback);
/// Reads a comma-separated option ("columns=a,b") as its non-empty items. Absent gives none.
std::vector<std::string> ListOption(const FormatOptions& options, const std::string& key);
/// Reads an option that must be one character (or "-1"/"" to disable, returned as -1).
Result<int> CharOption(const FormatOptions& options, const std::string& key, int fallback);

}  // namespace epoxy
