// SPDX-License-Identifier: Apache-2.0
#include "epoxy/jobs/run_session.h"

#include <algorithm>

#include "epoxy/common/crash_point.h"
#include "epoxy/jobs/job_definition.h"
#include "epoxy/jobs/run_lifecycle.h"
#include "epoxy/jobs/run_process.h"

namespace epoxy::jobs {

using catalog::Json;

/// The bookmark_files prefix under which a database source's key state is stored (files are
/// stored under their folder, which never starts with '#').
constexpr const char* kKeyStatePrefix = "#keys";

Result<BookmarkOption> ParseBookmarkOption(const std::string& text) {
  if (text.empty() || text == "job-bookmark-disable") return BookmarkOption::kDisable;
  if (text == "job-bookmark-enable") return BookmarkOption::kEnable;
  if (text == "job-bookmark-pause") return BookmarkOption::kPause;
  return Status::InvalidInput("--job-bookmark-option must be job-bookmark-enable, job-bookmark-disable or "
                              "job-bookmark-pause, got '{}'", text);
}

Result<std::unique_ptr<RunSession>> RunSession::Begin(catalog::JobStore& store, const SessionOptions& options, Log log) {
  auto session = std::unique_ptr<RunSession>(new RunSession(store, std::move(log)));
  RunSession& s = *session;
  EPOXY_ASSIGN_OR_RETURN(s.option_, ParseBookmarkOption(options.bookmark_option));
  if (options.run_id.empty()) {
    // A script run without `epoxy run`: the session records its own run, of an ad-hoc job.
    auto job = store.GetJob(options.job_name);
    if (!job.ok() && job.status().code() == StatusCode::kNotFound) {
      EPOXY_ASSIGN_OR_RETURN(Json created, JobFromInput({{"Name", options.job_name}, {"Role", "epoxy-local"},
                                                         {"Command", {{"Name", "glueetl"}, {"ScriptLocation", "(ad hoc)"}}}}));
      Status st = store.CreateJob(created);
      if (!st.ok() && st.code() != StatusCode::kAlreadyExists) return st;
      job = store.GetJob(options.job_name);
    }
    EPOXY_RETURN_NOT_OK(job.status());
    RunStart start;
    start.job_name = options.job_name;
    start.arguments = options.arguments;
    EPOXY_ASSIGN_OR_RETURN(catalog::StoredRun run, StartRun(store, *job, start));
    s.run_id_ = run.run.value("Id", "");
    s.owns_run_ = true;
  } else {
    EPOXY_ASSIGN_OR_RETURN(catalog::StoredRun run, store.GetRun(options.run_id));
    if (run.run.value("JobRunState", "") != "RUNNING") {
      return Status::InvalidInput("job run {} is {}, not RUNNING", options.run_id, run.run.value("JobRunState", ""));
    }
    s.run_id_ = options.run_id;
  }
  {
    EPOXY_ASSIGN_OR_RETURN(catalog::StoredRun run, store.GetRun(s.run_id_));
    s.job_ = run.run.value("JobName", options.job_name);
  }
  EPOXY_ASSIGN_OR_RETURN(catalog::BookmarkHead head, store.GetBookmarkHead(s.job_));
  s.loaded_version_ = head.version;
  s.window_ = {0, head.seq, false};
  const bool range = !options.bookmark_from.empty() || !options.bookmark_to.empty();
  if (range && s.option_ == BookmarkOption::kPause) {
    if (options.bookmark_from.empty() || options.bookmark_to.empty()) {
      return Status::InvalidInput("job-bookmark-pause with a range needs both --job-bookmark-from and --job-bookmark-to");
    }
    EPOXY_ASSIGN_OR_RETURN(int64_t from, store.CommitSeqOfRun(s.job_, options.bookmark_from));
    EPOXY_ASSIGN_OR_RETURN(int64_t to, store.CommitSeqOfRun(s.job_, options.bookmark_to));
    if (from > to) {
      return Status::InvalidInput("--job-bookmark-from {} committed after --job-bookmark-to {}", options.bookmark_from,
                                  options.bookmark_to);
    }
    s.window_ = {from, to, true};
    s.log_(fmt::format("bookmark: replaying what runs after {} up to and including {} read (commits {} to {})",
                       options.bookmark_from, options.bookmark_to, from + 1, to));
  }
  EPOXY_ASSIGN_OR_RETURN(s.known_contexts_, store.KnownContexts(s.job_, head.seq));
  return session;
}

Result<std::shared_ptr<plan::FileSelector>> RunSession::SourceBookmark(const std::string& ctx, const std::string& what,
                                                                       int64_t max_files) {
  if (option_ == BookmarkOption::kDisable) return std::shared_ptr<plan::FileSelector>();
  if (ctx.empty()) {
    log_(fmt::format("bookmark: the read of {} has no transformation_ctx, so it is not bookmarked: it reads every "
                     "file each run", what));
    return std::shared_ptr<plan::FileSelector>();
  }
  for (const auto& b : bookmarks_) {
    if (b->ctx() == ctx) return std::static_pointer_cast<plan::FileSelector>(b);
  }
  NoteContext(ctx, what, "file");
  auto bookmark = std::make_shared<FileBookmark>(store_, job_, ctx, window_, max_files, log_);
  bookmarks_.push_back(bookmark);
  return std::static_pointer_cast<plan::FileSelector>(bookmark);
}

bool RunSession::NoteContext(const std::string& ctx, const std::string& what, const std::string& unit) {
  if (window_.replay || std::find(known_contexts_.begin(), known_contexts_.end(), ctx) != known_contexts_.end()) return true;
  if (known_contexts_.empty()) {
    log_(fmt::format("bookmark: transformation_ctx {} has no state yet; this run reads every {} of {}", ctx, unit, what));
    return false;
  }
  std::string names;
  for (const auto& k : known_contexts_) names += (names.empty() ? "" : ", ") + k;
  log_(fmt::format("bookmark: transformation_ctx {} has no state, so it starts from nothing and reads every {} of {}; "
                   "the bookmark has state for {} (was one of them renamed?)", ctx, unit, what, names));
  fresh_contexts_.push_back(ctx);
  return false;
}

Result<std::shared_ptr<database::KeyBookmark>> RunSession::DatabaseBookmark(const std::string& ctx,
                                                                            const std::string& what) {
  if (option_ == BookmarkOption::kDisable) return std::shared_ptr<database::KeyBookmark>();
  if (ctx.empty()) {
    log_(fmt::format("bookmark: the read of {} has no transformation_ctx, so it is not bookmarked: it reads every row "
                     "each run", what));
    return std::shared_ptr<database::KeyBookmark>();
  }
  for (const auto& b : key_bookmarks_) {
    if (b->ctx() == ctx) return b;
  }
  NoteContext(ctx, what, "row");
  // Each commit stores the whole state; the last one in the window is the one to start from.
  auto state_at = [&](int64_t seq) -> Result<std::optional<database::KeyState>> {
    EPOXY_ASSIGN_OR_RETURN(auto states, store_.FileStates(job_, ctx, kKeyStatePrefix, 0, seq));
    if (states.empty()) return std::optional<database::KeyState>();
    catalog::Json json = catalog::Json::parse(states.back(), nullptr, false);
    EPOXY_ASSIGN_OR_RETURN(database::KeyState state, database::KeyState::FromJson(json));
    return std::optional<database::KeyState>(std::move(state));
  };
  EPOXY_ASSIGN_OR_RETURN(auto from, state_at(window_.replay ? window_.after_seq : window_.up_to_seq));
  auto bookmark = std::make_shared<database::KeyBookmark>(ctx, from, log_);
  if (window_.replay) {
    // Replaying a range: read what the runs in it read, from the start's mark up to the end's.
    EPOXY_ASSIGN_OR_RETURN(auto to, state_at(window_.up_to_seq));
    database::KeyBookmark::Planned planned;
    if (to && !to->mark.empty()) {
      planned.empty = false;
      planned.upper = to->mark;
      planned.next = *to;
    }
    bookmark->SetPlanned(std::move(planned));
  }
  key_bookmarks_.push_back(bookmark);
  return bookmark;
}

void RunSession::AddDatabaseSink(const std::string& what, int64_t rows) {
  sinks_.push_back({{"Table", what}, {"RowsWritten", rows}});
}

Result<exec::DatasetWriteOptions> RunSession::PrepareWrite(exec::DatasetWriteOptions options) {
  options.write_id = fmt::format("{}-{:02}", run_id_, ++writes_);
  options.defer_publish = true;
  std::string path = options.path;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  staging_.push_back({{"Path", path}, {"Staging", path + "/_temporary/" + options.write_id}});
  EPOXY_RETURN_NOT_OK(SaveProgress());
  return options;
}

Status RunSession::AddStaged(const exec::StagedWrite& staged, const exec::RunMetrics& metrics) {
  CrashPoint("staged");
  staged_.push_back(StagedToJson(staged));
  // Reconciliation: the rows the write's plan read = written + what its operators dropped
  // (filters, dedup, aggregation); malformed records fail the run, so none are rejected silently.
  Json operators = Json::object();
  for (const auto& [name, rows] : metrics.operator_rows) operators[name] = rows;
  sinks_.push_back({{"Path", staged.path}, {"RowsRead", metrics.rows_read}, {"RowsWritten", staged.rows},
                    {"RowsDropped", metrics.rows_read - staged.rows}, {"ErrorRecords", 0},
                    {"OperatorRows", operators}, {"Files", staged.files.size()}});
  EPOXY_RETURN_NOT_OK(SaveProgress());
  CrashPoint("manifest");
  return Status::OK();
}

Status RunSession::AddPartitions(const std::vector<catalog::PartitionToAdd>& partitions) {
  for (const auto& p : partitions) {
    partitions_.push_back({{"DatabaseName", p.database}, {"TableName", p.table}, {"PartitionInput", p.input}});
  }
  return SaveProgress();
}

void RunSession::AddMetrics(const exec::RunMetrics& m) {
  metrics_.Add(m);
  metrics_.output_files += m.output_files;
  metrics_.output_bytes += m.output_bytes;
  metrics_.rows_out += m.rows_out;
  metrics_.peak_memory = std::max(metrics_.peak_memory, m.peak_memory);
}

Status RunSession::SaveProgress() {
  Json internal = {{"Staging", staging_}, {"Staged", staged_}, {"PendingPartitions", partitions_},
                   {"Sinks", sinks_}, {"Metrics", Json::parse(metrics_.ToJson())}};
  return store_.UpdateRun(run_id_, {{"LastModifiedOn", NowSeconds()}}, internal);
}

Json RunSession::SourcesReport(Json* flags) const {
  Json sources = Json::object();
  for (const auto& b : bookmarks_) {
    Json r = b->Report();
    if (std::find(fresh_contexts_.begin(), fresh_contexts_.end(), b->ctx()) != fresh_contexts_.end()) {
      flags->push_back(fmt::format("REPROCESS: {} had no state while the job's bookmark had some, so it read all {} "
                                   "files", b->ctx(), r["FilesRead"].get<int64_t>()));
    }
    const int64_t read = r["FilesRead"], reprocessed = r["FilesReprocessed"], deferred = r["FilesDeferred"],
                  skipped = r["FilesSkipped"];
    if (reprocessed > 0 && reprocessed * 2 >= read + skipped) {
      flags->push_back(fmt::format("REPROCESS: {} read {} files again that it had processed before (their identity "
                                   "changed)", b->ctx(), reprocessed));
    }
    if (read == 0 && deferred > 0) {
      flags->push_back(fmt::format("SKIP: {} read nothing while {} new files wait (maxFilesPerRun)", b->ctx(), deferred));
    } else if (deferred > 0) {
      flags->push_back(fmt::format("DEFERRED: {} left {} new files for the next run (maxFilesPerRun)", b->ctx(), deferred));
    }
    sources[b->ctx()] = r;
  }
  for (const auto& b : key_bookmarks_) sources[b->ctx()] = b->Report();
  return sources;
}

Status RunSession::Commit() {
  if (committed_) return Status::OK();  // Glue's commit is idempotent within a run
  CrashPoint("before_commit");
  catalog::RunCommit commit;
  commit.run_id = run_id_;
  commit.job = job_;
  commit.advance_bookmark = option_ == BookmarkOption::kEnable;
  commit.loaded_version = loaded_version_;
  Json flags = Json::array();
  Json sources = SourcesReport(&flags);
  if (commit.advance_bookmark) {
    for (const auto& b : bookmarks_) {
      for (auto& d : b->Deltas()) commit.deltas.push_back(std::move(d));
    }
    for (const auto& b : key_bookmarks_) {
      std::optional<database::KeyState> next = b->Next();
      if (!next || (next->mark.empty() && next->seen.empty() && next->pending.empty())) continue;
      commit.deltas.push_back({b->ctx(), kKeyStatePrefix, static_cast<int64_t>(next->seen.size()), next->ToJson().dump()});
    }
  }
  commit.bookmark_doc = sources;
  commit.outputs = staged_;
  for (const auto& p : partitions_) {
    commit.partitions.push_back({p.value("DatabaseName", ""), p.value("TableName", ""), p.value("PartitionInput", Json::object())});
  }
  for (const auto& f : flags) log_("reconciliation: " + f.get<std::string>());
  // Database sinks commit first: a failure there leaves the bookmark where it was. (A crash
  // between the two commits leaves their rows without the bookmark's advance; an upsert key makes
  // the rerun rewrite them in place.)
  for (const auto& step : before_commit_) EPOXY_RETURN_NOT_OK(step());
  before_commit_.clear();
  const double started = NowSeconds();
  EPOXY_RETURN_NOT_OK(store_.CommitRun(commit));
  committed_ = true;
  const double transaction_done = NowSeconds();
  CrashPoint("after_commit");
  for (const auto& entry : staged_) {
    EPOXY_ASSIGN_OR_RETURN(exec::StagedWrite staged, StagedFromJson(entry));
    EPOXY_RETURN_NOT_OK(exec::PublishStaged(staged).status());
  }
  Json timing = {{"TransactionSeconds", transaction_done - started}, {"PublishSeconds", NowSeconds() - transaction_done},
                 {"FoldersStored", commit.deltas.size()}};
  Json internal = {{"Published", true}, {"Sources", sources}, {"Sinks", sinks_}, {"Flags", flags},
                   {"Metrics", Json::parse(metrics_.ToJson())}, {"Commit", timing}};
  return store_.UpdateRun(run_id_, {{"LastModifiedOn", NowSeconds()}}, internal);
}

Status RunSession::Finish(bool succeeded, const std::string& error_message) {
  if (!owns_run_) return Status::OK();
  owns_run_ = false;
  return FinishRun(store_, run_id_, succeeded ? "SUCCEEDED" : "FAILED", error_message);
}

}  // namespace epoxy::jobs
