// SPDX-License-Identifier: Apache-2.0
// The operators as registry entries: arithmetic, comparisons, boolean logic, null tests, IN,
// LIKE/RLIKE and CASE. The evaluator runs them itself (they have no kernel here); these entries
// type them as Spark does and document them.
#include <algorithm>

#include "epoxy/expr/bind_context.h"
#include "epoxy/expr/builtin_functions.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/expr/time_units.h"
#include "epoxy/expr/type_coercion.h"
#include "epoxy/expr/type_visit.h"

namespace epoxy::expr {
namespace {

bool IsRawInterval(const ExprPtr& e) { return e->kind == ExprKind::kCall && e->op == "interval" && e->type == nullptr; }

/// date/timestamp +/- INTERVAL: add_interval(x, months, micros).
Result<ExprPtr> BindIntervalArithmetic(BindContext& ctx, bool interval_right) {
  Expr& call = ctx.call();
  const std::string op = call.op;
  ExprPtr value = interval_right ? ctx.arg(0) : ctx.arg(1);
  const Expr& interval = interval_right ? *ctx.arg(1) : *ctx.arg(0);
  int64_t sign = op == "-" ? -1 : 1;
  int64_t months = std::get<int64_t>(interval.args[0]->literal.value) * sign;
  int64_t micros = std::get<int64_t>(interval.args[1]->literal.value) * sign;
  TypeId id = value->type->id();
  if (id == TypeId::kString) value = CastTo(value, DataType::Timestamp());
  if (id != TypeId::kDate && id != TypeId::kTimestamp && id != TypeId::kString) {
    return ctx.TypeError(fmt::format("an INTERVAL is added to a date or timestamp, not to {}", value->type->ToString()));
  }
  // A date stays a date when the interval has whole days only, as in Spark.
  TypePtr type = id == TypeId::kDate && micros % kMicrosPerDay == 0 ? DataType::Date() : DataType::Timestamp();
  if (type->id() == TypeId::kTimestamp) value = CastTo(value, DataType::Timestamp());
  call.op = "add_interval";
  call.function = FunctionRegistry::Builtins().Find("add_interval");
  call.args = {value, Expr::Literal(Scalar::Integer(DataType::BigInt(), months)),
               Expr::Literal(Scalar::Integer(DataType::BigInt(), micros))};
  return ctx.Done(type);
}

Result<ExprPtr> BindArithmetic(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  Expr& call = ctx.call();
  const std::string op = call.op;
  if (op == "+" || op == "-") {
    if (IsRawInterval(ctx.arg(1))) return BindIntervalArithmetic(ctx, true);
    if (op == "+" && IsRawInterval(ctx.arg(0))) return BindIntervalArithmetic(ctx, false);
  }
  if (IsRawInterval(ctx.arg(0)) || IsRawInterval(ctx.arg(1))) {
    return Status::InvalidInput("an INTERVAL can only be added to or subtracted from a date or timestamp ('{}')",
                                call.ToString());
  }
  TypePtr a = ctx.type(0), b = ctx.type(1);
  // Date arithmetic: date +/- integer days.
  if ((op == "+" || op == "-") && a->id() == TypeId::kDate && IsIntegral(b->id())) {
    call.op = op == "+" ? "date_add" : "date_sub";
    call.function = FunctionRegistry::Builtins().Find(call.op);
    call.args[1] = CastTo(call.args[1], DataType::Int());
    return ctx.Done(DataType::Date());
  }
  for (const auto& t : {a, b}) {
    if (!IsNumeric(t->id()) && t->id() != TypeId::kString && t->id() != TypeId::kNull) {
      return ctx.TypeError(fmt::format("{} needs numbers, got {}, {}", op, a->ToString(), b->ToString()));
    }
  }
  auto numeric = [](const TypePtr& t) {
    return IsNumeric(t->id()) ? t : t->id() == TypeId::kNull ? DataType::Int() : DataType::Double();
  };
  TypePtr na = numeric(a), nb = numeric(b);
  const bool decimal = (na->id() == TypeId::kDecimal || nb->id() == TypeId::kDecimal) && !IsFloating(na->id()) &&
                       !IsFloating(nb->id());
  if (decimal && op != "div") {
    // Spark's decimal arithmetic: each side as a decimal, the result typed by the operator.
    TypePtr da = a->id() == TypeId::kNull ? nullptr : AsDecimal(*call.args[0]);
    TypePtr db = b->id() == TypeId::kNull ? nullptr : AsDecimal(*call.args[1]);
    if (da == nullptr) da = DecimalForIntegral(TypeId::kInt);
    if (db == nullptr) db = DecimalForIntegral(TypeId::kInt);
    call.args[0] = CastTo(call.args[0], da);
    call.args[1] = CastTo(call.args[1], db);
    return ctx.Done(DecimalArithmeticType(op, *da, *db));
  }
  TypePtr common = WiderNumeric(na, nb);
  if (op == "/") common = DataType::Double();
  if (op == "div") common = DataType::BigInt();
  for (auto& arg : call.args) arg = CastTo(arg, common);
  return ctx.Done(common);
}

Result<ExprPtr> BindNegate(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  TypePtr t = ctx.type(0);
  if (t->id() == TypeId::kString) t = DataType::Double();
  if (t->id() == TypeId::kNull) t = DataType::Double();
  if (!IsNumeric(t->id())) return ctx.TypeError(fmt::format("- needs a number, got {}", t->ToString()));
  ctx.args()[0] = CastTo(ctx.arg(0), t);
  return ctx.Done(t);
}

Result<ExprPtr> BindComparison(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  auto common = ComparisonType(ctx.type(0), ctx.type(1));
  if (!common.ok()) return ctx.TypeError(common.status().message());
  for (auto& arg : ctx.args()) arg = CastTo(arg, *common);
  return ctx.Done(DataType::Boolean());
}

Status RequireBoolean(BindContext& ctx, size_t i) {
  TypeId id = ctx.type_id(i);
  if (id == TypeId::kNull) {
    ctx.args()[i] = CastTo(ctx.arg(i), DataType::Boolean());
    return Status::OK();
  }
  if (id != TypeId::kBoolean) {
    return ctx.TypeError(fmt::format("{} needs a boolean, got {} ({})", ctx.call().op, ctx.type(i)->ToString(),
                                     ctx.arg(i)->ToString()));
  }
  return Status::OK();
}

Result<ExprPtr> BindLogic(BindContext& ctx) {
  const size_t n = ctx.call().op == "not" ? 1 : 2;
  EPOXY_RETURN_NOT_OK(ctx.Arity(n, n));
  for (size_t i = 0; i < n; ++i) EPOXY_RETURN_NOT_OK(RequireBoolean(ctx, i));
  return ctx.Done(DataType::Boolean());
}

Result<ExprPtr> BindIn(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, SIZE_MAX));
  TypePtr common = ctx.type(0);
  for (size_t i = 1; i < ctx.num_args(); ++i) {
    auto t = ComparisonType(common, ctx.type(i));
    if (!t.ok()) return ctx.TypeError(t.status().message());
    common = *t;
  }
  for (auto& arg : ctx.args()) arg = CastTo(arg, common);
  return ctx.Done(DataType::Boolean());
}

