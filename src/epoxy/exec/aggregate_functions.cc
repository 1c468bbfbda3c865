// SPDX-License-Identifier: Apache-2.0
// Accumulators with numeric or single-value state: count, sum, avg, variance, bool_and/or,
// min/max (typed for fixed-width values, by reference otherwise), first/last/any_value. The
// collecting ones (collect_*, DISTINCT, approx_count_distinct) are in collect_functions.cc.
#include "epoxy/exec/aggregate_functions.h"

#include <cmath>
#include <cstring>

#include "epoxy/exec/collect_functions.h"
#include "epoxy/exec/holistic_aggregates.h"
#include "epoxy/vector/compare.h"
#include "epoxy/exec/value_store.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/expr/type_visit.h"
#include "epoxy/vector/builder.h"

namespace epoxy::exec {
namespace {

using expr::Expr;

/// A fixed-width column from `values`, null where `valid` is 0 (all valid when `valid` is null).
template <typename T>
Result<ArrayPtr> FixedColumn(const TypePtr& type, const std::vector<T>& values, const std::vector<uint8_t>* valid,
                             MemoryPool* pool) {
  const int64_t n = static_cast<int64_t>(values.size());
  BufferBuilder data(pool);
  EPOXY_RETURN_NOT_OK(data.Resize(n * static_cast<int64_t>(sizeof(T))));
  if (n > 0) std::memcpy(data.mutable_data(), values.data(), static_cast<size_t>(n) * sizeof(T));
  BufferPtr validity;
  int64_t nulls = 0;
  if (valid != nullptr) {
    BufferBuilder bits(pool);
    EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
    for (int64_t i = 0; i < n; ++i) {
      if ((*valid)[static_cast<size_t>(i)]) bit_util::SetBit(bits.mutable_data(), i);
      else ++nulls;
    }
    if (nulls > 0) {
      EPOXY_ASSIGN_OR_RETURN(validity, bits.Finish());
    }
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr buffer, data.Finish());
  return Array::Make(type, n, {validity, buffer}, {}, nulls);
}

Result<ArrayPtr> BoolColumn(const std::vector<uint8_t>& values, const std::vector<uint8_t>* valid, MemoryPool* pool) {
  BooleanBuilder b(pool);
  for (size_t i = 0; i < values.size(); ++i) {
    if (valid != nullptr && !(*valid)[i]) EPOXY_RETURN_NOT_OK(b.AppendNull());
    else EPOXY_RETURN_NOT_OK(b.Append(values[i] != 0));
  }
  return b.Finish();
}

template <typename T>
T Load(const Array& a, int64_t i) {
  T v;
  std::memcpy(&v, a.values<T>() + i, sizeof(T));
  return v;
}

// ---- count, count_if ----

class CountAccumulator final : public Accumulator {
 public:
  CountAccumulator(bool star, bool count_if, MemoryPool* pool) : star_(star), count_if_(count_if), pool_(pool) {}
  Status Resize(int64_t n) override {
    counts_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    if (star_) {
      for (int64_t i = 0; i < n; ++i) ++counts_[ids[i]];
      return Status::OK();
    }
    if (count_if_) {
      const Array& p = *args[0];
      for (int64_t i = 0; i < n; ++i) counts_[ids[i]] += p.IsValid(i) && p.GetBool(i) ? 1 : 0;
      return Status::OK();
    }
    bool nulls = false;
    for (const auto& a : args) nulls = nulls || a->null_count() > 0;
    if (!nulls) {
      for (int64_t i = 0; i < n; ++i) ++counts_[ids[i]];
      return Status::OK();
    }
    for (int64_t i = 0; i < n; ++i) {
      bool all = true;  // count(a, b) counts rows where no argument is null
      for (const auto& a : args) all = all && a->IsValid(i);
      counts_[ids[i]] += all ? 1 : 0;
    }
    return Status::OK();
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    const int64_t* c = states[0]->values<int64_t>();
    for (int64_t i = 0; i < n; ++i) counts_[ids[i]] += c[i];
    return Status::OK();
  }
  Result<std::vector<ArrayPtr>> States() override {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr c, FixedColumn(DataType::BigInt(), counts_, nullptr, pool_));
    return std::vector<ArrayPtr>{c};
  }
  std::vector<TypePtr> StateTypes() const override { return {DataType::BigInt()}; }
  Result<ArrayPtr> Finalize() override { return FixedColumn(DataType::BigInt(), counts_, nullptr, pool_); }
  int64_t memory_bytes() const override { return static_cast<int64_t>(counts_.capacity() * 8); }

