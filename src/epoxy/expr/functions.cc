// SPDX-License-Identifier: Apache-2.0
// Scalar functions. Numeric ones run as typed loops; string and date functions go row by row
// into a builder (their per-row work dominates a loop's overhead).
#include <openssl/evp.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>

#include <re2/re2.h>

#include "epoxy/expr/array_functions.h"
#include "epoxy/expr/calendar_functions.h"
#include "epoxy/expr/collection_functions.h"
#include "epoxy/expr/external_functions.h"
#include "epoxy/expr/math_functions.h"
#include "epoxy/expr/text_functions.h"
#include "epoxy/expr/cast.h"
#include "epoxy/expr/datetime_format.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/spark_hash.h"
#include "epoxy/expr/time_units.h"
#include "epoxy/expr/type_visit.h"
#include "epoxy/types/value_text.h"
#include "epoxy/vector/builder.h"
#include "epoxy/vector/take.h"

namespace epoxy::expr {
namespace {

/// Builds a column row by row: `row(i, builder)` appends one value (or null) per row.
template <typename Row>
Result<ArrayPtr> MapRows(const TypePtr& type, int64_t n, MemoryPool* pool, Row&& row) {
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(type, pool));
  for (int64_t i = 0; i < n; ++i) EPOXY_RETURN_NOT_OK(row(i, builder.get()));
  return builder->Finish();
}

bool AnyNull(const std::vector<Datum>& args, int64_t i) {
  for (const auto& a : args) {
    if (a.IsNull(i)) return true;
  }
  return false;
}

std::string_view Text(const Datum& d, int64_t i) { return d.array->GetView(d.Row(i)); }
int64_t Int(const Datum& d, int64_t i) {
  switch (d.type()->id()) {
    case TypeId::kInt:
    case TypeId::kDate: return d.array->values<int32_t>()[d.Row(i)];
    default: return d.array->values<int64_t>()[d.Row(i)];
  }
}

Status AppendString(ArrayBuilder* b, std::string_view s) { return static_cast<StringBuilder*>(b)->Append(s); }
Status AppendInt32(ArrayBuilder* b, int64_t v) { return static_cast<Int32Builder*>(b)->Append(static_cast<int32_t>(v)); }
Status AppendInt64(ArrayBuilder* b, int64_t v) { return static_cast<Int64Builder*>(b)->Append(v); }

/// Applies `f(text, &out)` to a string column, one reused output string; null stays null.
template <typename F>
Result<ArrayPtr> MapStrings(const Datum& a, int64_t n, MemoryPool* pool, F&& f) {
  StringBuilder builder(DataType::String(), pool);
  EPOXY_RETURN_NOT_OK(builder.Reserve(n));
  std::string out;
  for (int64_t i = 0; i < n; ++i) {
    if (a.IsNull(i)) {
      EPOXY_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    out.clear();
    f(Text(a, i), &out);
    EPOXY_RETURN_NOT_OK(builder.Append(out));
  }
  return builder.Finish();
}

std::string Hex(const unsigned char* bytes, unsigned n) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < n; ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 15]);
  }
  return out;
}

/// Digest of `text` with OpenSSL's `md` as lower-case hex.
std::string Digest(const EVP_MD* md, std::string_view text) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  EVP_Digest(text.data(), text.size(), out, &n, md, nullptr);
  return Hex(out, n);
}

/// Spark's substring: 1-based, 0 treated as 1, negative counts from the end; lengths in characters
/// (UTF-8 code points).
std::string Substring(std::string_view s, int64_t pos, int64_t len) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  int64_t chars = static_cast<int64_t>(starts.size());
  int64_t begin = pos > 0 ? pos - 1 : pos < 0 ? chars + pos : 0;
  // begin + len, saturated (begin may be negative, so INT64_MAX - begin could overflow).
  int64_t end = len < 0 ? begin : (begin > 0 && len > INT64_MAX - begin ? INT64_MAX : begin + len);
  begin = std::max<int64_t>(begin, 0);
  end = std::min(end, chars);
  if (begin >= end) return "";
  size_t from = starts[static_cast<size_t>(begin)];
  size_t to = end >= chars ? s.size() : starts[static_cast<size_t>(end)];
  return std::string(s.substr(from, to - from));
}

