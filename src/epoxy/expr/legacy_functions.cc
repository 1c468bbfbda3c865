// SPDX-License-Identifier: Apache-2.0
// Registry entries for the functions whose kernels still sit in the older dispatchers
// (functions.cc and the collection, text, calendar and math files, which choose a kernel by the
// call's name). Each family moves to entries with kernels of their own; until then its names are
// registered here and evaluated through those dispatchers.
#include "epoxy/expr/bind_context.h"
#include "epoxy/expr/builtin_functions.h"
#include "epoxy/expr/calendar_functions.h"
#include "epoxy/expr/cast.h"
#include "epoxy/expr/collection_functions.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/math_functions.h"
#include "epoxy/expr/text_functions.h"
#include "epoxy/expr/type_visit.h"

namespace epoxy::expr {
namespace {

Result<Datum> LegacyKernel(const Expr& call, const std::vector<Datum>& args, int64_t n, MemoryPool* pool) {
  return CallFunction(call, args, n, pool);
}

Result<ExprPtr> BindAbs(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  if (!IsNumeric(ctx.type_id(0))) EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Double()));
  return ctx.Done(ctx.type(0));
}

Result<ExprPtr> BindRound(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 2));
  if (!IsNumeric(ctx.type_id(0))) EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Double()));
  if (ctx.num_args() == 2) EPOXY_RETURN_NOT_OK(ctx.Constant(1, DataType::Int()));
  if (ctx.type_id(0) == TypeId::kDecimal) {
    // Spark's RoundBase: room for one more integer digit, the scale cut to the digits kept.
    const int p = ctx.type(0)->precision(), s = ctx.type(0)->scale();
    int digits = 0;
    if (ctx.num_args() == 2 && !ctx.literal(1).is_null()) digits = static_cast<int>(std::get<int64_t>(ctx.literal(1).value));
    if (digits < 0) return ctx.Done(DataType::Decimal(std::min(std::max(p - s + 1, -digits + 1), kMaxDecimalPrecision), 0));
    const int scale = std::min(s, digits);
    return ctx.Done(DataType::Decimal(std::min(p - s + 1 + scale, kMaxDecimalPrecision), scale));
  }
  return ctx.Done(ctx.type(0));
}

Result<ExprPtr> BindFloorCeil(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  if (IsIntegral(ctx.type_id(0))) {
    EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::BigInt()));
    return ctx.Done(DataType::BigInt());
  }
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Double()));
  return ctx.Done(DataType::BigInt());
}

Result<ExprPtr> BindStringToString(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::String()));
  return ctx.Done(DataType::String());
}

Result<ExprPtr> BindLength(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::String()));
  return ctx.Done(DataType::Int());
}

Result<ExprPtr> BindSubstring(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 3));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::String()));
  for (size_t i = 1; i < ctx.num_args(); ++i) EPOXY_RETURN_NOT_OK(ctx.Cast(i, DataType::Int()));
  return ctx.Done(DataType::String());
}

Result<ExprPtr> BindConcat(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(ctx.call().op == "concat" ? 1 : 2, SIZE_MAX));
  for (size_t i = 0; i < ctx.num_args(); ++i) EPOXY_RETURN_NOT_OK(ctx.Cast(i, DataType::String()));
  return ctx.Done(DataType::String());
}

Result<ExprPtr> BindSize(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  TypeId id = ctx.type_id(0);
  if (id != TypeId::kArray && id != TypeId::kMap) return ctx.ArgumentError(0, "an array or a map");
  return ctx.Done(DataType::Int());
}

Result<ExprPtr> BindSortArray(BindContext& ctx) {
  const bool sort_array = ctx.call().op == "sort_array";
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, sort_array ? 2 : 1));
  if (ctx.type_id(0) != TypeId::kArray) return ctx.ArgumentError(0, "an array");
  if (ctx.num_args() == 2) EPOXY_RETURN_NOT_OK(ctx.Constant(1, DataType::Boolean()));
  return ctx.Done(ctx.type(0));
}

