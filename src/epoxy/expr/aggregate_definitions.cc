// SPDX-License-Identifier: Apache-2.0
// Aggregate functions as registry entries: their names, argument and result types, and
// documentation. exec/aggregate_functions.cc holds the accumulators, found by entry name.
#include "epoxy/expr/bind_context.h"
#include "epoxy/expr/builtin_functions.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/expr/type_visit.h"

namespace epoxy::expr {
namespace {

bool NumberLike(TypeId id) { return IsNumeric(id) || id == TypeId::kString || id == TypeId::kNull; }

Result<ExprPtr> BindCount(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(0, ctx.call().distinct ? SIZE_MAX : 1));
  return ctx.Done(DataType::BigInt());
}

Result<ExprPtr> BindCountIf(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  if (ctx.type_id(0) != TypeId::kBoolean) EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Boolean()));
  return ctx.Done(DataType::BigInt());
}

Result<ExprPtr> BindSumAvg(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  const bool sum = ctx.call().op == "sum";
  TypeId id = ctx.type_id(0);
  if (id == TypeId::kString) EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Double()));
  else if (!IsNumeric(id) && id != TypeId::kNull) return ctx.ArgumentError(0, "a number");
  if (ctx.type_id(0) == TypeId::kDecimal) {
    const DataType& d = *ctx.type(0);
    return ctx.Done(sum ? DecimalSumType(d) : DecimalAvgType(d));
  }
  if (!sum) {
    EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Double()));
    return ctx.Done(DataType::Double());
  }
  if (IsIntegral(ctx.type_id(0)) || ctx.type_id(0) == TypeId::kNull) {
    EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::BigInt()));
    return ctx.Done(DataType::BigInt());
  }
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Double()));
  return ctx.Done(DataType::Double());
}

Result<ExprPtr> BindSameType(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  return ctx.Done(ctx.type(0));
}

Result<ExprPtr> BindFirstLast(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 2));  // the second: ignoreNulls
  if (ctx.num_args() == 2) EPOXY_RETURN_NOT_OK(ctx.Constant(1, DataType::Boolean()));
  return ctx.Done(ctx.type(0));
}

Result<ExprPtr> BindDoubleStatistic(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  if (!NumberLike(ctx.type_id(0))) return ctx.ArgumentError(0, "a number");
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Double()));
  return ctx.Done(DataType::Double());
}

Result<ExprPtr> BindPairStatistic(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  for (size_t i = 0; i < 2; ++i) {
    if (!NumberLike(ctx.type_id(i))) return ctx.ArgumentError(i, "a number");
    EPOXY_RETURN_NOT_OK(ctx.Cast(i, DataType::Double()));
  }
  return ctx.Done(DataType::Double());
}

Result<ExprPtr> BindCollect(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  return ctx.Done(DataType::Array(ctx.type(0)));
}

Result<ExprPtr> BindApproxCountDistinct(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 2));
  if (ctx.num_args() == 2) EPOXY_RETURN_NOT_OK(ctx.Constant(1, DataType::Double()));
  return ctx.Done(DataType::BigInt());
}

Result<ExprPtr> BindBoolean(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  if (ctx.type_id(0) != TypeId::kBoolean && ctx.type_id(0) != TypeId::kNull) return ctx.ArgumentError(0, "boolean");
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Boolean()));
  return ctx.Done(DataType::Boolean());
}

struct AggregateDef {
  const char* name;
  std::vector<std::string> aliases;
  BindCallback bind;
  const char* usage;
  std::vector<FunctionExample> examples;
};

}  // namespace