int64_t CharLength(std::string_view s) {
  int64_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string_view TrimSpaces(std::string_view s, bool left, bool right) {
  while (left && !s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (right && !s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

/// Java's replacement syntax ($1, \$) turned into RE2's (\1, $).
std::string ReplacementForRe2(std::string_view java) {
  std::string out;
  for (size_t i = 0; i < java.size(); ++i) {
    char c = java[i];
    if (c == '\\' && i + 1 < java.size()) {
      char next = java[++i];
      if (next == '\\') out += "\\\\";
      else out.push_back(next);
    } else if (c == '$' && i + 1 < java.size() && std::isdigit(static_cast<unsigned char>(java[i + 1]))) {
      out.push_back('\\');
      out.push_back(java[++i]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// Year, month, day and the other calendar fields of a day number.
int64_t DateField(const std::string& op, int64_t days) {
  int64_t year = 0;
  unsigned month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  if (op == "year") return year;
  if (op == "month") return month;
  if (op == "quarter") return (month - 1) / 3 + 1;
  if (op == "dayofmonth") return day;
  if (op == "dayofyear") return days - DaysFromCivil(year, 1, 1) + 1;
  return ((days + 4) % 7 + 7) % 7 + 1;  // dayofweek: Sunday = 1; 1970-01-01 was a Thursday
}

/// Truncates a timestamp to `unit` (year, quarter, month, week, day, hour, minute, second).
bool TruncateMicros(std::string unit, int64_t micros, int64_t* out) {
  for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t year = 0;
  unsigned month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  if (unit == "year" || unit == "yyyy" || unit == "yy") *out = DaysFromCivil(year, 1, 1) * kMicrosPerDay;
  else if (unit == "quarter") *out = DaysFromCivil(year, (month - 1) / 3 * 3 + 1, 1) * kMicrosPerDay;
  else if (unit == "month" || unit == "mm" || unit == "mon") *out = DaysFromCivil(year, month, 1) * kMicrosPerDay;
  else if (unit == "week") *out = (days - ((days + 3) % 7 + 7) % 7) * kMicrosPerDay;  // back to Monday
  else if (unit == "day" || unit == "dd") *out = days * kMicrosPerDay;
  else if (unit == "hour") *out = FloorDiv(micros, 3600000000) * 3600000000;
  else if (unit == "minute") *out = FloorDiv(micros, 60000000) * 60000000;
  else if (unit == "second") *out = FloorDiv(micros, 1000000) * 1000000;
  else return false;
  return true;
}

Result<ArrayPtr> Coalesce(const TypePtr& type, const std::vector<Datum>& args, int64_t n, MemoryPool* pool) {
  return MapRows(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
    for (const auto& a : args) {
      if (!a.IsNull(i) && a.type()->id() != TypeId::kNull) return AppendFrom(b, *a.array, a.Row(i));
    }
    return b->AppendNull();
  });
}

/// greatest / least: the extreme non-null value per row (null only when all are null).
Result<ArrayPtr> Extreme(bool greatest, const TypePtr& type, const std::vector<Datum>& args, int64_t n, MemoryPool* pool) {
  return MapRows(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
    const Datum* best = nullptr;
    for (const auto& a : args) {
      if (a.IsNull(i) || a.type()->id() == TypeId::kNull) continue;
      if (best == nullptr) {
        best = &a;
        continue;
      }
      Scalar x = ScalarAt(*a.array, a.Row(i)), y = ScalarAt(*best->array, best->Row(i));
      bool better = false;
      std::visit([&](const auto& xv) {
        using V = std::decay_t<decltype(xv)>;
        if constexpr (!std::is_same_v<V, std::monostate>) {
          const V& yv = std::get<V>(y.value);
          better = greatest ? yv < xv : xv < yv;
        }
      }, x.value);
      if (better) best = &a;
    }
    if (best == nullptr) return b->AppendNull();
    return AppendFrom(b, *best->array, best->Row(i));
  });
}

/// abs, floor, ceil, round over a numeric column.
Result<ArrayPtr> MathUnary(const std::string& op, const Expr& e, const std::vector<Datum>& args, int64_t n, MemoryPool* pool) {
  const Datum& a = args[0];
  int64_t digits = 0;
  if (args.size() > 1) {
    if (args[1].IsNull(0)) return MakeArrayFromScalar(Scalar::Null(e.type), n, pool);
    digits = Int(args[1], 0);
  }
  if (a.type()->id() == TypeId::kDecimal) {
    // abs, round and bround of a decimal stay decimal (round's type is chosen by the binder).
    const int from = a.type()->scale();
    return MapRows(e.type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (a.IsNull(i)) return b->AppendNull();
      __int128 v = a.array->values<__int128>()[a.Row(i)], r = 0;
      bool fits = op == "abs" ? (r = v < 0 ? -v : v, true)
                              : RoundDecimal(v, from, static_cast<int>(digits), e.type->scale(), e.type->precision(),
                                             op == "bround", &r);
      return fits ? static_cast<DecimalBuilder*>(b)->Append(r) : b->AppendNull();
    });
  }
  Result<ArrayPtr> out = Status::NotSupported("{} of {}", op, a.type()->ToString());
  VisitPlainNumber(a.type()->id(), [&]<typename T>() {
    out = MapRows(e.type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (a.IsNull(i)) return b->AppendNull();
      T v = a.array->values<T>()[a.Row(i)];
      if (op == "abs") {
        if constexpr (std::is_integral_v<T>) {
          return static_cast<NumericBuilder<T>*>(b)->Append(static_cast<T>(v < 0 ? static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(v)) : v));
        } else {
          return static_cast<NumericBuilder<T>*>(b)->Append(std::fabs(v));
        }
      }
      if (op == "floor" || op == "ceil") {
        double d = static_cast<double>(v);
        double r = op == "floor" ? std::floor(d) : std::ceil(d);
        if constexpr (std::is_integral_v<T>) return AppendInt64(b, static_cast<int64_t>(v));
        if (std::isnan(r)) return AppendInt64(b, 0);
        return AppendInt64(b, r >= 9.2e18 ? INT64_MAX : r <= -9.2e18 ? INT64_MIN : static_cast<int64_t>(r));
      }
      // round: half away from zero (HALF_UP), at `digits` decimal places.
      if constexpr (std::is_integral_v<T>) {
        if (digits >= 0) return static_cast<NumericBuilder<T>*>(b)->Append(v);
        double p = std::pow(10.0, static_cast<double>(-digits));
        return static_cast<NumericBuilder<T>*>(b)->Append(static_cast<T>(std::round(static_cast<double>(v) / p) * p));
      } else {
        if (std::isnan(v) || std::isinf(v)) return static_cast<NumericBuilder<T>*>(b)->Append(v);
        double p = std::pow(10.0, static_cast<double>(digits));
        double r = digits >= 0 ? std::round(static_cast<double>(v) * p) / p : std::round(static_cast<double>(v) * p) / p;
        return static_cast<NumericBuilder<T>*>(b)->Append(static_cast<T>(r));
      }
    });
  });
  return out;
}

}  // namespace

Result<Datum> CoalesceKernel(const Expr& call, const std::vector<Datum>& args, int64_t n, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr out, Coalesce(call.type, args, n, pool));
  return Datum{out, false};
}

Result<Datum> ExtremeKernel(const Expr& call, const std::vector<Datum>& args, int64_t n, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr out, Extreme(call.op == "greatest", call.type, args, n, pool));
  return Datum{out, false};
}

