// SPDX-License-Identifier: Apache-2.0
// Building and printing expressions.
#include "epoxy/expr/expression.h"

#include <cctype>

#include <set>

#include "epoxy/expr/external_functions.h"
#include "epoxy/expr/function_registry.h"

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
  if (!rendered.empty()) return rendered;
  switch (kind) {
    case ExprKind::kColumn: return name.back();
    case ExprKind::kStar: return name.empty() ? "*" : name[0] + ".*";
    case ExprKind::kLiteral: {
      if (literal.is_null()) return "NULL";
      if (literal.type->id() == TypeId::kString) return std::get<std::string>(literal.value);
      return literal.ToSql();
    }
    case ExprKind::kCast: {
      if (implicit) return args[0]->ToString();
      std::string type = cast_to->ToString();  // Spark names casts with the type in upper case
      for (char& c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return fmt::format("CAST({} AS {})", args[0]->ToString(), type);
    }
    case ExprKind::kSubquery:
      if (op == "exists") return "exists(subquery)";
      if (op == "in") return fmt::format("({} IN (subquery))", args[0]->ToString());
      return "scalarsubquery()";
    case ExprKind::kCall: break;
  }
  static const std::set<std::string> kInfix = {"+", "-", "*", "/", "%", "=", "<=>", "!=", "<", "<=", ">", ">=", "and", "or"};
  if (kInfix.count(op) && args.size() == 2) {
    std::string symbol = op == "and" ? "AND" : op == "or" ? "OR" : op;
    return fmt::format("({} {} {})", args[0]->ToString(), symbol, args[1]->ToString());
  }
  if (op == "not") return fmt::format("(NOT {})", args[0]->ToString());
  if (op == "get_item" && args.size() == 2) return fmt::format("{}[{}]", args[0]->ToString(), args[1]->ToString());
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
    return fmt::format("{}({}, {})", display_name.empty() ? op : display_name, args[0]->ToString(), args[1]->ToString());
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
  const std::string& shown = display_name.empty() ? op : display_name;
  std::string call = op == "count" && args.empty() ? "count(1)"
                                                   : fmt::format("{}({}{})", shown, distinct ? "DISTINCT " : "", fmt::join(parts, ", "));
  if (window == nullptr) return call;
  std::vector<std::string> spec;
  if (!window->partition_by.empty()) {
    std::vector<std::string> keys;
    for (const auto& k : window->partition_by) keys.push_back(k->ToString());
    spec.push_back(fmt::format("PARTITION BY {}", fmt::join(keys, ", ")));
  }
  if (!window->order_by.empty()) {
    std::vector<std::string> keys;
    for (const auto& k : window->order_by) {
      keys.push_back(fmt::format("{} {} NULLS {}", k.expr->ToString(), k.ascending ? "ASC" : "DESC", k.nulls_first ? "FIRST" : "LAST"));
    }
    spec.push_back(fmt::format("ORDER BY {}", fmt::join(keys, ", ")));
  }
  if (window->units != WindowSpec::Units::kDefault) {
    auto bound = [](const FrameBound& b) -> std::string {
      switch (b.kind) {
        case FrameBound::Kind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
        case FrameBound::Kind::kPreceding: return fmt::format("{} PRECEDING", b.offset);
        case FrameBound::Kind::kCurrentRow: return "CURRENT ROW";
        case FrameBound::Kind::kFollowing: return fmt::format("{} FOLLOWING", b.offset);
        case FrameBound::Kind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
      }
      return "";
    };
    spec.push_back(fmt::format("{} BETWEEN {} AND {}", window->units == WindowSpec::Units::kRows ? "ROWS" : "RANGE",
                               bound(window->start), bound(window->end)));
  }
  return fmt::format("{} OVER ({})", call, fmt::join(spec, " "));
}

namespace {

const FunctionEntry* BuiltinOf(const std::string& op) {
  if (FindExternalFunction(op) != nullptr) return nullptr;  // a UDF hides a built-in of its name
  return FunctionRegistry::Builtins().Find(op);
}

}  // namespace

bool IsAggregateFunction(const std::string& op) {
  const FunctionEntry* entry = BuiltinOf(op);
  return entry != nullptr && entry->kind == FunctionKind::kAggregate;
}

bool IsWindowFunction(const std::string& op) {
  const FunctionEntry* entry = BuiltinOf(op);
  return entry != nullptr && entry->kind == FunctionKind::kWindow;
}

bool ContainsAggregate(const Expr& e) {
  if (e.kind == ExprKind::kCall && IsAggregateFunction(e.op) && e.window == nullptr) return true;
  if (e.kind == ExprKind::kSubquery) return false;  // its aggregates are its own
  for (const auto& a : e.args) {
    if (ContainsAggregate(*a)) return true;
  }
  return false;
}

bool ContainsWindow(const Expr& e) {
  if (e.kind == ExprKind::kCall && e.window != nullptr) return true;
  for (const auto& a : e.args) {
    if (ContainsWindow(*a)) return true;
  }
  return false;
}

bool ContainsSubquery(const Expr& e) {
  if (e.kind == ExprKind::kSubquery) return true;
  for (const auto& a : e.args) {
    if (ContainsSubquery(*a)) return true;
  }
  return false;
}

namespace {

bool SameScalar(const Scalar& a, const Scalar& b) {
  return a.type->Equals(*b.type) && a.value == b.value;
}

bool SameOrder(const std::vector<OrderItem>& a, const std::vector<OrderItem>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].ascending != b[i].ascending || a[i].nulls_first != b[i].nulls_first || !SameExpr(*a[i].expr, *b[i].expr)) {
      return false;
    }
  }
  return true;
}

bool SameWindow(const WindowSpecPtr& a, const WindowSpecPtr& b) {
  if (a == nullptr || b == nullptr) return a == b;
  if (a->partition_by.size() != b->partition_by.size() || a->units != b->units || a->start.kind != b->start.kind ||
      a->start.offset != b->start.offset || a->end.kind != b->end.kind || a->end.offset != b->end.offset) {
    return false;
  }
  for (size_t i = 0; i < a->partition_by.size(); ++i) {
    if (!SameExpr(*a->partition_by[i], *b->partition_by[i])) return false;
  }
  return SameOrder(a->order_by, b->order_by);
}

}  // namespace

bool SameExpr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.distinct != b.distinct) return false;
  if ((a.type == nullptr) != (b.type == nullptr) || (a.type && !a.type->Equals(*b.type))) return false;
  switch (a.kind) {
    case ExprKind::kColumn:
      if (a.column < 0 || b.column < 0) return a.name == b.name;
      return a.column == b.column && a.fields == b.fields;
    case ExprKind::kLiteral: return SameScalar(a.literal, b.literal);
    case ExprKind::kStar: return a.name == b.name;
    case ExprKind::kSubquery: return a.subquery == b.subquery;
    case ExprKind::kCast: return a.cast_to->Equals(*b.cast_to) && SameExpr(*a.args[0], *b.args[0]);
    case ExprKind::kCall: break;
  }
  if (a.op != b.op || a.args.size() != b.args.size() || !SameWindow(a.window, b.window)) return false;
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (!SameExpr(*a.args[i], *b.args[i])) return false;
  }
  return true;
}

}  // namespace epoxy::expr
