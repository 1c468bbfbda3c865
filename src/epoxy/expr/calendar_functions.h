// SPDX-License-Identifier: Apache-2.0
// More of Spark's date functions: last_day, add_months, months_between, make_date, weekofyear,
// weekday, unix_date, unix_seconds, unix_millis, unix_micros, date_from_unix_date,
// timestamp_seconds, timestamp_millis, timestamp_micros, date_part (and extract).
#pragma once

#include <optional>

#include "epoxy/expr/datum.h"
#include "epoxy/expr/expression.h"

namespace epoxy::expr {

/// Types a bound call (casting its arguments); false when `call->op` is not one of these.
Result<bool> BindCalendarFunction(Expr* call);

/// Evaluates a bound call; nullopt when `call.op` is not one of these functions.
Result<std::optional<Datum>> CallCalendarFunction(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                                  MemoryPool* pool);

}  // namespace epoxy::expr
