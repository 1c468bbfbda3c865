// SPDX-License-Identifier: Apache-2.0
// Cast kernels. Number-to-number casts run as typed loops; casts through text parse or format
// row by row, which their cost dominates anyway.
#include "epoxy/expr/cast.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "epoxy/expr/decimal.h"
#include "epoxy/expr/scalar.h"
#include "epoxy/expr/time_units.h"
#include "epoxy/expr/type_visit.h"
#include "epoxy/types/value_text.h"
#include "epoxy/vector/builder.h"

namespace epoxy::expr {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

/// Float to integer as the JVM converts (NaN is 0, out of range saturates), then narrowed.
template <typename To>
To FloatToIntegral(double v) {
  if (std::isnan(v)) return 0;
  if (sizeof(To) >= 4) {
    if (v >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    if (v <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    return static_cast<To>(v);
  }
  // byte and short go through int, then wrap, as Spark does.
  int32_t i = v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : static_cast<int32_t>(v);
  return static_cast<To>(i);
}

template <typename From, typename To>
To ConvertNumber(From v) {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    return FloatToIntegral<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);  // integers narrow by wrapping, as Spark's non-ANSI casts do
  }
}

/// The validity of `input` as a bitmap starting at bit 0 (shared when it already does).
Result<BufferPtr> AlignedValidity(const Array& input, MemoryPool* pool) {
  if (input.null_count() == 0) return BufferPtr();
  if (input.offset() == 0 && input.buffers()[0] != nullptr) return input.buffers()[0];
  BufferBuilder bits(pool);
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(input.length())));
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsValid(i)) bit_util::SetBit(bits.mutable_data(), i);
  }
  return bits.Finish();
}

template <typename From, typename To>
Result<ArrayPtr> CastNumbers(const Array& input, const TypePtr& to, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, AlignedValidity(input, pool));
  BufferBuilder values(pool);
  EPOXY_RETURN_NOT_OK(values.ResizeUninitialized(input.length() * static_cast<int64_t>(sizeof(To))));
  To* out = reinterpret_cast<To*>(values.mutable_data());
  const From* in = input.values<From>();
  for (int64_t i = 0; i < input.length(); ++i) out[i] = ConvertNumber<From, To>(in[i]);
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  return Array::Make(to, input.length(), {validity, data}, {}, input.null_count());
}

