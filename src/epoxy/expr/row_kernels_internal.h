// SPDX-License-Identifier: Apache-2.0
// What the function files (collection, text, calendar, math) share: checking a call's argument
// count, building a result column one row at a time, reading an integer argument of any width.
#pragma once

#include <optional>

#include <fmt/format.h>

#include "epoxy/expr/datum.h"
#include "epoxy/expr/expression.h"
#include "epoxy/vector/builder.h"

namespace epoxy::expr {

/// An error naming the call unless it has `lo` to `hi` arguments.
inline Status CheckArity(const Expr& call, size_t lo, size_t hi) {
  if (call.args.size() >= lo && call.args.size() <= hi) return Status::OK();
  if (lo == hi) {
    return Status::InvalidInput("{} takes {} argument(s), got {} in '{}'", call.op, lo, call.args.size(), call.ToString());
  }
  return Status::InvalidInput("{} takes {} to {} arguments, got {} in '{}'", call.op, lo, hi, call.args.size(),
                              call.ToString());
}

/// One output value per row: `row(i, builder)` appends it (or a null).
template <typename Row>
Result<std::optional<Datum>> PerRow(const TypePtr& type, int64_t n, MemoryPool* pool, Row&& row) {
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(type, pool));
  for (int64_t i = 0; i < n; ++i) EPOXY_RETURN_NOT_OK(row(i, builder.get()));
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr out, builder->Finish());
  return std::optional<Datum>(Datum{out, false});
}

/// Row `i` of an integer (or date) argument.
inline int64_t IntAt(const Datum& d, int64_t i) {
  const Array& a = *d.array;
  const int64_t r = d.Row(i);
  switch (a.type_id()) {
    case TypeId::kTinyInt: return a.values<int8_t>()[r];
    case TypeId::kSmallInt: return a.values<int16_t>()[r];
    case TypeId::kInt:
    case TypeId::kDate: return a.values<int32_t>()[r];
    default: return a.values<int64_t>()[r];
  }
}

}  // namespace epoxy::expr