Result<Datum> CallFunction(const Expr& e, const std::vector<Datum>& args, int64_t n, MemoryPool* pool) {
  const std::string& op = e.op;
  if (auto external = FindExternalFunction(op)) {
    std::vector<ArrayPtr> columns;
    for (const auto& a : args) {
      if (!a.constant || n == 1) {
        columns.push_back(a.array);
        continue;
      }
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr expanded, Take(*a.array, std::vector<int32_t>(static_cast<size_t>(n), 0), pool));
      columns.push_back(std::move(expanded));
    }
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr out, external->function(columns, n));
    if (out->length() != n || !out->type()->Equals(*e.type)) {
      return Status::Internal("function {} returned {} values of {}, expected {} of {}", op, out->length(), out->type()->ToString(), n,
                              e.type->ToString());
    }
    return Datum{out, false};
  }
  auto ok = [](Result<ArrayPtr> out) -> Result<Datum> {
    EPOXY_RETURN_NOT_OK(out.status());
    return Datum{*out, false};
  };
  if (op == "coalesce") return ok(Coalesce(e.type, args, n, pool));
  if (op == "greatest" || op == "least") return ok(Extreme(op == "greatest", e.type, args, n, pool));
  if (op == "abs" || op == "floor" || op == "ceil" || op == "round" || op == "bround") return ok(MathUnary(op, e, args, n, pool));
  // Strings.
  if (op == "lower" || op == "upper") {
    bool upper = op == "upper";
    return ok(MapStrings(args[0], n, pool, [&](std::string_view s, std::string* out) {
      out->resize(s.size());
      for (size_t k = 0; k < s.size(); ++k) {
        unsigned char c = static_cast<unsigned char>(s[k]);
        (*out)[k] = static_cast<char>(upper ? (c >= 'a' && c <= 'z' ? c - 32 : c) : (c >= 'A' && c <= 'Z' ? c + 32 : c));
      }
    }));
  }
  if (op == "initcap") {
    return ok(MapStrings(args[0], n, pool, [](std::string_view s, std::string* out) {
      out->assign(s);
      bool start = true;
      for (auto& c : *out) {
        c = static_cast<char>(start ? std::toupper(static_cast<unsigned char>(c)) : std::tolower(static_cast<unsigned char>(c)));
        start = c == ' ';
      }
    }));
  }
  if (op == "reverse") {
    return ok(MapStrings(args[0], n, pool, [](std::string_view s, std::string* out) { out->assign(s.rbegin(), s.rend()); }));
  }
  if (op == "trim" || op == "ltrim" || op == "rtrim") {
    bool left = op != "rtrim", right = op != "ltrim";
    return ok(MapStrings(args[0], n, pool, [&](std::string_view s, std::string* out) { out->assign(TrimSpaces(s, left, right)); }));
  }
  if (op == "md5") {
    return ok(MapStrings(args[0], n, pool, [](std::string_view s, std::string* out) { *out = Digest(EVP_md5(), s); }));
  }
  if (op == "hash") {
    // Spark's Murmur3Hash: each argument folded into the running seed, starting from 42.
    return ok(MapRows(DataType::Int(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      int32_t h = 42;
      for (const auto& a : args) h = SparkHashValue(*a.array, a.Row(i), h);
      return AppendInt32(b, h);
    }));
  }
  if (op == "sha2") {
    return ok(MapRows(DataType::String(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (AnyNull(args, i)) return b->AppendNull();
      int64_t bits = Int(args[1], i);
      const EVP_MD* md = bits == 224 ? EVP_sha224() : bits == 256 || bits == 0 ? EVP_sha256() : bits == 384 ? EVP_sha384()
                       : bits == 512 ? EVP_sha512() : nullptr;
      if (md == nullptr) return b->AppendNull();  // Spark: an unsupported length gives null
      return AppendString(b, Digest(md, Text(args[0], i)));
    }));
  }
  if (op == "length") {
    return ok(MapRows(DataType::Int(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      return AppendInt32(b, CharLength(Text(args[0], i)));
    }));
  }
  if (op == "substring" || op == "substr") {
    return ok(MapRows(DataType::String(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (AnyNull(args, i)) return b->AppendNull();
      int64_t len = args.size() > 2 ? Int(args[2], i) : INT32_MAX;
      return AppendString(b, Substring(Text(args[0], i), Int(args[1], i), len));
    }));
  }
  if (op == "concat") {
    return ok(MapRows(DataType::String(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (AnyNull(args, i)) return b->AppendNull();
      std::string out;
      for (const auto& a : args) out += Text(a, i);
      return AppendString(b, out);
    }));
  }
  if (op == "concat_ws") {
    return ok(MapRows(DataType::String(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      std::string out;
      bool first = true;
      for (size_t k = 1; k < args.size(); ++k) {
        if (args[k].IsNull(i)) continue;  // concat_ws skips nulls
        if (!first) out += Text(args[0], i);
        out += Text(args[k], i);
        first = false;
      }
      return AppendString(b, out);
    }));
  }
  if (op == "regexp_extract") {
    return ok(MapRows(DataType::String(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (AnyNull(args, i) || e.regex == nullptr) return b->AppendNull();
      int64_t group = args.size() > 2 ? Int(args[2], i) : 1;
      if (group < 0 || group > e.regex->NumberOfCapturingGroups()) {
        return Status::InvalidInput("regexp_extract: group {} is beyond the pattern's {} group(s)", group,
                                    e.regex->NumberOfCapturingGroups());
      }
      std::string_view s = Text(args[0], i);
      std::vector<re2::StringPiece> groups(static_cast<size_t>(group) + 1);
      if (!e.regex->Match(re2::StringPiece(s.data(), s.size()), 0, s.size(), RE2::UNANCHORED, groups.data(),
                          static_cast<int>(group) + 1)) {
        return AppendString(b, "");  // no match: the empty string, as Spark gives
      }
      const auto& g = groups[static_cast<size_t>(group)];
      return AppendString(b, g.data() == nullptr ? std::string_view() : std::string_view(g.data(), g.size()));
    }));
  }
  if (op == "regexp_replace") {
    return ok(MapRows(DataType::String(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (AnyNull(args, i) || e.regex == nullptr) return b->AppendNull();
      std::string s(Text(args[0], i));
      RE2::GlobalReplace(&s, *e.regex, ReplacementForRe2(Text(args[2], i)));
      return AppendString(b, s);
    }));
  }
  if (op == "size") return ok(ArraySize(args[0], n, pool));
  if (op == "sort_array" || op == "array_sort") {
    // sort_array(a, asc): nulls first ascending, last descending; array_sort(a): nulls last.
    bool ascending = true;
    if (args.size() > 1) ascending = !args[1].IsNull(0) && args[1].array->GetBool(0);
    return ok(SortArray(args[0], n, ascending, op == "sort_array" && ascending, pool));
  }
  if (op == "split") {
    return ok(MapRows(e.type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (AnyNull(args, i) || e.regex == nullptr) return b->AppendNull();
      auto* list = static_cast<ListBuilder*>(b);
      std::string_view s = Text(args[0], i);
      int64_t limit = args.size() > 2 ? Int(args[2], i) : -1;
      re2::StringPiece rest(s.data(), s.size());
      re2::StringPiece match;
      int64_t parts = 0;
      size_t start = 0;
      while ((limit <= 0 || parts + 1 < limit) && start <= s.size() &&
             e.regex->Match(re2::StringPiece(s.data(), s.size()), start, s.size(), RE2::UNANCHORED, &match, 1)) {
        size_t at = static_cast<size_t>(match.data() - s.data());
        if (match.empty()) {  // an empty match splits between characters
          if (at >= s.size()) break;
          at = at == start ? at + 1 : at;
          EPOXY_RETURN_NOT_OK(AppendString(list->child(), s.substr(start, at - start)));
          start = at;
        } else {
          EPOXY_RETURN_NOT_OK(AppendString(list->child(), s.substr(start, at - start)));
          start = at + match.size();
        }
        ++parts;
      }
      EPOXY_RETURN_NOT_OK(AppendString(list->child(), s.substr(std::min(start, s.size()))));
      return list->AppendList();
    }));
  }
  if (op == "monotonically_increasing_id") {
    // Unique and increasing within the process (Spark's are unique, increasing per partition and
    // not consecutive either); each batch takes the next block of ids.
    static std::atomic<int64_t> next_id{0};
    const int64_t first = next_id.fetch_add(n);
    return ok(MapRows(DataType::BigInt(), n, pool, [&](int64_t i, ArrayBuilder* b) { return AppendInt64(b, first + i); }));
  }
  if (op == "spark_partition_id") {  // one machine, one partition id
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr zero, MakeArrayFromScalar(Scalar::Integer(DataType::Int(), 0), 1, pool));
    return Datum{zero, true};
  }
  // Dates and times.
  if (op == "current_date" || op == "current_timestamp") {
    int64_t now = NowMicros();
    Scalar value = op == "current_date" ? Scalar::Integer(DataType::Date(), FloorDiv(now, kMicrosPerDay))
                                        : Scalar::Integer(DataType::Timestamp(), now);
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr one, MakeArrayFromScalar(value, 1, pool));
    return Datum{one, true};
  }
  if (op == "add_interval") {
    // Months first (clamped to the month's last day, as Spark does), then the exact part.
    const int64_t months = Int(args[1], 0), micros = Int(args[2], 0);
    const bool date = e.type->id() == TypeId::kDate;
    return ok(MapRows(e.type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      int64_t value = Int(args[0], i);  // days for a date, micros for a timestamp
      int64_t days = date ? value : FloorDiv(value, kMicrosPerDay);
      int64_t of_day = date ? 0 : value - days * kMicrosPerDay;
      if (months != 0) {
        int64_t year = 0;
        unsigned month = 0, day = 0;
        CivilFromDays(days, &year, &month, &day);
        int64_t total = year * 12 + (month - 1) + months;
        int64_t y = FloorDiv(total, 12);
        unsigned m = static_cast<unsigned>(total - y * 12 + 1);
        unsigned last = static_cast<unsigned>(DaysFromCivil(m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1, 1) - DaysFromCivil(y, m, 1));
        days = DaysFromCivil(y, m, std::min(day, last));
      }
      if (date) return AppendInt32(b, days + micros / kMicrosPerDay);
      return AppendInt64(b, days * kMicrosPerDay + of_day + micros);
    }));
  }
  if (op == "date_add" || op == "date_sub") {
    int64_t sign = op == "date_add" ? 1 : -1;
    return ok(MapRows(DataType::Date(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (AnyNull(args, i)) return b->AppendNull();
      return AppendInt32(b, Int(args[0], i) + sign * Int(args[1], i));
    }));
  }
  if (op == "datediff") {
    return ok(MapRows(DataType::Int(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (AnyNull(args, i)) return b->AppendNull();
      return AppendInt32(b, Int(args[0], i) - Int(args[1], i));
    }));
  }
  if (op == "year" || op == "month" || op == "dayofmonth" || op == "dayofweek" || op == "dayofyear" || op == "quarter") {
    return ok(MapRows(DataType::Int(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      return AppendInt32(b, DateField(op, Int(args[0], i)));
    }));
  }
  if (op == "hour" || op == "minute" || op == "second") {
    int64_t unit = op == "hour" ? 3600000000 : op == "minute" ? 60000000 : 1000000;
    int64_t modulo = op == "hour" ? 24 : 60;
    return ok(MapRows(DataType::Int(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      return AppendInt32(b, FloorDiv(Int(args[0], i), unit) % modulo + (FloorDiv(Int(args[0], i), unit) % modulo < 0 ? modulo : 0));
    }));
  }
  if (op == "to_date" || op == "to_timestamp" || op == "unix_timestamp") {
    // With a pattern: parse text; a timestamp (unix_timestamp(ts, fmt), or of now) needs none.
    std::optional<DateTimePattern> pattern;
    if (!args.empty() && args[0].type()->id() == TypeId::kString) {
      std::string text = args.size() >= 2 ? std::string(Text(args[1], 0)) : "yyyy-MM-dd HH:mm:ss";
      EPOXY_ASSIGN_OR_RETURN(DateTimePattern p, DateTimePattern::Compile(text));
      pattern = std::move(p);
    }
    return ok(MapRows(e.type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      int64_t micros = 0;
      if (args.empty()) {
        micros = NowMicros();
      } else {
        if (args[0].IsNull(i)) return b->AppendNull();
        if (pattern) {
          if (!pattern->Parse(Text(args[0], i), &micros)) return b->AppendNull();  // unparsable: null
        } else {
          micros = Int(args[0], i);
        }
      }
      if (op == "to_date") return AppendInt32(b, FloorDiv(micros, kMicrosPerDay));
      if (op == "to_timestamp") return AppendInt64(b, micros);
      return AppendInt64(b, FloorDiv(micros, 1000000));
    }));
  }
  if (op == "from_unixtime" || op == "date_format") {
    std::string text = args.size() >= 2 ? std::string(Text(args[1], 0)) : "yyyy-MM-dd HH:mm:ss";
    EPOXY_ASSIGN_OR_RETURN(DateTimePattern pattern, DateTimePattern::Compile(text));
    return ok(MapRows(DataType::String(), n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      int64_t micros = op == "from_unixtime" ? Int(args[0], i) * 1000000 : Int(args[0], i);
      return AppendString(b, pattern.Format(micros));
    }));
  }
  if (op == "date_trunc" || op == "trunc") {
    const bool timestamp = op == "date_trunc";
    const Datum& unit = timestamp ? args[0] : args[1];
    const Datum& value = timestamp ? args[1] : args[0];
    return ok(MapRows(e.type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (unit.IsNull(i) || value.IsNull(i)) return b->AppendNull();
      int64_t micros = timestamp ? Int(value, i) : Int(value, i) * kMicrosPerDay;
      int64_t out = 0;
      if (!TruncateMicros(std::string(Text(unit, i)), micros, &out)) return b->AppendNull();
      return timestamp ? AppendInt64(b, out) : AppendInt32(b, FloorDiv(out, kMicrosPerDay));
    }));
  }
  EPOXY_ASSIGN_OR_RETURN(std::optional<Datum> collection, CallCollectionFunction(e, args, n, pool));
  if (collection) return std::move(*collection);
  EPOXY_ASSIGN_OR_RETURN(std::optional<Datum> calendar, CallCalendarFunction(e, args, n, pool));
  if (calendar) return std::move(*calendar);
  EPOXY_ASSIGN_OR_RETURN(std::optional<Datum> math, CallMathFunction(e, args, n, pool));
  if (math) return std::move(*math);
  EPOXY_ASSIGN_OR_RETURN(std::optional<Datum> text, CallTextFunction(e, args, n, pool));
  if (text) return std::move(*text);
  return Status::InvalidInput("unknown function '{}'", op);
}

}  // namespace epoxy::expr
