// SPDX-License-Identifier: Apache-2.0
// Decimal types and kernels. Each row is computed exactly: in 128 bits with overflow checks, and
// through a 256-bit magnitude when a product or a scaled operand does not fit, then rounded
// HALF_UP to the result's scale and checked against its precision.
#include "epoxy/expr/decimal.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "epoxy/vector/builder.h"

namespace epoxy::expr {
namespace {

using u128 = unsigned __int128;

constexpr int kMaxPow = 38;

struct Pow10Table {
  __int128 values[kMaxPow + 1];
  constexpr Pow10Table() : values() {
    __int128 p = 1;
    for (int i = 0; i <= kMaxPow; ++i) {
      values[i] = p;
      if (i < kMaxPow) p *= 10;
    }
  }
};
constexpr Pow10Table kPow10;

u128 Magnitude(__int128 v) { return v < 0 ? -static_cast<u128>(v) : static_cast<u128>(v); }

/// An unsigned 256-bit integer: the slow path's magnitudes.
struct U256 {
  u128 hi = 0, lo = 0;

  static U256 Of(u128 v) { return {0, v}; }
  bool operator<(const U256& o) const { return hi != o.hi ? hi < o.hi : lo < o.lo; }
  bool operator>=(const U256& o) const { return !(*this < o); }
  bool IsZero() const { return hi == 0 && lo == 0; }
  bool Bit(int i) const { return i >= 128 ? (hi >> (i - 128)) & 1 : (lo >> i) & 1; }
  void SetBit(int i) {
    if (i >= 128) hi |= u128{1} << (i - 128);
    else lo |= u128{1} << i;
  }
  U256 ShiftLeft1() const { return {(hi << 1) | (lo >> 127), lo << 1}; }
  U256 operator-(const U256& o) const {
    U256 r{hi - o.hi, lo - o.lo};
    if (lo < o.lo) --r.hi;
    return r;
  }
  /// Sets `*overflow` when the sum does not fit 256 bits.
  U256 Add(const U256& o, bool* overflow) const {
    U256 r;
    r.lo = lo + o.lo;
    const u128 carry = r.lo < lo ? 1 : 0;
    r.hi = hi + o.hi;
    if (r.hi < hi) *overflow = true;
    const u128 before = r.hi;
    r.hi += carry;
    if (r.hi < before) *overflow = true;
    return r;
  }
};

/// a * b in 256 bits (never overflows).
U256 Mul(u128 a, u128 b) {
  const uint64_t a0 = static_cast<uint64_t>(a), a1 = static_cast<uint64_t>(a >> 64);
  const uint64_t b0 = static_cast<uint64_t>(b), b1 = static_cast<uint64_t>(b >> 64);
  const u128 p00 = static_cast<u128>(a0) * b0, p01 = static_cast<u128>(a0) * b1;
  const u128 p10 = static_cast<u128>(a1) * b0, p11 = static_cast<u128>(a1) * b1;
  const u128 mid = (p00 >> 64) + static_cast<uint64_t>(p01) + static_cast<uint64_t>(p10);
  U256 r;
  r.lo = (mid << 64) | static_cast<uint64_t>(p00);
  r.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  return r;
}

/// a * b in 256 bits; false when it does not fit.
bool Mul(const U256& a, u128 b, U256* out) {
  U256 low = Mul(a.lo, b);
  U256 high = Mul(a.hi, b);
  if (high.hi != 0) return false;
  bool overflow = false;
  *out = low.Add(U256{high.lo, 0}, &overflow);
  return !overflow;
}

/// Long division, one bit at a time (the rare path): n = q * d + r. REQUIRES: d != 0.
void DivMod(const U256& n, const U256& d, U256* q, U256* r) {
  *q = U256();
  *r = U256();
  for (int i = 255; i >= 0; --i) {
    const bool carry = (r->hi >> 127) != 0;
    *r = r->ShiftLeft1();
    if (n.Bit(i)) r->lo |= 1;
    if (carry || *r >= d) {
      *r = *r - d;
      q->SetBit(i);
    }
  }
}

/// n / d rounded HALF_UP (on magnitudes).
U256 DivRoundHalfUp(const U256& n, const U256& d) {
  U256 q, r;
  DivMod(n, d, &q, &r);
  if (r >= d - r) {  // 2r >= d without overflowing
    bool overflow = false;
    q = q.Add(U256::Of(1), &overflow);
  }
  return q;
}

/// A signed exact value at some scale, on the slow path.
struct Wide {
  bool negative = false;
  U256 magnitude;
  int scale = 0;
};

/// `w` rounded or widened to `scale`, checked against `precision`.
bool FinishWide(Wide w, int scale, int precision, __int128* out) {
  if (w.scale > scale) {
    w.magnitude = DivRoundHalfUp(w.magnitude, U256::Of(static_cast<u128>(kPow10.values[w.scale - scale])));
  } else if (w.scale < scale) {
    if (!Mul(w.magnitude, static_cast<u128>(kPow10.values[scale - w.scale]), &w.magnitude)) return false;
  }
  if (w.magnitude.hi != 0 || w.magnitude.lo >= static_cast<u128>(kPow10.values[precision])) return false;
  const __int128 v = static_cast<__int128>(w.magnitude.lo);
  *out = w.negative ? -v : v;
  return true;
}

/// |v| * 10^k as 256 bits (k <= 38: always fits).
U256 Scaled(__int128 v, int k) { return Mul(Magnitude(v), static_cast<u128>(kPow10.values[k])); }

/// v / 10^k rounded HALF_UP, in 128 bits.
__int128 DropDigits(__int128 v, int k) {
  const __int128 p = kPow10.values[k];
  __int128 q = v / p, r = v % p;
  const __int128 ar = r < 0 ? -r : r;
  if (ar >= p - ar) q += v < 0 ? -1 : 1;
  return q;
}

bool Fits(__int128 v, int precision) {
  const __int128 limit = kPow10.values[precision];
  return v < limit && v > -limit;
}

/// Exact a op b at the operands' scales, then rounded to (precision, scale). False: null.
class DecimalOp {
 public:
  DecimalOp(const std::string& op, int s1, int s2, int precision, int scale)
      : s1_(s1), s2_(s2), precision_(precision), scale_(scale) {
    if (op == "+") kind_ = kAdd;
    else if (op == "-") kind_ = kSub;
    else if (op == "*") kind_ = kMul;
    else if (op == "/") kind_ = kDiv;
    else kind_ = kMod;
    common_ = std::max(s1, s2);
  }

