// SPDX-License-Identifier: Apache-2.0
// Building and printing expressions.
#include "epoxy/expr/expression.h"

#include <set>

namespace epoxy::expr {

ExprPtr Expr::Column(std::vector<std::string> name) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kColumn;
  e->name = std::move(name);
  return e;
}

ExprPtr Expr::Literal(Scalar value) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kLiteral;
  e->type = value.type;
  e->literal = std::move(value);
  return e;
}

ExprPtr Expr::Call(std::string op, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCall;
  e->op = std::move(op);
  e->args = std::move(args);
  return e;
}

ExprPtr Expr::Cast(ExprPtr operand, TypePtr to) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCast;
  e->args = {std::move(operand)};
  e->cast_to = std::move(to);
  return e;
}

std::string Expr::ToString() const {
  switch (kind) {
    case ExprKind::kColumn: return name.back();
    case ExprKind::kStar: return name.empty() ? "*" : name[0] + ".*";
    case ExprKind::kLiteral: {
      if (literal.is_null()) return "NULL";
      if (literal.type->id() == TypeId::kString) return std::get<std::string>(literal.value);
      return literal.ToSql();
    }
    case ExprKind::kCast: return fmt::format("CAST({} AS {})", args[0]->ToString(), cast_to->ToString());
    case ExprKind::kCall: break;
  }
  static const std::set<std::string> kInfix = {"+", "-", "*", "/", "%", "=", "<=>", "!=", "<", "<=", ">", ">=", "and", "or"};
  if (kInfix.count(op) && args.size() == 2) {
    std::string symbol = op == "and" ? "AND" : op == "or" ? "OR" : op;
    return fmt::format("({} {} {})", args[0]->ToString(), symbol, args[1]->ToString());
  }
  if (op == "not") return fmt::format("(NOT {})", args[0]->ToString());
  if ((op == "interval" || op == "add_interval") && args.size() >= 2) {
    size_t at = op == "interval" ? 0 : 1;
    int64_t months = std::get<int64_t>(args[at]->literal.value), micros = std::get<int64_t>(args[at + 1]->literal.value);
    std::string text = "INTERVAL";
    if (months != 0 || micros == 0) text += fmt::format(" {} MONTHS", months);
    if (micros != 0) text += fmt::format(" {} MICROSECONDS", micros);
    return op == "interval" ? text : fmt::format("({} + {})", args[0]->ToString(), text);
  }
  if (op == "negate") return fmt::format("(- {})", args[0]->ToString());
  if (op == "is_null") return fmt::format("({} IS NULL)", args[0]->ToString());
  if (op == "is_not_null") return fmt::format("({} IS NOT NULL)", args[0]->ToString());
  if (op == "like" || op == "rlike") {
    return fmt::format("{}({}, {})", op, args[0]->ToString(), args[1]->ToString());
  }
  if (op == "in") {
    std::vector<std::string> values;
    for (size_t i = 1; i < args.size(); ++i) values.push_back(args[i]->ToString());
    return fmt::format("({} IN ({}))", args[0]->ToString(), fmt::join(values, ", "));
  }
  if (op == "case") {
    std::string out = "CASE";
    size_t i = 0;
    for (; i + 1 < args.size(); i += 2) out += fmt::format(" WHEN {} THEN {}", args[i]->ToString(), args[i + 1]->ToString());
    if (i < args.size()) out += " ELSE " + args[i]->ToString();
    return out + " END";
  }
  std::vector<std::string> parts;
  for (const auto& a : args) parts.push_back(a->ToString());
  if (op == "count" && args.empty()) return "count(1)";
  return fmt::format("{}({}{})", op, distinct ? "DISTINCT " : "", fmt::join(parts, ", "));
}

bool IsAggregateFunction(const std::string& op) {
  static const std::set<std::string> kAggregates = {"count", "sum", "min", "max", "avg", "mean", "first", "last",
                                                    "count_distinct", "collect_list", "collect_set"};
  return kAggregates.count(op) > 0;
}

bool ContainsAggregate(const Expr& e) {
  if (e.kind == ExprKind::kCall && IsAggregateFunction(e.op)) return true;
  for (const auto& a : e.args) {
    if (ContainsAggregate(*a)) return true;
  }
  return false;
}

}  // namespace epoxy::expr
