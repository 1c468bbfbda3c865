// SPDX-License-Identifier: Apache-2.0
// Reader throughput: CSV and JSON Lines parsed into batches, at 1 and 2 threads. Reports bytes/s;
// divide by the thread count for MB/s per thread.
#include <filesystem>
#include <fstream>
#include <random>

#include <benchmark/benchmark.h>

#include "epoxy/format/record_reader.h"
#include "epoxy/storage/glob.h"

namespace epoxy {
namespace {

/// Rows shaped like ../shared/bench/gen.py's clickstream data.
std::string MakeData(bool json, int64_t target_bytes) {
  std::mt19937_64 rng(42);
  const char* pages[] = {"/home", "/cart", "/product", "/search", "/checkout"};
  std::string out = json ? "" : "event_id,user_id,ts,page,referrer,amount,country\n";
  char line[512];
  while (static_cast<int64_t>(out.size()) < target_bytes) {
    uint64_t id = rng();
    long long user = 4300000000LL + static_cast<long long>(rng() % 2000000);
    int sec = static_cast<int>(rng() % 86400);
    const char* page = pages[rng() % 5];
    double amount = (rng() % 100 < 45) ? 0.0 : (rng() % 100000) / 100.0;
    if (json) {
      std::snprintf(line, sizeof(line),
                    "{\"event_id\":\"%016llx\",\"user_id\":%lld,\"ts\":\"2024-01-01T%02d:%02d:%02d.000Z\","
                    "\"page\":\"%s\",\"referrer\":null,\"amount\":%.2f,\"country\":\"US\","
                    "\"device\":{\"os\":\"ios\",\"version\":\"17\"},\"items\":[{\"sku\":\"SKU-1\",\"qty\":1}]}\n",
                    static_cast<unsigned long long>(id), user, sec / 3600, sec / 60 % 60, sec % 60,
                    page, amount);
    } else {
      std::snprintf(line, sizeof(line), "%016llx,%lld,2024-01-01T%02d:%02d:%02d.000Z,%s,,%.2f,US\n",
                    static_cast<unsigned long long>(id), user, sec / 3600, sec / 60 % 60, sec % 60,
                    page, amount);
    }
    out += line;
  }
  return out;
}

std::string WriteData(bool json) {
  std::string path = (std::filesystem::temp_directory_path() /
                      (json ? "epoxy-bench-reader.jsonl" : "epoxy-bench-reader.csv")).string();
  if (!std::filesystem::exists(path)) {
    std::ofstream(path, std::ios::binary) << MakeData(json, 256 << 20);
  }
  return path;
}

void ReadAll(benchmark::State& state, FileFormat format, bool json) {
  std::string path = WriteData(json);
  auto files = *ExpandPaths({path});
  ThreadPool pool(static_cast<int>(state.range(0)));
  int64_t rows = 0;
  for (auto _ : state) {
    ErrorSink errors;
    ReadOptions options;
    options.pool = &pool;
    options.errors = &errors;
    auto reader = *MakeRecordReader(format, files, options);
    while (true) {
      auto batch = *reader->Next();
      if (batch == nullptr) break;
      rows += batch->num_rows();
    }
  }
  state.SetBytesProcessed(state.iterations() * files[0].size);
  state.counters["rows"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
}

void BM_ReadCsv(benchmark::State& state) { ReadAll(state, FileFormat::kCsv, false); }
void BM_ReadJsonLines(benchmark::State& state) { ReadAll(state, FileFormat::kJson, true); }

BENCHMARK(BM_ReadCsv)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadJsonLines)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace epoxy

BENCHMARK_MAIN();
