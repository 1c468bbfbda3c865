// SPDX-License-Identifier: Apache-2.0
// Evaluation of columns, literals, casts and operators. Kernels are templates instantiated per
// physical type; a constant operand is a one-row array read with stride 0.
#include "epoxy/expr/evaluator.h"

#include <cmath>
#include <cstring>

#include <re2/re2.h>

#include "epoxy/expr/function_registry.h"

#include "epoxy/common/bytes.h"
#include "epoxy/expr/cast.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/expr/type_visit.h"
#include "epoxy/vector/builder.h"

namespace epoxy::expr {
namespace {

/// A bitmap of `n` bits, all clear.
Result<BufferBuilder> ZeroBits(int64_t n, MemoryPool* pool) {
  BufferBuilder bits(pool);
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
  return bits;
}

/// Validity of a binary operation: valid where both sides are. Null when both have no nulls.
Result<BufferPtr> BothValid(const Datum& a, const Datum& b, int64_t n, MemoryPool* pool, int64_t* null_count) {
  *null_count = 0;
  if (a.array->null_count() == 0 && b.array->null_count() == 0) return BufferPtr();
  EPOXY_ASSIGN_OR_RETURN(BufferBuilder bits, ZeroBits(n, pool));
  for (int64_t i = 0; i < n; ++i) {
    if (!a.IsNull(i) && !b.IsNull(i)) {
      bit_util::SetBit(bits.mutable_data(), i);
    } else {
      ++*null_count;
    }
  }
  return bits.Finish();
}

template <typename T>
Result<ArrayPtr> FixedArray(const TypePtr& type, int64_t n, BufferPtr validity, int64_t null_count, BufferBuilder values) {
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  return Array::Make(type, n, {std::move(validity), std::move(data)}, {}, null_count);
}

// ---- arithmetic ----

template <typename T>
T Wrap(__int128 v) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<unsigned __int128>(v)));
}

/// + - * % div over same-typed numbers. Integer overflow wraps (Spark's non-ANSI behaviour);
/// a zero divisor gives null.
template <typename T>
Result<ArrayPtr> Arithmetic(const std::string& op, const Datum& a, const Datum& b, int64_t n, const TypePtr& type,
                            MemoryPool* pool) {
  int64_t null_count = 0;
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, BothValid(a, b, n, pool, &null_count));
  BufferBuilder values(pool);
  EPOXY_RETURN_NOT_OK(values.ResizeUninitialized(n * static_cast<int64_t>(sizeof(T))));
  T* out = reinterpret_cast<T*>(values.mutable_data());
  const T* x = a.array->values<T>();
  const T* y = b.array->values<T>();
  const int64_t sx = a.stride(), sy = b.stride();
  if (op == "+") {
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_integral_v<T>) out[i] = Wrap<T>(static_cast<__int128>(x[i * sx]) + y[i * sy]);
      else out[i] = x[i * sx] + y[i * sy];
    }
  } else if (op == "-") {
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_integral_v<T>) out[i] = Wrap<T>(static_cast<__int128>(x[i * sx]) - y[i * sy]);
      else out[i] = x[i * sx] - y[i * sy];
    }
  } else if (op == "*") {
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_integral_v<T>) out[i] = Wrap<T>(static_cast<__int128>(x[i * sx]) * y[i * sy]);
      else out[i] = x[i * sx] * y[i * sy];
    }
  } else {
    // Division-like: a zero divisor makes the row null.
    bool any_zero = false;
    for (int64_t i = 0; i < n && !any_zero; ++i) any_zero = y[i * sy] == 0 && !b.IsNull(i);
    for (int64_t i = 0; i < n; ++i) {
      T d = y[i * sy];
      if (d == 0) {
        out[i] = 0;
        continue;
      }
      if constexpr (std::is_integral_v<T>) {
        if (d == -1) {
          out[i] = op == "%" ? 0 : Wrap<T>(-static_cast<__int128>(x[i * sx]));  // MIN / -1 wraps
        } else {
          out[i] = op == "%" ? x[i * sx] % d : x[i * sx] / d;
        }
      } else {
        out[i] = op == "%" ? std::fmod(x[i * sx], d) : op == "div" ? std::trunc(x[i * sx] / d) : x[i * sx] / d;
      }
    }
    if (any_zero) {
      BufferBuilder bits(pool);
      EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
      null_count = 0;
      for (int64_t i = 0; i < n; ++i) {
        bool valid = !a.IsNull(i) && !b.IsNull(i) && y[i * sy] != 0;
        if (valid) bit_util::SetBit(bits.mutable_data(), i);
        else ++null_count;
      }
      EPOXY_ASSIGN_OR_RETURN(validity, bits.Finish());
    }
  }
  return FixedArray<T>(type, n, std::move(validity), null_count, std::move(values));
}

