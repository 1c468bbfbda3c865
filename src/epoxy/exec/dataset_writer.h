// SPDX-License-Identifier: Apache-2.0
// DatasetWriter: writes a stream of batches as a folder of files, Hive-partitioned by
// `partitionKeys`, rolling files at a target size, staged until an explicit Commit publishes
// them. The job bookmark's exactly-once protocol builds on Commit.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/format/output_file.h"

namespace epoxy::exec {

/// Spark's save modes.
enum class SaveMode { kErrorIfExists, kAppend, kOverwrite, kIgnore };
Result<SaveMode> ParseSaveMode(std::string_view name);

struct DatasetWriteOptions {
  std::string path;  // the output folder (local or s3://)
  OutputFormat format = OutputFormat::kParquet;
  OutputFileOptions file;
  std::vector<std::string> partition_keys;  // columns that become key=value folders
  int64_t target_file_bytes = 128 << 20;    // start a new file once one reaches this size
  int64_t max_records_per_file = 0;         // 0: no limit
  SaveMode mode = SaveMode::kErrorIfExists;
  std::string write_id;                     // in every file name; random when empty
  int max_open_files = 64;                  // beyond this, the least recently written is closed
  /// A job run's write: Stage() instead of Commit() leaves every file staged (on S3 too, under
  /// `_temporary/<write id>/`) for the run's commit to publish with PublishStaged.
  bool defer_publish = false;
  /// With SaveMode kOverwrite: replace only the partitions this write has rows for (Spark's
  /// partitionOverwriteMode=dynamic), keeping the others.
  bool dynamic_overwrite = false;
};



struct WriteResult {
  std::vector<std::string> files;  // published paths
  int64_t rows = 0;
  int64_t bytes = 0;
  bool skipped = false;  // SaveMode kIgnore and the path existed
};

/// A write whose files are staged and not yet visible: what PublishStaged makes visible.
struct StagedWrite {
  std::string path;      // the output folder
  std::string write_id;
  std::string staging;   // <path>/_temporary/<write id>
  std::vector<std::pair<std::string, std::string>> files;  // (staged path, final path)
  bool replace = false;  // SaveMode kOverwrite: the folder's other files go when this is published
  std::vector<std::string> replace_dirs;  // dynamic overwrite: only these partition folders' go
  int64_t rows = 0;
};

/// Makes a staged write visible: removes what it replaces, moves each staged file to its final
/// name, removes the staging folder. Idempotent: a file already moved is skipped, so a publish
/// cut short by a crash is finished by running it again.
Result<WriteResult> PublishStaged(const StagedWrite& staged);
/// Removes a staged write's files (published or not) and its staging folder. Idempotent.
Status RemoveStaged(const StagedWrite& staged);

/// A random 16-hex-digit id for one write.
std::string NewWriteId();

/// Hive's escaping of a partition value in a folder name (`/`, `=`, `%`, ... as %XX); null is
/// __HIVE_DEFAULT_PARTITION__.
std::string EscapePartitionValue(std::string_view value);

class DatasetWriter {
 public:
  /// Checks the save mode before anything is written (kErrorIfExists fails when the folder has
  /// files). `schema` is the input's; partition keys must be among its columns.
  static Result<std::unique_ptr<DatasetWriter>> Open(const DatasetWriteOptions& options, const SchemaPtr& schema);
  ~DatasetWriter();

  Status Write(const BatchPtr& batch);
  /// Closes every open file, so the rows that follow (the next repartition group, as the next
  /// Spark task would) go to new files.
  Status EndGroup();
  /// Closes every file and publishes them: locally staged files are renamed into place; on S3 the
  /// files are already at their keys and a manifest listing them is written. Overwrite removes
  /// the old contents first.
  Result<WriteResult> Commit();
  /// Closes every file and hands them over staged (defer_publish), unpublished.
  Result<StagedWrite> Stage();
  /// Removes everything this write produced.
  Status Abort();

 private:
  struct OpenFile;
  DatasetWriter() = default;
  Status WriteGroup(const std::string& relative_dir, const BatchPtr& rows);
  Status CloseFile(const std::string& relative_dir);

  DatasetWriteOptions options_;
  SchemaPtr schema_;       // the input's
  SchemaPtr file_schema_;  // without the partition keys
  std::vector<int> key_columns_, data_columns_;
  std::shared_ptr<FileSystem> fs_;
  bool local_ = true;
  bool skip_ = false;
  std::string staging_;  // local: <path>/_temporary/<write id>
  std::map<std::string, std::unique_ptr<OpenFile>> open_;
  std::vector<std::pair<std::string, std::string>> written_;  // (staged path, final path)
  int64_t next_file_ = 0;
  int64_t tick_ = 0;
  WriteResult result_;
};

}  // namespace epoxy::exec
