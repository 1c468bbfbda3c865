// SPDX-License-Identifier: Apache-2.0
// Scans with Glue's source options: exclusions, recurse, push_down_predicate and
// catalogPartitionPredicate.
#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "epoxy/catalog/sqlite/sqlite_catalog_store.h"
#include "epoxy/exec/executor.h"
#include "epoxy/expr/parser.h"
#include "epoxy/plan/source.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::exec {
namespace {

struct Outcome {
  std::vector<std::string> rows;
  RunMetrics metrics;
};

Outcome RunPlan(const plan::PlanPtr& plan, catalog::CatalogStore* store = nullptr) {
  Outcome out;
  ExecOptions options;
  options.catalog = store;
  auto metrics = Execute(plan, [&](const BatchPtr& b) {
    for (auto& line : testing::ToJsonLines(*b)) out.rows.push_back(line);
    return Status::OK();
  }, options);
  EXPECT_TRUE(metrics.ok()) << metrics.status().ToString();
  if (metrics.ok()) out.metrics = *metrics;
  return out;
}

class ScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("t/dt=1/a.json", "{\"id\": 1}\n");
    dir_.Write("t/dt=1/skip.json", "{\"id\": 100}\n");
    dir_.Write("t/dt=1/deeper/b.json", "{\"id\": 2}\n");
    dir_.Write("t/dt=2/a.json", "{\"id\": 3}\n");
  }
  plan::PlanPtr ScanOf(plan::ScanSource source) { return *plan::Scan(std::move(source)); }
  testing::TempDir dir_;
};

TEST_F(ScanTest, ExclusionsAndRecurse) {
  auto source = plan::ResolveFileSource(FileFormat::kJson, dir_.path() + "/t");
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  plan::ScanSource s = *source;
  EXPECT_EQ(RunPlan(ScanOf(s)).rows.size(), 4u);
  s.exclusions = {"**/skip.json"};
  EXPECT_EQ(RunPlan(ScanOf(s)).rows, (std::vector<std::string>{"{\"id\":1,\"dt\":1}", "{\"id\":2,\"dt\":1}", "{\"id\":3,\"dt\":2}"}));
  s.recurse = false;
  EXPECT_EQ(RunPlan(ScanOf(s)).rows, (std::vector<std::string>{"{\"id\":1,\"dt\":1}", "{\"id\":3,\"dt\":2}"}));
}

TEST(PartitionDiscoveryTest, TheFirstPartitionSetsTheLayout) {
  testing::TempDir dir;
  dir.Write("t/year=2024/month=1/a.json", "{}\n");
  dir.Write("t/year=2024/month=2/a.json", "{}\n");
  dir.Write("t/year=2024/month=2/day=9/a.json", "{}\n");  // deeper than the layout: not a partition
  dir.Write("t/year=2025/month=__HIVE_DEFAULT_PARTITION__/a.json", "{}\n");
  dir.Write("t/year=2025/other=1/a.json", "{}\n");  // another key at the second level: skipped
  dir.Write("t/_temporary/x/a.json", "{}\n");
  std::vector<std::string> keys;
  auto found = plan::DiscoverPartitions(dir.path() + "/t", &keys);
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(keys, (std::vector<std::string>{"year", "month"}));
  std::vector<std::string> seen;
  for (const auto& p : *found) {
    std::string line = p.path.substr(dir.path().size());
    for (const auto& v : p.values) line += " " + v.value_or("null");
    seen.push_back(line);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"/t/year=2024/month=1 2024 1", "/t/year=2024/month=2 2024 2",
                                            "/t/year=2025/month=__HIVE_DEFAULT_PARTITION__ 2025 null"}));
}

TEST_F(ScanTest, PushDownPredicateUsesPartitionColumnsOnly) {
  auto source = plan::ResolveFileSource(FileFormat::kJson, dir_.path() + "/t");
  ASSERT_TRUE(source.ok());
  plan::PlanPtr scan = ScanOf(*source);
  auto pruned = plan::PushDownPredicate(scan, *expr::ParseExpression("dt = 2"));
  ASSERT_TRUE(pruned.ok()) << pruned.status().ToString();
  Outcome out = RunPlan(*pruned);
  EXPECT_EQ(out.rows, (std::vector<std::string>{"{\"id\":3,\"dt\":2}"}));
  EXPECT_EQ(out.metrics.partitions_pruned, 1);
  EXPECT_EQ(out.metrics.files_listed, 1);
  auto wrong = plan::PushDownPredicate(scan, *expr::ParseExpression("id > 1 AND dt = 2"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message(), "push_down_predicate may only use partition columns (dt); 'id' is not one");
}

TEST_F(ScanTest, CatalogPartitionPredicateFiltersInTheStore) {
  auto store = catalog::OpenSqliteCatalog(dir_.path() + "/catalog.db");
  ASSERT_TRUE(store.ok());
  ASSERT_OK((*store)->CreateDatabase(nlohmann::json{{"Name", "db"}}));
  nlohmann::json table = {{"Name", "t"},
                          {"StorageDescriptor", {{"Columns", {{{"Name", "id"}, {"Type", "bigint"}}}}, {"Location", dir_.path() + "/t/"}}},
                          {"PartitionKeys", {{{"Name", "dt"}, {"Type", "string"}}}},
                          {"Parameters", {{"classification", "json"}}}};
  ASSERT_OK((*store)->CreateTable("db", table));
  std::vector<nlohmann::json> partitions;
  for (const char* v : {"1", "2"}) {
    partitions.push_back({{"Values", {v}}, {"StorageDescriptor", {{"Location", dir_.path() + "/t/dt=" + v + "/"}}}});
  }
  ASSERT_TRUE((*store)->BatchCreatePartition("db", "t", partitions).ok());
  auto source = plan::ResolveCatalogSource(**store, "db", "t");
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  source->catalog_partition_predicate = "dt = '1'";
  source->exclusions = {"**/skip.json"};
  Outcome out = RunPlan(ScanOf(*source), store->get());
  EXPECT_EQ(out.rows, (std::vector<std::string>{"{\"id\":1,\"dt\":\"1\"}", "{\"id\":2,\"dt\":\"1\"}"}));
  EXPECT_EQ(out.metrics.partitions_listed, 1) << "the store returned only the matching partition";
}

}  // namespace
}  // namespace epoxy::exec