Result<ExprPtr> BindMatch(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  for (size_t i = 0; i < 2; ++i) {
    if (ctx.type_id(i) != TypeId::kString) ctx.args()[i] = CastTo(ctx.arg(i), DataType::String());
  }
  EPOXY_RETURN_NOT_OK(ctx.CompileRegex(1, ctx.call().op == "like"));
  return ctx.Done(DataType::Boolean());
}

Result<ExprPtr> BindCase(BindContext& ctx) {
  TypePtr type = DataType::Null();
  const size_t n = ctx.num_args();
  auto is_condition = [n](size_t i) { return i % 2 == 0 && i + 1 < n; };
  for (size_t i = 0; i < n; ++i) {
    if (is_condition(i)) {
      EPOXY_RETURN_NOT_OK(RequireBoolean(ctx, i));
      continue;
    }
    auto t = CommonType(type, ctx.type(i));
    if (!t.ok()) return ctx.TypeError(t.status().message());
    type = *t;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!is_condition(i)) ctx.args()[i] = CastTo(ctx.arg(i), type);
  }
  return ctx.Done(type);
}

FunctionEntry Operator(std::string name, BindCallback bind, std::string usage, std::vector<FunctionExample> examples) {
  FunctionEntry e;
  e.name = std::move(name);
  e.bind = std::move(bind);
  e.doc.group = "operator";
  e.doc.usage = std::move(usage);
  e.doc.examples = std::move(examples);
  return e;
}

}  // namespace

