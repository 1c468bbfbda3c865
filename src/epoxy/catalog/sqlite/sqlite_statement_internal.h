// SPDX-License-Identifier: Apache-2.0
// What the SQLite catalog store and the job store share: prepared statements, the partitions
// table's row layout, and the job tables' schema (one migration of the catalog file).
#pragma once

#include <sqlite3.h>

#include <string>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/common/result.h"

namespace epoxy::catalog {

constexpr int kMaxPartitionKeys = 10;

/// A prepared statement that finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql) : db_(db) { rc_ = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr); }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Status ok() const {
    if (rc_ == SQLITE_OK) return Status::OK();
    return Status::Internal("catalog query failed to prepare: {}", sqlite3_errmsg(db_));
  }
  Stmt& Bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& Bind(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Stmt& BindReal(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  Stmt& BindBlob(int i, const std::string& v) {
    sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& BindNull(int i) {
    sqlite3_bind_null(stmt_, i);
    return *this;
  }
  /// SQLITE_ROW, SQLITE_DONE, or an error code.
  int Step() { return sqlite3_step(stmt_); }
  std::string Text(int col) const {
    const unsigned char* t = sqlite3_column_text(stmt_, col);
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))) : "";
  }
  std::string Blob(int col) const {
    const void* b = sqlite3_column_blob(stmt_, col);
    return b ? std::string(static_cast<const char*>(b), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))) : "";
  }
  double Real(int col) const { return sqlite3_column_double(stmt_, col); }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int rc_;
};


/// Inserts one partition row (values as a JSON list of strings, `doc` the stored Partition);
/// returns SQLite's step code (SQLITE_DONE, or SQLITE_CONSTRAINT when it exists).
Result<int> InsertPartitionRow(sqlite3* db, const std::string& database, const std::string& table, const Json& values,
                               const Json& doc);

/// Jobs (Glue's Job documents), their runs (the JobRun document, plus what epoxy tracks about the
/// process in `internal`), and bookmarks: per job a counter row, one row per commit that advanced
/// it (seq), and the files each commit read, per transformation_ctx and folder.
inline constexpr const char* kJobTablesMigration =
    R"(CREATE TABLE jobs(name TEXT PRIMARY KEY, doc TEXT NOT NULL);
       CREATE TABLE job_runs(id TEXT PRIMARY KEY, job TEXT NOT NULL, started REAL NOT NULL,
                             state TEXT NOT NULL, doc TEXT NOT NULL, internal TEXT NOT NULL);
       CREATE INDEX job_runs_by_job ON job_runs(job, started);
       CREATE TABLE bookmarks(job TEXT PRIMARY KEY, version INTEGER NOT NULL, run INTEGER NOT NULL,
                              seq INTEGER NOT NULL, run_id TEXT NOT NULL, previous_run_id TEXT NOT NULL);
       CREATE TABLE bookmark_commits(job TEXT NOT NULL, seq INTEGER NOT NULL, run_id TEXT NOT NULL,
                                     doc TEXT NOT NULL, PRIMARY KEY(job, seq));
       CREATE TABLE bookmark_files(job TEXT NOT NULL, ctx TEXT NOT NULL, prefix TEXT NOT NULL,
                                   seq INTEGER NOT NULL, files INTEGER NOT NULL, state BLOB NOT NULL,
                                   PRIMARY KEY(job, ctx, prefix, seq));)";

}  // namespace epoxy::catalog