/// Row `i` of a scalar-typed array as a Scalar whose value is converted to `to`, or null when
/// Spark's cast gives null.
Scalar CastValue(const Array& input, int64_t i, const TypePtr& to) {
  Scalar v = ScalarAt(input, i);
  if (v.is_null()) return Scalar::Null(to);
  const TypeId from = input.type_id();
  const TypeId target = to->id();
  auto integer = [&](int64_t x) -> Scalar {
    switch (target) {
      case TypeId::kTinyInt: return Scalar::Integer(to, static_cast<int8_t>(x));
      case TypeId::kSmallInt: return Scalar::Integer(to, static_cast<int16_t>(x));
      case TypeId::kInt: return Scalar::Integer(to, static_cast<int32_t>(x));
      default: return Scalar::Integer(to, x);
    }
  };
  auto from_double = [&](double d) -> Scalar {
    switch (target) {
      case TypeId::kFloat:
      case TypeId::kDouble: return Scalar{to, d};
      case TypeId::kBoolean: return Scalar::Boolean(d != 0);
      case TypeId::kTimestamp: {
        if (std::isnan(d) || std::isinf(d)) return Scalar::Null(to);
        return Scalar::Integer(to, static_cast<int64_t>(d * 1e6));
      }
      case TypeId::kDecimal: {
        if (std::isnan(d) || std::isinf(d)) return Scalar::Null(to);
        double scaled = std::round(d * std::pow(10.0, to->scale()));
        if (std::fabs(scaled) >= std::pow(10.0, to->precision())) return Scalar::Null(to);
        return Scalar{to, static_cast<__int128>(scaled)};
      }
      case TypeId::kTinyInt: return Scalar::Integer(to, FloatToIntegral<int8_t>(d));
      case TypeId::kSmallInt: return Scalar::Integer(to, FloatToIntegral<int16_t>(d));
      case TypeId::kInt: return Scalar::Integer(to, FloatToIntegral<int32_t>(d));
      default: return Scalar::Integer(to, FloatToIntegral<int64_t>(d));
    }
  };
  switch (from) {
    case TypeId::kString:
    case TypeId::kBinary: {
      const std::string& raw = std::get<std::string>(v.value);
      std::string_view text = Trim(raw);
      switch (target) {
        case TypeId::kString:
        case TypeId::kBinary: return Scalar{to, raw};
        case TypeId::kBoolean: {
          std::string lower;
          for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
          if (lower == "t" || lower == "true" || lower == "y" || lower == "yes" || lower == "1") return Scalar::Boolean(true);
          if (lower == "f" || lower == "false" || lower == "n" || lower == "no" || lower == "0") return Scalar::Boolean(false);
          return Scalar::Null(to);
        }
        case TypeId::kTinyInt:
        case TypeId::kSmallInt:
        case TypeId::kInt:
        case TypeId::kBigInt: {
          int64_t x = 0;
          if (!ParseSparkInteger(text, &x)) return Scalar::Null(to);
          // Out of the target's range is null for text, unlike number-to-number casts.
          int64_t lo = target == TypeId::kTinyInt ? INT8_MIN : target == TypeId::kSmallInt ? INT16_MIN
                     : target == TypeId::kInt ? INT32_MIN : INT64_MIN;
          int64_t hi = target == TypeId::kTinyInt ? INT8_MAX : target == TypeId::kSmallInt ? INT16_MAX
                     : target == TypeId::kInt ? INT32_MAX : INT64_MAX;
          if (x < lo || x > hi) return Scalar::Null(to);
          return Scalar::Integer(to, x);
        }
        case TypeId::kFloat:
        case TypeId::kDouble: {
          double d = 0;
          if (ParseDouble(text, &d)) return Scalar{to, d};
          std::string_view t = text;
          bool negative = !t.empty() && t[0] == '-';
          if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
          if (t == "NaN") return Scalar{to, std::nan("")};
          if (t == "Infinity" || t == "Inf") return Scalar{to, negative ? -INFINITY : INFINITY};
          return Scalar::Null(to);
        }
        case TypeId::kDecimal: {
          __int128 unscaled = 0;
          if (ParseDecimal(text, to->precision(), to->scale(), &unscaled)) return Scalar{to, unscaled};
          // More fraction digits than the scale: round half up on the text, as Spark's BigDecimal does.
          size_t dot = text.find('.');
          if (dot != std::string_view::npos && text.size() > dot + 1 + static_cast<size_t>(to->scale())) {
            size_t cut = dot + 1 + static_cast<size_t>(to->scale());
            std::string_view rest = text.substr(cut);
            bool digits = !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
            std::string kept(text.substr(0, to->scale() == 0 ? dot : cut));
            if (digits && ParseDecimal(kept, to->precision(), to->scale(), &unscaled)) {
              if (rest[0] >= '5') unscaled += !kept.empty() && kept[0] == '-' ? -1 : 1;
              if (unscaled >= DecimalPow10(to->precision()) || unscaled <= -DecimalPow10(to->precision())) return Scalar::Null(to);
              return Scalar{to, unscaled};
            }
          }
          double d = 0;
          if (!ParseDouble(text, &d)) return Scalar::Null(to);
          return from_double(d);
        }
        case TypeId::kDate: {
          int32_t days = 0;
          std::string_view date = text.substr(0, std::min(text.find_first_of(" T"), text.size()));
          if (ParseDate(date, &days)) return Scalar::Integer(to, days);
          return Scalar::Null(to);
        }
        case TypeId::kTimestamp: {
          int64_t micros = 0;
          if (ParseTimestamp(text, &micros, true)) return Scalar::Integer(to, micros);
          int32_t days = 0;
          if (ParseDate(text, &days)) return Scalar::Integer(to, days * kMicrosPerDay);
          return Scalar::Null(to);
        }
        default: return Scalar::Null(to);
      }
    }
    case TypeId::kBoolean: {
      bool b = std::get<bool>(v.value);
      if (target == TypeId::kString) return Scalar::String(b ? "true" : "false");
      if (target == TypeId::kFloat || target == TypeId::kDouble) return Scalar{to, b ? 1.0 : 0.0};
      if (target == TypeId::kDecimal) return Scalar{to, (b ? 1 : 0) * DecimalPow10(to->scale())};
      return integer(b ? 1 : 0);
    }
    case TypeId::kDate: {
      int64_t days = std::get<int64_t>(v.value);
      if (target == TypeId::kString) return Scalar::String(FormatDate(static_cast<int32_t>(days)));
      if (target == TypeId::kTimestamp) return Scalar::Integer(to, days * kMicrosPerDay);
      return Scalar::Null(to);
    }
    case TypeId::kTimestamp: {
      int64_t micros = std::get<int64_t>(v.value);
      if (target == TypeId::kString) return Scalar::String(FormatTimestamp(micros));
      if (target == TypeId::kDate) return Scalar::Integer(to, FloorDiv(micros, kMicrosPerDay));
      int64_t seconds = FloorDiv(micros, kMicrosPerSecond);
      if (target == TypeId::kFloat || target == TypeId::kDouble) return Scalar{to, static_cast<double>(micros) / 1e6};
      if (target == TypeId::kBoolean) return Scalar::Boolean(micros != 0);
      return integer(seconds);
    }
    case TypeId::kDecimal: {
      __int128 unscaled = std::get<__int128>(v.value);
      int scale = input.type()->scale();
      if (target == TypeId::kString) return Scalar::String(FormatDecimal(unscaled, scale));
      if (target == TypeId::kDecimal) {
        __int128 out = 0;
        if (!RescaleDecimal(unscaled, scale, to->scale(), to->precision(), &out)) return Scalar::Null(to);
        return Scalar{to, out};
      }
      if (target == TypeId::kFloat || target == TypeId::kDouble || target == TypeId::kTimestamp) {
        return from_double(static_cast<double>(unscaled) / std::pow(10.0, scale));
      }
      if (target == TypeId::kBoolean) return Scalar::Boolean(unscaled != 0);
      return integer(static_cast<int64_t>(unscaled / DecimalPow10(scale)));
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = std::get<double>(v.value);
      if (target == TypeId::kString) return Scalar::String(SparkDoubleText(d, from == TypeId::kFloat));
      return from_double(d);
    }
    default: {  // integers
      int64_t x = std::get<int64_t>(v.value);
      if (target == TypeId::kString) return Scalar::String(std::to_string(x));
      if (target == TypeId::kBoolean) return Scalar::Boolean(x != 0);
      if (target == TypeId::kTimestamp) return Scalar::Integer(to, x * 1000000);
      if (target == TypeId::kFloat || target == TypeId::kDouble) return Scalar{to, static_cast<double>(x)};
      if (target == TypeId::kDecimal) {
        __int128 out = 0;
        if (!RescaleDecimal(x, 0, to->scale(), to->precision(), &out)) return Scalar::Null(to);
        return Scalar{to, out};
      }
      return integer(x);
    }
  }
}