 private:
  bool star_, count_if_;
  MemoryPool* pool_;
  std::vector<int64_t> counts_;
};

// ---- sum and avg ----

/// sum and avg of bigint (wrapping, as Spark's non-ANSI sum), double or decimal (exact, overflow
/// gives null). State: the sum (null after a decimal overflow) and the count of values.
template <typename T>
class SumAccumulator final : public Accumulator {
 public:
  SumAccumulator(TypePtr sum_type, TypePtr result_type, bool average, MemoryPool* pool)
      : sum_type_(std::move(sum_type)), result_type_(std::move(result_type)), average_(average), pool_(pool) {}

  Status Resize(int64_t n) override {
    sums_.resize(static_cast<size_t>(n), T{});
    counts_.resize(static_cast<size_t>(n), 0);
    if constexpr (kDecimal) overflow_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    const Array& a = *args[0];
    if (a.type_id() == TypeId::kNull) return Status::OK();
    const T* v = a.values<T>();
    if constexpr (kDecimal) {
      // Values of up to 28 digits: no run of rows could take a 128-bit sum past 10^38 (it needs
      // 10^10 of them), so the per-row overflow checks go; Finalize still checks the result.
      if (a.type()->precision() <= 28 && a.null_count() == 0 && (unchecked_rows_ += n) < 10'000'000'000) {
        for (int64_t i = 0; i < n; ++i) {
          sums_[ids[i]] += v[i];
          ++counts_[ids[i]];
        }
        return Status::OK();
      }
    }
    if (a.null_count() == 0) {
      for (int64_t i = 0; i < n; ++i) Add(ids[i], v[i], 1);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        if (a.IsValid(i)) Add(ids[i], v[i], 1);
      }
    }
    return Status::OK();
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    const Array& s = *states[0];
    const int64_t* c = states[1]->values<int64_t>();
    const T* v = s.values<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (c[i] == 0) continue;
      if (s.IsNull(i)) {  // an overflowed partial sum
        if constexpr (kDecimal) overflow_[ids[i]] = 1;
        counts_[ids[i]] += c[i];
        continue;
      }
      Add(ids[i], v[i], c[i]);
    }
    return Status::OK();
  }
  Result<std::vector<ArrayPtr>> States() override {
    std::vector<uint8_t> valid(sums_.size(), 1);
    if constexpr (kDecimal) {
      for (size_t g = 0; g < valid.size(); ++g) valid[g] = overflow_[g] ? 0 : 1;
    }
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr s, FixedColumn(StateType(), sums_, &valid, pool_));
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr c, FixedColumn(DataType::BigInt(), counts_, nullptr, pool_));
    return std::vector<ArrayPtr>{s, c};
  }
  std::vector<TypePtr> StateTypes() const override { return {StateType(), DataType::BigInt()}; }

  Result<ArrayPtr> Finalize() override {
    const size_t n = sums_.size();
    std::vector<uint8_t> valid(n, 0);
    if constexpr (kDecimal) {
      std::vector<__int128> out(n, 0);
      for (size_t g = 0; g < n; ++g) {
        if (counts_[g] == 0 || overflow_[g]) continue;
        if (!average_) {
          valid[g] = expr::RescaleDecimal(sums_[g], sum_type_->scale(), sum_type_->scale(), sum_type_->precision(), &out[g]);
        } else {
          // The sum must fit its own type (decimal(p+10,s)) before it is divided, as in Spark.
          __int128 checked;
          valid[g] = expr::RescaleDecimal(sums_[g], sum_type_->scale(), sum_type_->scale(), sum_type_->precision(), &checked) &&
                     expr::DecimalAverage(checked, *sum_type_, counts_[g], *result_type_, &out[g]);
        }
      }
      return FixedColumn(result_type_, out, &valid, pool_);
    } else if (average_) {
      std::vector<double> out(n, 0);
      for (size_t g = 0; g < n; ++g) {
        if (counts_[g] == 0) continue;
        valid[g] = 1;
        out[g] = static_cast<double>(sums_[g]) / static_cast<double>(counts_[g]);
      }
      return FixedColumn(result_type_, out, &valid, pool_);
    } else {
      for (size_t g = 0; g < n; ++g) valid[g] = counts_[g] > 0;
      return FixedColumn(result_type_, sums_, &valid, pool_);
    }
  }
  int64_t memory_bytes() const override {
    return static_cast<int64_t>(sums_.capacity() * sizeof(T) + counts_.capacity() * 8 + overflow_.capacity());
  }

 private:
  static constexpr bool kDecimal = std::is_same_v<T, __int128>;

  TypePtr StateType() const {
    if constexpr (kDecimal) return DataType::Decimal(38, sum_type_->scale());
    return sum_type_;
  }
  void Add(uint32_t g, T v, int64_t count) {
    counts_[g] += count;
    if constexpr (kDecimal) {
      if (__builtin_add_overflow(sums_[g], v, &sums_[g])) overflow_[g] = 1;
    } else if constexpr (std::is_integral_v<T>) {
      sums_[g] = static_cast<T>(static_cast<uint64_t>(sums_[g]) + static_cast<uint64_t>(v));
    } else {
      sums_[g] += v;
    }
  }

  TypePtr sum_type_, result_type_;
  bool average_;
  MemoryPool* pool_;
  std::vector<T> sums_;
  std::vector<int64_t> counts_;
  std::vector<uint8_t> overflow_;
  int64_t unchecked_rows_ = 0;  // rows summed without overflow checks
};

