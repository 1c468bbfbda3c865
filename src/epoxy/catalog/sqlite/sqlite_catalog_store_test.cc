// SPDX-License-Identifier: Apache-2.0
#include "epoxy/catalog/sqlite/sqlite_catalog_store.h"

#include <sqlite3.h>

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "epoxy/testing/test_util.h"

namespace epoxy::catalog {
namespace {

using ::epoxy::testing::TempDir;

Json TableInput(const std::string& name, Json keys = Json::array({{{"Name", "dt"}, {"Type", "string"}}})) {
  return Json{{"Name", name},
              {"StorageDescriptor", {{"Columns", {{{"Name", "id"}, {"Type", "bigint"}}}}, {"Location", "/data/" + name}}},
              {"PartitionKeys", keys},
              {"Parameters", {{"classification", "json"}}}};
}

class CatalogStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = OpenSqliteCatalog(dir_.path() + "/catalog.db");
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
    ASSERT_OK(store_->CreateDatabase(Json{{"Name", "Raw"}}));
  }

  std::vector<std::string> PartitionValues(const std::string& expression) {
    std::vector<std::string> out;
    std::string token;
    do {
      auto page = store_->GetPartitions("raw", "events", expression, token, 2);
      EXPECT_TRUE(page.ok()) << page.status().ToString();
      if (!page.ok()) break;
      for (const auto& p : page->items) out.push_back(p["Values"][0].get<std::string>() + (p["Values"].size() > 1 ? "/" + p["Values"][1].get<std::string>() : ""));
      token = page->next_token;
    } while (!token.empty());
    return out;
  }

  TempDir dir_;
  std::unique_ptr<CatalogStore> store_;
};

TEST_F(CatalogStoreTest, DatabasesAreLowerCasedAndUnique) {
  auto db = store_->GetDatabase("RAW");
  ASSERT_TRUE(db.ok());
  EXPECT_EQ((*db)["Name"], "raw");
  EXPECT_TRUE((*db)["CreateTime"].is_number());
  EXPECT_EQ(store_->CreateDatabase(Json{{"Name", "raw"}}).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->GetDatabase("nope").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->CreateDatabase(Json{{"Name", ""}}).code(), StatusCode::kInvalidInput);
  EXPECT_EQ(store_->CreateDatabase(Json{{"Name", std::string(256, 'a')}}).code(), StatusCode::kInvalidInput);
  EXPECT_EQ(store_->CreateDatabase(Json{{"Name", "two\nlines"}}).code(), StatusCode::kInvalidInput);
  EXPECT_EQ(GlueErrorName(store_->GetDatabase("nope").status()), "EntityNotFoundException");
}

TEST_F(CatalogStoreTest, PaginationVisitsEveryItemOnce) {
  for (int i = 0; i < 25; ++i) ASSERT_OK(store_->CreateDatabase(Json{{"Name", "db" + std::to_string(100 + i)}}));
  std::vector<std::string> names;
  std::string token;
  int pages = 0;
  do {
    auto page = store_->GetDatabases(token, 10);
    ASSERT_TRUE(page.ok());
    for (const auto& d : page->items) names.push_back(d["Name"]);
    token = page->next_token;
    ++pages;
  } while (!token.empty());
  EXPECT_EQ(names.size(), 26u);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(store_->GetDatabases("zz-not-hex", 10).status().code(), StatusCode::kInvalidInput);
}