Result<ExprPtr> BindSplit(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 3));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::String()));
  EPOXY_RETURN_NOT_OK(ctx.CompileRegex(1, false));
  if (ctx.num_args() == 3) EPOXY_RETURN_NOT_OK(ctx.Cast(2, DataType::Int()));
  return ctx.Done(DataType::Array(DataType::String()));
}

Result<ExprPtr> BindRegexpExtract(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 3));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::String()));
  EPOXY_RETURN_NOT_OK(ctx.CompileRegex(1, false));
  if (ctx.num_args() == 3) EPOXY_RETURN_NOT_OK(ctx.Cast(2, DataType::Int()));
  return ctx.Done(DataType::String());
}

Result<ExprPtr> BindRegexpReplace(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(3, 3));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::String()));
  EPOXY_RETURN_NOT_OK(ctx.CompileRegex(1, false));
  EPOXY_RETURN_NOT_OK(ctx.Cast(2, DataType::String()));
  return ctx.Done(DataType::String());
}

Result<ExprPtr> BindHash(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, SIZE_MAX));
  return ctx.Done(DataType::Int());
}

Result<ExprPtr> BindSha2(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::String()));
  EPOXY_RETURN_NOT_OK(ctx.Cast(1, DataType::Int()));
  return ctx.Done(DataType::String());
}

Result<ExprPtr> BindNoArgs(BindContext& ctx, TypePtr type) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(0, 0));
  return ctx.Done(std::move(type));
}

Result<ExprPtr> BindDateAdd(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Date()));
  EPOXY_RETURN_NOT_OK(ctx.Cast(1, DataType::Int()));
  return ctx.Done(DataType::Date());
}

Result<ExprPtr> BindDateDiff(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Date()));
  EPOXY_RETURN_NOT_OK(ctx.Cast(1, DataType::Date()));
  return ctx.Done(DataType::Int());
}

Result<ExprPtr> BindToDateTime(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 2));
  TypePtr to = ctx.call().op == "to_date" ? DataType::Date() : DataType::Timestamp();
  if (ctx.num_args() == 1) {  // without a pattern it is the cast
    if (!CanCast(*ctx.type(0), *to)) return ctx.ArgumentError(0, "a string, date or timestamp");
    ExprPtr cast = CastTo(ctx.arg(0), to);
    if (cast->kind == ExprKind::kCast) {
      auto shown = std::make_shared<Expr>(*cast);
      shown->rendered = ctx.call().ToString();
      return ExprPtr(shown);
    }
    return cast;
  }
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::String()));
  EPOXY_RETURN_NOT_OK(ctx.Constant(1));
  return ctx.Done(to);
}

Result<ExprPtr> BindUnixTimestamp(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(0, 2));
  if (ctx.num_args() == 2) EPOXY_RETURN_NOT_OK(ctx.Constant(1));
  if (ctx.num_args() >= 1 && ctx.type_id(0) != TypeId::kString) EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Timestamp()));
  return ctx.Done(DataType::BigInt());
}

Result<ExprPtr> BindFromUnixtime(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 2));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::BigInt()));
  if (ctx.num_args() == 2) EPOXY_RETURN_NOT_OK(ctx.Constant(1));
  return ctx.Done(DataType::String());
}

Result<ExprPtr> BindDateFormat(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Timestamp()));
  EPOXY_RETURN_NOT_OK(ctx.Constant(1));
  return ctx.Done(DataType::String());
}

Result<ExprPtr> BindDateField(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Date()));
  return ctx.Done(DataType::Int());
}

Result<ExprPtr> BindTimeField(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(1, 1));
  EPOXY_RETURN_NOT_OK(ctx.Cast(0, DataType::Timestamp()));
  return ctx.Done(DataType::Int());
}