  bool operator()(__int128 x, __int128 y, __int128* out) const {
    switch (kind_) {
      case kAdd:
      case kSub: return AddSub(x, kind_ == kSub ? -y : y, out);
      case kMul: return Multiply(x, y, out);
      case kDiv: return Divide(x, y, out);
      case kMod: return Modulo(x, y, out);
    }
    return false;
  }

 private:
  enum Kind { kAdd, kSub, kMul, kDiv, kMod };

  bool Round(__int128 r, int from, __int128* out) const {
    if (from > scale_) r = DropDigits(r, from - scale_);
    else if (from < scale_ && __builtin_mul_overflow(r, kPow10.values[scale_ - from], &r)) return false;
    if (!Fits(r, precision_)) return false;
    *out = r;
    return true;
  }

  bool AddSub(__int128 x, __int128 y, __int128* out) const {
    __int128 a, b, r;
    if (!__builtin_mul_overflow(x, kPow10.values[common_ - s1_], &a) &&
        !__builtin_mul_overflow(y, kPow10.values[common_ - s2_], &b) && !__builtin_add_overflow(a, b, &r)) {
      return Round(r, common_, out);
    }
    U256 xa = Scaled(x, common_ - s1_), yb = Scaled(y, common_ - s2_);
    Wide w;
    w.scale = common_;
    if ((x < 0) == (y < 0)) {
      bool overflow = false;
      w.magnitude = xa.Add(yb, &overflow);
      w.negative = x < 0;
      if (overflow) return false;
    } else if (xa >= yb) {
      w.magnitude = xa - yb;
      w.negative = x < 0;
    } else {
      w.magnitude = yb - xa;
      w.negative = y < 0;
    }
    return FinishWide(w, scale_, precision_, out);
  }

