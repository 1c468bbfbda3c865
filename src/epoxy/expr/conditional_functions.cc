// SPDX-License-Identifier: Apache-2.0
// Conditional functions: coalesce (nvl, ifnull), if (iff), nullif, greatest, least.
#include "epoxy/expr/bind_context.h"
#include "epoxy/expr/builtin_functions.h"
#include "epoxy/expr/type_coercion.h"

namespace epoxy::expr {

Result<Datum> CoalesceKernel(const Expr& call, const std::vector<Datum>& args, int64_t n, MemoryPool* pool);
Result<Datum> ExtremeKernel(const Expr& call, const std::vector<Datum>& args, int64_t n, MemoryPool* pool);

namespace {

Result<ExprPtr> BindCoalesce(BindContext& ctx) {
  const bool coalesce = ctx.call().display_name == "coalesce";
  EPOXY_RETURN_NOT_OK(ctx.Arity(coalesce ? 1 : 2, coalesce ? SIZE_MAX : 2));
  EPOXY_ASSIGN_OR_RETURN(TypePtr t, ctx.CommonType(0, ctx.num_args()));
  return ctx.Done(t);
}

Result<ExprPtr> BindIf(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(3, 3));
  if (ctx.type_id(0) != TypeId::kBoolean) EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Boolean()));
  EPOXY_ASSIGN_OR_RETURN(TypePtr t, ctx.CommonType(1, 3));
  ctx.call().op = "case";  // evaluated as CASE WHEN c THEN a ELSE b END
  ctx.call().function = FunctionRegistry::Builtins().Find("case");
  return ctx.Done(t);
}

Result<ExprPtr> BindNullIf(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  auto common = ComparisonType(ctx.type(0), ctx.type(1));
  if (!common.ok()) return ctx.TypeError(common.status().message());
  ExprPtr value = ctx.arg(0);
  auto eq = std::make_shared<Expr>(*Expr::Call("=", {CastTo(ctx.arg(0), *common), CastTo(ctx.arg(1), *common)}));
  eq->type = DataType::Boolean();
  eq->function = FunctionRegistry::Builtins().Find("=");
  std::string shown = ctx.call().ToString();
  Expr& call = ctx.call();
  call.op = "case";
  call.function = FunctionRegistry::Builtins().Find("case");
  call.rendered = shown;
  call.args = {eq, Expr::Literal(Scalar::Null(value->type)), value};
  return ctx.Done(value->type);
}

Result<ExprPtr> BindExtreme(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, SIZE_MAX));
  EPOXY_ASSIGN_OR_RETURN(TypePtr t, ctx.CommonType(0, ctx.num_args()));
  return ctx.Done(t);
}

}  // namespace

void RegisterConditionalFunctions(FunctionRegistry* r) {
  FunctionEntry coalesce;
  coalesce.name = "coalesce";
  coalesce.aliases = {"nvl", "ifnull"};
  coalesce.bind = BindCoalesce;
  coalesce.kernel = CoalesceKernel;
  coalesce.doc = {"conditional_funcs",
                  "coalesce(expr1, expr2, ...) - The first argument that is not null, or null. nvl(expr1, expr2) and "
                  "ifnull(expr1, expr2) are coalesce of two.",
                  {{"SELECT coalesce(NULL, 1, NULL)", {"1"}}, {"SELECT nvl(NULL, array('2'))", {"[\"2\"]"}}},
                  "1.0.0",
                  ""};
  r->Register(coalesce);

  FunctionEntry if_entry;
  if_entry.name = "if";
  if_entry.aliases = {"iff"};
  if_entry.bind = BindIf;
  if_entry.doc = {"conditional_funcs", "if(cond, expr1, expr2) - expr1 when cond is true, expr2 otherwise.",
                  {{"SELECT if(1 < 2, 'a', 'b')", {"a"}}}, "1.0.0", ""};
  r->Register(if_entry);

  FunctionEntry nullif;
  nullif.name = "nullif";
  nullif.bind = BindNullIf;
  nullif.doc = {"conditional_funcs", "nullif(expr1, expr2) - null if expr1 equals expr2, expr1 otherwise.",
                {{"SELECT nullif(2, 2)", {"NULL"}}}, "2.0.0", ""};
  r->Register(nullif);

  for (const char* name : {"greatest", "least"}) {
    FunctionEntry e;
    e.name = name;
    e.bind = BindExtreme;
    e.kernel = ExtremeKernel;
    bool greatest = std::string(name) == "greatest";
    e.doc = {"conditional_funcs",
             fmt::format("{}(expr, ...) - The {} of the arguments, skipping nulls.", name,
                         greatest ? "greatest" : "least"),
             {{fmt::format("SELECT {}(10, 9, 2, 4, 3)", name), {greatest ? "10" : "2"}}},
             "1.5.0",
             ""};
    r->Register(e);
  }
}

}  // namespace epoxy::expr