TEST_F(CatalogStoreTest, TablesKeepVersions) {
  ASSERT_OK(store_->CreateTable("raw", TableInput("Events")));
  EXPECT_EQ(store_->CreateTable("raw", TableInput("events")).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->CreateTable("nope", TableInput("events")).code(), StatusCode::kNotFound);
  Json updated = TableInput("events");
  updated["StorageDescriptor"]["Columns"][0]["Type"] = "string";
  ASSERT_OK(store_->UpdateTable("raw", updated, false));
  auto table = store_->GetTable("raw", "events");
  ASSERT_TRUE(table.ok());
  EXPECT_EQ((*table)["VersionId"], "2");
  EXPECT_EQ((*table)["StorageDescriptor"]["Columns"][0]["Type"], "string");
  auto versions = store_->GetTableVersions("raw", "events", "", 100);
  ASSERT_TRUE(versions.ok());
  ASSERT_EQ(versions->items.size(), 2u);
  EXPECT_EQ(versions->items[0]["VersionId"], "1");  // oldest first, the current one included
  EXPECT_EQ(versions->items[0]["Table"]["StorageDescriptor"]["Columns"][0]["Type"], "bigint");
  EXPECT_EQ(versions->items[1]["VersionId"], "2");
  EXPECT_EQ(store_->DeleteTableVersion("raw", "events", "2").code(), StatusCode::kInvalidInput);  // current
  ASSERT_OK(store_->DeleteTableVersion("raw", "events", "1"));
  EXPECT_EQ(store_->GetTableVersions("raw", "events", "", 100)->items.size(), 1u);
  Json bad = TableInput("events");
  bad["StorageDescriptor"]["Columns"][0]["Type"] = "bigintt";
  Status st = store_->UpdateTable("raw", bad, false);
  EXPECT_EQ(st.code(), StatusCode::kInvalidInput);
  EXPECT_EQ((*store_->GetTable("raw", "events"))["VersionId"], "2");  // unchanged
}