  bool Multiply(__int128 x, __int128 y, __int128* out) const {
    __int128 r;
    if (!__builtin_mul_overflow(x, y, &r)) return Round(r, s1_ + s2_, out);
    Wide w;
    w.negative = (x < 0) != (y < 0);
    w.magnitude = Mul(Magnitude(x), Magnitude(y));
    w.scale = s1_ + s2_;
    return FinishWide(w, scale_, precision_, out);
  }

  bool Divide(__int128 x, __int128 y, __int128* out) const {
    if (y == 0) return false;
    // q = x * 10^e / y at the result scale, e = scale - s1 + s2.
    const int e = scale_ - s1_ + s2_;
    __int128 n;
    if (e >= 0 && e <= kMaxPow && !__builtin_mul_overflow(x, kPow10.values[e], &n)) {
      __int128 q = n / y, r = n % y;
      const __int128 ar = r < 0 ? -r : r, ay = y < 0 ? -y : y;
      if (ar >= ay - ar) q += (n < 0) != (y < 0) ? -1 : 1;
      if (!Fits(q, precision_)) return false;
      *out = q;
      return true;
    }
    U256 num = U256::Of(Magnitude(x)), den = U256::Of(Magnitude(y));
    for (int k = e; k > 0; k -= std::min(k, kMaxPow)) {
      if (!Mul(num, static_cast<u128>(kPow10.values[std::min(k, kMaxPow)]), &num)) return false;  // far beyond 10^38
    }
    for (int k = -e; k > 0; k -= std::min(k, kMaxPow)) {
      if (!Mul(den, static_cast<u128>(kPow10.values[std::min(k, kMaxPow)]), &den)) {
        *out = 0;  // the divisor dwarfs the dividend
        return true;
      }
    }
    Wide w;
    w.negative = (x < 0) != (y < 0);
    w.magnitude = DivRoundHalfUp(num, den);
    w.scale = scale_;
    return FinishWide(w, scale_, precision_, out);
  }

  bool Modulo(__int128 x, __int128 y, __int128* out) const {
    if (y == 0) return false;
    __int128 a, b;
    if (!__builtin_mul_overflow(x, kPow10.values[common_ - s1_], &a) &&
        !__builtin_mul_overflow(y, kPow10.values[common_ - s2_], &b)) {
      return Round(a % b, common_, out);  // C++'s remainder takes the dividend's sign, as Java's
    }
    U256 q, r;
    DivMod(Scaled(x, common_ - s1_), Scaled(y, common_ - s2_), &q, &r);
    Wide w;
    w.negative = x < 0;
    w.magnitude = r;
    w.scale = common_;
    return FinishWide(w, scale_, precision_, out);
  }

  int s1_, s2_, precision_, scale_, common_;
  Kind kind_ = kAdd;
};

/// Builds a decimal column row by row from `value(i, &out)` (false: null).
template <typename Value>
Result<ArrayPtr> BuildDecimals(const TypePtr& type, int64_t n, MemoryPool* pool, Value&& value) {
  BufferBuilder values(pool), bits(pool);
  EPOXY_RETURN_NOT_OK(values.Resize(n * 16));
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
  uint8_t* out = values.mutable_data();
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    __int128 v = 0;
    if (value(i, &v)) {
      std::memcpy(out + i * 16, &v, 16);
      bit_util::SetBit(bits.mutable_data(), i);
    } else {
      ++nulls;
    }
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  BufferPtr validity;
  if (nulls > 0) {
    EPOXY_ASSIGN_OR_RETURN(validity, bits.Finish());
  }
  return Array::Make(type, n, {validity, data}, {}, nulls);
}

__int128 LoadDecimal(const Array& a, int64_t i) {
  __int128 v;
  std::memcpy(&v, a.values<__int128>() + i, sizeof(v));
  return v;
}

}  // namespace

__int128 DecimalPow10(int n) { return kPow10.values[std::clamp(n, 0, kMaxPow)]; }

TypePtr AdjustedDecimal(int precision, int scale) {
  if (precision <= kMaxDecimalPrecision) return DataType::Decimal(std::max(precision, 1), scale);
  const int integer_digits = precision - scale;
  const int min_scale = std::min(scale, kMinAdjustedScale);
  return DataType::Decimal(kMaxDecimalPrecision, std::max(kMaxDecimalPrecision - integer_digits, min_scale));
}

TypePtr BoundedDecimal(int precision, int scale) {
  return DataType::Decimal(std::min(precision, kMaxDecimalPrecision), std::min(scale, kMaxDecimalPrecision));
}

TypePtr DecimalForIntegral(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return DataType::Decimal(3, 0);
    case TypeId::kSmallInt: return DataType::Decimal(5, 0);
    case TypeId::kInt: return DataType::Decimal(10, 0);
    case TypeId::kBigInt: return DataType::Decimal(20, 0);
    default: return nullptr;
  }
}

