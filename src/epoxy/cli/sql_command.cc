// SPDX-License-Identifier: Apache-2.0
// `epoxy sql`.
#include "epoxy/cli/sql_command.h"

#include <cstdio>

#include "epoxy/cli/read_session.h"
#include "epoxy/exec/executor.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/sql/sql_planner.h"

namespace epoxy::cli {

Result<int> RunSql(const SqlArgs& args) {
  TextFormat format;
  if (args.output == "jsonl" || args.output == "json") format = TextFormat::kJsonLines;
  else if (args.output == "csv") format = TextFormat::kCsv;
  else if (args.output == "table") format = TextFormat::kTable;
  else return Status::InvalidInput("--output must be table, csv or jsonl, got '{}'", args.output);
  // The catalog is opened only when the query names a table (file queries need none).
  std::unique_ptr<catalog::CatalogStore> store;
  EPOXY_ASSIGN_OR_RETURN(sql::Query query, sql::ParseQuery(args.query));
  bool needs_catalog = false;
  for (const auto& s : query.selects) needs_catalog = needs_catalog || !s.from.is_files;
  if (needs_catalog) {
    EPOXY_ASSIGN_OR_RETURN(store, catalog::CatalogStore::Open(args.catalog));
  }
  sql::SqlContext context;
  context.catalog = store.get();
  context.catalog_uri = args.catalog;
  context.default_database = args.database;
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr plan, sql::PlanQuery(query, context));
  if (args.explain) {
    EPOXY_RETURN_NOT_OK(WriteStdout(exec::Optimize(plan)->Explain()));
    return 0;
  }
  auto writer = RecordWriter::Make(format, WriteStdout, args.max_rows);
  exec::ExecOptions options;
  options.catalog = store.get();
  EPOXY_ASSIGN_OR_RETURN(exec::RunMetrics metrics,
                         exec::Execute(plan, [&](const BatchPtr& batch) { return writer->Write(*batch); }, options));
  EPOXY_RETURN_NOT_OK(writer->Finish());
  std::fflush(stdout);
  if (args.profile) {
    std::string text = args.json ? metrics.ToJson() + "\n" : metrics.ToText();
    std::fputs(text.c_str(), stderr);
  }
  return 0;
}

}  // namespace epoxy::cli
