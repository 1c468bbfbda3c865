// SPDX-License-Identifier: Apache-2.0
// A Spark SQL session of the `epoxy sql` command: its settings (`--conf`), its catalog and
// database, and running one statement under them. The Spark gold suite runs its cases through
// this same class, so what it measures is what `epoxy sql --output spark` prints.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/common/result.h"
#include "epoxy/exec/executor.h"
#include "epoxy/expr/session_conf.h"
#include "epoxy/format/spark_row_writer.h"
#include "epoxy/plan/logical_plan.h"

namespace epoxy::cli {

struct SqlSessionOptions {
  std::string catalog;  // a catalog URI; "" is the default ($EPOXY_HOME/catalog.db)
  std::string database = "default";
  expr::SessionConf conf;
};

/// A statement planned and ready to run.
struct PlannedStatement {
  plan::PlanPtr plan;    // its output schema is plan->schema
  bool explain = false;  // EXPLAIN: print the plan rather than run it
};

/// Not thread-safe: one statement at a time.
class SqlSession {
 public:
  explicit SqlSession(SqlSessionOptions options);
  SqlSession(const SqlSession&) = delete;
  SqlSession& operator=(const SqlSession&) = delete;

  /// Parses and plans one statement (no trailing `;` needed) under the session's settings. The
  /// catalog is opened the first time a statement names a table.
  Result<PlannedStatement> Plan(std::string_view statement);
  /// Runs a planned statement, every output batch to `sink` in order.
  Result<exec::RunMetrics> Execute(const PlannedStatement& statement, const exec::BatchSink& sink);
  /// Runs `plan` into a dataset (`--write`).
  Result<std::pair<exec::WriteResult, exec::RunMetrics>> ExecuteIntoDataset(
      const PlannedStatement& statement, const exec::DatasetWriteOptions& write);

  /// How spark-sql would print values in this session (timestamps in its time zone).
  SparkTextOptions spark_text_options() const;

  const expr::SessionConf& conf() const { return options_.conf; }
  /// Null until a statement needed the catalog.
  catalog::CatalogStore* catalog() const { return catalog_.get(); }

 private:
  exec::ExecOptions MakeExecOptions() const;

  SqlSessionOptions options_;
  std::unique_ptr<catalog::CatalogStore> catalog_;
};

}  // namespace epoxy::cli