void RegisterOperatorFunctions(FunctionRegistry* r) {
  r->Register(Operator("+", BindArithmetic, "expr1 + expr2 - Returns the sum of expr1 and expr2.",
                       {{"SELECT 1 + 2", {"3"}}}));
  r->Register(Operator("-", BindArithmetic, "expr1 - expr2 - Returns expr1 less expr2.", {{"SELECT 2 - 1", {"1"}}}));
  r->Register(Operator("*", BindArithmetic, "expr1 * expr2 - Returns the product of expr1 and expr2.",
                       {{"SELECT 2 * 3", {"6"}}}));
  r->Register(Operator("/", BindArithmetic,
                       "expr1 / expr2 - Returns expr1 divided by expr2, always as a fraction (double, or decimal for "
                       "decimal operands); null when expr2 is 0.",
                       {{"SELECT 3 / 2", {"1.5"}}, {"SELECT 2L / 2L", {"1.0"}}}));
  r->Register(Operator("%", BindArithmetic, "expr1 % expr2 - Returns the remainder after expr1/expr2 (null for 0).",
                       {{"SELECT 2 % 1.8", {"0.2"}}}));
  r->Register(Operator("div", BindArithmetic,
                       "expr1 div expr2 - Divides expr1 by expr2 and returns the integral part of the quotient.",
                       {{"SELECT 3 div 2", {"1"}}}));
  r->Register(Operator("negate", BindNegate, "negative(expr) - Returns the negated value of expr.", {}));
  const char* kComparisons[][2] = {
      {"=", "expr1 = expr2 - Returns true if expr1 equals expr2."},
      {"!=", "expr1 != expr2 - Returns true if expr1 does not equal expr2."},
      {"<", "expr1 < expr2 - Returns true if expr1 is less than expr2."},
      {"<=", "expr1 <= expr2 - Returns true if expr1 is less than or equal to expr2."},
      {">", "expr1 > expr2 - Returns true if expr1 is greater than expr2."},
      {">=", "expr1 >= expr2 - Returns true if expr1 is greater than or equal to expr2."},
      {"<=>", "expr1 <=> expr2 - Like = for non-null operands; true when both are null, false when one is."}};
  for (const auto& [name, usage] : kComparisons) r->Register(Operator(name, BindComparison, usage, {}));
  r->Register(Operator("and", BindLogic, "expr1 and expr2 - Logical AND (three-valued).", {{"SELECT true and true", {"true"}}}));
  r->Register(Operator("or", BindLogic, "expr1 or expr2 - Logical OR (three-valued).", {{"SELECT true or false", {"true"}}}));
  r->Register(Operator("not", BindLogic, "not expr - Logical not.", {{"SELECT not true", {"false"}}}));
  FunctionEntry is_null = Operator("is_null", [](BindContext& ctx) -> Result<ExprPtr> {
        EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
        return ctx.Done(DataType::Boolean());
      }, "isnull(expr) - Returns true if expr is null, false otherwise.", {{"SELECT isnull(1)", {"false"}}});
  is_null.aliases = {"isnull"};
  r->Register(is_null);
  FunctionEntry is_not_null = Operator("is_not_null", [](BindContext& ctx) -> Result<ExprPtr> {
        EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
        return ctx.Done(DataType::Boolean());
      }, "isnotnull(expr) - Returns true if expr is not null, false otherwise.", {{"SELECT isnotnull(1)", {"true"}}});
  is_not_null.aliases = {"isnotnull"};
  r->Register(is_not_null);
  r->Register(Operator("in", BindIn, "expr1 in(expr2, expr3, ...) - Returns true if expr1 equals any of the others.",
                       {{"SELECT 1 in(1, 2, 3)", {"true"}}}));
  r->Register(Operator("like", BindMatch,
                       "str like pattern - true if str matches pattern: % matches any run of characters, _ one "
                       "character, \\ escapes.",
                       {{"SELECT like('Spark', '_park')", {"true"}}}));
  FunctionEntry rlike = Operator("rlike", BindMatch, "str rlike regexp - true if str contains a match of the "
                                                     "regular expression (Java syntax).",
                                 {{"SELECT rlike('abc', 'b.')", {"true"}}});
  r->Register(rlike);
  r->Register(Operator("case", BindCase,
                       "CASE WHEN expr1 THEN expr2 [WHEN expr3 THEN expr4]* [ELSE expr5] END - the value of the "
                       "first branch whose condition is true.",
                       {{"SELECT CASE WHEN 1 > 0 THEN 1 WHEN 2 > 0 THEN 2.0 ELSE 1.2 END", {"1.0"}}}));
}

}  // namespace epoxy::expr