TypePtr DecimalForIntegerLiteral(int64_t v) {
  u128 m = Magnitude(v);
  int digits = 1;
  while (m >= 10) {
    m /= 10;
    ++digits;
  }
  return DataType::Decimal(digits, 0);
}

TypePtr DecimalLiteralType(std::string_view text, __int128* unscaled) {
  __int128 v = 0;
  int scale = 0, significant = 0;
  bool after_point = false, negative = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (i == 0 && (c == '-' || c == '+')) {
      negative = c == '-';
      continue;
    }
    if (c == '.') {
      if (after_point) return nullptr;
      after_point = true;
      continue;
    }
    if (c < '0' || c > '9') return nullptr;
    if (after_point) ++scale;
    if (significant > 0 || c != '0') ++significant;
    if (significant > kMaxDecimalPrecision || scale > kMaxDecimalPrecision) return nullptr;
    v = v * 10 + (c - '0');
  }
  *unscaled = negative ? -v : v;
  return DataType::Decimal(std::max({significant, scale, 1}), scale);
}

TypePtr DecimalArithmeticType(const std::string& op, const DataType& a, const DataType& b) {
  const int p1 = a.precision(), s1 = a.scale(), p2 = b.precision(), s2 = b.scale();
  if (op == "+" || op == "-") {
    const int scale = std::max(s1, s2);
    return AdjustedDecimal(std::max(p1 - s1, p2 - s2) + scale + 1, scale);
  }
  if (op == "*") return AdjustedDecimal(p1 + p2 + 1, s1 + s2);
  if (op == "/") {
    const int scale = std::max(kMinAdjustedScale, s1 + p2 + 1);
    return AdjustedDecimal(p1 - s1 + s2 + scale, scale);
  }
  const int scale = std::max(s1, s2);  // %
  return AdjustedDecimal(std::min(p1 - s1, p2 - s2) + scale, scale);
}

TypePtr WiderDecimal(const DataType& a, const DataType& b) {
  const int scale = std::max(a.scale(), b.scale());
  const int range = std::max(a.precision() - a.scale(), b.precision() - b.scale());
  return BoundedDecimal(range + scale, scale);
}

TypePtr DecimalSumType(const DataType& input) { return BoundedDecimal(input.precision() + 10, input.scale()); }
TypePtr DecimalAvgType(const DataType& input) { return BoundedDecimal(input.precision() + 4, input.scale() + 4); }

bool RescaleDecimal(__int128 v, int from, int to, int precision, __int128* out) {
  if (to < from) {
    v = DropDigits(v, std::min(from - to, kMaxPow));
    if (from - to > kMaxPow) v = 0;
  } else if (to > from && __builtin_mul_overflow(v, kPow10.values[to - from], &v)) {
    return false;
  }
  if (!Fits(v, precision)) return false;
  *out = v;
  return true;
}

namespace {

/// Validity of a binary operation (valid where both sides are), or null when neither has nulls.
Result<BufferPtr> BothValidBits(const Datum& a, const Datum& b, int64_t n, MemoryPool* pool, int64_t* nulls) {
  *nulls = 0;
  if (a.array->null_count() == 0 && b.array->null_count() == 0) return BufferPtr();
  BufferBuilder bits(pool);
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
  for (int64_t i = 0; i < n; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) ++*nulls;
    else bit_util::SetBit(bits.mutable_data(), i);
  }
  return bits.Finish();
}

