// SPDX-License-Identifier: Apache-2.0
// A table of 1,000,000 partitions (year/month/day): adding them in batches of 100, and selective
// GetPartitions expressions answered inside the store.
#include <filesystem>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "epoxy/catalog/sqlite/sqlite_catalog_store.h"

namespace epoxy::catalog {
namespace {

std::unique_ptr<CatalogStore> BigCatalog(int64_t partitions) {
  std::string path = (std::filesystem::temp_directory_path() / fmt::format("epoxy-bench-catalog-{}.db", partitions)).string();
  bool fresh = !std::filesystem::exists(path);
  auto store = std::move(*OpenSqliteCatalog(path));
  if (fresh) {
    (void)store->CreateDatabase(Json{{"Name", "bench"}});
    Json keys = Json::array({{{"Name", "year"}, {"Type", "string"}}, {{"Name", "month"}, {"Type", "string"}},
                             {{"Name", "day"}, {"Type", "string"}}});
    (void)store->CreateTable("bench", Json{{"Name", "t"}, {"PartitionKeys", keys}});
    std::vector<Json> batch;
    for (int64_t i = 0; i < partitions; ++i) {
      batch.push_back(Json{{"Values", {fmt::format("{}", 1000 + i / 372), fmt::format("{:02}", i / 31 % 12 + 1),
                                       fmt::format("{:02}", i % 31 + 1)}}});
      if (batch.size() == 100) {
        (void)store->BatchCreatePartition("bench", "t", batch);
        batch.clear();
      }
    }
    if (!batch.empty()) (void)store->BatchCreatePartition("bench", "t", batch);
  }
  return store;
}

void BM_AddPartitionsInBatchesOf100(benchmark::State& state) {
  for (auto _ : state) {
    std::string path = (std::filesystem::temp_directory_path() / "epoxy-bench-catalog-add.db").string();
    std::filesystem::remove(path);
    auto store = std::move(*OpenSqliteCatalog(path));
    (void)store->CreateDatabase(Json{{"Name", "bench"}});
    (void)store->CreateTable("bench", Json{{"Name", "t"}, {"PartitionKeys", Json::array({{{"Name", "k"}, {"Type", "string"}}})}});
    for (int64_t b = 0; b < state.range(0) / 100; ++b) {
      std::vector<Json> batch;
      for (int i = 0; i < 100; ++i) batch.push_back(Json{{"Values", {std::to_string(b * 100 + i)}}});
      (void)store->BatchCreatePartition("bench", "t", batch);
    }
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_SelectivePartitionQuery(benchmark::State& state) {
  auto store = BigCatalog(1000000);
  int64_t found = 0;
  for (auto _ : state) {
    auto page = store->GetPartitions("bench", "t", "year = '1500' AND month = '06' AND day >= '10'", "", 1000);
    found = static_cast<int64_t>(page->items.size());
  }
  state.counters["partitions"] = static_cast<double>(found);
}

BENCHMARK(BM_AddPartitionsInBatchesOf100)->Arg(100000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_SelectivePartitionQuery)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace epoxy::catalog

BENCHMARK_MAIN();
