// SPDX-License-Identifier: Apache-2.0
#include "engine.h"

#include "epoxy/database/connection_properties.h"
#include "epoxy/database/database_source.h"
#include "epoxy/exec/executor.h"
#include "epoxy/exec/physical_plan.h"
#include "epoxy/exec/spill_file.h"
#include "epoxy/expr/parser.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/plan/source.h"
#include "epoxy/sql/parser.h"
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "epoxy/sql/sql_planner.h"
#include "epoxy/storage/glob.h"
#include "epoxy/types/type_merge.h"

namespace epoxy::python {

Result<catalog::CatalogStore*> Engine::Catalog() {
  if (!catalog_) {
    EPOXY_ASSIGN_OR_RETURN(catalog_, catalog::CatalogStore::Open(catalog_uri_));
  }
  return catalog_.get();
}

Result<std::shared_ptr<plan::FileSelector>> Engine::BookmarkFor(const std::string& ctx, const std::string& what,
                                                                  int64_t max_files) {
  if (session_ == nullptr) return std::shared_ptr<plan::FileSelector>();
  return session_->SourceBookmark(ctx, what, max_files);
}

Status Engine::JobInit(const jobs::SessionOptions& options) {
  if (session_ != nullptr) return Status::InvalidInput("job.init() was called twice in one run");
  EPOXY_RETURN_NOT_OK(Catalog().status());
  if (job_store_ == nullptr) {
    EPOXY_ASSIGN_OR_RETURN(job_store_, catalog::JobStore::Open(catalog_uri_));
  }
  auto log = [](const std::string& line) { std::fprintf(stderr, "epoxy: %s\n", line.c_str()); };
  EPOXY_ASSIGN_OR_RETURN(session_, jobs::RunSession::Begin(*job_store_, options, log));
  return Status::OK();
}

Status Engine::JobCommit() {
  if (session_ == nullptr) return Status::InvalidInput("job.commit() before job.init()");
  return session_->Commit();
}

Status Engine::JobFinish(bool succeeded, const std::string& error_message) {
  if (session_ == nullptr) return Status::OK();
  return session_->Finish(succeeded, error_message);
}

Result<bool> Engine::QueuePartitions(const std::string& database, const std::string& table,
                                     const std::vector<catalog::Json>& inputs) {
  if (session_ == nullptr || !session_->Staging()) return false;
  std::vector<catalog::PartitionToAdd> adds;
  for (const auto& input : inputs) adds.push_back({database, table, input});
  EPOXY_RETURN_NOT_OK(session_->AddPartitions(adds));
  return true;
}

Result<plan::PlanPtr> Engine::PlanFiles(const FileSourceSpec& spec) {
  if (spec.paths.empty()) return Status::InvalidInput("a file source needs at least one path in 'paths'");
  std::vector<plan::PlanPtr> scans;
  for (const auto& path : spec.paths) {
    EPOXY_ASSIGN_OR_RETURN(plan::ScanSource source, plan::ResolveFileSource(spec.format, path, spec.options));
    EPOXY_ASSIGN_OR_RETURN(source.file_selector, BookmarkFor(spec.transformation_ctx, path, spec.max_files_per_run));
    source.exclusions = spec.exclusions;
    source.recurse = spec.recurse;
    source.group_size = spec.group_size;
    EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr scan, plan::Scan(std::move(source)));
    if (!spec.push_down_predicate.empty()) {
      EPOXY_ASSIGN_OR_RETURN(expr::ExprPtr predicate, expr::ParseExpression(spec.push_down_predicate));
      EPOXY_ASSIGN_OR_RETURN(scan, plan::PushDownPredicate(scan, predicate));
    }
    scans.push_back(std::move(scan));
  }
  if (scans.size() == 1) return scans[0];
  // Several paths are one frame only when their columns agree, as Spark's reader requires.
  for (size_t i = 1; i < scans.size(); ++i) {
    if (scans[i]->schema->ToString() != scans[0]->schema->ToString()) {
      return Status::InvalidInput("the paths {} and {} hold different columns ({} and {}); read them as two frames and union them by name",
                                  spec.paths[0], spec.paths[i], scans[0]->schema->ToString(), scans[i]->schema->ToString());
    }
  }
  return plan::UnionAll(std::move(scans));
}