// ---- comparison ----

enum class Cmp { kEq, kNe, kLt, kLe, kGt, kGe };

Cmp ParseCmp(const std::string& op) {
  if (op == "=" || op == "<=>") return Cmp::kEq;
  if (op == "!=") return Cmp::kNe;
  if (op == "<") return Cmp::kLt;
  if (op == "<=") return Cmp::kLe;
  if (op == ">") return Cmp::kGt;
  return Cmp::kGe;
}

template <typename T>
bool Compare(Cmp c, const T& x, const T& y) {
  switch (c) {
    case Cmp::kEq: return x == y;
    case Cmp::kNe: return x != y;
    case Cmp::kLt: return x < y;
    case Cmp::kLe: return x <= y;
    case Cmp::kGt: return x > y;
    case Cmp::kGe: return x >= y;
  }
  return false;
}

/// Fills `out` bits with `test(i)`, eight rows to a byte (no read-modify-write per bit).
template <typename Test>
void FillBits(int64_t n, uint8_t* out, Test&& test) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint8_t byte = 0;
    for (int j = 0; j < 8; ++j) byte |= static_cast<uint8_t>(test(i + j)) << j;
    out[i >> 3] = byte;
  }
  for (; i < n; ++i) {
    if (test(i)) bit_util::SetBit(out, i);
  }
}

/// Fills `out` bits with comparisons of rows, one typed loop per operator.
template <typename T, typename Get>
void CompareLoop(Cmp c, int64_t n, uint8_t* out, Get&& get) {
  switch (c) {
    case Cmp::kEq: FillBits(n, out, [&](int64_t i) { auto [x, y] = get(i); return x == y; }); break;
    case Cmp::kNe: FillBits(n, out, [&](int64_t i) { auto [x, y] = get(i); return x != y; }); break;
    case Cmp::kLt: FillBits(n, out, [&](int64_t i) { auto [x, y] = get(i); return x < y; }); break;
    case Cmp::kLe: FillBits(n, out, [&](int64_t i) { auto [x, y] = get(i); return x <= y; }); break;
    case Cmp::kGt: FillBits(n, out, [&](int64_t i) { auto [x, y] = get(i); return x > y; }); break;
    case Cmp::kGe: FillBits(n, out, [&](int64_t i) { auto [x, y] = get(i); return x >= y; }); break;
  }
}

