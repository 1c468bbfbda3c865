// SPDX-License-Identifier: Apache-2.0
// Engine: what the Python packages drive. A DataFrame is a Spark SQL query over sources this
// object holds by name (files with Glue's options, catalog tables with push_down_predicate,
// in-memory rows, temporary views); every action plans that query and runs it natively.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/database/database_sink.h"
#include "epoxy/exec/dataset_writer.h"
#include "epoxy/exec/executor.h"
#include "epoxy/exec/run_metrics.h"
#include "epoxy/jobs/run_session.h"
#include "epoxy/plan/logical_plan.h"

namespace epoxy::python {

/// A file source as a Glue script names it: one or more paths of one format.
struct FileSourceSpec {
  FileFormat format = FileFormat::kParquet;
  std::vector<std::string> paths;
  FormatOptions options;
  std::vector<std::string> exclusions;
  bool recurse = true;
  int64_t group_size = 0;  // groupSize in bytes; -1 for groupFiles "none"
  std::string push_down_predicate;  // over the partition columns of `key=value` folders
  std::string transformation_ctx;   // the job bookmark's key (empty: not bookmarked)
  int64_t max_files_per_run = 0;    // maxFilesPerRun / boundedFiles (0: no bound)
};

/// A DynamicFrame's schema: the merge of every record's own (a column seen as a number and as a
/// string is a choice), and the malformed records met on the way.
struct DynamicSchema {
  SchemaPtr schema;
  std::vector<std::string> errors;  // the first ones, each naming its file and line
  int64_t error_count = 0;
};

/// Reads every record of `spec`'s files to compute their DynamicFrame schema.
Result<DynamicSchema> ComputeDynamicSchema(const FileSourceSpec& spec);

/// What a write did.
struct WriteSummary {
  exec::WriteResult result;
  exec::RunMetrics metrics;
};

/// Not thread-safe: one per Python session (calls hold the GIL while planning).
class Engine {
 public:
  /// `catalog_uri` as CatalogStore::Open takes it; the store is opened on first use.
  explicit Engine(std::string catalog_uri) : catalog_uri_(std::move(catalog_uri)) {}

  /// Registers (or replaces) a source or view under `name`.
  Status RegisterFiles(const std::string& name, const FileSourceSpec& spec);
  /// A catalog table; `transformation_ctx` and `max_files_per_run` as for files.
  Status RegisterCatalogTable(const std::string& name, const std::string& database, const std::string& table,
                              const std::string& push_down_predicate, const std::string& catalog_partition_predicate,
                              const std::string& transformation_ctx = "", int64_t max_files_per_run = 0);
  /// A database table or query: Glue's JDBC connection_options or Spark's jdbc options (a
  /// connectionName fills in the url, user and password from the catalog's connection); with a
  /// `transformation_ctx` in a bookmarked job run, a key bookmark chooses the rows.
  Status RegisterDatabase(const std::string& name, std::map<std::string, std::string> options,
                          const std::string& transformation_ctx);
  /// Runs `sql` into a database table, in one transaction: committed at the end of the write, or
  /// with the job run when one is open (then a failed run leaves nothing in the table).
  Result<int64_t> WriteDatabase(const std::string& sql, std::map<std::string, std::string> options,
                                const std::string& mode, exec::RunMetrics* metrics);
  Status RegisterRows(const std::string& name, SchemaPtr schema, std::vector<BatchPtr> rows);
  /// Plans `sql` now (Spark analyses a view when it is created) and keeps the plan.
  Status RegisterView(const std::string& name, const std::string& sql);
  /// Runs `sql` now and keeps its rows in memory under `name` (DataFrame.cache()); the memory
  /// limit bounds what is held.
  Status Materialize(const std::string& name, const std::string& sql);
  /// Runs `sql`, whose one string column holds a JSON document per row (null: none), and keeps
  /// the parsed records under `name` (DynamicFrame.map's output): typed by the catalog merge of
  /// all the records' schemas; returns their DynamicFrame schema (with choices). The documents
  /// pass through a temporary file (EPOXY_TMPDIR), removed before returning.
  Result<DynamicSchema> MaterializeJsonRecords(const std::string& name, const std::string& sql);
  void DropView(const std::string& name) { views_.erase(name); }
  bool HasView(const std::string& name) const { return views_.count(name) > 0; }

  Result<plan::PlanPtr> Plan(const std::string& sql);
  Result<SchemaPtr> SchemaOf(const std::string& sql);
  /// Runs `sql`; its rows as JSON Lines (the `epoxy cat` machine format) whose keys are the column
  /// positions ("0", "1", ...), since a frame may hold two columns of one name.
  Result<std::string> CollectJsonLines(const std::string& sql, exec::RunMetrics* metrics);
  Result<WriteSummary> Write(const std::string& sql, const exec::DatasetWriteOptions& options);
  Result<std::string> Explain(const std::string& sql);

  Result<catalog::CatalogStore*> Catalog();

  // The job run (job.init() to job.commit()): while one is open, bookmarked reads read their delta
  // and writes are staged for its commit.
  Status JobInit(const jobs::SessionOptions& options);
  Status JobCommit();
  /// Ends a run the session started itself (a script run without `epoxy run`).
  Status JobFinish(bool succeeded, const std::string& error_message);
  /// Queues catalog partitions for the commit; false when no run stages writes (add them now).
  Result<bool> QueuePartitions(const std::string& database, const std::string& table,
                               const std::vector<catalog::Json>& inputs);
  const jobs::RunSession* session() const { return session_.get(); }

 private:
  Result<std::shared_ptr<plan::FileSelector>> BookmarkFor(const std::string& ctx, const std::string& what,
                                                          int64_t max_files);
  Result<plan::PlanPtr> PlanFiles(const FileSourceSpec& spec);
  exec::ExecOptions ExecOptionsFor();

  std::string catalog_uri_;
  std::unique_ptr<catalog::CatalogStore> catalog_;
  std::unique_ptr<catalog::JobStore> job_store_;
  std::unique_ptr<jobs::RunSession> session_;
  std::map<std::string, plan::PlanPtr> views_;
  std::vector<std::shared_ptr<database::DatabaseSink>> open_sinks_;  // committed by the job run
};

}  // namespace epoxy::python
