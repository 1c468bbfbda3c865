// SPDX-License-Identifier: Apache-2.0
// JobStore over its own connection to the catalog's SQLite file.
#include <sqlite3.h>

#include <chrono>
#include <cstdlib>
#include <mutex>

#include "epoxy/catalog/job_store.h"
#include "epoxy/common/crash_point.h"
#include "epoxy/catalog/sqlite/sqlite_statement_internal.h"

namespace epoxy::catalog {

namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

struct JobStore::Impl {
  sqlite3* db = nullptr;
  std::string path;
  std::mutex mu;

  ~Impl() { sqlite3_close_v2(db); }

  Status Error(const std::string& what) {
    int code = sqlite3_errcode(db);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
      return Status::IOError("catalog '{}' is locked by another process ({}): {}", path, what, sqlite3_errmsg(db));
    }
    return Status::IOError("catalog '{}': {}: {}", path, what, sqlite3_errmsg(db));
  }

  Status Exec(const char* sql) {
    char* message = nullptr;
    int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    if (rc == SQLITE_OK) return Status::OK();
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return Status::IOError("catalog '{}': {}", path, text);
  }

  /// Runs `body` in one write transaction: committed when it succeeds, rolled back otherwise.
  Status Transaction(const std::function<Status()>& body) {
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = body();
    if (!st.ok()) {
      (void)Exec("ROLLBACK");
      return st;
    }
    return Exec("COMMIT");
  }

  /// Runs a statement with text/integer parameters that returns no rows.
  Status Run(const char* sql, const std::vector<Json>& params) {
    Stmt stmt(db, sql);
    EPOXY_RETURN_NOT_OK(stmt.ok());
    for (size_t i = 0; i < params.size(); ++i) {
      int at = static_cast<int>(i + 1);
      if (params[i].is_number_integer()) {
        stmt.Bind(at, params[i].get<int64_t>());
      } else {
        stmt.Bind(at, params[i].get<std::string>());
      }
    }
    int rc = stmt.Step();
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) return Error(sql);
    return Status::OK();
  }

  Result<Json> JobLocked(const std::string& name) {
    Stmt get(db, "SELECT doc FROM jobs WHERE name = ?");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, name);
    int rc = get.Step();
    if (rc == SQLITE_ROW) return Json::parse(get.Text(0));
    if (rc == SQLITE_DONE) return Status::NotFound("job {} not found", name);
    return Error("reading job " + name);
  }

  Result<StoredRun> RunLocked(const std::string& id) {
    Stmt get(db, "SELECT doc, internal FROM job_runs WHERE id = ?");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, id);
    int rc = get.Step();
    if (rc == SQLITE_ROW) return StoredRun{Json::parse(get.Text(0)), Json::parse(get.Text(1))};
    if (rc == SQLITE_DONE) return Status::NotFound("job run {} not found", id);
    return Error("reading job run " + id);
  }

  Status SaveRunLocked(const StoredRun& run) {
    return Run("UPDATE job_runs SET state = ?, doc = ?, internal = ? WHERE id = ?",
               {run.run.value("JobRunState", ""), run.run.dump(), run.internal.dump(), run.run.value("Id", "")});
  }

  Result<std::vector<StoredRun>> RunsLocked(const char* sql, const std::string& job, int64_t limit) {
    Stmt list(db, sql);
    EPOXY_RETURN_NOT_OK(list.ok());
    list.Bind(1, job).Bind(2, limit);
    std::vector<StoredRun> out;
    int rc;
    while ((rc = list.Step()) == SQLITE_ROW) out.push_back({Json::parse(list.Text(0)), Json::parse(list.Text(1))});
    if (rc != SQLITE_DONE) return Error("listing the runs of " + job);
    return out;
  }

  Result<BookmarkHead> HeadLocked(const std::string& job) {
    Stmt get(db, "SELECT version, run, seq, run_id, previous_run_id FROM bookmarks WHERE job = ?");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, job);
    BookmarkHead head;
    int rc = get.Step();
    if (rc == SQLITE_ROW) {
      head = {get.Int(0), get.Int(1), get.Int(2), get.Text(3), get.Text(4)};
    } else if (rc != SQLITE_DONE) {
      return Error("reading the bookmark of " + job);
    }
    return head;
  }

  Status SaveHeadLocked(const std::string& job, const BookmarkHead& h) {
    return Run("INSERT OR REPLACE INTO bookmarks(job, version, run, seq, run_id, previous_run_id) VALUES(?, ?, ?, ?, ?, ?)",
               {job, h.version, h.run, h.seq, h.run_id, h.previous_run_id});
  }
};