Result<DynamicSchema> ComputeDynamicSchema(const FileSourceSpec& spec) {
  EPOXY_ASSIGN_OR_RETURN(std::vector<FileInfo> files, ExpandPaths(spec.paths));
  std::vector<FileInfo> data;
  for (auto& f : files) {
    if (plan::IsDataFile(f)) data.push_back(std::move(f));
  }
  DynamicSchema out;
  if (data.empty()) {
    out.schema = Schema::Make({});
    return out;
  }
  ErrorSink errors(100);
  ReadOptions options;
  options.format_options = spec.options;
  options.errors = &errors;
  EPOXY_ASSIGN_OR_RETURN(auto reader, MakeRecordReader(spec.format, std::move(data), options));
  while (true) {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, reader->Next());
    if (batch == nullptr) break;
    out.schema = out.schema == nullptr ? batch->schema() : MergeSchemas(*out.schema, *batch->schema(), MergeMode::kDynamicFrame);
  }
  if (out.schema == nullptr) out.schema = Schema::Make({});
  for (const auto& e : errors.errors()) out.errors.push_back(e.ToString());
  out.error_count = errors.count();
  return out;
}

Status Engine::RegisterFiles(const std::string& name, const FileSourceSpec& spec) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, PlanFiles(spec));
  views_[name] = std::move(plan);
  return Status::OK();
}

Status Engine::RegisterCatalogTable(const std::string& name, const std::string& database, const std::string& table,
                                    const std::string& push_down_predicate,
                                    const std::string& catalog_partition_predicate,
                                    const std::string& transformation_ctx, int64_t max_files_per_run) {
  EPOXY_ASSIGN_OR_RETURN(catalog::CatalogStore * store, Catalog());
  EPOXY_ASSIGN_OR_RETURN(plan::ScanSource source, plan::ResolveCatalogSource(*store, database, table));
  source.catalog_partition_predicate = catalog_partition_predicate;
  EPOXY_ASSIGN_OR_RETURN(source.file_selector,
                         BookmarkFor(transformation_ctx, database + "." + table, max_files_per_run));
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, plan::Scan(std::move(source)));
  if (!push_down_predicate.empty()) {
    EPOXY_ASSIGN_OR_RETURN(expr::ExprPtr predicate, expr::ParseExpression(push_down_predicate));
    EPOXY_ASSIGN_OR_RETURN(plan, plan::PushDownPredicate(plan, predicate));
  }
  views_[name] = std::move(plan);
  return Status::OK();
}

Status Engine::RegisterDatabase(const std::string& name, std::map<std::string, std::string> options,
                                const std::string& transformation_ctx) {
  auto lookup = [this](const std::string& connection) -> Result<catalog::Json> {
    EPOXY_ASSIGN_OR_RETURN(catalog::CatalogStore * store, Catalog());
    return store->GetConnection(connection);
  };
  EPOXY_ASSIGN_OR_RETURN(options, database::WithConnection(std::move(options), lookup));
  EPOXY_ASSIGN_OR_RETURN(database::ReadSpec spec, database::ParseReadOptions(options));
  EPOXY_ASSIGN_OR_RETURN(std::shared_ptr<database::DatabaseSource> source, database::DatabaseSource::Open(std::move(spec)));
  if (session_ != nullptr) {
    EPOXY_ASSIGN_OR_RETURN(auto bookmark, session_->DatabaseBookmark(transformation_ctx, source->Describe()));
    if (bookmark != nullptr) EPOXY_RETURN_NOT_OK(source->SetBookmark(std::move(bookmark)));
  }
  plan::ScanSource scan;
  scan.root = source->Describe();
  scan.data_schema = source->schema();
  scan.table_source = std::move(source);
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, plan::Scan(std::move(scan)));
  views_[name] = std::move(plan);
  return Status::OK();
}

