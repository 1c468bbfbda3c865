// SPDX-License-Identifier: Apache-2.0
// The SQL planner's internals, shared by planner.cc (FROM, SELECT, GROUP BY, ORDER BY, set
// operations) and subquery_planner.cc (subqueries decorrelated into joins).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "epoxy/sql/ast.h"
#include "epoxy/sql/sql_planner.h"

namespace epoxy::sql {

/// A relation while it is planned: its plan and, per output column, the name of the relation the
/// column came from (for `t.col` and for ambiguity errors).
struct Scope {
  plan::PlanPtr plan;
  std::vector<std::string> qualifiers;

  const Schema& schema() const { return *plan->schema; }
  int width() const { return plan->schema->num_fields(); }
  expr::BindOptions Options() const {
    expr::BindOptions o;
    o.column_qualifiers = &qualifiers;
    return o;
  }
};

/// WITH names visible at a point of the query, innermost last.
using CommonTables = std::vector<CommonTable>;

class Planner {
 public:
  explicit Planner(const SqlContext& context) : context_(context) {}

  /// A query's rows (ORDER BY and LIMIT applied).
  Result<Scope> PlanQuery(const Query& query, const CommonTables& ctes);

  // Subqueries (subquery_planner.cc).

  /// `scope` filtered by `where`: EXISTS / NOT EXISTS and [NOT] IN (subquery) conjuncts become
  /// semi and anti joins, scalar subqueries become columns joined in; subqueries may refer to
  /// `scope`'s columns (correlated).
  Result<Scope> ApplyWhere(Scope scope, const expr::ExprPtr& where, const CommonTables& ctes);
  /// Replaces every scalar subquery in `e` with a column of `scope` holding its value (joined in,
  /// decorrelated when it refers to `scope`). `scope` gains those columns.
  Result<expr::ExprPtr> JoinScalarSubqueries(Scope* scope, const expr::ExprPtr& e, const CommonTables& ctes);

 private:
  friend class SubqueryPlanner;

  Result<Scope> PlanSelect(const SelectCore& core, const std::vector<expr::OrderItem>& order_by, const CommonTables& ctes,
                           std::vector<plan::SortKey>* sort_keys, int* num_visible);
  Result<Scope> PlanFrom(const std::vector<TableRefPtr>& from, const SelectCore& core, const CommonTables& ctes);
  Result<Scope> PlanTableRef(const TableRef& ref, const SelectCore& core, const CommonTables& ctes);
  Result<Scope> PlanJoin(const TableRef& ref, const SelectCore& core, const CommonTables& ctes);
  Result<Scope> PlanGrouped(const Scope& from, const SelectCore& core, const std::vector<expr::ExprPtr>& items,
                            const std::vector<std::string>& names, const std::vector<expr::ExprPtr>& extra,
                            const CommonTables& ctes);

  const SqlContext& context_;
  int next_placeholder_ = 0;
};

/// The name a subquery's value column gets (unique within one planning).
std::string PlaceholderName(int k);

/// An inline table (`VALUES ... AS t(a, b)`): its rows computed into memory, each column of its
/// values' wider type, qualified by the alias (inline_table.cc).
Result<Scope> PlanInlineTable(const TableRef& ref);

/// `*` and `t.*` in a select list expanded to the scope's columns.
Result<std::vector<expr::ExprPtr>> ExpandStars(const std::vector<expr::ExprPtr>& items, const Scope& scope,
                                               std::vector<std::string>* names);

}  // namespace epoxy::sql