JobStore::~JobStore() = default;

Result<std::unique_ptr<JobStore>> JobStore::Open(const std::string& catalog_uri) {
  auto store = std::unique_ptr<JobStore>(new JobStore());
  EPOXY_ASSIGN_OR_RETURN(store->catalog_, CatalogStore::Open(catalog_uri));  // creates the tables
  store->impl_ = std::make_unique<Impl>();
  Impl& impl = *store->impl_;
  EPOXY_ASSIGN_OR_RETURN(impl.path, CatalogFilePath(catalog_uri));
  int rc = sqlite3_open_v2(impl.path.c_str(), &impl.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) return Status::IOError("cannot open catalog '{}': {}", impl.path, sqlite3_errmsg(impl.db));
  const char* env = std::getenv("EPOXY_CATALOG_BUSY_TIMEOUT_MS");
  long busy_ms = env ? std::atol(env) : 30000;
  sqlite3_busy_timeout(impl.db, busy_ms > 0 ? static_cast<int>(busy_ms) : 30000);
  EPOXY_RETURN_NOT_OK(impl.Exec("PRAGMA synchronous = FULL"));  // a commit survives power loss
  return store;
}

Status JobStore::CreateJob(const Json& job) {
  std::string name = job.value("Name", "");
  EPOXY_RETURN_NOT_OK(ValidateName("job", name));
  std::lock_guard lock(impl_->mu);
  Stmt insert(impl_->db, "INSERT INTO jobs(name, doc) VALUES(?, ?)");
  EPOXY_RETURN_NOT_OK(insert.ok());
  insert.Bind(1, name).Bind(2, job.dump());
  int rc = insert.Step();
  if (rc == SQLITE_CONSTRAINT) return Status::AlreadyExists("job {} already exists", name);
  if (rc != SQLITE_DONE) return impl_->Error("creating job " + name);
  return Status::OK();
}

Status JobStore::ReplaceJob(const Json& job) {
  std::string name = job.value("Name", "");
  std::lock_guard lock(impl_->mu);
  return impl_->Transaction([&]() -> Status {
    EPOXY_RETURN_NOT_OK(impl_->JobLocked(name).status());
    return impl_->Run("UPDATE jobs SET doc = ? WHERE name = ?", {job.dump(), name});
  });
}

Result<Json> JobStore::GetJob(const std::string& name) {
  std::lock_guard lock(impl_->mu);
  return impl_->JobLocked(name);
}

Result<std::vector<Json>> JobStore::GetJobs() {
  std::lock_guard lock(impl_->mu);
  Stmt list(impl_->db, "SELECT doc FROM jobs ORDER BY name");
  EPOXY_RETURN_NOT_OK(list.ok());
  std::vector<Json> out;
  int rc;
  while ((rc = list.Step()) == SQLITE_ROW) out.push_back(Json::parse(list.Text(0)));
  if (rc != SQLITE_DONE) return impl_->Error("listing jobs");
  return out;
}

Status JobStore::DeleteJob(const std::string& name) {
  std::lock_guard lock(impl_->mu);
  return impl_->Transaction([&]() -> Status {
    EPOXY_RETURN_NOT_OK(impl_->JobLocked(name).status());
    for (const char* sql : {"DELETE FROM jobs WHERE name = ?", "DELETE FROM job_runs WHERE job = ?",
                            "DELETE FROM bookmarks WHERE job = ?", "DELETE FROM bookmark_commits WHERE job = ?",
                            "DELETE FROM bookmark_files WHERE job = ?"}) {
      EPOXY_RETURN_NOT_OK(impl_->Run(sql, {name}));
    }
    return Status::OK();
  });
}