Result<ArrayPtr> Comparison(const std::string& op, const Datum& a, const Datum& b, int64_t n, MemoryPool* pool) {
  const bool null_safe = op == "<=>";
  Cmp c = ParseCmp(op);
  EPOXY_ASSIGN_OR_RETURN(BufferBuilder bits, ZeroBits(n, pool));
  uint8_t* out = bits.mutable_data();
  const TypeId id = a.type()->id();
  const int64_t sx = a.stride(), sy = b.stride();
  if (id == TypeId::kString || id == TypeId::kBinary) {
    const Array& x = *a.array;
    const Array& y = *b.array;
    auto views = [&](int64_t i) { return std::pair(x.GetView(i * sx), y.GetView(i * sy)); };
    if ((c == Cmp::kEq || c == Cmp::kNe) && (sx == 0) != (sy == 0) && n > 0) {
      // A column against a constant (country = 'US'): the constant's view once, then the
      // column's offsets read directly, and only rows of the constant's length compared.
      const Array& column = sx == 0 ? y : x;
      const std::string_view k = sx == 0 ? x.GetView(0) : y.GetView(0);
      const int32_t* o = column.offsets();
      const char* chars = column.buffers()[2] != nullptr ? reinterpret_cast<const char*>(column.buffers()[2]->data()) : "";
      const auto length = static_cast<int32_t>(k.size());
      const bool eq = c == Cmp::kEq;
      FillBits(n, out, [&](int64_t i) {
        const bool same = o[i + 1] - o[i] == length && EqualBytes(std::string_view(chars + o[i], k.size()), k);
        return same == eq;
      });
    } else if (c == Cmp::kEq || c == Cmp::kNe) {  // equality of short strings without a memcmp call
      const bool eq = c == Cmp::kEq;
      FillBits(n, out, [&](int64_t i) {
        auto [l, r] = views(i);
        return EqualBytes(l, r) == eq;
      });
    } else {
      CompareLoop<std::string_view>(c, n, out, views);
    }
  } else if (id == TypeId::kBoolean) {
    const Array& x = *a.array;
    const Array& y = *b.array;
    CompareLoop<bool>(c, n, out, [&](int64_t i) { return std::pair(x.GetBool(i * sx), y.GetBool(i * sy)); });
  } else if (id == TypeId::kNull) {
    // NULL compared with NULL: every row null (or, for <=>, true).
  } else {
    bool handled = false;
    VisitComparable(id, [&]<typename T>() {
      const T* x = a.array->values<T>();
      const T* y = b.array->values<T>();
      if (sx == 1 && sy == 0) {  // a column against a constant: no stride, the constant in a register
        const T k = y[0];
        CompareLoop<T>(c, n, out, [&](int64_t i) { return std::pair(x[i], k); });
      } else if (sx == 0 && sy == 1) {
        const T k = x[0];
        CompareLoop<T>(c, n, out, [&](int64_t i) { return std::pair(k, y[i]); });
      } else {
        CompareLoop<T>(c, n, out, [&](int64_t i) { return std::pair(x[i * sx], y[i * sy]); });
      }
      handled = true;
    });
    if (!handled) return Status::NotSupported("comparing values of type {}", a.type()->ToString());
  }
  int64_t null_count = 0;
  BufferPtr validity;
  if (null_safe) {
    // <=>: never null; two nulls are equal, a null and a value are not.
    for (int64_t i = 0; i < n; ++i) {
      bool xn = a.IsNull(i), yn = b.IsNull(i);
      if (xn || yn) bit_util::SetBitTo(out, i, xn && yn);
    }
  } else {
    EPOXY_ASSIGN_OR_RETURN(validity, BothValid(a, b, n, pool, &null_count));
    if (id == TypeId::kNull) {
      null_count = n;
      EPOXY_ASSIGN_OR_RETURN(BufferBuilder none, ZeroBits(n, pool));
      EPOXY_ASSIGN_OR_RETURN(validity, none.Finish());
    }
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, bits.Finish());
  return Array::Make(DataType::Boolean(), n, {validity, data}, {}, null_count);
}

// ---- logic ----