Result<int64_t> Engine::WriteDatabase(const std::string& sql, std::map<std::string, std::string> options,
                                      const std::string& mode, exec::RunMetrics* metrics) {
  auto lookup = [this](const std::string& connection) -> Result<catalog::Json> {
    EPOXY_ASSIGN_OR_RETURN(catalog::CatalogStore * store, Catalog());
    return store->GetConnection(connection);
  };
  EPOXY_ASSIGN_OR_RETURN(options, database::WithConnection(std::move(options), lookup));
  EPOXY_ASSIGN_OR_RETURN(database::WriteSpec spec, database::ParseWriteOptions(options, mode));
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, Plan(sql));
  for (int i = 0; i < plan->schema->num_fields(); ++i) {
    if (plan->schema->FieldIndex(plan->schema->field(i).name) != i) {
      return Status::InvalidInput("the frame written to {} has two columns named {}", spec.table, plan->schema->field(i).name);
    }
  }
  EPOXY_ASSIGN_OR_RETURN(std::shared_ptr<database::DatabaseSink> sink, database::DatabaseSink::Begin(std::move(spec), plan->schema));
  auto append = [&](const BatchPtr& batch) { return sink->Append(*batch); };
  EPOXY_ASSIGN_OR_RETURN(*metrics, exec::Execute(plan, append, ExecOptionsFor()));
  EPOXY_RETURN_NOT_OK(sink->Finish());
  if (session_ != nullptr) session_->AddMetrics(*metrics);
  if (session_ != nullptr && session_->Staging()) {
    session_->AddDatabaseSink(sink->Describe(), sink->rows());
    session_->BeforeCommit([sink] { return sink->Commit(); });
    open_sinks_.push_back(sink);
  } else {
    EPOXY_RETURN_NOT_OK(sink->Commit());
  }
  return sink->rows();
}

Status Engine::RegisterRows(const std::string& name, SchemaPtr schema, std::vector<BatchPtr> rows) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, plan::InMemoryRows(std::move(schema), std::move(rows)));
  views_[name] = std::move(plan);
  return Status::OK();
}

Status Engine::RegisterView(const std::string& name, const std::string& sql) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, Plan(sql));
  views_[name] = std::move(plan);
  return Status::OK();
}

Status Engine::Materialize(const std::string& name, const std::string& sql) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, Plan(sql));
  std::vector<BatchPtr> batches;
  auto keep = [&](const BatchPtr& batch) {
    batches.push_back(Batch::Make(plan->schema, batch->columns(), batch->num_rows()));
    return Status::OK();
  };
  EPOXY_RETURN_NOT_OK(exec::Execute(plan, keep, ExecOptionsFor()).status());
  return RegisterRows(name, plan->schema, std::move(batches));
}

namespace {

/// A temporary file that is removed when this goes out of scope.
struct TempFile {
  std::string path;
  ~TempFile() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

Result<std::string> MakeTempPath() {
  const std::string& folder = exec::SpillSpace::Default().folder();  // EPOXY_TMPDIR, as spill files
  std::string path = folder + "/epoxy-records-XXXXXX.json";  // mkstemps' template
  int fd = mkstemps(path.data(), 5);
  if (fd < 0) return Status::IOError("cannot create a temporary file in {} (set EPOXY_TMPDIR): {}", folder, std::strerror(errno));
  close(fd);
  return path;
}

}  // namespace

Result<DynamicSchema> Engine::MaterializeJsonRecords(const std::string& name, const std::string& sql) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, Plan(sql));
  if (plan->schema->num_fields() != 1 || plan->schema->field(0).type->id() != TypeId::kString) {
    return Status::Internal("JSON records come as one string column, got {}", plan->schema->ToString());
  }
  TempFile temp;
  EPOXY_ASSIGN_OR_RETURN(temp.path, MakeTempPath());
  std::FILE* out = std::fopen(temp.path.c_str(), "wb");
  if (out == nullptr) return Status::IOError("cannot write {}: {}", temp.path, std::strerror(errno));
  int64_t records = 0;
  auto write = [&](const BatchPtr& batch) -> Status {
    const Array& docs = *batch->column(0);
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      if (docs.IsNull(i)) continue;
      std::string_view doc = docs.GetView(i);
      if (std::fwrite(doc.data(), 1, doc.size(), out) != doc.size() || std::fputc('\n', out) == EOF) {
        return Status::IOError("cannot write {}: {}", temp.path, std::strerror(errno));
      }
      ++records;
    }
    return Status::OK();
  };
  Status run = exec::Execute(plan, write, ExecOptionsFor()).status();
  if (std::fclose(out) != 0 && run.ok()) run = Status::IOError("cannot write {}: {}", temp.path, std::strerror(errno));
  EPOXY_RETURN_NOT_OK(run);
  DynamicSchema dynamic;
  if (records == 0) {
    dynamic.schema = Schema::Make({});
    return dynamic;
  }
  FileSourceSpec spec;
  spec.format = FileFormat::kJson;
  spec.paths = {temp.path};
  spec.options = {{"multiLine", "false"}};
  EPOXY_ASSIGN_OR_RETURN(dynamic, ComputeDynamicSchema(spec));
  EPOXY_ASSIGN_OR_RETURN(plan::ScanSource source, plan::ResolveFileSource(FileFormat::kJson, temp.path, spec.options));
  source.data_schema = ToCatalogSchema(*dynamic.schema);  // every record's fields, not the first block's
  source.from_catalog = true;  // values that do not fit the merged type are nulls, as a catalog read
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr scan, plan::Scan(std::move(source)));
  std::vector<BatchPtr> batches;
  auto keep = [&](const BatchPtr& batch) {
    batches.push_back(Batch::Make(scan->schema, batch->columns(), batch->num_rows()));
    return Status::OK();
  };
  EPOXY_RETURN_NOT_OK(exec::Execute(scan, keep, ExecOptionsFor()).status());
  EPOXY_RETURN_NOT_OK(RegisterRows(name, scan->schema, std::move(batches)));
  return dynamic;
}