Status JobStore::InsertRun(const StoredRun& run, int max_concurrent, const DeadCheck& is_dead) {
  const std::string job = run.run.value("JobName", "");
  std::lock_guard lock(impl_->mu);
  return impl_->Transaction([&]() -> Status {
    EPOXY_ASSIGN_OR_RETURN(auto runs, impl_->RunsLocked(
        "SELECT doc, internal FROM job_runs WHERE job = ? AND state IN ('STARTING', 'RUNNING', 'STOPPING', 'WAITING') "
        "LIMIT ?", job, 1 << 20));
    int active = 0;
    for (auto& r : runs) {
      if (is_dead && is_dead(r)) {
        r.run["JobRunState"] = "FAILED";
        r.run["ErrorMessage"] = fmt::format("the run's process died (pid {} on {}); nothing it wrote was published",
                                            r.internal.value("Pid", int64_t{0}), r.internal.value("Host", "?"));
        r.run["CompletedOn"] = Now();
        r.run["LastModifiedOn"] = Now();
        EPOXY_RETURN_NOT_OK(impl_->SaveRunLocked(r));
        continue;
      }
      ++active;
    }
    if (active >= max_concurrent) {
      return Status::AlreadyExists("ConcurrentRunsExceededException: job {} has {} run(s) in progress and "
                                   "MaxConcurrentRuns is {}", job, active, max_concurrent);
    }
    Stmt insert(impl_->db, "INSERT INTO job_runs(id, job, started, state, doc, internal) VALUES(?, ?, ?, ?, ?, ?)");
    EPOXY_RETURN_NOT_OK(insert.ok());
    insert.Bind(1, run.run.value("Id", "")).Bind(2, job);
    insert.Bind(4, run.run.value("JobRunState", "STARTING")).Bind(5, run.run.dump()).Bind(6, run.internal.dump());
    insert.BindReal(3, run.run.value("StartedOn", Now()));
    int rc = insert.Step();
    if (rc == SQLITE_CONSTRAINT) return Status::AlreadyExists("job run {} already exists", run.run.value("Id", ""));
    if (rc != SQLITE_DONE) return impl_->Error("recording a run of " + job);
    return Status::OK();
  });
}

Status JobStore::UpdateRun(const std::string& id, const Json& run_patch, const Json& internal_patch,
                           const std::vector<std::string>& only_from) {
  std::lock_guard lock(impl_->mu);
  return impl_->Transaction([&]() -> Status {
    EPOXY_ASSIGN_OR_RETURN(StoredRun r, impl_->RunLocked(id));
    std::string state = r.run.value("JobRunState", "");
    if (!only_from.empty() && std::find(only_from.begin(), only_from.end(), state) == only_from.end()) {
      return Status::InvalidInput("job run {} is {}", id, state);
    }
    if (!run_patch.is_null()) r.run.update(run_patch);
    if (!internal_patch.is_null()) r.internal.update(internal_patch);
    return impl_->SaveRunLocked(r);
  });
}

Result<StoredRun> JobStore::GetRun(const std::string& id) {
  std::lock_guard lock(impl_->mu);
  return impl_->RunLocked(id);
}

Result<std::vector<StoredRun>> JobStore::GetRuns(const std::string& job, int max_results) {
  std::lock_guard lock(impl_->mu);
  return impl_->RunsLocked("SELECT doc, internal FROM job_runs WHERE job = ? ORDER BY started DESC, rowid DESC LIMIT ?",
                           job, max_results > 0 ? max_results : 1 << 30);
}

Result<std::vector<StoredRun>> JobStore::UnsettledRuns(const std::string& job) {
  std::lock_guard lock(impl_->mu);
  EPOXY_ASSIGN_OR_RETURN(auto runs, impl_->RunsLocked(
      "SELECT doc, internal FROM job_runs WHERE job = ? AND (state IN ('STARTING', 'RUNNING', 'STOPPING', 'WAITING') "
      "OR coalesce(json_extract(internal, '$.Settled'), 0) = 0) ORDER BY started LIMIT ?", job, 1 << 30));
  return runs;
}

Result<BookmarkHead> JobStore::GetBookmarkHead(const std::string& job) {
  std::lock_guard lock(impl_->mu);
  return impl_->HeadLocked(job);
}

Result<int64_t> JobStore::CommitSeqOfRun(const std::string& job, const std::string& run_id) {
  std::lock_guard lock(impl_->mu);
  Stmt get(impl_->db, "SELECT seq FROM bookmark_commits WHERE job = ? AND run_id = ?");
  EPOXY_RETURN_NOT_OK(get.ok());
  get.Bind(1, job).Bind(2, run_id);
  int rc = get.Step();
  if (rc == SQLITE_ROW) return get.Int(0);
  if (rc == SQLITE_DONE) {
    return Status::NotFound("run {} of job {} did not advance the bookmark (or was rewound)", run_id, job);
  }
  return impl_->Error("reading the bookmark of " + job);
}

