// SPDX-License-Identifier: Apache-2.0
// RunSession: a job run as the script's process sees it, from job.init() to job.commit(). It
// hands each bookmarked source its FileBookmark, stages every sink's files under the run's id,
// records them in the run as they are written (so a crash leaves nothing a later run cannot find
// and remove), and commits: one catalog transaction that advances the bookmarks, stores the
// output manifest and adds the catalog partitions, then publishes the files.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/catalog/job_store.h"
#include "epoxy/database/key_bookmark.h"
#include "epoxy/exec/dataset_writer.h"
#include "epoxy/exec/run_metrics.h"
#include "epoxy/jobs/file_bookmark.h"

namespace epoxy::jobs {

enum class BookmarkOption { kDisable, kEnable, kPause };
Result<BookmarkOption> ParseBookmarkOption(const std::string& text);

struct SessionOptions {
  std::string job_name;
  /// The run `epoxy run` started (EPOXY_RUN_ID); empty: the session starts its own run (a script
  /// run by plain python3) and finishes it itself.
  std::string run_id;
  /// From the run's arguments, else the script's: --job-bookmark-option, -from, -to.
  std::string bookmark_option, bookmark_from, bookmark_to;
  catalog::Json arguments = catalog::Json::object();
};

class RunSession {
 public:
  using Log = std::function<void(const std::string&)>;
  static Result<std::unique_ptr<RunSession>> Begin(catalog::JobStore& store, const SessionOptions& options, Log log);

  const std::string& run_id() const { return run_id_; }
  const std::string& job_name() const { return job_; }
  BookmarkOption option() const { return option_; }
  bool owns_run() const { return owns_run_; }
  bool committed() const { return committed_; }

  /// The bookmark of the source `ctx` (null when bookmarks are off, or `ctx` is empty: then the
  /// run's log says the read is not bookmarked). `max_files` is maxFilesPerRun (0: no bound).
  Result<std::shared_ptr<plan::FileSelector>> SourceBookmark(const std::string& ctx, const std::string& what,
                                                             int64_t max_files);
  /// The key bookmark of the database source `ctx` (null when bookmarks are off or `ctx` is
  /// empty), loaded with the state the run starts from.
  Result<std::shared_ptr<database::KeyBookmark>> DatabaseBookmark(const std::string& ctx, const std::string& what);
  /// Runs before the catalog transaction of job.commit(): database sinks commit there.
  void BeforeCommit(std::function<Status()> step) { before_commit_.push_back(std::move(step)); }
  /// A database sink's rows, for the run's reconciliation report.
  void AddDatabaseSink(const std::string& what, int64_t rows);

  /// Whether writes are staged for the commit (until job.commit(); after it they publish at once).
  bool Staging() const { return !committed_; }
  /// Gives a write its run-derived id and records its staging folder in the run before any
  /// file is written.
  Result<exec::DatasetWriteOptions> PrepareWrite(exec::DatasetWriteOptions options);
  /// Records a staged write in the run's manifest, with what its plan read and dropped.
  Status AddStaged(const exec::StagedWrite& staged, const exec::RunMetrics& metrics);
  /// Queues catalog partitions for the commit (recorded in the run as well).
  Status AddPartitions(const std::vector<catalog::PartitionToAdd>& partitions);
  /// Adds an action's engine metrics to the run's.
  void AddMetrics(const exec::RunMetrics& metrics);

  /// job.commit().
  Status Commit();
  /// The end of a run this session started itself (no `epoxy run` around it).
  Status Finish(bool succeeded, const std::string& error_message);

 private:
  RunSession(catalog::JobStore& store, Log log) : store_(store), log_(std::move(log)) {}
  Status SaveProgress();
  bool NoteContext(const std::string& ctx, const std::string& what, const std::string& unit);
  catalog::Json SourcesReport(catalog::Json* flags) const;

  catalog::JobStore& store_;
  Log log_;
  std::string job_, run_id_;
  bool owns_run_ = false;
  bool committed_ = false;
  BookmarkOption option_ = BookmarkOption::kDisable;
  BookmarkWindow window_;
  int64_t loaded_version_ = 0;
  std::vector<std::string> known_contexts_;
  std::vector<std::string> fresh_contexts_;  // read with no state while others had some
  std::vector<std::shared_ptr<FileBookmark>> bookmarks_;
  std::vector<std::shared_ptr<database::KeyBookmark>> key_bookmarks_;
  std::vector<std::function<Status()>> before_commit_;
  catalog::Json staging_ = catalog::Json::array();
  catalog::Json staged_ = catalog::Json::array();
  catalog::Json partitions_ = catalog::Json::array();
  catalog::Json sinks_ = catalog::Json::array();
  int writes_ = 0;
  exec::RunMetrics metrics_;
};

}  // namespace epoxy::jobs
