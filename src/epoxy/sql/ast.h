// SPDX-License-Identifier: Apache-2.0
// The parsed form of a Spark SQL query: WITH, set operations of SELECTs, ORDER BY and LIMIT;
// each SELECT with its FROM (tables, files, subqueries, joins), WHERE, GROUP BY (with grouping
// sets), HAVING and hints. Expressions are the expression parser's; subqueries inside them hold
// a Query (Expr::subquery).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "epoxy/expr/expression.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/plan/logical_plan.h"

namespace epoxy::sql {

struct Query;
using QueryPtr = std::shared_ptr<const Query>;

struct TableRef;
using TableRefPtr = std::shared_ptr<const TableRef>;

struct TableRef {
  enum class Kind { kTable, kFiles, kSubquery, kJoin, kValues };
  Kind kind = Kind::kTable;
  std::string database, table;  // kTable: [db.]table (or a WITH name)
  FileFormat format = FileFormat::kParquet;
  std::string path;             // kFiles: format.`path`
  QueryPtr subquery;            // kSubquery
  // kJoin
  plan::JoinType join_type = plan::JoinType::kInner;
  TableRefPtr left, right;
  expr::ExprPtr condition;             // ON
  std::vector<std::string> using_columns;  // USING (a, b); NATURAL fills it when planned
  bool natural = false;
  /// kValues: an inline table's rows (`VALUES (1, 'a'), (2, 'b')`), one expression per column.
  std::vector<std::vector<expr::ExprPtr>> rows;
  std::string alias;
  std::vector<std::string> column_aliases;  // AS t(a, b)
};

struct SelectItem {
  expr::ExprPtr expr;
  std::string alias;
};

struct SelectCore {
  bool distinct = false;
  std::vector<SelectItem> items;
  std::vector<TableRefPtr> from;  // a, b, c: cross joins (conditions in WHERE)
  expr::ExprPtr where;
  bool grouped = false;           // GROUP BY present
  std::vector<expr::ExprPtr> group_by;
  std::vector<std::vector<int>> grouping_sets;  // GROUPING SETS / ROLLUP / CUBE
  expr::ExprPtr having;
  std::vector<std::string> broadcast;  // /*+ BROADCAST(t) */ relation names
  std::optional<int64_t> repartition;  // /*+ REPARTITION(n[, cols]) */ or COALESCE(n)
  std::vector<expr::ExprPtr> repartition_by;
  bool coalesce = false;
};

struct CommonTable {
  std::string name;
  QueryPtr query;
};

struct Query {
  std::vector<CommonTable> with;
  // A SELECT, or a set operation of two queries.
  enum class Kind { kSelect, kUnion, kIntersect, kExcept };
  Kind kind = Kind::kSelect;
  SelectCore select;
  QueryPtr left, right;
  bool all = false;  // UNION ALL, INTERSECT ALL, EXCEPT ALL
  std::vector<expr::OrderItem> order_by;
  std::optional<int64_t> limit;
  int64_t offset = 0;
};

/// A statement: a query, perhaps under EXPLAIN.
struct Statement {
  QueryPtr query;
  bool explain = false;
};

}  // namespace epoxy::sql