Result<std::vector<std::string>> JobStore::FileStates(const std::string& job, const std::string& ctx,
                                                      const std::string& prefix, int64_t after_seq,
                                                      int64_t up_to_seq) {
  std::lock_guard lock(impl_->mu);
  Stmt get(impl_->db, "SELECT state FROM bookmark_files WHERE job = ? AND ctx = ? AND prefix = ? AND seq > ? "
                      "AND seq <= ? ORDER BY seq");
  EPOXY_RETURN_NOT_OK(get.ok());
  get.Bind(1, job).Bind(2, ctx).Bind(3, prefix).Bind(4, after_seq).Bind(5, up_to_seq);
  std::vector<std::string> out;
  int rc;
  while ((rc = get.Step()) == SQLITE_ROW) out.push_back(get.Blob(0));
  if (rc != SQLITE_DONE) return impl_->Error("reading the bookmark of " + job);
  return out;
}

Result<std::vector<std::string>> JobStore::KnownContexts(const std::string& job, int64_t up_to_seq) {
  std::lock_guard lock(impl_->mu);
  Stmt get(impl_->db, "SELECT DISTINCT ctx FROM bookmark_files WHERE job = ? AND seq <= ? ORDER BY ctx");
  EPOXY_RETURN_NOT_OK(get.ok());
  get.Bind(1, job).Bind(2, up_to_seq);
  std::vector<std::string> out;
  int rc;
  while ((rc = get.Step()) == SQLITE_ROW) out.push_back(get.Text(0));
  if (rc != SQLITE_DONE) return impl_->Error("reading the bookmark of " + job);
  return out;
}

Result<std::vector<Json>> JobStore::Commits(const std::string& job) {
  std::lock_guard lock(impl_->mu);
  Stmt get(impl_->db, "SELECT seq, run_id, doc FROM bookmark_commits WHERE job = ? ORDER BY seq");
  EPOXY_RETURN_NOT_OK(get.ok());
  get.Bind(1, job);
  std::vector<Json> out;
  int rc;
  while ((rc = get.Step()) == SQLITE_ROW) {
    Json doc = Json::parse(get.Text(2));
    doc["Seq"] = get.Int(0);
    doc["RunId"] = get.Text(1);
    out.push_back(std::move(doc));
  }
  if (rc != SQLITE_DONE) return impl_->Error("reading the bookmark of " + job);
  return out;
}

Result<Json> JobStore::StateSize(const std::string& job) {
  std::lock_guard lock(impl_->mu);
  Stmt get(impl_->db, "SELECT ctx, count(DISTINCT prefix), sum(files), sum(length(state)) FROM bookmark_files "
                      "WHERE job = ? GROUP BY ctx ORDER BY ctx");
  EPOXY_RETURN_NOT_OK(get.ok());
  get.Bind(1, job);
  Json out = Json::object();
  int rc;
  while ((rc = get.Step()) == SQLITE_ROW) {
    out[get.Text(0)] = {{"Folders", get.Int(1)}, {"FileVersions", get.Int(2)}, {"StateBytes", get.Int(3)}};
  }
  if (rc != SQLITE_DONE) return impl_->Error("reading the bookmark of " + job);
  return out;
}

