// SPDX-License-Identifier: Apache-2.0
// The Spark SQL expression grammar: what `df.filter("...")`, `F.expr("...")` and
// `push_down_predicate` accept, and the expressions inside `epoxy sql` statements.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "epoxy/expr/expression.h"
#include "epoxy/expr/lexer.h"

namespace epoxy::expr {

/// Parses one whole expression. Errors name the position and what was expected.
Result<ExprPtr> ParseExpression(std::string_view text);

/// A recursive-descent parser over tokens, for front ends that embed expressions (SQL).
class TokenParser {
 public:
  TokenParser(std::string_view source, std::vector<Token> tokens) : source_(source), tokens_(std::move(tokens)) {}

  Result<ExprPtr> ParseExpr();  // lowest precedence: OR
  /// `expr [ASC | DESC] [NULLS FIRST | NULLS LAST]`, with Spark's default null order.
  Result<OrderItem> ParseOrderItem();

  /// Parses a query where an expression holds one (`(SELECT ...)`, `EXISTS (...)`, `IN (SELECT
  /// ...)`), positioned at its first token, and returns it opaquely. Without one, subqueries are
  /// refused as syntax errors.
  using SubqueryParser = std::function<Result<std::shared_ptr<const void>>(TokenParser&)>;
  void set_subquery_parser(SubqueryParser parser) { subquery_parser_ = std::move(parser); }

  const Token& Peek(size_t ahead = 0) const;
  const Token& Next();
  bool AcceptKeyword(std::string_view keyword);
  bool AcceptOperator(std::string_view op);
  Status ExpectKeyword(std::string_view keyword);
  Status ExpectOperator(std::string_view op);
  /// An error at the current token: "expected X at position N of '...', found 'Y'".
  Status Expected(std::string_view what) const;
  bool AtEnd() const { return Peek().kind == Token::Kind::kEnd; }
  /// An identifier, quoted or not (for names in SQL).
  Result<std::string> ParseIdentifier();

 private:
  Result<ExprPtr> ParseAnd();
  Result<ExprPtr> ParseNot();
  Result<ExprPtr> ParsePredicate();
  Result<ExprPtr> ParseAdditive();
  Result<ExprPtr> ParseMultiplicative();
  Result<ExprPtr> ParseUnary();
  Result<ExprPtr> ParsePrimary();
  Result<ExprPtr> ParsePostfix();  // a primary with subscripts: a[0], m['key'], a[0].field
  Result<ExprPtr> ParseNumber(const Token& t);
  Result<ExprPtr> ParseCase();
  Result<ExprPtr> ParseCast();
  Result<ExprPtr> ParseInterval();
  Result<ExprPtr> ParseFunction(std::string name);
  Result<TypePtr> ParseTypeName();
  Result<WindowSpecPtr> ParseWindow();
  Result<FrameBound> ParseFrameBound();
  Result<ExprPtr> ParseExtract();
  /// Whether a subquery starts here: `SELECT` or `WITH` (the caller consumed its '(').
  bool AtSubquery() const;
  Result<ExprPtr> ParseSubquery(std::string use, std::vector<ExprPtr> args);

  std::string_view source_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;  // bounds recursion on hostile input
  SubqueryParser subquery_parser_;
};

}  // namespace epoxy::expr