/// + - * whose exact result always fits the result type without rounding: one loop, no checks.
/// Operands of up to 18 digits are multiplied as 64-bit integers into a 128-bit product.
Result<ArrayPtr> ExactArithmetic(char op, const Datum& a, const Datum& b, int64_t n, const TypePtr& result,
                                 MemoryPool* pool) {
  const int s1 = a.type()->scale(), s2 = b.type()->scale();
  const int common = std::max(s1, s2);
  using u128 = unsigned __int128;
  const u128 m1 = static_cast<u128>(DecimalPow10(op == '*' ? 0 : common - s1));
  const u128 m2 = static_cast<u128>(DecimalPow10(op == '*' ? 0 : common - s2));
  const __int128* x = a.array->values<__int128>();
  const __int128* y = b.array->values<__int128>();
  const int64_t sx = a.stride(), sy = b.stride();
  BufferBuilder values(pool);
  EPOXY_RETURN_NOT_OK(values.ResizeUninitialized(n * 16));
  __int128* out = reinterpret_cast<__int128*>(values.mutable_data());
  // Unsigned arithmetic: a null slot's arbitrary value may wrap, harmlessly (it stays null).
  if (op == '*' && a.type()->precision() <= 18 && b.type()->precision() <= 18) {
    for (int64_t i = 0; i < n; ++i) {
      out[i] = static_cast<__int128>(static_cast<int64_t>(x[i * sx])) * static_cast<int64_t>(y[i * sy]);
    }
  } else if (op == '*') {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<__int128>(static_cast<u128>(x[i * sx]) * static_cast<u128>(y[i * sy]));
  } else if (op == '+') {
    for (int64_t i = 0; i < n; ++i) {
      out[i] = static_cast<__int128>(static_cast<u128>(x[i * sx]) * m1 + static_cast<u128>(y[i * sy]) * m2);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      out[i] = static_cast<__int128>(static_cast<u128>(x[i * sx]) * m1 - static_cast<u128>(y[i * sy]) * m2);
    }
  }
  int64_t nulls = 0;
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, BothValidBits(a, b, n, pool, &nulls));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  return Array::Make(result, n, {validity, data}, {}, nulls);
}

/// + - * at the exact result's scale (nothing to round) into a result that may overflow: 128-bit
/// arithmetic with overflow checks, null where the value does not fit.
Result<ArrayPtr> CheckedArithmetic(char op, const Datum& a, const Datum& b, int64_t n, const TypePtr& result,
                                   MemoryPool* pool) {
  const int s1 = a.type()->scale(), s2 = b.type()->scale();
  const int common = std::max(s1, s2);
  const __int128 m1 = DecimalPow10(op == '*' ? 0 : common - s1), m2 = DecimalPow10(op == '*' ? 0 : common - s2);
  const __int128 limit = DecimalPow10(result->precision());
  const Array& xa = *a.array;
  const Array& ya = *b.array;
  const __int128* x = xa.values<__int128>();
  const __int128* y = ya.values<__int128>();
  const int64_t sx = a.stride(), sy = b.stride();
  const bool nulls = xa.null_count() > 0 || ya.null_count() > 0;
  BufferBuilder values(pool), bits(pool);
  EPOXY_RETURN_NOT_OK(values.ResizeUninitialized(n * 16));
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
  __int128* out = reinterpret_cast<__int128*>(values.mutable_data());
  int64_t null_count = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool ok = !nulls || (xa.IsValid(i * sx) && ya.IsValid(i * sy));
    __int128 r = 0;
    if (ok) {
      const __int128 u = x[i * sx], v = y[i * sy];
      if (op == '*') {
        ok = !__builtin_mul_overflow(u, v, &r);
      } else {
        __int128 p, q;
        ok = !__builtin_mul_overflow(u, m1, &p) && !__builtin_mul_overflow(v, m2, &q) &&
             !(op == '+' ? __builtin_add_overflow(p, q, &r) : __builtin_sub_overflow(p, q, &r));
      }
      ok = ok && r < limit && r > -limit;
    }
    out[i] = ok ? r : 0;
    if (ok) bit_util::SetBit(bits.mutable_data(), i);
    else ++null_count;
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, values.Finish());
  BufferPtr validity;
  if (null_count > 0) {
    EPOXY_ASSIGN_OR_RETURN(validity, bits.Finish());
  }
  return Array::Make(result, n, {validity, data}, {}, null_count);
}

}  // namespace

