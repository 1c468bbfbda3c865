// SPDX-License-Identifier: Apache-2.0
#include "epoxy/expr/calendar_functions.h"

#include <cmath>
#include <set>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/row_kernels_internal.h"
#include "epoxy/expr/time_units.h"
#include "epoxy/types/value_text.h"
#include "epoxy/vector/builder.h"

namespace epoxy::expr {
namespace {

const std::set<std::string> kFunctions = {
    "last_day", "add_months", "months_between", "make_date", "weekofyear", "weekday", "unix_date", "unix_seconds",
    "unix_millis", "unix_micros", "date_from_unix_date", "timestamp_seconds", "timestamp_millis", "timestamp_micros",
    "date_part"};

struct Civil {
  int64_t year = 0;
  unsigned month = 0, day = 0;
};

Civil CivilOf(int64_t days) {
  Civil c;
  CivilFromDays(days, &c.year, &c.month, &c.day);
  return c;
}

int64_t DaysInMonth(int64_t year, unsigned month) {
  return DaysFromCivil(month == 12 ? year + 1 : year, month == 12 ? 1 : month + 1, 1) - DaysFromCivil(year, month, 1);
}

/// ISO-8601 week of the year (weeks start on Monday; week 1 holds the year's first Thursday).
int64_t IsoWeek(int64_t days) {
  const int64_t weekday = ((days + 3) % 7 + 7) % 7;  // Monday = 0
  const int64_t thursday = days - weekday + 3;
  const Civil c = CivilOf(thursday);
  return (thursday - DaysFromCivil(c.year, 1, 1)) / 7 + 1;
}

}  // namespace

Result<bool> BindCalendarFunction(Expr* call) {
  const std::string op = call->op;
  if (kFunctions.count(op) == 0) return false;
  auto& args = call->args;
  auto arity = [&](size_t lo, size_t hi) { return CheckArity(*call, lo, hi); };
  if (op == "last_day" || op == "weekofyear" || op == "weekday" || op == "unix_date") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    args[0] = CastTo(args[0], DataType::Date());
    call->type = op == "last_day" ? DataType::Date() : DataType::Int();
    return true;
  }
  if (op == "add_months") {
    EPOXY_RETURN_NOT_OK(arity(2, 2));
    args[0] = CastTo(args[0], DataType::Date());
    args[1] = CastTo(args[1], DataType::Int());
    call->type = DataType::Date();
    return true;
  }
  if (op == "months_between") {
    EPOXY_RETURN_NOT_OK(arity(2, 3));
    args[0] = CastTo(args[0], DataType::Timestamp());
    args[1] = CastTo(args[1], DataType::Timestamp());
    if (args.size() == 3) args[2] = CastTo(args[2], DataType::Boolean());
    call->type = DataType::Double();
    return true;
  }
  if (op == "make_date") {
    EPOXY_RETURN_NOT_OK(arity(3, 3));
    for (auto& a : args) a = CastTo(a, DataType::Int());
    call->type = DataType::Date();
    return true;
  }
  if (op == "unix_seconds" || op == "unix_millis" || op == "unix_micros") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    args[0] = CastTo(args[0], DataType::Timestamp());
    call->type = DataType::BigInt();
    return true;
  }
  if (op == "date_from_unix_date") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    args[0] = CastTo(args[0], DataType::Int());
    call->type = DataType::Date();
    return true;
  }
  if (op == "timestamp_seconds" || op == "timestamp_millis" || op == "timestamp_micros") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    args[0] = CastTo(args[0], DataType::BigInt());
    call->type = DataType::Timestamp();
    return true;
  }
  if (op == "date_part") {
    EPOXY_RETURN_NOT_OK(arity(2, 2));
    if (args[0]->kind != ExprKind::kLiteral || args[0]->type->id() != TypeId::kString || args[0]->literal.is_null()) {
      return Status::InvalidInput("date_part's field must be a string literal ('{}')", call->ToString());
    }
    std::string field = std::get<std::string>(args[0]->literal.value);
    for (char& c : field) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    static const std::set<std::string> kFields = {"YEAR", "Y", "YEARS", "YR", "YRS", "QUARTER", "QTR", "MONTH", "MON",
                                                  "MONS", "MONTHS", "WEEK", "W", "WEEKS", "DAY", "D", "DAYS", "DOW",
                                                  "DOW_ISO", "DOY", "HOUR", "H", "HOURS", "HR", "HRS", "MINUTE", "M",
                                                  "MIN", "MINS", "MINUTES", "SECOND", "S", "SEC", "SECONDS", "SECS"};
    if (kFields.count(field) == 0) return Status::InvalidInput("date_part: unknown field '{}' ('{}')", field, call->ToString());
    args[1] = CastTo(args[1], DataType::Timestamp());
    call->type = (field[0] == 'S') ? DataType::Decimal(8, 6) : DataType::Int();
    return true;
  }
  return false;
}