/// Decimals to double: the unscaled value over 10^scale (both exact below 2^53, so correctly
/// rounded there).
Result<ArrayPtr> CastDecimalToDouble(const Array& input, const TypePtr& to, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, AlignedValidity(input, pool));
  const double divisor = std::pow(10.0, input.type()->scale());
  BufferBuilder values(pool);
  EPOXY_RETURN_NOT_OK(values.ResizeUninitialized(input.length() * 8));
  double* out = reinterpret_cast<double*>(values.mutable_data());
  const __int128* in = input.values<__int128>();
  for (int64_t i = 0; i < input.length(); ++i) out[i] = static_cast<double>(in[i]) / divisor;
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  return Array::Make(to, input.length(), {validity, data}, {}, input.null_count());
}

bool IsPlainNumber(TypeId id) { return IsIntegral(id) || id == TypeId::kFloat || id == TypeId::kDouble; }

/// Text to integers or double in one typed pass (the common cast of CSV-read columns); values
/// that do not parse, or do not fit, become null.
Result<ArrayPtr> CastTextToNumber(const Array& input, const TypePtr& to, MemoryPool* pool, CastRules rules) {
  const int64_t n = input.length();
  BufferBuilder bits(pool), values(pool);
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
  const int width = to->id() == TypeId::kTinyInt ? 1 : to->id() == TypeId::kSmallInt ? 2 : to->id() == TypeId::kInt ? 4 : 8;
  EPOXY_RETURN_NOT_OK(values.Resize(n * width));
  int64_t lo = to->id() == TypeId::kTinyInt ? INT8_MIN : to->id() == TypeId::kSmallInt ? INT16_MIN
             : to->id() == TypeId::kInt ? INT32_MIN : INT64_MIN;
  int64_t hi = to->id() == TypeId::kTinyInt ? INT8_MAX : to->id() == TypeId::kSmallInt ? INT16_MAX
             : to->id() == TypeId::kInt ? INT32_MAX : INT64_MAX;
  int64_t nulls = 0;
  uint8_t* out = values.mutable_data();
  for (int64_t i = 0; i < n; ++i) {
    bool valid = false;
    if (input.IsValid(i)) {
      std::string_view text = input.GetView(i);
      if (to->id() == TypeId::kDouble) {
        double d = 0;
        valid = ParseDouble(Trim(text), &d);
        if (!valid) {
          Scalar v = CastValue(input, i, to);  // NaN, Infinity and the like
          valid = !v.is_null();
          if (valid) d = std::get<double>(v.value);
        }
        if (valid) std::memcpy(out + i * 8, &d, 8);
      } else {
        int64_t x = 0;
        valid = (rules == CastRules::kSpark ? ParseSparkInteger(text, &x) : ParseInt64(Trim(text), &x)) && x >= lo &&
                x <= hi;
        if (valid) {
          switch (width) {
            case 1: out[i] = static_cast<uint8_t>(static_cast<int8_t>(x)); break;
            case 2: { int16_t v = static_cast<int16_t>(x); std::memcpy(out + i * 2, &v, 2); break; }
            case 4: { int32_t v = static_cast<int32_t>(x); std::memcpy(out + i * 4, &v, 4); break; }
            default: std::memcpy(out + i * 8, &x, 8); break;
          }
        }
      }
    }
    if (valid) bit_util::SetBit(bits.mutable_data(), i);
    else ++nulls;
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  BufferPtr validity;
  if (nulls > 0) {
    EPOXY_ASSIGN_OR_RETURN(validity, bits.Finish());
  }
  return Array::Make(to, n, {validity, data}, {}, nulls);
}

}  // namespace