Result<plan::PlanPtr> Engine::Plan(const std::string& sql) {
  EPOXY_ASSIGN_OR_RETURN(sql::Statement statement, sql::ParseStatement(sql));
  sql::SqlContext context;
  context.temp_views = &views_;
  // Only a query naming something that is not a view needs the catalog (file queries need none).
  if (sql::NeedsCatalog(statement)) {
    auto store = Catalog();
    if (store.ok()) context.catalog = *store;
  }
  return sql::PlanQuery(*statement.query, context);
}

Result<SchemaPtr> Engine::SchemaOf(const std::string& sql) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, Plan(sql));
  return plan->schema;
}

exec::ExecOptions Engine::ExecOptionsFor() {
  exec::ExecOptions options;
  options.catalog = catalog_.get();
  return options;
}

Result<std::string> Engine::CollectJsonLines(const std::string& sql, exec::RunMetrics* metrics) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, Plan(sql));
  std::string out;
  auto writer = RecordWriter::Make(TextFormat::kJsonLines, [&out](std::string_view text) {
    out.append(text);
    return Status::OK();
  });
  std::vector<Field> positions;
  for (int i = 0; i < plan->schema->num_fields(); ++i) positions.push_back({std::to_string(i), plan->schema->field(i).type});
  SchemaPtr positional = Schema::Make(std::move(positions));
  auto sink = [&](const BatchPtr& batch) {
    return writer->Write(Batch(positional, batch->columns(), batch->num_rows()));
  };
  EPOXY_ASSIGN_OR_RETURN(*metrics, exec::Execute(plan, sink, ExecOptionsFor()));
  if (session_ != nullptr) session_->AddMetrics(*metrics);
  EPOXY_RETURN_NOT_OK(writer->Finish());
  return out;
}

Result<WriteSummary> Engine::Write(const std::string& sql, const exec::DatasetWriteOptions& options) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, Plan(sql));
  if (session_ != nullptr && session_->Staging()) {
    // A job run's write: staged, recorded in the run, published by its commit.
    EPOXY_ASSIGN_OR_RETURN(exec::DatasetWriteOptions staged_options, session_->PrepareWrite(options));
    EPOXY_ASSIGN_OR_RETURN(auto staged, exec::ExecuteIntoStagedDataset(plan, staged_options, ExecOptionsFor()));
    EPOXY_RETURN_NOT_OK(session_->AddStaged(staged.first, staged.second));
    session_->AddMetrics(staged.second);
    WriteSummary summary;
    summary.result.rows = staged.first.rows;
    for (const auto& f : staged.first.files) summary.result.files.push_back(f.second);
    summary.metrics = std::move(staged.second);
    return summary;
  }
  EPOXY_ASSIGN_OR_RETURN(auto written, exec::ExecuteIntoDataset(plan, options, ExecOptionsFor()));
  if (session_ != nullptr) session_->AddMetrics(written.second);
  WriteSummary summary;
  summary.result = std::move(written.first);
  summary.metrics = std::move(written.second);
  return summary;
}

Result<std::string> Engine::Explain(const std::string& sql) {
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, Plan(sql));
  plan::PlanPtr optimized = exec::Optimize(plan);
  return "== Physical Plan ==\n" + exec::ExplainPhysical(optimized) + "\n== Optimized Logical Plan ==\n" +
         optimized->Explain();
}

}  // namespace epoxy::python