Result<ExprPtr> BindTrunc(BindContext& ctx) {
  EPOXY_RETURN_NOT_OK(ctx.Arity(2, 2));
  // date_trunc(unit, ts) gives a timestamp; trunc(date, unit) a date.
  const bool timestamp = ctx.call().op == "date_trunc";
  size_t unit = timestamp ? 0 : 1;
  EPOXY_RETURN_NOT_OK(ctx.Constant(unit));
  EPOXY_RETURN_NOT_OK(ctx.Cast(1 - unit, timestamp ? DataType::Timestamp() : DataType::Date()));
  return ctx.Done(timestamp ? DataType::Timestamp() : DataType::Date());
}

Result<ExprPtr> BindAddInterval(BindContext& ctx) { return ctx.Done(ctx.type(0)); }

/// A family dispatcher's binder as a callback: it types the call in place.
template <Result<bool> (*Bind)(Expr*)>
Result<ExprPtr> FamilyBind(BindContext& ctx) {
  EPOXY_ASSIGN_OR_RETURN(bool known, Bind(&ctx.call()));
  if (!known) return Status::Internal("{} is registered but its family does not bind it", ctx.call().op);
  return ExprPtr(ctx.call_ptr());
}

Result<ExprPtr> TextBind(BindContext& ctx) {
  EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, BindTextFunction(ctx.call_ptr()));
  if (bound == nullptr) return Status::Internal("{} is registered but its family does not bind it", ctx.call().op);
  return bound;
}

void Add(FunctionRegistry* r, const std::string& name, BindCallback bind, std::vector<std::string> aliases = {},
         const std::string& group = "") {
  FunctionEntry e;
  e.name = name;
  e.aliases = std::move(aliases);
  e.bind = std::move(bind);
  e.kernel = LegacyKernel;
  e.doc.group = group;
  r->Register(std::move(e));
}

}  // namespace