Status JobStore::CommitRun(const RunCommit& c) {
  std::lock_guard lock(impl_->mu);
  return impl_->Transaction([&]() -> Status {
    EPOXY_ASSIGN_OR_RETURN(StoredRun r, impl_->RunLocked(c.run_id));
    const std::string state = r.run.value("JobRunState", "");
    if (state != "RUNNING") {
      return Status::InvalidInput("job run {} is {}; its commit is refused and nothing it wrote is published",
                                  c.run_id, state);
    }
    if (r.internal.value("Committed", false)) return Status::InvalidInput("job run {} has already committed", c.run_id);
    EPOXY_ASSIGN_OR_RETURN(BookmarkHead head, impl_->HeadLocked(c.job));
    if (c.advance_bookmark) {
      if (head.version != c.loaded_version) {
        return Status::InvalidInput(
            "VersionMismatchException: the bookmark of job {} moved from version {} to {} while run {} ran (another "
            "run committed first); nothing this run wrote is published", c.job, c.loaded_version, head.version,
            c.run_id);
      }
      Stmt max_seq(impl_->db, "SELECT coalesce(max(seq), 0) FROM bookmark_commits WHERE job = ?");
      EPOXY_RETURN_NOT_OK(max_seq.ok());
      max_seq.Bind(1, c.job);
      if (max_seq.Step() != SQLITE_ROW) return impl_->Error("reading the bookmark of " + c.job);
      const int64_t seq = std::max(max_seq.Int(0), head.seq) + 1;
      for (const auto& d : c.deltas) {
        Stmt put(impl_->db, "INSERT INTO bookmark_files(job, ctx, prefix, seq, files, state) VALUES(?, ?, ?, ?, ?, ?)");
        EPOXY_RETURN_NOT_OK(put.ok());
        put.Bind(1, c.job).Bind(2, d.ctx).Bind(3, d.prefix).Bind(4, seq).Bind(5, d.files).BindBlob(6, d.state);
        if (put.Step() != SQLITE_DONE) return impl_->Error("storing the bookmark of " + c.job);
      }
      Json doc = {{"Bookmark", c.bookmark_doc}, {"Outputs", c.outputs}};
      EPOXY_RETURN_NOT_OK(impl_->Run("INSERT INTO bookmark_commits(job, seq, run_id, doc) VALUES(?, ?, ?, ?)",
                                     {c.job, seq, c.run_id, doc.dump()}));
      head.previous_run_id = head.run_id;
      head.run_id = c.run_id;
      head.version += 1;
      head.run += 1;
      head.seq = seq;
      EPOXY_RETURN_NOT_OK(impl_->SaveHeadLocked(c.job, head));
      r.internal["CommitSeq"] = seq;
    }
    for (const auto& p : c.partitions) {
      Json doc = p.input;
      doc["DatabaseName"] = p.database;
      doc["TableName"] = p.table;
      doc["CreationTime"] = Now();
      if (!doc.contains("Parameters")) doc["Parameters"] = Json::object();
      EPOXY_ASSIGN_OR_RETURN(int rc, InsertPartitionRow(impl_->db, p.database, p.table, p.input.value("Values", Json::array()), doc));
      if (rc != SQLITE_DONE && rc != SQLITE_CONSTRAINT) return impl_->Error("adding a partition of " + p.table);
    }
    r.internal["Committed"] = true;
    r.internal["Published"] = false;
    r.internal["Outputs"] = c.outputs;
    r.internal["Bookmark"] = c.bookmark_doc;
    r.run["LastModifiedOn"] = Now();
    EPOXY_RETURN_NOT_OK(impl_->SaveRunLocked(r));
    CrashPoint("commit_txn");  // everything written, nothing durable yet
    return Status::OK();
  });
}

Result<std::vector<Json>> JobStore::Rewind(const std::string& job, int64_t seq, bool retract) {
  std::lock_guard lock(impl_->mu);
  std::vector<Json> removed;
  Status st = impl_->Transaction([&]() -> Status {
    Stmt get(impl_->db, "SELECT seq, run_id, doc FROM bookmark_commits WHERE job = ? AND seq > ? ORDER BY seq DESC");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, job).Bind(2, seq);
    int rc;
    while ((rc = get.Step()) == SQLITE_ROW) {
      Json doc = Json::parse(get.Text(2));
      doc["Seq"] = get.Int(0);
      doc["RunId"] = get.Text(1);
      removed.push_back(std::move(doc));
    }
    if (rc != SQLITE_DONE) return impl_->Error("reading the bookmark of " + job);
    EPOXY_RETURN_NOT_OK(impl_->Run("DELETE FROM bookmark_commits WHERE job = ? AND seq > ?", {job, seq}));
    EPOXY_RETURN_NOT_OK(impl_->Run("DELETE FROM bookmark_files WHERE job = ? AND seq > ?", {job, seq}));
    EPOXY_ASSIGN_OR_RETURN(BookmarkHead head, impl_->HeadLocked(job));
    head.version += 1;
    head.seq = seq;
    if (seq == 0) {
      head.run = 0;
      head.run_id.clear();
      head.previous_run_id.clear();
    } else {
      Stmt at(impl_->db, "SELECT run_id FROM bookmark_commits WHERE job = ? AND seq = ?");
      EPOXY_RETURN_NOT_OK(at.ok());
      at.Bind(1, job).Bind(2, seq);
      if (at.Step() != SQLITE_ROW) return Status::NotFound("job {} has no bookmark commit {}", job, seq);
      head.run -= static_cast<int64_t>(removed.size());
      head.previous_run_id = head.run_id;
      head.run_id = at.Text(0);
    }
    EPOXY_RETURN_NOT_OK(impl_->SaveHeadLocked(job, head));
    for (const auto& doc : removed) {
      auto r = impl_->RunLocked(doc["RunId"].get<std::string>());
      if (!r.ok()) continue;  // a deleted run's outputs are still in `doc`
      r->internal.erase("CommitSeq");
      if (retract) {
        r->internal["RetractPending"] = true;
        r->internal["Settled"] = false;
      }
      EPOXY_RETURN_NOT_OK(impl_->SaveRunLocked(*r));
    }
    return Status::OK();
  });
  EPOXY_RETURN_NOT_OK(st);
  return removed;
}

}  // namespace epoxy::catalog