/// AND / OR with SQL's three-valued logic: false AND null is false, true OR null is true.
Result<ArrayPtr> Logic(bool is_and, const Datum& a, const Datum& b, int64_t n, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(BufferBuilder values, ZeroBits(n, pool));
  if (a.array->null_count() == 0 && b.array->null_count() == 0 && !a.constant && !b.constant &&
      a.array->offset() == 0 && b.array->offset() == 0) {
    // No nulls on either side: combine the bitmaps a byte at a time.
    const uint8_t* x = a.array->buffers()[1]->data();
    const uint8_t* y = b.array->buffers()[1]->data();
    uint8_t* out = values.mutable_data();
    const int64_t bytes = bit_util::BytesForBits(n);
    if (is_and) {
      for (int64_t i = 0; i < bytes; ++i) out[i] = x[i] & y[i];
    } else {
      for (int64_t i = 0; i < bytes; ++i) out[i] = x[i] | y[i];
    }
    EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
    return Array::Make(DataType::Boolean(), n, {BufferPtr(), data}, {}, 0);
  }
  EPOXY_ASSIGN_OR_RETURN(BufferBuilder valid, ZeroBits(n, pool));
  int64_t null_count = 0;
  const Array& x = *a.array;
  const Array& y = *b.array;
  for (int64_t i = 0; i < n; ++i) {
    bool xn = a.IsNull(i), yn = b.IsNull(i);
    bool xv = !xn && x.GetBool(a.Row(i)), yv = !yn && y.GetBool(b.Row(i));
    bool result, known;
    if (is_and) {
      known = (!xn && !xv) || (!yn && !yv) || (!xn && !yn);
      result = xv && yv;
    } else {
      known = (!xn && xv) || (!yn && yv) || (!xn && !yn);
      result = xv || yv;
    }
    if (known) {
      bit_util::SetBit(valid.mutable_data(), i);
      if (result) bit_util::SetBit(values.mutable_data(), i);
    } else {
      ++null_count;
    }
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  BufferPtr validity;
  if (null_count > 0) {
    EPOXY_ASSIGN_OR_RETURN(validity, valid.Finish());
  }
  return Array::Make(DataType::Boolean(), n, {validity, data}, {}, null_count);
}

Result<ArrayPtr> Not(const Datum& a, int64_t n, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(BufferBuilder values, ZeroBits(n, pool));
  if (a.array->null_count() == 0 && !a.constant && a.array->offset() == 0) {
    const uint8_t* x = a.array->buffers()[1]->data();
    uint8_t* out = values.mutable_data();
    for (int64_t i = 0; i < bit_util::BytesForBits(n); ++i) out[i] = static_cast<uint8_t>(~x[i]);
    EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
    return Array::Make(DataType::Boolean(), n, {BufferPtr(), data}, {}, 0);
  }
  int64_t null_count = 0;
  EPOXY_ASSIGN_OR_RETURN(BufferBuilder valid, ZeroBits(n, pool));
  for (int64_t i = 0; i < n; ++i) {
    if (a.IsNull(i)) {
      ++null_count;
      continue;
    }
    bit_util::SetBit(valid.mutable_data(), i);
    if (!a.array->GetBool(a.Row(i))) bit_util::SetBit(values.mutable_data(), i);
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  BufferPtr validity;
  if (null_count > 0) {
    EPOXY_ASSIGN_OR_RETURN(validity, valid.Finish());
  }
  return Array::Make(DataType::Boolean(), n, {validity, data}, {}, null_count);
}

Result<ArrayPtr> NullTest(bool want_null, const Datum& a, int64_t n, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(BufferBuilder values, ZeroBits(n, pool));
  for (int64_t i = 0; i < n; ++i) {
    if (a.IsNull(i) == want_null) bit_util::SetBit(values.mutable_data(), i);
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  return Array::Make(DataType::Boolean(), n, {BufferPtr(), data}, {}, 0);
}

Result<ArrayPtr> Negate(const Datum& a, int64_t n, MemoryPool* pool) {
  if (a.type()->id() == TypeId::kDecimal) {  // 0 - a: the same type, never out of range
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr zero, MakeArrayFromScalar(Scalar{a.type(), __int128{0}}, 1, pool));
    return DecimalArithmetic("-", Datum{zero, true}, a, n, a.type(), pool);
  }
  Result<ArrayPtr> out = Status::NotSupported("negating {}", a.type()->ToString());
  VisitPlainNumber(a.type()->id(), [&]<typename T>() {
    BufferBuilder values(pool);
    Status st = values.Resize(n * static_cast<int64_t>(sizeof(T)));
    if (!st.ok()) {
      out = st;
      return;
    }
    T* o = reinterpret_cast<T*>(values.mutable_data());
    const T* x = a.array->values<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_integral_v<T>) o[i] = Wrap<T>(-static_cast<__int128>(x[i * a.stride()]));
      else o[i] = -x[i * a.stride()];
    }
    int64_t nulls = 0;
    auto validity = BothValid(a, a, n, pool, &nulls);
    if (!validity.ok()) {
      out = validity.status();
      return;
    }
    out = FixedArray<T>(a.type(), n, *validity, nulls, std::move(values));
  });
  return out;
}

/// CASE WHEN c1 THEN v1 ... [ELSE e] END: per row, the value of the first true condition.
Result<ArrayPtr> Case(const TypePtr& type, const std::vector<Datum>& args, int64_t n, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(type, pool));
  const size_t pairs = args.size() / 2;
  const bool has_else = args.size() % 2 == 1;
  for (int64_t i = 0; i < n; ++i) {
    const Datum* chosen = has_else ? &args.back() : nullptr;
    for (size_t k = 0; k < pairs; ++k) {
      const Datum& when = args[2 * k];
      if (!when.IsNull(i) && when.array->GetBool(when.Row(i))) {
        chosen = &args[2 * k + 1];
        break;
      }
    }
    if (chosen == nullptr || chosen->type()->id() == TypeId::kNull) {
      EPOXY_RETURN_NOT_OK(builder->AppendNull());
    } else {
      EPOXY_RETURN_NOT_OK(AppendFrom(builder.get(), *chosen->array, chosen->Row(i)));
    }
  }
  return builder->Finish();
}