// ---- variance and standard deviation ----

/// Welford's running mean and M2, merged with Chan's formula; state (n, mean, m2).
class VarianceAccumulator final : public Accumulator {
 public:
  VarianceAccumulator(bool sample, bool root, MemoryPool* pool) : sample_(sample), root_(root), pool_(pool) {}
  Status Resize(int64_t n) override {
    n_.resize(static_cast<size_t>(n), 0);
    mean_.resize(static_cast<size_t>(n), 0);
    m2_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    const Array& a = *args[0];
    if (a.type_id() == TypeId::kNull) return Status::OK();
    const double* v = a.values<double>();
    for (int64_t i = 0; i < n; ++i) {
      if (a.null_count() > 0 && a.IsNull(i)) continue;
      Combine(ids[i], 1, v[i], 0);
    }
    return Status::OK();
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    const double* c = states[0]->values<double>();
    const double* m = states[1]->values<double>();
    const double* q = states[2]->values<double>();
    for (int64_t i = 0; i < n; ++i) {
      if (c[i] > 0) Combine(ids[i], c[i], m[i], q[i]);
    }
    return Status::OK();
  }
  Result<std::vector<ArrayPtr>> States() override {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr c, FixedColumn(DataType::Double(), n_, nullptr, pool_));
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr m, FixedColumn(DataType::Double(), mean_, nullptr, pool_));
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr q, FixedColumn(DataType::Double(), m2_, nullptr, pool_));
    return std::vector<ArrayPtr>{c, m, q};
  }
  std::vector<TypePtr> StateTypes() const override { return {DataType::Double(), DataType::Double(), DataType::Double()}; }
  Result<ArrayPtr> Finalize() override {
    std::vector<double> out(n_.size(), 0);
    std::vector<uint8_t> valid(n_.size(), 0);
    for (size_t g = 0; g < n_.size(); ++g) {
      // Spark 3 (legacy statisticalAggregate off): null for no values, and for one value when sampling.
      const double divisor = sample_ ? n_[g] - 1 : n_[g];
      if (n_[g] == 0 || divisor <= 0) continue;
      valid[g] = 1;
      const double var = m2_[g] / divisor;
      out[g] = root_ ? std::sqrt(var) : var;
    }
    return FixedColumn(DataType::Double(), out, &valid, pool_);
  }
  int64_t memory_bytes() const override { return static_cast<int64_t>(n_.capacity() * 24); }

 private:
  void Combine(uint32_t g, double nb, double mb, double qb) {
    const double na = n_[g];
    const double n = na + nb;
    const double delta = mb - mean_[g];
    mean_[g] += delta * nb / n;
    m2_[g] += qb + delta * delta * na * nb / n;
    n_[g] = n;
  }
  bool sample_, root_;
  MemoryPool* pool_;
  std::vector<double> n_, mean_, m2_;
};

