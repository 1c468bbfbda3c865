// SPDX-License-Identifier: Apache-2.0
// Binding: resolves an expression's columns against an input schema, checks and coerces types
// as Spark does (inserting casts), and folds constant subexpressions.
#pragma once

#include <string>
#include <vector>

#include "epoxy/expr/expression.h"
#include "epoxy/expr/type_coercion.h"
#include "epoxy/types/schema.h"

namespace epoxy::expr {

struct BindOptions {
  /// Names that may qualify any column (`t.col`): the source's alias or table name.
  std::vector<std::string> qualifiers;
  /// The relation each column comes from (a join's inputs), one per column; `t.col` then picks
  /// the `col` of `t`, and an unqualified name found in two relations is ambiguous.
  const std::vector<std::string>* column_qualifiers = nullptr;
  /// With a correlated subquery, the schema is its own columns followed by the outer query's:
  /// the first `num_inner` columns are searched first, the rest only for names not found there.
  int num_inner = -1;
  /// Allow aggregate calls (a SELECT list); elsewhere (filters) they are an error.
  bool allow_aggregates = false;
  /// Allow windowed calls, f(...) OVER (...) (a SELECT list).
  bool allow_windows = false;
};

/// Binds `e` over `schema`. Errors: an unknown column names it and lists the available ones; a
/// type error names the expression; unknown functions are named.
Result<ExprPtr> Bind(const ExprPtr& e, const Schema& schema, const BindOptions& options = {});

/// The column names `e` refers to (top-level, as resolved by Bind).
void ReferencedColumns(const Expr& bound, std::vector<int>* columns);

/// `e` converted to `type`: itself when it has the type, a folded literal for a constant, else a
/// cast node.
ExprPtr CastTo(const ExprPtr& e, const TypePtr& type);

}  // namespace epoxy::expr