bool ParseSparkInteger(std::string_view text, int64_t* out) {
  text = Trim(text);
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  if (dot != std::string_view::npos) {
    std::string_view fraction = text.substr(dot + 1);
    for (char c : fraction) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
    if (whole.empty() || whole == "-" || whole == "+") {
      if (fraction.empty()) return false;
      *out = 0;
      return true;
    }
  }
  return ParseInt64(whole, out);
}

std::string SparkDoubleText(double value, bool is_float) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  double magnitude = std::fabs(value);
  std::string text;
  if (magnitude != 0 && (magnitude >= 1e7 || magnitude < 1e-3)) {
    // Java's scientific form: 1.0E20, 1.5E-4, from the shortest round-trip digits.
    std::string shortest = is_float ? fmt::format("{}", static_cast<float>(value)) : fmt::format("{}", value);
    size_t e = shortest.find('e');
    if (e == std::string::npos) return shortest;
    std::string mantissa = shortest.substr(0, e);
    int exponent = std::stoi(shortest.substr(e + 1));
    if (mantissa.find('.') == std::string::npos) mantissa += ".0";
    return mantissa + "E" + std::to_string(exponent);
  }
  text = is_float ? fmt::format("{}", static_cast<float>(value)) : fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

namespace {

/// Arrays, maps and structs convert member by member (a struct's fields by position, taking the
/// target's names), as Spark's Cast.canCast.
bool CanCastNested(const DataType& from, const DataType& to) {
  if (from.fields().size() != to.fields().size()) return false;
  for (size_t i = 0; i < from.fields().size(); ++i) {
    if (!CanCast(*from.fields()[i].type, *to.fields()[i].type)) return false;
  }
  return true;
}

/// An array, map or struct converted member by member: its validity and offsets stay, only its
/// children are cast (a map's child is its struct of keys and values).
Result<ArrayPtr> CastNested(const ArrayPtr& input, const TypePtr& to, MemoryPool* pool, CastRules rules) {
  std::vector<ArrayPtr> children;
  if (to->id() == TypeId::kStruct) {
    for (size_t i = 0; i < to->fields().size(); ++i) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, CastArray(input->child(static_cast<int>(i)), to->fields()[i].type, pool, rules));
      children.push_back(std::move(child));
    }
  } else {
    TypePtr child_type = to->id() == TypeId::kArray ? to->element()
                                                    : DataType::Struct({{"key", to->key()}, {"value", to->value()}});
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, CastArray(input->child(0), child_type, pool, rules));
    children.push_back(std::move(child));
  }
  return Array::Make(to, input->length(), input->buffers(), std::move(children), input->null_count(), input->offset());
}

}  // namespace

