// SPDX-License-Identifier: Apache-2.0
// Binding: resolves an expression's columns against an input schema, checks and coerces types
// as Spark does (inserting casts), and folds constant subexpressions.
#pragma once

#include <string>
#include <vector>

#include "epoxy/expr/expression.h"
#include "epoxy/types/schema.h"

namespace epoxy::expr {

struct BindOptions {
  /// Names that may qualify a column (`t.col`): the source's alias or table name.
  std::vector<std::string> qualifiers;
  /// Allow aggregate calls (a SELECT list); elsewhere (filters) they are an error.
  bool allow_aggregates = false;
};

/// Binds `e` over `schema`. Errors: an unknown column names it and lists the available ones; a
/// type error names the expression; unknown functions are named.
Result<ExprPtr> Bind(const ExprPtr& e, const Schema& schema, const BindOptions& options = {});

/// The column names `e` refers to (top-level, as resolved by Bind).
void ReferencedColumns(const Expr& bound, std::vector<int>* columns);

/// Spark's implicit type for comparing values of types `a` and `b` (a string meets the other
/// side's type); kInvalidInput when they cannot be compared.
Result<TypePtr> ComparisonType(const TypePtr& a, const TypePtr& b);

}  // namespace epoxy::expr
