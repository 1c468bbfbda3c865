// SPDX-License-Identifier: Apache-2.0
// Expression evaluation throughput over 1M-row batches (rows/s): filters, arithmetic, a string
// function and a cast, each against a hand-written loop over the same arrays as the baseline of
// what a vectorized kernel can reach.
#include <random>

#include <benchmark/benchmark.h>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/parser.h"
#include "epoxy/vector/builder.h"

namespace epoxy::expr {
namespace {

constexpr int64_t kRows = 1 << 20;

BatchPtr MakeBatch() {
  std::mt19937_64 rng(7);
  Int64Builder a(DataType::BigInt(), nullptr);
  DoubleBuilder b(DataType::Double(), nullptr);
  StringBuilder s(DataType::String(), nullptr);
  StringBuilder n(DataType::String(), nullptr);
  for (int64_t i = 0; i < kRows; ++i) {
    (void)a.Append(static_cast<int64_t>(rng() % 1000));
    (void)b.Append(static_cast<double>(rng() % 10000) / 10000.0);
    (void)s.Append(i % 3 == 0 ? "checkout" : "home");
    (void)n.Append(std::to_string(rng() % 100000));
  }
  SchemaPtr schema = Schema::Make({{"a", DataType::BigInt()}, {"b", DataType::Double()}, {"s", DataType::String()},
                                   {"n", DataType::String()}});
  return Batch::Make(schema, {*a.Finish(), *b.Finish(), *s.Finish(), *n.Finish()}, kRows);
}

const BatchPtr& Data() {
  static const BatchPtr batch = MakeBatch();
  return batch;
}

void RunExpression(benchmark::State& state, const char* text) {
  const BatchPtr& batch = Data();
  ExprPtr bound = *Bind(*ParseExpression(text), *batch->schema());
  for (auto _ : state) {
    auto out = Evaluate(*bound, *batch);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

void BM_Filter(benchmark::State& state) { RunExpression(state, "a > 500 AND b < 0.5"); }
void BM_Arithmetic(benchmark::State& state) { RunExpression(state, "a * 2 + 1"); }
void BM_StringEquals(benchmark::State& state) { RunExpression(state, "s = 'checkout'"); }
void BM_Upper(benchmark::State& state) { RunExpression(state, "upper(s)"); }
void BM_CastStringToInt(benchmark::State& state) { RunExpression(state, "CAST(n AS INT)"); }

/// The same filter as BM_Filter as one hand-written loop.
void BM_FilterBaseline(benchmark::State& state) {
  const BatchPtr& batch = Data();
  const int64_t* a = batch->column(0)->values<int64_t>();
  const double* b = batch->column(1)->values<double>();
  std::vector<uint8_t> out(kRows);
  for (auto _ : state) {
    for (int64_t i = 0; i < kRows; ++i) out[static_cast<size_t>(i)] = a[i] > 500 && b[i] < 0.5;
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

BENCHMARK(BM_Filter);
BENCHMARK(BM_FilterBaseline);
BENCHMARK(BM_Arithmetic);
BENCHMARK(BM_StringEquals);
BENCHMARK(BM_Upper);
BENCHMARK(BM_CastStringToInt);

}  // namespace
}  // namespace epoxy::expr

BENCHMARK_MAIN();