bool CanCast(const DataType& from, const DataType& to) {
  if (from.Equals(to) || from.id() == TypeId::kNull) return true;
  if (from.id() == TypeId::kChoice) {  // a DynamicFrame choice: each member must convert
    for (const auto& member : from.members()) {
      if (!CanCast(*member, to)) return false;
    }
    return true;
  }
  TypeId f = from.id(), t = to.id();
  if (f == t && (f == TypeId::kArray || f == TypeId::kMap || f == TypeId::kStruct)) return CanCastNested(from, to);
  auto scalar = [](TypeId id) { return id != TypeId::kArray && id != TypeId::kMap && id != TypeId::kStruct && id != TypeId::kChoice; };
  if (!scalar(f) || !scalar(t)) return false;
  if (t == TypeId::kString || f == TypeId::kString) return true;
  if (t == TypeId::kBinary || f == TypeId::kBinary) return false;
  if (f == TypeId::kDate) return t == TypeId::kTimestamp;
  if (t == TypeId::kDate) return f == TypeId::kTimestamp;
  return true;  // numbers, booleans, decimals and timestamps convert among themselves
}

Result<ArrayPtr> CastArray(const ArrayPtr& input, const TypePtr& to, MemoryPool* pool, CastRules rules) {
  if (input->type()->Equals(*to)) return input;
  if (input->type_id() == TypeId::kNull) return MakeArrayFromScalar(Scalar::Null(to), input->length(), pool);
  if (!CanCast(*input->type(), *to)) {
    return Status::InvalidInput("cannot cast {} to {}", input->type()->ToString(), to->ToString());
  }
  const TypeId from = input->type_id();
  if (from == to->id() && (from == TypeId::kArray || from == TypeId::kMap || from == TypeId::kStruct)) {
    return CastNested(input, to, pool, rules);
  }
  if (from == TypeId::kChoice) {
    // Each member converted on its own, then each row takes its member's value.
    std::vector<ArrayPtr> members;
    for (const auto& child : input->children()) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr cast, CastArray(child, to, pool, rules));
      members.push_back(std::move(cast));
    }
    EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(to, pool));
    for (int64_t i = 0; i < input->length(); ++i) {
      EPOXY_RETURN_NOT_OK(AppendFrom(builder.get(), *members[static_cast<size_t>(input->choice_index(i))], i));
    }
    return builder->Finish();
  }
  // Same physical representation: only the type changes (int <-> date is not castable, so this
  // is never a reinterpretation of meaning).
  if (IsPlainNumber(from) && IsPlainNumber(to->id())) {
    Result<ArrayPtr> out = ArrayPtr();
    VisitPlainNumber(from, [&]<typename From>() {
      VisitPlainNumber(to->id(), [&]<typename To>() { out = CastNumbers<From, To>(*input, to, pool); });
    });
    return out;
  }
  if (from == TypeId::kDecimal && to->id() == TypeId::kDecimal) return CastDecimalToDecimal(*input, to, pool);
  if (IsIntegral(from) && to->id() == TypeId::kDecimal) return CastIntegerToDecimal(*input, to, pool);
  if (from == TypeId::kDecimal && to->id() == TypeId::kDouble) return CastDecimalToDouble(*input, to, pool);
  if ((from == TypeId::kString || from == TypeId::kBinary) && (IsIntegral(to->id()) || to->id() == TypeId::kDouble)) {
    return CastTextToNumber(*input, to, pool, rules);
  }
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(to, pool));
  for (int64_t i = 0; i < input->length(); ++i) {
    EPOXY_RETURN_NOT_OK(AppendScalar(builder.get(), CastValue(*input, i, to)));
  }
  return builder->Finish();
}

}  // namespace epoxy::expr
