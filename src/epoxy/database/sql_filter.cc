// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/sql_filter.h"

#include <cmath>

#include <fmt/format.h>

#include "epoxy/types/value_text.h"

namespace epoxy::database {
namespace {

using expr::Expr;
using expr::ExprKind;

bool IsInteger(TypeId id) {
  return id == TypeId::kTinyInt || id == TypeId::kSmallInt || id == TypeId::kInt || id == TypeId::kBigInt;
}

/// The source column under `e` (a plain column, or one under a cast that only widens it), or -1.
int ColumnOf(const Expr& e, size_t num_columns) {
  const Expr* c = &e;
  if (c->kind == ExprKind::kCast) {
    TypeId from = c->args[0]->type->id(), to = c->type->id();
    bool widening = (IsInteger(from) && IsInteger(to)) || (from == TypeId::kFloat && to == TypeId::kDouble);
    if (!widening) return -1;
    c = c->args[0].get();
  }
  if (c->kind != ExprKind::kColumn || !c->fields.empty() || c->column < 0 || static_cast<size_t>(c->column) >= num_columns) {
    return -1;
  }
  return c->column;
}

/// The constant's text when the database compares it with `column` as Spark does.
std::optional<std::string> ConstantFor(const Expr& e, const ColumnMapping& column, Engine engine, bool equality_only) {
  if (e.kind != ExprKind::kLiteral || e.literal.is_null() || column.array) return std::nullopt;
  const expr::Scalar& v = e.literal;
  const TypeId c = column.type->id(), l = v.type->id();
  if (IsInteger(c) && IsInteger(l)) return std::to_string(std::get<int64_t>(v.value));
  if ((c == TypeId::kDouble || c == TypeId::kFloat) && IsInteger(l)) return std::to_string(std::get<int64_t>(v.value));
  if ((c == TypeId::kDouble || c == TypeId::kFloat) && (l == TypeId::kDouble || l == TypeId::kFloat)) {
    double d = std::get<double>(v.value);
    if (std::isnan(d) || std::isinf(d)) return std::nullopt;
    return FormatDouble(d);
  }
  if (c == TypeId::kDecimal && IsInteger(l)) return std::to_string(std::get<int64_t>(v.value));
  if (c == TypeId::kDecimal && l == TypeId::kDecimal) return FormatDecimal(std::get<__int128>(v.value), v.type->scale());
  if (c == TypeId::kDate && l == TypeId::kDate) return FormatDate(static_cast<int32_t>(std::get<int64_t>(v.value)));
  // Text compares with the database's collation, which need not be Spark's byte order, and
  // char(n) ignores trailing blanks: only equality is the same.
  if (c == TypeId::kString && l == TypeId::kString && equality_only && column.decoding == Decoding::kText &&
      column.source_type != "character" && column.source_type.rfind("character(", 0) != 0) {
    return std::get<std::string>(v.value);
  }
  if (c == TypeId::kBoolean && l == TypeId::kBoolean && engine == Engine::kPostgres) {
    return std::string(std::get<bool>(v.value) ? "true" : "false");
  }
  return std::nullopt;
}

std::optional<std::string> Translate(const Expr& e, const std::vector<ColumnMapping>& columns, Engine engine,
                                     SqlParams* params) {
  if (e.kind != ExprKind::kCall) return std::nullopt;
  if (e.op == "and" || e.op == "or") {
    auto a = Translate(*e.args[0], columns, engine, params);
    if (!a) return std::nullopt;
    auto b = Translate(*e.args[1], columns, engine, params);
    if (!b) return std::nullopt;
    return fmt::format("({} {} {})", *a, e.op == "and" ? "AND" : "OR", *b);
  }
  if ((e.op == "is_null" || e.op == "is_not_null") && e.args.size() == 1) {
    int c = ColumnOf(*e.args[0], columns.size());
    if (c < 0) return std::nullopt;
    return fmt::format("{} IS {}NULL", QuoteIdentifier(columns[static_cast<size_t>(c)].name), e.op == "is_null" ? "" : "NOT ");
  }
  if (e.op == "in" && e.args.size() >= 2) {
    int c = ColumnOf(*e.args[0], columns.size());
    if (c < 0) return std::nullopt;
    std::vector<std::string> values;
    for (size_t i = 1; i < e.args.size(); ++i) {
      auto v = ConstantFor(*e.args[i], columns[static_cast<size_t>(c)], engine, true);
      if (!v) return std::nullopt;
      values.push_back(*v);
    }
    std::string list;
    for (auto& v : values) list += (list.empty() ? "" : ", ") + params->Add(std::move(v));
    return fmt::format("{} IN ({})", QuoteIdentifier(columns[static_cast<size_t>(c)].name), list);
  }
  static const char* kOps[] = {"=", "!=", "<", "<=", ">", ">="};
  for (const char* op : kOps) {
    if (e.op != op || e.args.size() != 2) continue;
    const Expr* column = e.args[0].get();
    const Expr* constant = e.args[1].get();
    std::string sql_op = std::string(op) == "!=" ? "<>" : op;
    if (ColumnOf(*column, columns.size()) < 0) {
      std::swap(column, constant);
      static const std::pair<const char*, const char*> kMirror[] = {{"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}};
      for (const auto& [from, to] : kMirror) {
        if (sql_op == from) {
          sql_op = to;
          break;
        }
      }
    }
    int c = ColumnOf(*column, columns.size());
    if (c < 0) return std::nullopt;
    const bool equality = sql_op == "=";
    auto v = ConstantFor(*constant, columns[static_cast<size_t>(c)], engine, equality);
    if (!v) return std::nullopt;
    return fmt::format("{} {} {}", QuoteIdentifier(columns[static_cast<size_t>(c)].name), sql_op, params->Add(std::move(*v)));
  }
  return std::nullopt;
}

void SplitAnd(const expr::ExprPtr& e, std::vector<expr::ExprPtr>* out) {
  if (e->kind == ExprKind::kCall && e->op == "and" && e->args.size() == 2) {
    SplitAnd(e->args[0], out);
    SplitAnd(e->args[1], out);
  } else {
    out->push_back(e);
  }
}

}  // namespace

std::string PushableFilter(const expr::ExprPtr& filter, const std::vector<ColumnMapping>& columns, Engine engine,
                           SqlParams* params, bool* all_pushed) {
  *all_pushed = true;
  if (!filter) return "";
  std::vector<expr::ExprPtr> conjuncts;
  SplitAnd(filter, &conjuncts);
  std::string out;
  for (const auto& c : conjuncts) {
    SqlParams trial = *params;  // a conjunct that fails half way binds nothing
    auto sql = Translate(*c, columns, engine, &trial);
    if (!sql) {
      *all_pushed = false;
      continue;
    }
    *params = trial;
    out += (out.empty() ? "" : " AND ") + *sql;
  }
  return out;
}

}  // namespace epoxy::database