Result<ArrayPtr> DecimalArithmetic(const std::string& op, const Datum& a, const Datum& b, int64_t n,
                                   const TypePtr& result, MemoryPool* pool) {
  {
    // The exact result's precision and scale: when they fit the result type there is nothing to
    // round and nothing can overflow.
    const int p1 = a.type()->precision(), s1 = a.type()->scale(), p2 = b.type()->precision(), s2 = b.type()->scale();
    int exact_p = 0, exact_s = 0;
    if (op == "+" || op == "-") {
      exact_s = std::max(s1, s2);
      exact_p = std::max(p1 - s1, p2 - s2) + exact_s + 1;
    } else if (op == "*") {
      exact_s = s1 + s2;
      exact_p = p1 + p2 + 1;
    }
    if (exact_p > 0 && exact_s == result->scale() && exact_p <= result->precision()) {
      return ExactArithmetic(op[0], a, b, n, result, pool);
    }
    if (exact_p > 0 && exact_s == result->scale()) return CheckedArithmetic(op[0], a, b, n, result, pool);
  }
  const DecimalOp compute(op, a.type()->scale(), b.type()->scale(), result->precision(), result->scale());
  const Array& x = *a.array;
  const Array& y = *b.array;
  const bool nulls = x.null_count() > 0 || y.null_count() > 0;
  return BuildDecimals(result, n, pool, [&](int64_t i, __int128* out) {
    const int64_t rx = a.Row(i), ry = b.Row(i);
    if (nulls && (x.IsNull(rx) || y.IsNull(ry))) return false;
    return compute(LoadDecimal(x, rx), LoadDecimal(y, ry), out);
  });
}

Result<ArrayPtr> CastDecimalToDecimal(const Array& input, const TypePtr& to, MemoryPool* pool) {
  const int from = input.type()->scale();
  return BuildDecimals(to, input.length(), pool, [&](int64_t i, __int128* out) {
    if (input.IsNull(i)) return false;
    return RescaleDecimal(LoadDecimal(input, i), from, to->scale(), to->precision(), out);
  });
}

Result<ArrayPtr> CastIntegerToDecimal(const Array& input, const TypePtr& to, MemoryPool* pool) {
  Result<ArrayPtr> out = Status::Internal("not an integer column");
  auto cast = [&](auto typed) {
    using T = decltype(typed);
    const T* v = input.values<T>();
    out = BuildDecimals(to, input.length(), pool, [&](int64_t i, __int128* value) {
      if (input.IsNull(i)) return false;
      return RescaleDecimal(static_cast<__int128>(v[i]), 0, to->scale(), to->precision(), value);
    });
  };
  switch (input.type_id()) {
    case TypeId::kTinyInt: cast(int8_t{}); break;
    case TypeId::kSmallInt: cast(int16_t{}); break;
    case TypeId::kInt: cast(int32_t{}); break;
    case TypeId::kBigInt: cast(int64_t{}); break;
    default: break;
  }
  return out;
}

bool DecimalAverage(__int128 sum, const DataType& sum_type, int64_t count, const DataType& result, __int128* out) {
  if (count == 0) return false;
  const TypePtr count_type = DataType::Decimal(20, 0);
  const TypePtr quotient = DecimalArithmeticType("/", sum_type, *count_type);
  const DecimalOp divide("/", sum_type.scale(), 0, quotient->precision(), quotient->scale());
  __int128 q;
  if (!divide(sum, static_cast<__int128>(count), &q)) return false;
  return RescaleDecimal(q, quotient->scale(), result.scale(), result.precision(), out);
}

bool RoundDecimal(__int128 v, int from, int digits, int to, int precision, bool half_even, __int128* out) {
  const int drop = from - digits;  // digits removed below the rounding position
  if (drop > 0) {
    if (drop > kMaxPow) {
      v = 0;
    } else {
      const __int128 p = kPow10.values[drop];
      __int128 q = v / p, r = v % p;
      const __int128 ar = r < 0 ? -r : r;
      const bool up = half_even ? (ar > p - ar || (ar == p - ar && (q % 2 != 0))) : ar >= p - ar;
      if (up) q += v < 0 ? -1 : 1;
      // q is at scale `digits`; bring it to `to`.
      const int widen = to - digits;
      if (widen > kMaxPow || __builtin_mul_overflow(q, kPow10.values[widen], &v)) return false;
    }
    if (!Fits(v, precision)) return false;
    *out = v;
    return true;
  }
  return RescaleDecimal(v, from, to, precision, out);
}

}  // namespace epoxy::expr
