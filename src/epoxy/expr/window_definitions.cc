// SPDX-License-Identifier: Apache-2.0
// Window functions as registry entries (ranking and offsets): names, types and documentation.
// exec/window_functions.cc computes them.
#include "epoxy/expr/bind_context.h"
#include "epoxy/expr/builtin_functions.h"

namespace epoxy::expr {
namespace {

Status NeedOrder(BindContext& ctx) {
  if (ctx.call().window == nullptr || !ctx.call().window->order_by.empty()) return Status::OK();
  return Status::InvalidInput("window function {}() needs an ORDER BY in its window ('{}')", ctx.call().op,
                              ctx.call().ToString());
}

Result<ExprPtr> BindRanking(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(NeedOrder(ctx));
  // Spark accepts rank(b) and the like with arguments it ignores (they are the ORDER BY's).
  ctx.args().clear();
  const std::string& op = ctx.call().op;
  return ctx.Done(op == "percent_rank" || op == "cume_dist" ? DataType::Double() : DataType::Int());
}

Result<ExprPtr> BindNtile(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(NeedOrder(ctx));
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  EPOXY_RETURN_NOT_OK(ctx.Constant(0, DataType::Int()));
  if (ctx.literal(0).is_null() || std::get<int64_t>(ctx.literal(0).value) <= 0) {
    return Status::InvalidInput("ntile needs a positive number of buckets ('{}')", ctx.call().ToString());
  }
  return ctx.Done(DataType::Int());
}

Result<ExprPtr> BindOffset(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(NeedOrder(ctx));
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 3));
  if (ctx.num_args() >= 2) EPOXY_RETURN_NOT_OK(ctx.Constant(1, DataType::Int()));
  if (ctx.num_args() == 3) ctx.args()[2] = CastTo(ctx.arg(2), ctx.type(0));
  return ctx.Done(ctx.type(0));
}

Result<ExprPtr> BindNthValue(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 3));
  EPOXY_RETURN_NOT_OK(ctx.Constant(1, DataType::Int()));
  if (ctx.literal(1).is_null() || std::get<int64_t>(ctx.literal(1).value) <= 0) {
    return Status::InvalidInput("nth_value needs a positive position ('{}')", ctx.call().ToString());
  }
  if (ctx.num_args() == 3) EPOXY_RETURN_NOT_OK(ctx.Constant(2, DataType::Boolean()));
  return ctx.Done(ctx.type(0));
}

const char* kWindowSample = " FROM VALUES ('A1', 2), ('A1', 1), ('A2', 3), ('A1', 1) tab(a, b)";

FunctionExample Sample(const std::string& call, std::vector<std::string> rows) {
  return {"SELECT a, b, " + call + " OVER (PARTITION BY a ORDER BY b)" + kWindowSample, std::move(rows), false};
}

}  // namespace

void RegisterWindowFunctions(FunctionRegistry* r) {
  struct Def {
    const char* name;
    BindCallback bind;
    const char* usage;
    std::vector<FunctionExample> examples;
  };
  const Def defs[] = {
      {"row_number", BindRanking, "row_number() - the number of each row within its partition, from 1.",
       {Sample("row_number()", {"A1\t1\t1", "A1\t1\t2", "A1\t2\t3", "A2\t3\t1"})}},
      {"rank", BindRanking, "rank() - the rank of each row within its partition, with gaps after ties.",
       {Sample("rank(b)", {"A1\t1\t1", "A1\t1\t1", "A1\t2\t3", "A2\t3\t1"})}},
      {"dense_rank", BindRanking, "dense_rank() - the rank of each row within its partition, without gaps.",
       {Sample("dense_rank(b)", {"A1\t1\t1", "A1\t1\t1", "A1\t2\t2", "A2\t3\t1"})}},
      {"percent_rank", BindRanking, "percent_rank() - (rank - 1) / (rows in the partition - 1).",
       {Sample("percent_rank(b)", {"A1\t1\t0.0", "A1\t1\t0.0", "A1\t2\t1.0", "A2\t3\t0.0"})}},
      {"cume_dist", BindRanking, "cume_dist() - the fraction of the partition's rows at or before each row.",
       {Sample("cume_dist()", {"A1\t1\t0.6666666666666666", "A1\t1\t0.6666666666666666", "A1\t2\t1.0", "A2\t3\t1.0"})}},
      {"ntile", BindNtile, "ntile(n) - splits each partition into n buckets numbered from 1.",
       {Sample("ntile(2)", {"A1\t1\t1", "A1\t1\t1", "A1\t2\t2", "A2\t3\t1"})}},
      {"lag", BindOffset, "lag(input[, offset[, default]]) - the value offset rows before, or default.",
       {Sample("lag(b)", {"A1\t1\tNULL", "A1\t1\t1", "A1\t2\t1", "A2\t3\tNULL"})}},
      {"lead", BindOffset, "lead(input[, offset[, default]]) - the value offset rows after, or default.",
       {Sample("lead(b)", {"A1\t1\t1", "A1\t1\t2", "A1\t2\tNULL", "A2\t3\tNULL"})}},
      {"nth_value", BindNthValue, "nth_value(input, offset[, ignoreNulls]) - the offset-th row of the frame.",
       {Sample("nth_value(b, 2)", {"A1\t1\t1", "A1\t1\t1", "A1\t2\t1", "A2\t3\tNULL"})}},
  };
  for (const auto& d : defs) {
    FunctionEntry e;
    e.name = d.name;
    e.kind = FunctionKind::kWindow;
    e.bind = d.bind;
    e.doc.group = "window_funcs";
    e.doc.usage = d.usage;
    e.doc.examples = d.examples;
    r->Register(std::move(e));
  }
}

}  // namespace epoxy::expr