// ---- bool_and, bool_or ----

class BoolAccumulator final : public Accumulator {
 public:
  BoolAccumulator(bool is_and, MemoryPool* pool) : and_(is_and), pool_(pool) {}
  Status Resize(int64_t n) override {
    values_.resize(static_cast<size_t>(n), and_ ? 1 : 0);
    seen_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    const Array& a = *args[0];
    if (a.type_id() == TypeId::kNull) return Status::OK();
    for (int64_t i = 0; i < n; ++i) {
      if (a.IsNull(i)) continue;
      Add(ids[i], a.GetBool(i));
    }
    return Status::OK();
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    return Update(ids, states, n);  // the state is a nullable boolean, as the input
  }
  Result<std::vector<ArrayPtr>> States() override {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr v, BoolColumn(values_, &seen_, pool_));
    return std::vector<ArrayPtr>{v};
  }
  std::vector<TypePtr> StateTypes() const override { return {DataType::Boolean()}; }
  Result<ArrayPtr> Finalize() override { return BoolColumn(values_, &seen_, pool_); }
  int64_t memory_bytes() const override { return static_cast<int64_t>(values_.capacity() * 2); }

 private:
  void Add(uint32_t g, bool v) {
    seen_[g] = 1;
    values_[g] = and_ ? (values_[g] && v) : (values_[g] || v);
  }
  bool and_;
  MemoryPool* pool_;
  std::vector<uint8_t> values_, seen_;
};

// ---- min and max of fixed-width values ----

template <typename T>
class FixedExtremeAccumulator final : public Accumulator {
 public:
  FixedExtremeAccumulator(TypePtr type, bool is_min, MemoryPool* pool) : type_(std::move(type)), min_(is_min), pool_(pool) {}
  Status Resize(int64_t n) override {
    values_.resize(static_cast<size_t>(n), T{});
    seen_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    const Array& a = *args[0];
    if (a.type_id() == TypeId::kNull) return Status::OK();
    const bool nulls = a.null_count() > 0;
    for (int64_t i = 0; i < n; ++i) {
      if (nulls && a.IsNull(i)) continue;
      Offer(ids[i], Load<T>(a, i));
    }
    return Status::OK();
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override { return Update(ids, states, n); }
  Result<std::vector<ArrayPtr>> States() override {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr v, FixedColumn(type_, values_, &seen_, pool_));
    return std::vector<ArrayPtr>{v};
  }
  std::vector<TypePtr> StateTypes() const override { return {type_}; }
  Result<ArrayPtr> Finalize() override { return FixedColumn(type_, values_, &seen_, pool_); }
  int64_t memory_bytes() const override { return static_cast<int64_t>(values_.capacity() * sizeof(T) + seen_.capacity()); }

 private:
  static bool Less(T x, T y) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(y)) return !std::isnan(x);  // NaN orders above every number
      if (std::isnan(x)) return false;
    }
    return x < y;
  }
  void Offer(uint32_t g, T v) {
    if (!seen_[g] || (min_ ? Less(v, values_[g]) : Less(values_[g], v))) {
      values_[g] = v;
      seen_[g] = 1;
    }
  }
  TypePtr type_;
  bool min_;
  MemoryPool* pool_;
  std::vector<T> values_;
  std::vector<uint8_t> seen_;
};

// ---- values kept by reference: min/max of other types, first, last, any_value ----

enum class Pick { kMin, kMax, kFirst, kLast };

class PickAccumulator final : public Accumulator {
 public:
  PickAccumulator(TypePtr type, Pick pick, bool ignore_nulls, MemoryPool* pool)
      : type_(type), pick_(pick), ignore_nulls_(ignore_nulls || pick == Pick::kMin || pick == Pick::kMax),
        pool_(pool), store_(std::move(type), pool) {}

