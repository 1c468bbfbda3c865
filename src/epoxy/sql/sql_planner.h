// SPDX-License-Identifier: Apache-2.0
// The SQL front end: Spark SQL statements planned onto the logical plan. Sources are catalog
// tables (`db.table`), files (`parquet.`path``, `json.`...``, `csv.`...``), WITH names and
// subqueries; the full SELECT (joins, GROUP BY, HAVING, windows, subqueries, set operations,
// ORDER BY, LIMIT) is planned as Spark plans it.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/plan/logical_plan.h"
#include "epoxy/sql/ast.h"

namespace epoxy::sql {

struct SqlContext {
  catalog::CatalogStore* catalog = nullptr;  // for db.table (may be null when only files are read)
  std::string default_database = "default";
  /// Temporary views by name (matched without case) (`createOrReplaceTempView`, in-memory DataFrames): an
  /// unqualified name is looked up here after the WITH names and before the catalog.
  const std::map<std::string, plan::PlanPtr>* temp_views = nullptr;
};

/// Whether a statement names catalog tables (so the catalog must be opened).
bool NeedsCatalog(const Statement& statement);

/// Plans a parsed query: resolves its sources, binds its expressions, decorrelates subqueries.
Result<plan::PlanPtr> PlanQuery(const Query& query, const SqlContext& context);

/// Parses and plans one statement (an EXPLAIN plans its query).
Result<plan::PlanPtr> PlanSql(std::string_view text, const SqlContext& context);

}  // namespace epoxy::sql