TEST_F(CatalogStoreTest, PartitionsFilterInsideTheStore) {
  Json keys = Json::array({{{"Name", "dt"}, {"Type", "string"}}, {{"Name", "hour"}, {"Type", "int"}}});
  ASSERT_OK(store_->CreateTable("raw", TableInput("events", keys)));
  std::vector<Json> inputs;
  for (int d = 1; d <= 3; ++d) {
    for (int h : {1, 9, 10, 23}) inputs.push_back(Json{{"Values", {fmt::format("2026-08-{:02}", d), std::to_string(h)}}});
  }
  inputs.push_back(Json{{"Values", {"2026-08-01"}}});              // wrong count
  inputs.push_back(Json{{"Values", {"2026-08-01", "1"}}});         // duplicate
  auto errors = store_->BatchCreatePartition("raw", "events", inputs);
  ASSERT_TRUE(errors.ok());
  ASSERT_EQ(errors->size(), 2u);
  EXPECT_EQ((*errors)[0]["ErrorDetail"]["ErrorCode"], "InvalidInputException");
  EXPECT_EQ((*errors)[1]["ErrorDetail"]["ErrorCode"], "AlreadyExistsException");
  EXPECT_EQ(PartitionValues("").size(), 12u);
  // Integer keys compare as numbers ('9' < '10'), strings lexicographically.
  EXPECT_EQ(PartitionValues("dt = '2026-08-02' AND hour > 9"),
            (std::vector<std::string>{"2026-08-02/10", "2026-08-02/23"}));
  EXPECT_EQ(PartitionValues("hour BETWEEN 9 AND 10 AND dt IN ('2026-08-03')"),
            (std::vector<std::string>{"2026-08-03/9", "2026-08-03/10"}));
  EXPECT_EQ(PartitionValues("dt LIKE '%01' AND NOT hour < 23"), (std::vector<std::string>{"2026-08-01/23"}));
  auto one = store_->GetPartition("raw", "events", {"2026-08-03", "9"});
  ASSERT_TRUE(one.ok());
  EXPECT_EQ((*one)["TableName"], "events");
  ASSERT_OK(store_->DeletePartition("raw", "events", {"2026-08-03", "9"}));
  EXPECT_EQ(store_->GetPartition("raw", "events", {"2026-08-03", "9"}).status().code(), StatusCode::kNotFound);
  // Segments split the partitions without overlap.
  size_t total = 0;
  for (int s = 0; s < 3; ++s) total += store_->GetPartitions("raw", "events", "", "", 1000, s, 3)->items.size();
  EXPECT_EQ(total, 11u);
  EXPECT_EQ(store_->GetPartitions("raw", "events", "", "", 10, 3, 3).status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(store_->GetPartitions("raw", "events", "color = 'x'", "", 10).status().code(), StatusCode::kInvalidInput);
}

TEST_F(CatalogStoreTest, DeletingCascades) {
  ASSERT_OK(store_->CreateTable("raw", TableInput("events")));
  ASSERT_TRUE(store_->BatchCreatePartition("raw", "events", {Json{{"Values", {"a"}}}}).ok());
  ASSERT_OK(store_->DeleteDatabase("raw"));
  EXPECT_EQ(store_->GetTable("raw", "events").status().code(), StatusCode::kNotFound);
  ASSERT_OK(store_->CreateDatabase(Json{{"Name", "raw"}}));
  ASSERT_OK(store_->CreateTable("raw", TableInput("events")));
  EXPECT_TRUE(store_->GetPartitions("raw", "events", "", "", 10)->items.empty());
}

TEST_F(CatalogStoreTest, ClassifiersKeepGlueShapeAndVersions) {
  Json csv = {{"CsvClassifier", {{"Name", "pipes"}, {"Delimiter", "|"}, {"ContainsHeader", "PRESENT"}}}};
  ASSERT_OK(store_->CreateClassifier(csv));
  EXPECT_EQ(store_->CreateClassifier(csv).code(), StatusCode::kAlreadyExists);
  auto got = store_->GetClassifier("pipes");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ((*got)["CsvClassifier"]["Delimiter"], "|");
  EXPECT_EQ((*got)["CsvClassifier"]["Version"], 1);
  csv["CsvClassifier"]["Delimiter"] = ";";
  ASSERT_OK(store_->UpdateClassifier(csv));
  got = store_->GetClassifier("pipes");
  EXPECT_EQ((*got)["CsvClassifier"]["Delimiter"], ";");
  EXPECT_EQ((*got)["CsvClassifier"]["Version"], 2);
  // The kind of a classifier does not change, and a missing one cannot be updated.
  Json json = {{"JsonClassifier", {{"Name", "pipes"}, {"JsonPath", "$[*]"}}}};
  EXPECT_EQ(store_->UpdateClassifier(json).code(), StatusCode::kInvalidInput);
  json["JsonClassifier"]["Name"] = "arrays";
  EXPECT_EQ(store_->UpdateClassifier(json).code(), StatusCode::kNotFound);
  ASSERT_OK(store_->CreateClassifier(json));
  auto all = store_->GetClassifiers();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_TRUE((*all)[0].contains("JsonClassifier"));
  ASSERT_OK(store_->DeleteClassifier("arrays"));
  EXPECT_EQ(store_->GetClassifier("arrays").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->DeleteClassifier("arrays").code(), StatusCode::kNotFound);
  // Shapes that are not a classifier are refused with what is wrong.
  EXPECT_EQ(store_->CreateClassifier(Json{{"OrcClassifier", {{"Name", "x"}}}}).code(), StatusCode::kInvalidInput);
  EXPECT_EQ(store_->CreateClassifier(Json{{"CsvClassifier", {{"Delimiter", ","}}}}).code(), StatusCode::kInvalidInput);
  EXPECT_EQ(store_->CreateClassifier(Json::array()).code(), StatusCode::kInvalidInput);
}

TEST(CatalogFileTest, CorruptAndNewerCatalogsAreRefused) {
  TempDir dir;
  std::string garbage = dir.Write("garbage.db", std::string(8192, 'x'));
  auto st = OpenSqliteCatalog(garbage).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidData);
  EXPECT_NE(st.message().find("not an epoxy catalog"), std::string::npos) << st.ToString();
  std::string path = dir.path() + "/catalog.db";
  { ASSERT_TRUE(OpenSqliteCatalog(path).ok()); }
  {
    // Pretend a newer epoxy wrote it.
    sqlite3* db;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE epoxy_meta SET value = '99' WHERE key = 'schema_version'", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  auto newer = OpenSqliteCatalog(path).status();
  EXPECT_EQ(newer.code(), StatusCode::kNotSupported);
  EXPECT_NE(newer.message().find("newer epoxy"), std::string::npos);
}

}  // namespace
}  // namespace epoxy::catalog