Result<ArrayPtr> Matches(const Expr& e, const Datum& text, int64_t n, MemoryPool* pool) {
  if (e.regex == nullptr) return MakeArrayFromScalar(Scalar::Null(DataType::Boolean()), n, pool);
  EPOXY_ASSIGN_OR_RETURN(BufferBuilder values, ZeroBits(n, pool));
  const bool full = e.op == "like";
  for (int64_t i = 0; i < n; ++i) {
    if (text.IsNull(i)) continue;
    std::string_view v = text.array->GetView(text.Row(i));
    re2::StringPiece piece(v.data(), v.size());
    bool match = full ? RE2::FullMatch(piece, *e.regex) : RE2::PartialMatch(piece, *e.regex);
    if (match) bit_util::SetBit(values.mutable_data(), i);
  }
  int64_t nulls = 0;
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, BothValid(text, text, n, pool, &nulls));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  return Array::Make(DataType::Boolean(), n, {validity, data}, {}, nulls);
}

/// A struct field path below a column: the child arrays, with the parents' nulls carried down.
Result<ArrayPtr> FieldPath(ArrayPtr array, const std::vector<int>& fields, MemoryPool* pool) {
  for (int f : fields) {
    ArrayPtr child = array->child(f);
    if (array->null_count() > 0) {
      // A null struct has null fields, whatever the child holds at that row.
      EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(child->type(), pool));
      for (int64_t i = 0; i < array->length(); ++i) {
        if (array->IsNull(i)) EPOXY_RETURN_NOT_OK(builder->AppendNull());
        else EPOXY_RETURN_NOT_OK(AppendFrom(builder.get(), *child, i));
      }
      EPOXY_ASSIGN_OR_RETURN(child, builder->Finish());
    }
    array = std::move(child);
  }
  return array;
}

}  // namespace

Result<Datum> Evaluate(const Expr& e, const Batch& batch, MemoryPool* pool) {
  const int64_t n = batch.num_rows();
  switch (e.kind) {
    case ExprKind::kColumn: {
      if (e.column < 0 || e.column >= batch.num_columns()) {
        return Status::Internal("column {} of '{}' is not in the batch", e.column, e.ToString());
      }
      ArrayPtr column = batch.column(e.column);
      if (!e.fields.empty()) {
        EPOXY_ASSIGN_OR_RETURN(column, FieldPath(column, e.fields, pool));
      }
      return Datum{column, false};
    }
    case ExprKind::kLiteral: {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr one, MakeArrayFromScalar(e.literal, 1, pool));
      return Datum{one, true};
    }
    case ExprKind::kCast: {
      EPOXY_ASSIGN_OR_RETURN(Datum operand, Evaluate(*e.args[0], batch, pool));
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr cast, CastArray(operand.array, e.type, pool));
      return Datum{cast, operand.constant};
    }
    case ExprKind::kStar: return Status::Internal("'*' reached the evaluator");
    case ExprKind::kSubquery: return Status::Internal("a subquery reached the evaluator");
    case ExprKind::kCall: break;
  }
  const FunctionEntry* function = e.function;
  if (function != nullptr && function->lazy_kernel != nullptr) return function->lazy_kernel(e, batch, pool);
  if (function != nullptr && function->kind != FunctionKind::kScalar) {
    return Status::Internal("{} {} evaluated as a scalar function",
                            function->kind == FunctionKind::kAggregate ? "aggregate" : "window or generator", e.op);
  }
  std::vector<Datum> args;
  args.reserve(e.args.size());
  bool all_constant = true;
  for (const auto& a : e.args) {
    EPOXY_ASSIGN_OR_RETURN(Datum d, Evaluate(*a, batch, pool));
    all_constant = all_constant && d.constant;
    args.push_back(std::move(d));
  }
  // A deterministic call over constants only runs once, on one row.
  const bool deterministic = function == nullptr || function->deterministic;
  const int64_t rows = all_constant && !args.empty() && deterministic ? 1 : n;
  if (function != nullptr && function->kernel != nullptr) {
    EPOXY_ASSIGN_OR_RETURN(Datum out, function->kernel(e, args, rows, pool));
    out.constant = rows == 1 && all_constant && !args.empty() && deterministic;
    return out;
  }
  auto done = [&](Result<ArrayPtr> out) -> Result<Datum> {
    EPOXY_RETURN_NOT_OK(out.status());
    return Datum{*out, rows == 1 && all_constant && !args.empty()};
  };
  const std::string& op = e.op;
  if (e.type->id() == TypeId::kDecimal && (op == "+" || op == "-" || op == "*" || op == "/" || op == "%")) {
    return done(DecimalArithmetic(op, args[0], args[1], rows, e.type, pool));
  }
  if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%" || op == "div") {
    Result<ArrayPtr> out = Status::NotSupported("arithmetic on {}", e.type->ToString());
    VisitPlainNumber(e.type->id(), [&]<typename T>() { out = Arithmetic<T>(op, args[0], args[1], rows, e.type, pool); });
    return done(std::move(out));
  }
  if (op == "=" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" || op == "<=>") {
    return done(Comparison(op, args[0], args[1], rows, pool));
  }
  if (op == "and" || op == "or") return done(Logic(op == "and", args[0], args[1], rows, pool));
  if (op == "not") return done(Not(args[0], rows, pool));
  if (op == "is_null" || op == "is_not_null") return done(NullTest(op == "is_null", args[0], rows, pool));
  if (op == "negate") return done(Negate(args[0], rows, pool));
  if (op == "in") {
    // x IN (a, b, ...) is x = a OR x = b ...: null when nothing matched and a null took part.
    Datum acc;
    for (size_t k = 1; k < args.size(); ++k) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr eq, Comparison("=", args[0], args[k], rows, pool));
      Datum d{eq, false};
      if (k == 1) {
        acc = d;
      } else {
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr any, Logic(false, acc, d, rows, pool));
        acc = Datum{any, false};
      }
    }
    return done(acc.array);
  }
  if (op == "like" || op == "rlike") return done(Matches(e, args[0], rows, pool));
  if (op == "case") return done(Case(e.type, args, rows, pool));
  EPOXY_ASSIGN_OR_RETURN(Datum out, CallFunction(e, args, rows, pool));
  out.constant = rows == 1 && all_constant && !args.empty() && deterministic;
  return out;
}