void RegisterLegacyScalarFunctions(FunctionRegistry* r) {
  Add(r, "abs", BindAbs, {}, "math_funcs");
  Add(r, "round", BindRound, {}, "math_funcs");
  Add(r, "bround", BindRound, {}, "math_funcs");
  Add(r, "floor", BindFloorCeil, {}, "math_funcs");
  Add(r, "ceil", BindFloorCeil, {"ceiling"}, "math_funcs");
  Add(r, "lower", BindStringToString, {"lcase"}, "string_funcs");
  Add(r, "upper", BindStringToString, {"ucase"}, "string_funcs");
  for (const char* name : {"trim", "ltrim", "rtrim", "md5", "initcap", "reverse"}) Add(r, name, BindStringToString, {}, "string_funcs");
  Add(r, "length", BindLength, {"char_length", "character_length"}, "string_funcs");
  Add(r, "substring", BindSubstring, {}, "string_funcs");
  Add(r, "substr", BindSubstring, {}, "string_funcs");
  Add(r, "concat", BindConcat, {}, "string_funcs");
  Add(r, "concat_ws", BindConcat, {}, "string_funcs");
  Add(r, "size", BindSize, {"cardinality"}, "collection_funcs");
  Add(r, "sort_array", BindSortArray, {}, "array_funcs");
  Add(r, "array_sort", BindSortArray, {}, "array_funcs");
  Add(r, "split", BindSplit, {}, "string_funcs");
  Add(r, "regexp_extract", BindRegexpExtract, {}, "string_funcs");
  Add(r, "regexp_replace", BindRegexpReplace, {}, "string_funcs");
  Add(r, "hash", BindHash, {}, "hash_funcs");
  Add(r, "sha2", BindSha2, {}, "hash_funcs");
  {
    FunctionEntry e;
    e.name = "monotonically_increasing_id";
    e.bind = [](BindContext& ctx) { return BindNoArgs(ctx, DataType::BigInt()); };
    e.kernel = LegacyKernel;
    e.deterministic = false;
    e.foldable = false;
    e.doc.group = "misc_funcs";
    r->Register(std::move(e));
  }
  Add(r, "input_file_name", [](BindContext& ctx) -> Result<ExprPtr> {
    return Status::NotSupported("input_file_name() is not supported by epoxy yet ('{}')", ctx.call().ToString());
  }, {}, "misc_funcs");
  Add(r, "spark_partition_id", [](BindContext& ctx) { return BindNoArgs(ctx, DataType::Int()); }, {}, "misc_funcs");
  for (const char* name : {"current_date", "current_timestamp"}) {
    FunctionEntry e;
    e.name = name;
    if (e.name == "current_timestamp") e.aliases = {"now"};
    TypePtr type = e.name == "current_date" ? DataType::Date() : DataType::Timestamp();
    e.bind = [type](BindContext& ctx) { return BindNoArgs(ctx, type); };
    e.kernel = LegacyKernel;
    e.foldable = false;
    e.doc.group = "datetime_funcs";
    r->Register(std::move(e));
  }
  Add(r, "date_add", BindDateAdd, {}, "datetime_funcs");
  Add(r, "date_sub", BindDateAdd, {}, "datetime_funcs");
  Add(r, "datediff", BindDateDiff, {}, "datetime_funcs");
  Add(r, "to_date", BindToDateTime, {}, "datetime_funcs");
  Add(r, "to_timestamp", BindToDateTime, {}, "datetime_funcs");
  Add(r, "unix_timestamp", BindUnixTimestamp, {}, "datetime_funcs");
  Add(r, "from_unixtime", BindFromUnixtime, {}, "datetime_funcs");
  Add(r, "date_format", BindDateFormat, {}, "datetime_funcs");
  for (const char* name : {"year", "month", "dayofweek", "dayofyear", "quarter"}) Add(r, name, BindDateField, {}, "datetime_funcs");
  Add(r, "dayofmonth", BindDateField, {"day"}, "datetime_funcs");
  for (const char* name : {"hour", "minute", "second"}) Add(r, name, BindTimeField, {}, "datetime_funcs");
  Add(r, "date_trunc", BindTrunc, {}, "datetime_funcs");
  Add(r, "trunc", BindTrunc, {}, "datetime_funcs");
  Add(r, "add_interval", BindAddInterval, {}, "datetime_funcs");

  // The collection, calendar, math and text families, bound and evaluated by their dispatchers.
  for (const char* name : {"array", "struct", "named_struct", "map", "element_at", "get", "array_contains",
                           "array_position", "array_remove", "array_distinct", "array_max", "array_min", "array_join",
                           "slice", "flatten", "array_union", "array_intersect", "array_except", "arrays_overlap",
                           "array_append", "array_prepend", "array_insert", "array_repeat", "array_compact", "map_keys",
                           "map_values", "array_size", "arrays_zip", "get_item"}) {
    Add(r, name, FamilyBind<BindCollectionFunction>, {}, "collection_funcs");
  }
  for (const char* name : {"last_day", "add_months", "months_between", "make_date", "weekofyear", "weekday", "unix_date",
                           "unix_seconds", "unix_millis", "unix_micros", "date_from_unix_date", "timestamp_seconds",
                           "timestamp_millis", "timestamp_micros", "date_part"}) {
    Add(r, name, FamilyBind<BindCalendarFunction>, {}, "datetime_funcs");
  }
  for (const char* name : {"sqrt", "cbrt", "exp", "expm1", "ln", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
                           "acos", "atan", "sinh", "cosh", "tanh", "degrees", "radians", "rint", "signum", "sign", "pow",
                           "power", "atan2", "hypot", "log", "pmod", "factorial", "e", "pi"}) {
    Add(r, name, FamilyBind<BindMathFunction>, {}, "math_funcs");
  }
  for (const char* name : {"hex", "unhex", "sha1", "sha", "crc32", "base64", "unbase64", "ascii", "startswith",
                           "endswith", "contains", "lpad", "rpad", "repeat", "instr", "locate", "translate",
                           "substring_index", "left", "right", "levenshtein", "split_part", "bit_length",
                           "octet_length", "chr", "char", "nvl2", "zeroifnull", "nullifzero", "equal_null"}) {
    Add(r, name, TextBind, {}, "string_funcs");
  }
}

}  // namespace epoxy::expr
