// SPDX-License-Identifier: Apache-2.0
// A scan's filter expression to the readers' statistics predicate.
#include "epoxy/plan/scan_predicate.h"

#include <optional>

namespace epoxy::plan {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::Scalar;

std::optional<Literal> ToLiteral(const Scalar& s) {
  if (s.is_null()) return std::nullopt;
  if (std::holds_alternative<bool>(s.value)) return Literal(std::get<bool>(s.value));
  if (std::holds_alternative<int64_t>(s.value)) return Literal(std::get<int64_t>(s.value));
  if (std::holds_alternative<double>(s.value)) return Literal(std::get<double>(s.value));
  if (std::holds_alternative<std::string>(s.value)) return Literal(std::get<std::string>(s.value));
  return std::nullopt;  // decimals: no statistics comparison yet
}

bool IsPlainColumn(const Expr& e, const Schema& schema) {
  return e.kind == ExprKind::kColumn && e.fields.empty() && e.column >= 0 && e.column < schema.num_fields();
}

/// A column under a cast that only widens it (int to bigint, float to double) compares like the
/// column itself.
const Expr* StripWideningCast(const Expr* e) {
  if (e->kind != ExprKind::kCast || e->args[0]->kind != ExprKind::kColumn) return e;
  TypeId from = e->args[0]->type->id(), to = e->type->id();
  bool integers = (from == TypeId::kTinyInt || from == TypeId::kSmallInt || from == TypeId::kInt) && to == TypeId::kBigInt;
  bool floats = from == TypeId::kFloat && to == TypeId::kDouble;
  return integers || floats ? e->args[0].get() : e;
}

}  // namespace

PredicatePtr LowerToPredicate(const Expr& e, const Schema& schema) {
  if (e.kind != ExprKind::kCall) return nullptr;
  if (e.op == "and") {
    PredicatePtr a = LowerToPredicate(*e.args[0], schema), b = LowerToPredicate(*e.args[1], schema);
    if (a && b) return Predicate::And({a, b});
    return a ? a : b;  // dropping a conjunct only widens the match
  }
  if (e.op == "or") {
    PredicatePtr a = LowerToPredicate(*e.args[0], schema), b = LowerToPredicate(*e.args[1], schema);
    if (a && b) return Predicate::Or({a, b});
    return nullptr;  // an unknown side of an OR may match anything
  }
  if ((e.op == "is_null" || e.op == "is_not_null") && IsPlainColumn(*e.args[0], schema)) {
    return Predicate::IsNull(schema.field(e.args[0]->column).name, e.op == "is_not_null");
  }
  static const std::pair<const char*, Predicate::Op> kOps[] = {
      {"=", Predicate::Op::kEq}, {"!=", Predicate::Op::kNe}, {"<", Predicate::Op::kLt},
      {"<=", Predicate::Op::kLe}, {">", Predicate::Op::kGt}, {">=", Predicate::Op::kGe}};
  for (const auto& [name, op] : kOps) {
    if (e.op != name || e.args.size() != 2) continue;
    const Expr* column = StripWideningCast(e.args[0].get());
    const Expr* constant = StripWideningCast(e.args[1].get());
    Predicate::Op o = op;
    if (!IsPlainColumn(*column, schema)) {
      std::swap(column, constant);
      // a < col is col > a
      if (o == Predicate::Op::kLt) o = Predicate::Op::kGt;
      else if (o == Predicate::Op::kLe) o = Predicate::Op::kGe;
      else if (o == Predicate::Op::kGt) o = Predicate::Op::kLt;
      else if (o == Predicate::Op::kGe) o = Predicate::Op::kLe;
    }
    if (!IsPlainColumn(*column, schema) || constant->kind != ExprKind::kLiteral) return nullptr;
    auto literal = ToLiteral(constant->literal);
    if (!literal) return nullptr;
    return Predicate::Compare(schema.field(column->column).name, o, *literal);
  }
  return nullptr;
}

}  // namespace epoxy::plan
