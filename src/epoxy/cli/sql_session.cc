// SPDX-License-Identifier: Apache-2.0
// The `epoxy sql` session.
#include "epoxy/cli/sql_session.h"

#include "epoxy/sql/parser.h"
#include "epoxy/sql/sql_planner.h"

namespace epoxy::cli {

SqlSession::SqlSession(SqlSessionOptions options) : options_(std::move(options)) {}

Result<PlannedStatement> SqlSession::Plan(std::string_view statement) {
  expr::ScopedSessionConf scoped(&options_.conf);
  EPOXY_ASSIGN_OR_RETURN(sql::Statement parsed, sql::ParseStatement(statement));
  if (catalog_ == nullptr && sql::NeedsCatalog(parsed)) {
    EPOXY_ASSIGN_OR_RETURN(catalog_, catalog::CatalogStore::Open(options_.catalog));
  }
  sql::SqlContext context;
  context.catalog = catalog_.get();
  context.default_database = options_.database;
  PlannedStatement planned;
  EPOXY_ASSIGN_OR_RETURN(planned.plan, sql::PlanQuery(*parsed.query, context));
  planned.explain = parsed.explain;
  return planned;
}

exec::ExecOptions SqlSession::MakeExecOptions() const {
  exec::ExecOptions options;
  options.catalog = catalog_.get();
  return options;
}

Result<exec::RunMetrics> SqlSession::Execute(const PlannedStatement& statement,
                                             const exec::BatchSink& sink) {
  expr::ScopedSessionConf scoped(&options_.conf);
  return exec::Execute(statement.plan, sink, MakeExecOptions());
}

Result<std::pair<exec::WriteResult, exec::RunMetrics>> SqlSession::ExecuteIntoDataset(
    const PlannedStatement& statement, const exec::DatasetWriteOptions& write) {
  expr::ScopedSessionConf scoped(&options_.conf);
  return exec::ExecuteIntoDataset(statement.plan, write, MakeExecOptions());
}

SparkTextOptions SqlSession::spark_text_options() const {
  // Timestamps print in UTC: the engine does not convert to the session time zone yet.
  return SparkTextOptions{};
}

}  // namespace epoxy::cli
