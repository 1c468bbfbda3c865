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
struct FunctionEntry;
using ExprPtr = std::shared_ptr<const Expr>;

enum class ExprKind { kColumn, kLiteral, kCall, kCast, kStar, kSubquery };

/// One key of an ORDER BY (also of a window's ORDER BY). Spark's default: nulls first when
/// ascending, last when descending.
struct OrderItem {
  ExprPtr expr;
  bool ascending = true;
  bool nulls_first = true;
};

/// One end of a window frame: unbounded, the current row, or an offset from it (rows for ROWS,
/// the ORDER BY value's units for RANGE).
struct FrameBound {
  enum class Kind { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  int64_t offset = 0;  // kPreceding, kFollowing: how far (>= 0)
};

/// OVER (PARTITION BY ... ORDER BY ... frame). Without a frame Spark's default applies: RANGE
/// UNBOUNDED PRECEDING .. CURRENT ROW with an ORDER BY, the whole partition without.
struct WindowSpec {
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  enum class Units { kDefault, kRows, kRange };
  Units units = Units::kDefault;
  FrameBound start{FrameBound::Kind::kUnboundedPreceding, 0};
  FrameBound end{FrameBound::Kind::kCurrentRow, 0};
};
using WindowSpecPtr = std::shared_ptr<const WindowSpec>;

/// Operators are calls too, named: + - * / % = <=> != < <= > >= and or not negate is_null
/// is_not_null in like rlike case (args: when, then, ..., [else]) and concat (for ||).
struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  std::vector<std::string> name;  // kColumn: the dotted path as written; kStar: an optional qualifier
  Scalar literal;                 // kLiteral
  std::string op;                 // kCall: the lower-case operator or function name
  std::vector<ExprPtr> args;      // kCall arguments; kCast: the one operand
  TypePtr cast_to;                // kCast
  bool implicit = false;          // kCast: inserted by the binder, so left out of the name (as Spark's)
  bool distinct = false;          // count(DISTINCT x)
  WindowSpecPtr window;           // kCall: f(...) OVER (...)
  /// kSubquery: the query (the SQL front end's; opaque here) and how it is used: "scalar",
  /// "exists" or "in" (args[0] is then the value tested).
  std::shared_ptr<const void> subquery;

  // Set by Bind():
  TypePtr type;            // the result type
  /// kCall: the registry entry that evaluates it (null for UDFs and for calls the evaluator runs
  /// by their operator name).
  const FunctionEntry* function = nullptr;
  /// kCall: the function name Spark shows for the call (the name as written, or the entry's
  /// fixed display name); empty: `op`.
  std::string display_name;
  /// When set, ToString() returns it: the call as written before a rewrite (nullif, to_date).
  std::string rendered;
  int column = -1;         // kColumn: index of the top-level column in the input
  /// kColumn: already resolved to `column` of the schema it will be bound against (a front end
  /// expanding `*` over columns whose names alone may be ambiguous).
  bool resolved = false;
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
/// Whether `op` names a function that only exists over a window (row_number, rank, lag, ...).
bool IsWindowFunction(const std::string& op);
/// Whether `e` contains an aggregate call that is not itself windowed (arguments of a windowed
/// call count: sum(sum(x)) OVER () aggregates x).
bool ContainsAggregate(const Expr& e);
/// Whether `e` contains a windowed call.
bool ContainsWindow(const Expr& e);
/// Whether `e` contains a subquery.
bool ContainsSubquery(const Expr& e);

/// Structural equality of bound expressions: same operators, columns (by index and field path),
/// literals, casts and types.
bool SameExpr(const Expr& a, const Expr& b);

}  // namespace epoxy::expr
