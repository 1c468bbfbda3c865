// SPDX-License-Identifier: Apache-2.0
// Expressions: the tree the parser builds from Spark SQL text and the binder types and resolves
// against a schema. One shape for columns, literals, casts and calls of operators and functions.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "epoxy/expr/scalar.h"

namespace re2 {
class RE2;
}

namespace epoxy::expr {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class ExprKind { kColumn, kLiteral, kCall, kCast, kStar };

/// Operators are calls too, named: + - * / % = <=> != < <= > >= and or not negate is_null
/// is_not_null in like rlike case (args: when, then, ..., [else]) and concat (for ||).
struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  std::vector<std::string> name;  // kColumn: the dotted path as written; kStar: an optional qualifier
  Scalar literal;                 // kLiteral
  std::string op;                 // kCall: the lower-case operator or function name
  std::vector<ExprPtr> args;      // kCall arguments; kCast: the one operand
  TypePtr cast_to;                // kCast
  bool distinct = false;          // count(DISTINCT x)

  // Set by Bind():
  TypePtr type;            // the result type
  int column = -1;         // kColumn: index of the top-level column in the input
  std::vector<int> fields;  // kColumn: struct field indexes below that column
  std::shared_ptr<const re2::RE2> regex;  // like, rlike, regexp_*, split: the constant pattern

  static ExprPtr Column(std::vector<std::string> name);
  static ExprPtr Literal(Scalar value);
  static ExprPtr Call(std::string op, std::vector<ExprPtr> args);
  static ExprPtr Cast(ExprPtr operand, TypePtr to);

  /// Spark's rendering, also the name of an unaliased output column: `(a + 1)`, `sum(amount)`.
  std::string ToString() const;
};

/// Whether `op` names an aggregate function (count, sum, min, max, avg, ...).
bool IsAggregateFunction(const std::string& op);
/// Whether `e` contains an aggregate call.
bool ContainsAggregate(const Expr& e);

}  // namespace epoxy::expr