  Status Resize(int64_t n) override {
    refs_.resize(static_cast<size_t>(n), kNullRow);
    set_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    return Offer(ids, args[0], nullptr, n);
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    return Offer(ids, states[0], states.size() > 1 ? states[1].get() : nullptr, n);
  }
  Result<std::vector<ArrayPtr>> States() override {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr values, store_.Gather(refs_));
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr set, BoolColumn(set_, nullptr, pool_));
    return std::vector<ArrayPtr>{values, set};
  }
  std::vector<TypePtr> StateTypes() const override { return {type_, DataType::Boolean()}; }
  Result<ArrayPtr> Finalize() override { return store_.Gather(refs_); }
  int64_t memory_bytes() const override {
    return static_cast<int64_t>(refs_.capacity() * 8 + set_.capacity()) + store_.memory_bytes();
  }

 private:
  /// Offers rows of `values` (with `set` flags when merging states) to their groups.
  Status Offer(const uint32_t* ids, const ArrayPtr& values, const Array* set, int64_t n) {
    EPOXY_ASSIGN_OR_RETURN(uint32_t chunk, store_.Retain(values));
    const Array& v = *values;
    const bool typed = v.type_id() != TypeId::kNull;
    for (int64_t i = 0; i < n; ++i) {
      if (set != nullptr && !set->GetBool(i)) continue;  // that partial group saw no value
      const bool null = !typed || v.IsNull(i);
      if (null && ignore_nulls_) continue;
      const uint32_t g = ids[i];
      bool take = false;
      switch (pick_) {
        case Pick::kFirst: take = !set_[g]; break;
        case Pick::kLast: take = true; break;
        case Pick::kMin:
        case Pick::kMax: {
          if (!set_[g]) {
            take = true;
            break;
          }
          const RowRef best = refs_[g];
          const int c = CompareValues(v, i, store_.At(best), ValueStore::Row(best));
          take = pick_ == Pick::kMin ? c < 0 : c > 0;
          break;
        }
      }
      if (!take) continue;
      refs_[g] = null ? kNullRow : MakeRowRef(chunk, static_cast<uint32_t>(i));
      set_[g] = 1;
    }
    if (store_.NeedsCompaction()) EPOXY_RETURN_NOT_OK(store_.Compact(&refs_));
    return Status::OK();
  }

  TypePtr type_;
  Pick pick_;
  bool ignore_nulls_;
  MemoryPool* pool_;
  ValueStore store_;
  std::vector<RowRef> refs_;
  std::vector<uint8_t> set_;
};

bool IgnoreNulls(const Expr& call) {
  return call.args.size() > 1 && !call.args[1]->literal.is_null() && std::get<bool>(call.args[1]->literal.value);
}

Result<std::unique_ptr<Accumulator>> MakeExtreme(const Expr& call, bool is_min, MemoryPool* pool) {
  const TypePtr& type = call.args[0]->type;
  std::unique_ptr<Accumulator> out;
  switch (type->id()) {
    case TypeId::kTinyInt: out.reset(new FixedExtremeAccumulator<int8_t>(type, is_min, pool)); break;
    case TypeId::kSmallInt: out.reset(new FixedExtremeAccumulator<int16_t>(type, is_min, pool)); break;
    case TypeId::kInt:
    case TypeId::kDate: out.reset(new FixedExtremeAccumulator<int32_t>(type, is_min, pool)); break;
    case TypeId::kBigInt:
    case TypeId::kTimestamp: out.reset(new FixedExtremeAccumulator<int64_t>(type, is_min, pool)); break;
    case TypeId::kFloat: out.reset(new FixedExtremeAccumulator<float>(type, is_min, pool)); break;
    case TypeId::kDouble: out.reset(new FixedExtremeAccumulator<double>(type, is_min, pool)); break;
    case TypeId::kDecimal: out.reset(new FixedExtremeAccumulator<__int128>(type, is_min, pool)); break;
    default:
      if (!IsOrderable(*type)) return Status::InvalidInput("{} cannot order values of type {} ('{}')", call.op, type->ToString(), call.ToString());
      out.reset(new PickAccumulator(type, is_min ? Pick::kMin : Pick::kMax, true, pool));
  }
  return out;
}

