// SPDX-License-Identifier: Apache-2.0
#include "epoxy/exec/holistic_aggregates.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "epoxy/exec/collect_functions.h"
#include "epoxy/vector/builder.h"
#include "epoxy/vector/compare.h"

namespace epoxy::exec {
namespace {

const std::set<std::string> kHolistic = {"median", "mode", "product", "skewness", "kurtosis", "covar_pop",
                                         "covar_samp", "corr"};

double DoubleAt(const Array& a, int64_t i) { return a.values<double>()[i]; }

/// Central moments of xs: mean, then sums of (x - mean)^2, ^3 and ^4.
struct Moments {
  double n = 0, m2 = 0, m3 = 0, m4 = 0;
};

Moments MomentsOf(const std::vector<double>& xs) {
  Moments m;
  m.n = static_cast<double>(xs.size());
  double mean = 0;
  for (double x : xs) mean += x;
  mean /= m.n;
  for (double x : xs) {
    const double d = x - mean;
    m.m2 += d * d;
    m.m3 += d * d * d;
    m.m4 += d * d * d * d;
  }
  return m;
}

class HolisticAccumulator final : public Accumulator {
 public:
  HolisticAccumulator(std::string op, TypePtr result, std::unique_ptr<Accumulator> values, bool pairs)
      : op_(std::move(op)), result_(std::move(result)), values_(std::move(values)), pairs_(pairs) {}

  Status Resize(int64_t num_groups) override { return values_->Resize(num_groups); }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    if (!pairs_) return values_->Update(ids, args, n);
    // covar and corr keep (x, y) pairs; a pair with a null side is left out below.
    auto pair = Array::Make(DataType::Struct({{"x", args[0]->type()}, {"y", args[1]->type()}}), n, {nullptr},
                            {args[0]->Slice(0, n), args[1]->Slice(0, n)}, 0);
    return values_->Update(ids, {pair}, n);
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    return values_->Merge(ids, states, n);
  }
  Result<std::vector<ArrayPtr>> States() override { return values_->States(); }
  std::vector<TypePtr> StateTypes() const override { return values_->StateTypes(); }
  int64_t memory_bytes() const override { return values_->memory_bytes(); }

  Result<ArrayPtr> Finalize() override {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr lists, values_->Finalize());
    EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(result_));
    const ArrayPtr& elements = lists->child(0);
    const int32_t* o = lists->offsets();
    for (int64_t g = 0; g < lists->length(); ++g) {
      const int64_t begin = lists->IsNull(g) ? 0 : o[g], end = lists->IsNull(g) ? 0 : o[g + 1];
      EPOXY_RETURN_NOT_OK(Compute(*elements, begin, end, builder.get()));
    }
    return builder->Finish();
  }

 private:
  Status AppendDouble(ArrayBuilder* b, double v) { return static_cast<DoubleBuilder*>(b)->Append(v); }

  Status Compute(const Array& values, int64_t begin, int64_t end, ArrayBuilder* out) {
    if (op_ == "mode") {
      // The most frequent value; among equally frequent ones the smallest, so the answer does not
      // depend on the order rows arrived in.
      int64_t best = -1, best_count = 0;
      std::vector<int64_t> rows;
      for (int64_t i = begin; i < end; ++i) rows.push_back(i);
      std::sort(rows.begin(), rows.end(), [&](int64_t a, int64_t b) { return CompareValues(values, a, values, b) < 0; });
      for (size_t i = 0; i < rows.size();) {
        size_t j = i;
        while (j < rows.size() && CompareValues(values, rows[i], values, rows[j]) == 0) ++j;
        if (static_cast<int64_t>(j - i) > best_count) {
          best_count = static_cast<int64_t>(j - i);
          best = rows[i];
        }
        i = j;
      }
      if (best < 0) return out->AppendNull();
      return AppendFrom(out, values, best);
    }
    if (pairs_) {
      std::vector<double> xs, ys;
      const Array& x = *values.child(0);
      const Array& y = *values.child(1);
      for (int64_t i = begin; i < end; ++i) {
        if (x.IsNull(i) || y.IsNull(i)) continue;
        xs.push_back(DoubleAt(x, i));
        ys.push_back(DoubleAt(y, i));
      }
      const double n = static_cast<double>(xs.size());
      if (xs.empty() || (op_ == "covar_samp" && xs.size() < 2)) return out->AppendNull();
      double mx = 0, my = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        mx += xs[i];
        my += ys[i];
      }
      mx /= n;
      my /= n;
      double cxy = 0, cxx = 0, cyy = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        cxy += (xs[i] - mx) * (ys[i] - my);
        cxx += (xs[i] - mx) * (xs[i] - mx);
        cyy += (ys[i] - my) * (ys[i] - my);
      }
      if (op_ == "covar_pop") return AppendDouble(out, cxy / n);
      if (op_ == "covar_samp") return AppendDouble(out, cxy / (n - 1));
      if (cxx == 0 || cyy == 0) return out->AppendNull();
      return AppendDouble(out, cxy / std::sqrt(cxx * cyy));
    }
    std::vector<double> xs;
    for (int64_t i = begin; i < end; ++i) {
      if (!values.IsNull(i)) xs.push_back(DoubleAt(values, i));
    }
    if (xs.empty()) return out->AppendNull();
    if (op_ == "product") {
      double p = 1;
      for (double x : xs) p *= x;
      return AppendDouble(out, p);
    }
    if (op_ == "median") {  // Spark's percentile(x, 0.5): linear between the two middle values
      std::sort(xs.begin(), xs.end());
      const double pos = 0.5 * static_cast<double>(xs.size() - 1);
      const size_t lo = static_cast<size_t>(std::floor(pos)), hi = static_cast<size_t>(std::ceil(pos));
      return AppendDouble(out, xs[lo] + (pos - static_cast<double>(lo)) * (xs[hi] - xs[lo]));
    }
    const Moments m = MomentsOf(xs);
    if (m.m2 == 0) return out->AppendNull();  // Spark: no spread, no skewness or kurtosis
    if (op_ == "skewness") return AppendDouble(out, std::sqrt(m.n) * m.m3 / std::pow(m.m2, 1.5));
    return AppendDouble(out, m.n * m.m4 / (m.m2 * m.m2) - 3.0);  // kurtosis (excess)
  }

  std::string op_;
  TypePtr result_;
  std::unique_ptr<Accumulator> values_;
  bool pairs_;
};

}  // namespace

bool IsHolisticAggregate(const std::string& op) { return kHolistic.count(op) > 0; }

Result<std::unique_ptr<Accumulator>> MakeHolisticAccumulator(const expr::Expr& call, MemoryPool* pool) {
  const bool pairs = call.op == "covar_pop" || call.op == "covar_samp" || call.op == "corr";
  auto collect = std::make_shared<expr::Expr>(call);
  collect->op = "collect_list";
  if (pairs) {
    auto pair = std::make_shared<expr::Expr>(*call.args[0]);
    pair->type = DataType::Struct({{"x", call.args[0]->type}, {"y", call.args[1]->type}});
    collect->args = {pair};
  }
  collect->type = DataType::Array(collect->args[0]->type);
  EPOXY_ASSIGN_OR_RETURN(auto values, MakeCollectAccumulator(*collect, false, pool));
  return std::unique_ptr<Accumulator>(new HolisticAccumulator(call.op, call.type, std::move(values), pairs));
}

}  // namespace epoxy::exec
