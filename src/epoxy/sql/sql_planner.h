// SPDX-License-Identifier: Apache-2.0
// The SQL front end: `SELECT ... FROM db.table | parquet.`path` | json.`path` | csv.`path`
// [WHERE ...] [UNION ALL SELECT ...] [LIMIT n]`, parsed and planned onto the logical plan.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/expr/expression.h"
#include "epoxy/plan/logical_plan.h"

namespace epoxy::sql {

struct TableRef {
  bool is_files = false;
  std::string database, table;  // catalog: db.table (database empty: the default one)
  FileFormat format = FileFormat::kParquet;
  std::string path;             // files: format.`path`
  std::string alias;
};

struct SelectItem {
  expr::ExprPtr expr;
  std::string alias;
};

struct SelectCore {
  std::vector<SelectItem> items;
  TableRef from;
  expr::ExprPtr where;
  bool distinct = false;  // SELECT DISTINCT
};

struct Query {
  std::vector<SelectCore> selects;
  /// union_distinct[i] joins selects[i] to those before it: UNION (true) or UNION ALL (false),
  /// left to right as SQL groups them.
  std::vector<bool> union_distinct;
  std::optional<int64_t> limit;
};

/// Parses one statement (a trailing ';' is allowed). Clauses of the engine's relational part
/// (JOIN, GROUP BY, ORDER BY, ...) are refused by name.
Result<Query> ParseQuery(std::string_view text);

struct SqlContext {
  catalog::CatalogStore* catalog = nullptr;  // for db.table (may be null when only files are read)
  std::string default_database = "default";
};

/// Plans a parsed query: resolves its sources and binds its expressions.
Result<plan::PlanPtr> PlanQuery(const Query& query, const SqlContext& context);

/// ParseQuery and PlanQuery.
Result<plan::PlanPtr> PlanSql(std::string_view text, const SqlContext& context);

}  // namespace epoxy::sql