Result<std::unique_ptr<Accumulator>> MakeSum(const Expr& call, bool average, MemoryPool* pool) {
  const TypePtr& arg = call.args[0]->type;
  std::unique_ptr<Accumulator> out;
  switch (arg->id()) {
    case TypeId::kBigInt: out.reset(new SumAccumulator<int64_t>(DataType::BigInt(), call.type, average, pool)); break;
    case TypeId::kDouble: out.reset(new SumAccumulator<double>(DataType::Double(), call.type, average, pool)); break;
    case TypeId::kDecimal:
      out.reset(new SumAccumulator<__int128>(expr::DecimalSumType(*arg), call.type, average, pool));
      break;
    case TypeId::kNull: out.reset(new SumAccumulator<double>(DataType::Double(), call.type, average, pool)); break;
    default: return Status::Internal("{} of {} reached execution uncast", call.op, arg->ToString());
  }
  return out;
}

}  // namespace

Status ValueStore::Compact(std::vector<RowRef>* refs) {
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr compact, Gather(*refs));
  chunks_ = {compact};
  retained_bytes_ = compact->buffer_bytes();
  for (size_t i = 0; i < refs->size(); ++i) {
    if ((*refs)[i] != kNullRow) (*refs)[i] = MakeRowRef(0, static_cast<uint32_t>(i));
  }
  return Status::OK();
}

Result<uint32_t> ValueStore::Retain(const ArrayPtr& array) {
  if (!chunks_.empty() && chunks_.back() == array) return static_cast<uint32_t>(chunks_.size() - 1);
  if (array->length() > static_cast<int64_t>(UINT32_MAX)) return Status::Internal("an array of more than 4 billion rows");
  chunks_.push_back(array);
  retained_bytes_ += array->buffer_bytes();
  return static_cast<uint32_t>(chunks_.size() - 1);
}

Result<std::unique_ptr<Accumulator>> MakeAccumulator(const Expr& call, MemoryPool* pool) {
  const std::string& op = call.op;
  if (call.distinct && op != "min" && op != "max") return MakeDistinctAccumulator(call, pool);
  if (op == "count") return std::unique_ptr<Accumulator>(new CountAccumulator(call.args.empty(), false, pool));
  if (op == "count_if") return std::unique_ptr<Accumulator>(new CountAccumulator(false, true, pool));
  if (op == "sum") return MakeSum(call, false, pool);
  if (op == "avg") return MakeSum(call, true, pool);
  if (op == "min" || op == "max") return MakeExtreme(call, op == "min", pool);
  if (op == "first" || op == "any_value") {
    return std::unique_ptr<Accumulator>(new PickAccumulator(call.type, Pick::kFirst, IgnoreNulls(call), pool));
  }
  if (op == "last") return std::unique_ptr<Accumulator>(new PickAccumulator(call.type, Pick::kLast, IgnoreNulls(call), pool));
  if (op == "bool_and" || op == "bool_or") return std::unique_ptr<Accumulator>(new BoolAccumulator(op == "bool_and", pool));
  if (op == "var_samp" || op == "var_pop" || op == "stddev_samp" || op == "stddev_pop") {
    return std::unique_ptr<Accumulator>(
        new VarianceAccumulator(op == "var_samp" || op == "stddev_samp", op.rfind("stddev", 0) == 0, pool));
  }
  if (op == "collect_list" || op == "collect_set") return MakeCollectAccumulator(call, op == "collect_set", pool);
  if (op == "approx_count_distinct") return MakeApproxDistinctAccumulator(call, pool);
  if (IsHolisticAggregate(op)) return MakeHolisticAccumulator(call, pool);
  return Status::NotSupported("aggregate function {} ('{}')", op, call.ToString());
}

Result<std::vector<TypePtr>> AccumulatorStateTypes(const Expr& call) {
  EPOXY_ASSIGN_OR_RETURN(auto acc, MakeAccumulator(call, &MemoryPool::Default()));
  return acc->StateTypes();
}

}  // namespace epoxy::exec
