// SPDX-License-Identifier: Apache-2.0
// `epoxy sql`.
#include "epoxy/cli/sql_command.h"

#include <cstdio>

#include "epoxy/cli/read_session.h"
#include "epoxy/exec/dataset_writer.h"
#include "epoxy/exec/executor.h"
#include "epoxy/memory/memory_pool.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/exec/physical_plan.h"
#include "epoxy/sql/parser.h"
#include "epoxy/sql/sql_planner.h"

namespace epoxy::cli {
namespace {

/// Runs `plan` into a dataset at --write: staged, then committed (or aborted on failure).
Result<exec::RunMetrics> WriteResult(const SqlArgs& args, const plan::PlanPtr& plan, const exec::ExecOptions& options) {
  exec::DatasetWriteOptions write;
  write.path = args.write_path;
  EPOXY_ASSIGN_OR_RETURN(write.format, ParseOutputFormat(args.to));
  write.file.compression = args.compression;
  write.partition_keys = args.partition_by;
  EPOXY_ASSIGN_OR_RETURN(write.mode, exec::ParseSaveMode(args.mode));
  EPOXY_ASSIGN_OR_RETURN(write.target_file_bytes, ParseByteSize(args.target_file_size));
  write.max_records_per_file = args.max_records_per_file;
  EPOXY_ASSIGN_OR_RETURN(auto written, exec::ExecuteIntoDataset(plan, write, options));
  const exec::WriteResult* result = &written.first;
  if (result->skipped) {
    std::fprintf(stderr, "epoxy: %s exists; nothing written (--mode ignore)\n", args.write_path.c_str());
  } else {
    std::fprintf(stderr, "epoxy: wrote %lld rows into %zu file(s) at %s\n", static_cast<long long>(result->rows),
                 result->files.size(), args.write_path.c_str());
  }
  return written.second;
}

}  // namespace

Result<int> RunSql(const SqlArgs& args) {
  TextFormat format;
  if (args.output == "jsonl" || args.output == "json") format = TextFormat::kJsonLines;
  else if (args.output == "csv") format = TextFormat::kCsv;
  else if (args.output == "table") format = TextFormat::kTable;
  else return Status::InvalidInput("--output must be table, csv or jsonl, got '{}'", args.output);
  // The catalog is opened only when the query names a table (file queries need none).
  std::unique_ptr<catalog::CatalogStore> store;
  EPOXY_ASSIGN_OR_RETURN(sql::Statement statement, sql::ParseStatement(args.query));
  if (sql::NeedsCatalog(statement)) {
    EPOXY_ASSIGN_OR_RETURN(store, catalog::CatalogStore::Open(args.catalog));
  }
  sql::SqlContext context;
  context.catalog = store.get();
  context.default_database = args.database;
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, sql::PlanQuery(*statement.query, context));
  if (args.explain || statement.explain) {
    plan::PlanPtr optimized = exec::Optimize(plan);
    EPOXY_RETURN_NOT_OK(WriteStdout("== Physical plan ==\n" + exec::ExplainPhysical(optimized) +
                                    "\n== Optimized logical plan ==\n" + optimized->Explain()));
    return 0;
  }
  exec::ExecOptions options;
  options.catalog = store.get();
  exec::RunMetrics metrics;
  if (!args.write_path.empty()) {
    EPOXY_ASSIGN_OR_RETURN(metrics, WriteResult(args, plan, options));
  } else {
    auto writer = RecordWriter::Make(format, WriteStdout, args.max_rows);
    EPOXY_ASSIGN_OR_RETURN(metrics,
                           exec::Execute(plan, [&](const BatchPtr& batch) { return writer->Write(*batch); }, options));
    EPOXY_RETURN_NOT_OK(writer->Finish());
    std::fflush(stdout);
  }
  if (args.profile) {
    std::string text = args.json ? metrics.ToJson() + "\n" : metrics.ToText();
    std::fputs(text.c_str(), stderr);
  }
  return 0;
}

}  // namespace epoxy::cli
