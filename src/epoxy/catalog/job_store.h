// SPDX-License-Identifier: Apache-2.0
// JobStore: jobs, job runs and job bookmarks, in the catalog's SQLite file (tables created by
// the catalog's migrations). Everything a run publishes (its bookmark advance, its output
// manifest, its catalog partitions) is one transaction: CommitRun.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"

struct sqlite3;

namespace epoxy::catalog {

/// A job's bookmark counters, as GetJobBookmark reports them (Version, Run, RunId,
/// PreviousRunId), and `seq`: the sequence number of the last commit that advanced it (0: none).
struct BookmarkHead {
  int64_t version = 0;
  int64_t run = 0;
  int64_t seq = 0;
  std::string run_id, previous_run_id;
};

/// The files one commit read below one folder of one transformation_ctx, encoded by
/// jobs::FileIdentities.
struct FilesDelta {
  std::string ctx, prefix;
  int64_t files = 0;
  std::string state;
};

/// A catalog partition a run's sink asked for.
struct PartitionToAdd {
  std::string database, table;
  Json input;  // PartitionInput
};

/// What job.commit() publishes, in one transaction.
struct RunCommit {
  std::string run_id, job;
  bool advance_bookmark = false;  // job-bookmark-enable
  int64_t loaded_version = 0;     // the bookmark Version the run started from
  std::vector<FilesDelta> deltas;
  Json bookmark_doc = Json::object();  // per transformation_ctx: a summary of what was read
  Json outputs = Json::array();        // the run's output manifest (staged -> final files)
  std::vector<PartitionToAdd> partitions;
};

/// A stored run: its JobRun document and what epoxy tracks beside it (process, heartbeat,
/// staging folders, outputs, commit and publish flags, metrics).
struct StoredRun {
  Json run;
  Json internal;
};

class JobStore {
 public:
  /// `catalog_uri` as CatalogStore::Open takes it.
  static Result<std::unique_ptr<JobStore>> Open(const std::string& catalog_uri);
  ~JobStore();

  /// The catalog the jobs live in (for partitions and tables).
  CatalogStore& catalog() { return *catalog_; }

  // Jobs, in Glue's Job shape.
  Status CreateJob(const Json& job);  // kAlreadyExists
  Status ReplaceJob(const Json& job);  // kNotFound
  Result<Json> GetJob(const std::string& name);
  Result<std::vector<Json>> GetJobs();
  /// Deletes the job, its runs and its bookmark (as Glue deletes a job's bookmark with it).
  Status DeleteJob(const std::string& name);

  // Runs.
  /// Decides whether an active run's process is gone (the run is then marked FAILED).
  using DeadCheck = std::function<bool(const StoredRun&)>;
  /// Inserts a run (its JobRun document holds Id, JobName, JobRunState) unless `max_concurrent`
  /// runs of the job are active, in one transaction that first marks FAILED the active runs
  /// whose process `is_dead`. Refused with kAlreadyExists "ConcurrentRunsExceededException: ...".
  Status InsertRun(const StoredRun& run, int max_concurrent, const DeadCheck& is_dead);
  /// Merges the patches into the stored documents. With `only_from` non-empty the run must be
  /// in one of those states (else kInvalidInput naming its state).
  Status UpdateRun(const std::string& id, const Json& run_patch, const Json& internal_patch,
                   const std::vector<std::string>& only_from = {});
  Result<StoredRun> GetRun(const std::string& id);
  /// The job's runs, newest first.
  Result<std::vector<StoredRun>> GetRuns(const std::string& job, int max_results);
  /// Runs that are not finished, or finished with outputs not yet published or removed.
  Result<std::vector<StoredRun>> UnsettledRuns(const std::string& job);

  // Bookmarks.
  Result<BookmarkHead> GetBookmarkHead(const std::string& job);
  /// The seq of the commit run `run_id` made (kNotFound when it advanced nothing or was rewound).
  Result<int64_t> CommitSeqOfRun(const std::string& job, const std::string& run_id);
  /// The encoded file states of (job, ctx, prefix) written by commits in (after_seq, up_to_seq],
  /// oldest first.
  Result<std::vector<std::string>> FileStates(const std::string& job, const std::string& ctx,
                                              const std::string& prefix, int64_t after_seq, int64_t up_to_seq);
  /// The transformation_ctx names with state at or before `up_to_seq`.
  Result<std::vector<std::string>> KnownContexts(const std::string& job, int64_t up_to_seq);
  /// The commits that advanced the bookmark, oldest first: {Seq, RunId, Bookmark, Outputs}.
  Result<std::vector<Json>> Commits(const std::string& job);
  /// Per ctx: folders, files and bytes of state held.
  Result<Json> StateSize(const std::string& job);
  /// job.commit(): fails (nothing changed) when the run is no longer RUNNING or already
  /// committed, or when it advances the bookmark and another commit advanced it since the run
  /// loaded it ("VersionMismatchException: ...").
  Status CommitRun(const RunCommit& commit);
  /// Rewinds the bookmark to its state after commit `seq` (0: resets it) and returns the
  /// commits removed (newest first). With `retract`, the runs of those commits are marked in the
  /// same transaction as having outputs to remove ("RetractPending"), which jobs::SettleRuns
  /// then removes (and finishes after a crash).
  Result<std::vector<Json>> Rewind(const std::string& job, int64_t seq, bool retract);

 private:
  JobStore() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<CatalogStore> catalog_;
};

}  // namespace epoxy::catalog