void RegisterAggregateFunctions(FunctionRegistry* r) {
  const AggregateDef defs[] = {
      {"count", {}, BindCount,
       "count(*) - the number of rows; count(expr[, expr...]) - the rows where every expr is not null; "
       "count(DISTINCT expr[, expr...]) - the distinct non-null values.",
       {{"SELECT count(*) FROM VALUES (NULL), (5), (5), (20) AS tab(col)", {"4"}},
        {"SELECT count(col) FROM VALUES (NULL), (5), (5), (20) AS tab(col)", {"3"}},
        {"SELECT count(DISTINCT col) FROM VALUES (NULL), (5), (5), (10) AS tab(col)", {"2"}}}},
      {"count_if", {}, BindCountIf, "count_if(expr) - the number of rows where expr is true.",
       {{"SELECT count_if(col % 2 = 0) FROM VALUES (NULL), (0), (1), (2), (3) AS tab(col)", {"2"}}}},
      {"sum", {}, BindSumAvg, "sum(expr) - the sum of the non-null values (bigint for integers, decimal(p+10,s) for decimals).",
       {{"SELECT sum(col) FROM VALUES (5), (10), (15) AS tab(col)", {"30"}}}},
      {"avg", {"mean"}, BindSumAvg, "avg(expr) - the mean of the non-null values.",
       {{"SELECT avg(col) FROM VALUES (1), (2), (3) AS tab(col)", {"2.0"}}}},
      {"min", {}, BindSameType, "min(expr) - the smallest non-null value.",
       {{"SELECT min(col) FROM VALUES (10), (-1), (20) AS tab(col)", {"-1"}}}},
      {"max", {}, BindSameType, "max(expr) - the largest non-null value.",
       {{"SELECT max(col) FROM VALUES (10), (50), (20) AS tab(col)", {"50"}}}},
      {"any_value", {}, BindFirstLast, "any_value(expr[, isIgnoreNull]) - some value of the group.",
       {{"SELECT any_value(col) FROM VALUES (10), (5), (20) AS tab(col)", {"10"}}}},
      {"first", {"first_value"}, BindFirstLast,
       "first(expr[, isIgnoreNull]) - the first value of the group (skipping nulls with isIgnoreNull).",
       {{"SELECT first(col) FROM VALUES (10), (5), (20) AS tab(col)", {"10"}}}},
      {"last", {"last_value"}, BindFirstLast,
       "last(expr[, isIgnoreNull]) - the last value of the group (skipping nulls with isIgnoreNull).",
       {{"SELECT last(col) FROM VALUES (10), (5), (20) AS tab(col)", {"20"}}}},
      {"median", {}, BindDoubleStatistic, "median(col) - the median of the numeric values.",
       {{"SELECT median(col) FROM VALUES (0), (10) AS tab(col)", {"5.0"}}}},
      {"product", {}, BindDoubleStatistic, "product(expr) - the product of the non-null values.", {}},
      {"skewness", {}, BindDoubleStatistic, "skewness(expr) - the skewness of the values.",
       {{"SELECT skewness(col) FROM VALUES (-10), (-20), (100), (1000) AS tab(col)", {"1.1135657469022011"}}}},
      {"kurtosis", {}, BindDoubleStatistic, "kurtosis(expr) - the excess kurtosis of the values.",
       {{"SELECT kurtosis(col) FROM VALUES (-10), (-20), (100), (1000) AS tab(col)", {"-0.7014368047529627"}}}},
      {"covar_pop", {}, BindPairStatistic, "covar_pop(expr1, expr2) - the population covariance.",
       {{"SELECT covar_pop(c1, c2) FROM VALUES (1,1), (2,2), (3,3) AS tab(c1, c2)", {"0.6666666666666666"}}}},
      {"covar_samp", {}, BindPairStatistic, "covar_samp(expr1, expr2) - the sample covariance.",
       {{"SELECT covar_samp(c1, c2) FROM VALUES (1,1), (2,2), (3,3) AS tab(c1, c2)", {"1.0"}}}},
      {"corr", {}, BindPairStatistic, "corr(expr1, expr2) - the Pearson correlation coefficient.",
       {{"SELECT corr(c1, c2) FROM VALUES (3, 2), (3, 3), (6, 4) as tab(c1, c2)", {"0.8660254037844387"}}}},
      {"mode", {}, BindSameType, "mode(col) - the most frequent value.",
       {{"SELECT mode(col) FROM VALUES (0), (10), (10) AS tab(col)", {"10"}}}},
      {"collect_list", {"array_agg"}, BindCollect, "collect_list(expr) - the non-null values, in input order.",
       {{"SELECT collect_list(col) FROM VALUES (1), (2), (1) AS tab(col)", {"[1,2,1]"}}}},
      {"collect_set", {}, BindCollect, "collect_set(expr) - the distinct non-null values.", {}},
      {"stddev_samp", {"stddev", "std"}, BindDoubleStatistic, "stddev_samp(expr) - the sample standard deviation.",
       {{"SELECT stddev_samp(col) FROM VALUES (1), (2), (3) AS tab(col)", {"1.0"}}}},
      {"stddev_pop", {}, BindDoubleStatistic, "stddev_pop(expr) - the population standard deviation.",
       {{"SELECT stddev_pop(col) FROM VALUES (1), (2), (3) AS tab(col)", {"0.816496580927726"}}}},
      {"var_samp", {"variance"}, BindDoubleStatistic, "var_samp(expr) - the sample variance.",
       {{"SELECT var_samp(col) FROM VALUES (1), (2), (3) AS tab(col)", {"1.0"}}}},
      {"var_pop", {}, BindDoubleStatistic, "var_pop(expr) - the population variance.",
       {{"SELECT var_pop(col) FROM VALUES (1), (2), (3) AS tab(col)", {"0.6666666666666666"}}}},
      {"approx_count_distinct", {}, BindApproxCountDistinct,
       "approx_count_distinct(expr[, relativeSD]) - the estimated number of distinct values (HyperLogLog++).",
       {{"SELECT approx_count_distinct(col1) FROM VALUES (1), (1), (2), (2), (3) tab(col1)", {"3"}}}},
      {"bool_and", {"every"}, BindBoolean, "bool_and(expr) - true if every value is true.",
       {{"SELECT bool_and(col) FROM VALUES (true), (true), (true) AS tab(col)", {"true"}}}},
      {"bool_or", {"some", "any"}, BindBoolean, "bool_or(expr) - true if at least one value is true.",
       {{"SELECT bool_or(col) FROM VALUES (true), (false), (false) AS tab(col)", {"true"}}}},
  };
  for (const auto& d : defs) {
    FunctionEntry e;
    e.name = d.name;
    e.aliases = d.aliases;
    e.kind = FunctionKind::kAggregate;
    e.bind = d.bind;
    e.doc.group = "agg_funcs";
    e.doc.usage = d.usage;
    e.doc.examples = d.examples;
    r->Register(std::move(e));
  }
}

}  // namespace epoxy::expr