Result<std::optional<Datum>> CallCalendarFunction(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                                  MemoryPool* pool) {
  const std::string& op = call.op;
  if (kFunctions.count(op) == 0) return std::optional<Datum>();
  std::string field;
  if (op == "date_part") {
    field = std::get<std::string>(call.args[0]->literal.value);
    for (char& c : field) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(call.type, pool));
  for (int64_t i = 0; i < n; ++i) {
    bool null = false;
    for (size_t k = op == "date_part" ? 1 : 0; k < args.size(); ++k) null = null || args[k].IsNull(i);
    if (null) {
      EPOXY_RETURN_NOT_OK(builder->AppendNull());
      continue;
    }
    // Cast only to the builder's own type (a cast to the other would be undefined behaviour).
    auto i32 = [&] { return static_cast<Int32Builder*>(builder.get()); };
    auto i64 = [&] { return static_cast<Int64Builder*>(builder.get()); };
    if (op == "last_day") {
      const Civil c = CivilOf(IntAt(args[0], i));
      EPOXY_RETURN_NOT_OK(i32()->Append(static_cast<int32_t>(DaysFromCivil(c.year, c.month, static_cast<unsigned>(DaysInMonth(c.year, c.month))))));
    } else if (op == "add_months") {
      const Civil c = CivilOf(IntAt(args[0], i));
      const int64_t total = c.year * 12 + (c.month - 1) + IntAt(args[1], i);
      const int64_t y = FloorDiv(total, 12);
      const unsigned m = static_cast<unsigned>(total - y * 12 + 1);
      const unsigned d = std::min<unsigned>(c.day, static_cast<unsigned>(DaysInMonth(y, m)));
      EPOXY_RETURN_NOT_OK(i32()->Append(static_cast<int32_t>(DaysFromCivil(y, m, d))));
    } else if (op == "months_between") {
      // Spark: whole months when both days are the same or both are month ends, else a 31-day
      // month fraction of the time between; rounded to 8 digits unless told not to.
      const int64_t t1 = IntAt(args[0], i), t2 = IntAt(args[1], i);
      const int64_t d1 = FloorDiv(t1, kMicrosPerDay), d2 = FloorDiv(t2, kMicrosPerDay);
      const Civil a = CivilOf(d1), b = CivilOf(d2);
      const double months = static_cast<double>((a.year - b.year) * 12 + static_cast<int64_t>(a.month) - static_cast<int64_t>(b.month));
      const bool ends = a.day == DaysInMonth(a.year, a.month) && b.day == DaysInMonth(b.year, b.month);
      double value;
      if (a.day == b.day || ends) {
        value = months;
      } else {
        const double seconds1 = static_cast<double>(a.day) * 86400 + static_cast<double>(t1 - d1 * kMicrosPerDay) / 1e6;
        const double seconds2 = static_cast<double>(b.day) * 86400 + static_cast<double>(t2 - d2 * kMicrosPerDay) / 1e6;
        value = months + (seconds1 - seconds2) / (31.0 * 86400);
      }
      const bool round = args.size() < 3 || args[2].array->GetBool(args[2].Row(i));
      if (round) value = std::round(value * 1e8) / 1e8;
      EPOXY_RETURN_NOT_OK(static_cast<DoubleBuilder*>(builder.get())->Append(value));
    } else if (op == "make_date") {
      const int64_t y = IntAt(args[0], i), m = IntAt(args[1], i), d = IntAt(args[2], i);
      if (m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, static_cast<unsigned>(m))) {
        EPOXY_RETURN_NOT_OK(builder->AppendNull());  // non-ANSI: an invalid date is null
      } else {
        EPOXY_RETURN_NOT_OK(i32()->Append(static_cast<int32_t>(DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)))));
      }
    } else if (op == "weekofyear") {
      EPOXY_RETURN_NOT_OK(i32()->Append(static_cast<int32_t>(IsoWeek(IntAt(args[0], i)))));
    } else if (op == "weekday") {
      EPOXY_RETURN_NOT_OK(i32()->Append(static_cast<int32_t>(((IntAt(args[0], i) + 3) % 7 + 7) % 7)));  // Monday = 0
    } else if (op == "unix_date") {
      EPOXY_RETURN_NOT_OK(i32()->Append(static_cast<int32_t>(IntAt(args[0], i))));
    } else if (op == "unix_seconds" || op == "unix_millis" || op == "unix_micros") {
      const int64_t micros = IntAt(args[0], i);
      const int64_t unit = op == "unix_seconds" ? 1000000 : op == "unix_millis" ? 1000 : 1;
      EPOXY_RETURN_NOT_OK(i64()->Append(FloorDiv(micros, unit)));
    } else if (op == "date_from_unix_date") {
      EPOXY_RETURN_NOT_OK(i32()->Append(static_cast<int32_t>(IntAt(args[0], i))));
    } else if (op == "timestamp_seconds" || op == "timestamp_millis" || op == "timestamp_micros") {
      const int64_t unit = op == "timestamp_seconds" ? 1000000 : op == "timestamp_millis" ? 1000 : 1;
      EPOXY_RETURN_NOT_OK(i64()->Append(IntAt(args[0], i) * unit));
    } else {  // date_part
      const int64_t micros = IntAt(args[1], i);
      const int64_t days = FloorDiv(micros, kMicrosPerDay);
      const int64_t of_day = micros - days * kMicrosPerDay;
      const Civil c = CivilOf(days);
      const char f = field[0];
      if (f == 'S') {
        auto* dec = static_cast<DecimalBuilder*>(builder.get());
        EPOXY_RETURN_NOT_OK(dec->Append(static_cast<__int128>(of_day % 60000000)));
        continue;
      }
      int64_t v = 0;
      if (field == "DOW") v = ((days + 4) % 7 + 7) % 7 + 1;
      else if (field == "DOW_ISO") v = ((days + 3) % 7 + 7) % 7 + 1;
      else if (field == "DOY") v = days - DaysFromCivil(c.year, 1, 1) + 1;
      else if (f == 'Y') v = c.year;
      else if (f == 'Q') v = (c.month - 1) / 3 + 1;
      else if (field == "MONTH" || field == "MON" || field == "MONS" || field == "MONTHS") v = c.month;
      else if (f == 'W') v = IsoWeek(days);
      else if (f == 'D') v = c.day;
      else if (f == 'H') v = of_day / 3600000000;
      else v = of_day / 60000000 % 60;  // minutes
      EPOXY_RETURN_NOT_OK(i32()->Append(static_cast<int32_t>(v)));
    }
  }
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr out, builder->Finish());
  return std::optional<Datum>(Datum{out, false});
}

}  // namespace epoxy::expr