Result<ArrayPtr> EvaluateToArray(const Expr& e, const Batch& batch, MemoryPool* pool) {
  EPOXY_ASSIGN_OR_RETURN(Datum d, Evaluate(e, batch, pool));
  if (!d.constant || batch.num_rows() == 1) return d.array;
  if (d.array->type_id() == TypeId::kNull) return Array::MakeNull(batch.num_rows());
  std::vector<int32_t> zeros(static_cast<size_t>(batch.num_rows()), 0);
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(d.array->type(), pool));
  for (int64_t i = 0; i < batch.num_rows(); ++i) EPOXY_RETURN_NOT_OK(AppendFrom(builder.get(), *d.array, 0));
  return builder->Finish();
}

Result<std::vector<int32_t>> SelectTrue(const Datum& predicate, int64_t num_rows) {
  std::vector<int32_t> rows;
  const Array& p = *predicate.array;
  if (p.type_id() == TypeId::kNull) return rows;
  if (p.type_id() != TypeId::kBoolean) return Status::InvalidInput("a filter must be boolean, not {}", p.type()->ToString());
  if (predicate.constant) {
    if (!p.IsNull(0) && p.GetBool(0)) {
      rows.resize(static_cast<size_t>(num_rows));
      for (int64_t i = 0; i < num_rows; ++i) rows[static_cast<size_t>(i)] = static_cast<int32_t>(i);
    }
    return rows;
  }
  const bool has_nulls = p.null_count() > 0;
  if (p.offset() % 8 == 0) {
    // 64 rows at a time: the set bits of (value AND valid), found by counting trailing zeros.
    const uint8_t* values = p.buffers()[1]->data() + p.offset() / 8;
    const uint8_t* valid = has_nulls ? p.buffers()[0]->data() + p.offset() / 8 : nullptr;
    rows.resize(static_cast<size_t>(num_rows));
    size_t k = 0;
    for (int64_t base = 0; base < num_rows; base += 64) {
      const int64_t count = std::min<int64_t>(64, num_rows - base);
      const size_t bytes = static_cast<size_t>(bit_util::BytesForBits(count));
      uint64_t word = 0;
      std::memcpy(&word, values + base / 8, bytes);
      if (valid != nullptr) {
        uint64_t v = 0;
        std::memcpy(&v, valid + base / 8, bytes);
        word &= v;
      }
      if (count < 64) word &= (uint64_t{1} << count) - 1;
      while (word != 0) {
        rows[k++] = static_cast<int32_t>(base + __builtin_ctzll(word));
        word &= word - 1;
      }
    }
    rows.resize(k);
    return rows;
  }
  rows.reserve(static_cast<size_t>(num_rows));
  for (int64_t i = 0; i < num_rows; ++i) {
    if (p.GetBool(i) && (!has_nulls || p.IsValid(i))) rows.push_back(static_cast<int32_t>(i));
  }
  return rows;
}

}  // namespace epoxy::expr
