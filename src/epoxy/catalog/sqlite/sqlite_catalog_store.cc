// SPDX-License-Identifier: Apache-2.0
// SqliteCatalogStore.
#include "epoxy/catalog/sqlite/sqlite_catalog_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <mutex>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/partition_expression.h"
#include "epoxy/catalog/sqlite/sqlite_statement_internal.h"
#include "epoxy/types/data_type.h"

namespace epoxy::catalog {
namespace {

constexpr int kSchemaVersion = 6;

const char* kMigrations[] = {
    // version 1
    R"(CREATE TABLE databases(name TEXT PRIMARY KEY, doc TEXT NOT NULL);
       CREATE TABLE tables(db TEXT NOT NULL, name TEXT NOT NULL, doc TEXT NOT NULL,
                           version INTEGER NOT NULL, PRIMARY KEY(db, name));
       CREATE TABLE table_versions(db TEXT NOT NULL, name TEXT NOT NULL, version INTEGER NOT NULL,
                                   doc TEXT NOT NULL, PRIMARY KEY(db, name, version));
       CREATE TABLE partitions(id INTEGER PRIMARY KEY AUTOINCREMENT, db TEXT NOT NULL,
                               tbl TEXT NOT NULL, vals TEXT NOT NULL, doc TEXT NOT NULL,
                               v0 TEXT, v1 TEXT, v2 TEXT, v3 TEXT, v4 TEXT, v5 TEXT, v6 TEXT,
                               v7 TEXT, v8 TEXT, v9 TEXT, UNIQUE(db, tbl, vals));
       CREATE INDEX partitions_by_values ON partitions(db, tbl, v0, v1, v2, v3);)",
    // version 2: crawlers
    R"(CREATE TABLE crawlers(name TEXT PRIMARY KEY, doc TEXT NOT NULL);
       CREATE TABLE crawls(id INTEGER PRIMARY KEY AUTOINCREMENT, crawler TEXT NOT NULL, doc TEXT NOT NULL);
       CREATE TABLE crawled_folders(crawler TEXT NOT NULL, folder TEXT NOT NULL, PRIMARY KEY(crawler, folder));)",
    // version 3: custom classifiers
    R"(CREATE TABLE classifiers(name TEXT PRIMARY KEY, doc TEXT NOT NULL);)",
    // version 4: jobs, runs and bookmarks (see job_store.h)
    kJobTablesMigration,
    // version 5: connections
    R"(CREATE TABLE connections(name TEXT PRIMARY KEY, doc TEXT NOT NULL);)",
    // version 6: other API objects (tags, functions, statistics, indexes, access keys)
    R"(CREATE TABLE objects(kind TEXT NOT NULL, key TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY(kind, key));)",
};

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Opaque page tokens: the last id or name seen, hex-encoded.
std::string EncodeToken(const std::string& raw) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

Result<std::string> DecodeToken(const std::string& token) {
  if (token.size() % 2 != 0) return Status::InvalidInput("invalid NextToken");
  std::string out;
  for (size_t i = 0; i < token.size(); i += 2) {
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      return -1;
    };
    int hi = hex(token[i]), lo = hex(token[i + 1]);
    if (hi < 0 || lo < 0) return Status::InvalidInput("invalid NextToken");
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

/// epoxy_partition_key(KIND, value): a stored partition value typed as its key declares, for
/// GetPartitions expressions. A value that is not of its key's type fails the query with Glue's
/// InvalidStateException.
void TypedPartitionKey(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[1]) == SQLITE_NULL) {
    sqlite3_result_null(context);
    return;
  }
  auto text = [](sqlite3_value* v) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
    return std::string_view(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
  };
  auto typed = ParseTypedKeyValue(text(args[0]), text(args[1]));
  if (!typed.ok()) {
    const std::string message = "InvalidStateException: " + typed.status().message();
    sqlite3_result_error(context, message.c_str(), static_cast<int>(message.size()));
    return;
  }
  switch (typed->kind) {
    case TypedKeyValue::Kind::kInteger: sqlite3_result_int64(context, typed->integer); break;
    case TypedKeyValue::Kind::kReal: sqlite3_result_double(context, typed->real); break;
    case TypedKeyValue::Kind::kText:
      sqlite3_result_text(context, typed->text.c_str(), static_cast<int>(typed->text.size()), SQLITE_TRANSIENT);
      break;
  }
}

class SqliteCatalogStore final : public CatalogStore {
 public:
  SqliteCatalogStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteCatalogStore() override { sqlite3_close_v2(db_); }

  Status Init() {
    // Writers wait for each other up to this long (EPOXY_CATALOG_BUSY_TIMEOUT_MS, default 30 s).
    const char* env = std::getenv("EPOXY_CATALOG_BUSY_TIMEOUT_MS");
    long busy_ms = env ? std::atol(env) : 30000;
    EPOXY_RETURN_NOT_OK(Exec(fmt::format("PRAGMA busy_timeout = {}", busy_ms > 0 ? busy_ms : 30000)));
    // Reading the schema first tells a corrupt or foreign file apart before anything is written.
    int64_t version = 0;
    {
      Stmt check(db_, "SELECT count(*) FROM sqlite_master");
      if (!check.ok().ok() || check.Step() != SQLITE_ROW) {
        return Status::InvalidData("'{}' is not an epoxy catalog (or is corrupt): {}", path_, sqlite3_errmsg(db_));
      }
    }
    EPOXY_RETURN_NOT_OK(Exec("PRAGMA journal_mode = WAL"));
    EPOXY_RETURN_NOT_OK(Exec("PRAGMA case_sensitive_like = ON"));
    if (sqlite3_create_function_v2(db_, kPartitionKeyFunction, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                   &TypedPartitionKey, nullptr, nullptr, nullptr) != SQLITE_OK) {
      return Error("registering the partition key function");
    }
    EPOXY_RETURN_NOT_OK(Exec("PRAGMA synchronous = NORMAL"));
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_RETURN_NOT_OK(Exec("CREATE TABLE IF NOT EXISTS epoxy_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"));
      Stmt get(db_, "SELECT value FROM epoxy_meta WHERE key = 'schema_version'");
      EPOXY_RETURN_NOT_OK(get.ok());
      if (get.Step() == SQLITE_ROW) version = std::atoll(get.Text(0).c_str());
      if (version > kSchemaVersion) {
        return Status::NotSupported(
            "catalog '{}' was written by a newer epoxy (schema version {}; this epoxy knows up to {})",
            path_, version, kSchemaVersion);
      }
      for (int64_t v = version; v < kSchemaVersion; ++v) EPOXY_RETURN_NOT_OK(Exec(kMigrations[v]));
      Stmt set(db_, "INSERT OR REPLACE INTO epoxy_meta(key, value) VALUES('schema_version', ?)");
      EPOXY_RETURN_NOT_OK(set.ok());
      set.Bind(1, std::to_string(kSchemaVersion));
      if (set.Step() != SQLITE_DONE) return Error("recording the schema version");
      return Status::OK();
    }();
    return Finish(st);
  }

  Status CreateDatabase(const Json& input) override {
    if (!input.is_object() || !input.contains("Name") || !input["Name"].is_string()) {
      return Status::InvalidInput("DatabaseInput needs a Name");
    }
    std::string name = Lower(input["Name"].get<std::string>());
    EPOXY_RETURN_NOT_OK(ValidateName("database", name));
    Json doc = input;
    doc["Name"] = name;
    doc["CreateTime"] = Now();
    if (!doc.contains("Parameters")) doc["Parameters"] = Json::object();
    std::lock_guard lock(mu_);
    Stmt insert(db_, "INSERT INTO databases(name, doc) VALUES(?, ?)");
    EPOXY_RETURN_NOT_OK(insert.ok());
    insert.Bind(1, name).Bind(2, doc.dump());
    int rc = insert.Step();
    if (rc == SQLITE_CONSTRAINT) return Status::AlreadyExists("database {} already exists", name);
    if (rc != SQLITE_DONE) return Error("creating database " + name);
    return Status::OK();
  }

  Result<Json> GetDatabase(const std::string& raw) override {
    std::string name = Lower(raw);
    std::lock_guard lock(mu_);
    Stmt get(db_, "SELECT doc FROM databases WHERE name = ?");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, name);
    int rc = get.Step();
    if (rc == SQLITE_ROW) return Json::parse(get.Text(0));
    if (rc == SQLITE_DONE) return Status::NotFound("database {} not found", name);
    return Error("reading database " + name);
  }

  Result<Page> GetDatabases(const std::string& token, int max) override {
    EPOXY_ASSIGN_OR_RETURN(std::string after, DecodeToken(token));
    max = ClampMax(max, 100);
    std::lock_guard lock(mu_);
    Stmt list(db_, "SELECT name, doc FROM databases WHERE name > ? ORDER BY name LIMIT ?");
    EPOXY_RETURN_NOT_OK(list.ok());
    list.Bind(1, after).Bind(2, max + 1);
    return ReadPage(list, max, "listing databases");
  }

  Status DeleteDatabase(const std::string& raw) override {
    std::string name = Lower(raw);
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM databases WHERE name = ?", {name}));
      if (sqlite3_changes(db_) == 0) return Status::NotFound("database {} not found", name);
      EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM tables WHERE db = ?", {name}));
      EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM table_versions WHERE db = ?", {name}));
      return ExecBound("DELETE FROM partitions WHERE db = ?", {name});
    }();
    return Finish(st);
  }

  Status CreateTable(const std::string& raw_db, const Json& input) override {
    std::string db = Lower(raw_db);
    EPOXY_ASSIGN_OR_RETURN(Json doc, CheckTableInput(db, input));
    doc["CreateTime"] = doc["UpdateTime"] = Now();
    doc["VersionId"] = "1";
    std::string name = doc["Name"].get<std::string>();
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_RETURN_NOT_OK(RequireDatabase(db));
      Stmt insert(db_, "INSERT INTO tables(db, name, doc, version) VALUES(?, ?, ?, 1)");
      EPOXY_RETURN_NOT_OK(insert.ok());
      insert.Bind(1, db).Bind(2, name).Bind(3, doc.dump());
      int rc = insert.Step();
      if (rc == SQLITE_CONSTRAINT) return Status::AlreadyExists("table {}.{} already exists", db, name);
      if (rc != SQLITE_DONE) return Error("creating table " + name);
      return ExecBound("INSERT INTO table_versions(db, name, version, doc) VALUES(?, ?, 1, ?)", {db, name, doc.dump()});
    }();
    return Finish(st);
  }

  Result<Json> GetTable(const std::string& raw_db, const std::string& raw_name) override {
    std::lock_guard lock(mu_);
    return GetTableLocked(Lower(raw_db), Lower(raw_name));
  }

  Result<Page> GetTables(const std::string& raw_db, const std::string& token, int max) override {
    std::string db = Lower(raw_db);
    EPOXY_ASSIGN_OR_RETURN(std::string after, DecodeToken(token));
    max = ClampMax(max, 100);
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(RequireDatabase(db));
    Stmt list(db_, "SELECT name, doc FROM tables WHERE db = ? AND name > ? ORDER BY name LIMIT ?");
    EPOXY_RETURN_NOT_OK(list.ok());
    list.Bind(1, db).Bind(2, after).Bind(3, max + 1);
    return ReadPage(list, max, "listing tables");
  }

  Status UpdateTable(const std::string& raw_db, const Json& input, bool skip_archive,
                     const std::string& expected_version) override {
    std::string db = Lower(raw_db);
    EPOXY_ASSIGN_OR_RETURN(Json doc, CheckTableInput(db, input));
    std::string name = doc["Name"].get<std::string>();
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(Json old, GetTableLocked(db, name));
      if (!expected_version.empty() && expected_version != old.value("VersionId", "1")) {
        return Status::InvalidInput("ConcurrentModificationException: table {}.{} is at version {}, not {}", db, name,
                                    old.value("VersionId", "1"), expected_version);
      }
      int64_t version = std::atoll(old.value("VersionId", "1").c_str());
      int64_t next = skip_archive ? version : version + 1;
      doc["CreateTime"] = old.value("CreateTime", Now());
      doc["UpdateTime"] = Now();
      doc["VersionId"] = std::to_string(next);
      EPOXY_RETURN_NOT_OK(ExecBound("UPDATE tables SET doc = ?, version = ? WHERE db = ? AND name = ?",
                                    {doc.dump(), std::to_string(next), db, name}));
      return ExecBound("INSERT OR REPLACE INTO table_versions(db, name, version, doc) VALUES(?, ?, ?, ?)",
                       {db, name, std::to_string(next), doc.dump()});
    }();
    return Finish(st);
  }

  Status DeleteTable(const std::string& raw_db, const std::string& raw_name) override {
    std::string db = Lower(raw_db), name = Lower(raw_name);
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM tables WHERE db = ? AND name = ?", {db, name}));
      if (sqlite3_changes(db_) == 0) return Status::NotFound("table {}.{} not found", db, name);
      EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM table_versions WHERE db = ? AND name = ?", {db, name}));
      return ExecBound("DELETE FROM partitions WHERE db = ? AND tbl = ?", {db, name});
    }();
    return Finish(st);
  }

  Result<Page> GetTableVersions(const std::string& raw_db, const std::string& raw_name,
                                const std::string& token, int max) override {
    std::string db = Lower(raw_db), name = Lower(raw_name);
    EPOXY_ASSIGN_OR_RETURN(std::string after, DecodeToken(token));
    max = ClampMax(max, 100);
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(GetTableLocked(db, name).status());
    Stmt list(db_, "SELECT version, doc FROM table_versions WHERE db = ? AND name = ? AND version > ? "
                   "ORDER BY version LIMIT ?");
    EPOXY_RETURN_NOT_OK(list.ok());
    list.Bind(1, db).Bind(2, name).Bind(3, after.empty() ? int64_t{0} : std::atoll(after.c_str())).Bind(4, max + 1);
    return ReadPage(list, max, "listing table versions", [](const Stmt& row) {
      return Json{{"Table", Json::parse(row.Text(1))}, {"VersionId", std::to_string(row.Int(0))}};
    });
  }

  Status DeleteTableVersion(const std::string& raw_db, const std::string& raw_name,
                            const std::string& version_id) override {
    std::string db = Lower(raw_db), name = Lower(raw_name);
    std::lock_guard lock(mu_);
    EPOXY_ASSIGN_OR_RETURN(Json table, GetTableLocked(db, name));
    if (table.value("VersionId", "") == version_id) {
      return Status::InvalidInput("version {} is the current version of {}.{} and cannot be deleted",
                                  version_id, db, name);
    }
    EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM table_versions WHERE db = ? AND name = ? AND version = ?",
                                  {db, name, version_id}));
    if (sqlite3_changes(db_) == 0) return Status::NotFound("version {} of {}.{} not found", version_id, db, name);
    return Status::OK();
  }

  Result<std::vector<Json>> BatchCreatePartition(const std::string& raw_db, const std::string& raw_table,
                                                 const std::vector<Json>& inputs) override {
    std::string db = Lower(raw_db), tbl = Lower(raw_table);
    std::vector<Json> errors;
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(Json table, GetTableLocked(db, tbl));
      size_t num_keys = table.value("PartitionKeys", Json::array()).size();
      double now = Now();
      for (const Json& input : inputs) {
        Json values = input.value("Values", Json::array());
        auto fail = [&](std::string_view code, const std::string& message) {
          errors.push_back(Json{{"PartitionValues", values},
                                {"ErrorDetail", {{"ErrorCode", code}, {"ErrorMessage", message}}}});
        };
        // A table without PartitionKeys takes partitions of any arity, as Glue's API does.
        if (!values.is_array() || (num_keys > 0 && values.size() != num_keys)) {
          fail("InvalidInputException", fmt::format("the table has {} partition keys, the partition {} values",
                                                    num_keys, values.is_array() ? values.size() : 0));
          continue;
        }
        bool strings = true;
        for (const auto& v : values) strings = strings && v.is_string() && v.get<std::string>().size() <= 1024;
        if (!strings) {
          fail("InvalidInputException", "partition values must be strings of at most 1024 characters");
          continue;
        }
        Json doc = input;
        doc["DatabaseName"] = db;
        doc["TableName"] = tbl;
        doc["CreationTime"] = now;
        if (!doc.contains("Parameters")) doc["Parameters"] = Json::object();
        EPOXY_ASSIGN_OR_RETURN(int rc, InsertPartitionRow(db_, db, tbl, values, doc));
        if (rc == SQLITE_CONSTRAINT) {
          fail("AlreadyExistsException", "partition already exists");
        } else if (rc != SQLITE_DONE) {
          return Error("creating a partition");
        }
      }
      return Status::OK();
    }();
    EPOXY_RETURN_NOT_OK(Finish(st));
    return errors;
  }

  Result<Json> GetPartition(const std::string& raw_db, const std::string& raw_table,
                            const std::vector<std::string>& values) override {
    std::string db = Lower(raw_db), tbl = Lower(raw_table);
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(GetTableLocked(db, tbl).status());
    Stmt get(db_, "SELECT doc FROM partitions WHERE db = ? AND tbl = ? AND vals = ?");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, db).Bind(2, tbl).Bind(3, Json(values).dump());
    int rc = get.Step();
    if (rc == SQLITE_ROW) return Json::parse(get.Text(0));
    if (rc == SQLITE_DONE) return Status::NotFound("partition {} of {}.{} not found", Json(values).dump(), db, tbl);
    return Error("reading a partition");
  }

  Result<Page> GetPartitions(const std::string& raw_db, const std::string& raw_table,
                             const std::string& expression, const std::string& token, int max,
                             int segment, int total_segments) override {
    std::string db = Lower(raw_db), tbl = Lower(raw_table);
    if (total_segments < 1 || total_segments > 10 || segment < 0 || segment >= total_segments) {
      return Status::InvalidInput("Segment {} of {} is invalid (TotalSegments 1 to 10)", segment, total_segments);
    }
    EPOXY_ASSIGN_OR_RETURN(std::string after, DecodeToken(token));
    max = ClampMax(max, 1000);
    std::lock_guard lock(mu_);
    EPOXY_ASSIGN_OR_RETURN(Json table, GetTableLocked(db, tbl));
    std::vector<PartitionKey> keys;
    for (const auto& k : table.value("PartitionKeys", Json::array())) {
      keys.push_back({k.value("Name", ""), Lower(k.value("Type", "string"))});
    }
    SqlFilter filter;
    if (!expression.empty()) {
      if (keys.size() > static_cast<size_t>(kMaxPartitionKeys)) {
        return Status::InvalidInput("expressions over tables with more than {} partition keys are not supported", kMaxPartitionKeys);
      }
      EPOXY_ASSIGN_OR_RETURN(filter, TranslatePartitionExpression(expression, keys));
    }
    std::string sql = "SELECT id, doc FROM partitions WHERE db = ? AND tbl = ? AND id > ?";
    if (total_segments > 1) sql += fmt::format(" AND id % {} = {}", total_segments, segment);
    if (!filter.sql.empty()) sql += " AND " + filter.sql;
    sql += " ORDER BY id LIMIT ?";
    Stmt list(db_, sql);
    EPOXY_RETURN_NOT_OK(list.ok());
    int i = 1;
    list.Bind(i++, db);
    list.Bind(i++, tbl);
    list.Bind(i++, after.empty() ? int64_t{0} : std::atoll(after.c_str()));
    for (const auto& p : filter.params) list.Bind(i++, p);
    list.Bind(i++, max + 1);
    return ReadPage(list, max, "listing partitions");
  }

  Status PutCrawler(const Json& crawler, PutMode mode) override {
    if (!crawler.is_object() || !crawler.contains("Name") || !crawler["Name"].is_string()) {
      return Status::InvalidInput("a crawler needs a Name");
    }
    std::string name = crawler["Name"].get<std::string>();
    EPOXY_RETURN_NOT_OK(ValidateName("crawler", name));
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      Json doc = crawler;
      Stmt get(db_, "SELECT doc FROM crawlers WHERE name = ?");
      EPOXY_RETURN_NOT_OK(get.ok());
      get.Bind(1, name);
      const bool exists = get.Step() == SQLITE_ROW;
      if (exists && mode == PutMode::kCreate) {
        return Status::AlreadyExists("Crawler with name {} already exists", name);
      }
      if (!exists && mode == PutMode::kReplace) return Status::NotFound("crawler {} not found", name);
      if (exists) {
        Json old = Json::parse(get.Text(0));
        if (mode == PutMode::kReplace && old.value("State", "READY") != "READY") {
          return Status::AlreadyExists("CrawlerRunningException: Crawler {} is running; it cannot be updated", name);
        }
        for (const char* kept : {"State", "LastCrawl", "CreationTime", "CrawlElapsedTime"}) {
          if (old.contains(kept)) doc[kept] = old[kept];
        }
        doc["Version"] = old.value("Version", 1) + 1;
      } else {
        doc["State"] = "READY";
        doc["CreationTime"] = Now();
        doc["Version"] = 1;
      }
      doc["LastUpdated"] = Now();
      return ExecBound("INSERT OR REPLACE INTO crawlers(name, doc) VALUES(?, ?)", {name, doc.dump()});
    }();
    return Finish(st);
  }

  Result<Json> GetCrawler(const std::string& name) override {
    std::lock_guard lock(mu_);
    return GetCrawlerLocked(name);
  }

  Result<std::vector<Json>> GetCrawlers() override {
    std::lock_guard lock(mu_);
    return AllDocs("SELECT doc FROM crawlers ORDER BY name", "listing crawlers");
  }

  Status DeleteCrawler(const std::string& name) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(Json c, GetCrawlerLocked(name));
      if (c.value("State", "READY") != "READY") {
        return Status::AlreadyExists("CrawlerRunningException: Crawler {} is running; stop it first", name);
      }
      EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM crawlers WHERE name = ?", {name}));
      EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM crawls WHERE crawler = ?", {name}));
      return ExecBound("DELETE FROM crawled_folders WHERE crawler = ?", {name});
    }();
    return Finish(st);
  }

  Status StartCrawl(const std::string& name, const Json& crawl) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(Json c, GetCrawlerLocked(name));
      const std::string state = c.value("State", "READY");
      if (state != "READY") {
        return Status::AlreadyExists("CrawlerRunningException: Crawler with name {} has already started", name);
      }
      Json entry = crawl;
      entry["Status"] = "RUNNING";
      if (!entry.contains("StartTime")) entry["StartTime"] = Now();
      c["State"] = "RUNNING";
      c["LastCrawl"] = Json{{"Status", "RUNNING"}, {"StartTime", entry["StartTime"]}, {"MessagePrefix", name}};
      EPOXY_RETURN_NOT_OK(ExecBound("UPDATE crawlers SET doc = ? WHERE name = ?", {c.dump(), name}));
      return ExecBound("INSERT INTO crawls(crawler, doc) VALUES(?, ?)", {name, entry.dump()});
    }();
    return Finish(st);
  }

  Status StopCrawl(const std::string& name) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(Json c, GetCrawlerLocked(name));
      const std::string state = c.value("State", "READY");
      if (state == "STOPPING") return Status::InvalidInput("CrawlerStoppingException: Crawler {} is stopping", name);
      if (state != "RUNNING") return Status::InvalidInput("CrawlerNotRunningException: Crawler {} isn't running", name);
      c["State"] = "STOPPING";
      return ExecBound("UPDATE crawlers SET doc = ? WHERE name = ?", {c.dump(), name});
    }();
    return Finish(st);
  }

  Status FinishCrawl(const std::string& name, const Json& crawl) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(Json c, GetCrawlerLocked(name));
      c["State"] = "READY";
      Json last = {{"Status", crawl.value("Status", "SUCCEEDED")},
                   {"StartTime", crawl.value("StartTime", Now())},
                   {"MessagePrefix", name}};
      if (crawl.contains("ErrorMessage")) last["ErrorMessage"] = crawl["ErrorMessage"];
      c["LastCrawl"] = last;
      c["CrawlElapsedTime"] = static_cast<int64_t>(
          (crawl.value("EndTime", Now()) - crawl.value("StartTime", Now())) * 1000);
      EPOXY_RETURN_NOT_OK(ExecBound("UPDATE crawlers SET doc = ? WHERE name = ?", {c.dump(), name}));
      // The entry StartCrawl added is the crawler's newest; it gets the outcome.
      Stmt newest(db_, "SELECT id, doc FROM crawls WHERE crawler = ? ORDER BY id DESC LIMIT 1");
      EPOXY_RETURN_NOT_OK(newest.ok());
      newest.Bind(1, name);
      if (newest.Step() == SQLITE_ROW && crawl.contains("CrawlId") &&
          Json::parse(newest.Text(1)).value("CrawlId", "") == crawl.value("CrawlId", "")) {
        return ExecBound("UPDATE crawls SET doc = ? WHERE id = ?", {crawl.dump(), newest.Text(0)});
      }
      return ExecBound("INSERT INTO crawls(crawler, doc) VALUES(?, ?)", {name, crawl.dump()});
    }();
    return Finish(st);
  }

  Status CreateClassifier(const Json& classifier) override { return PutClassifier(classifier, false); }
  Status UpdateClassifier(const Json& classifier) override { return PutClassifier(classifier, true); }

  Result<Json> GetClassifier(const std::string& name) override {
    std::lock_guard lock(mu_);
    return GetClassifierLocked(name);
  }

  Result<std::vector<Json>> GetClassifiers() override {
    std::lock_guard lock(mu_);
    return AllDocs("SELECT doc FROM classifiers ORDER BY name", "listing classifiers");
  }

  Status DeleteClassifier(const std::string& name) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_RETURN_NOT_OK(GetClassifierLocked(name).status());
      return ExecBound("DELETE FROM classifiers WHERE name = ?", {name});
    }();
    return Finish(st);
  }

  Status CreateConnection(const Json& input) override { return PutConnection("", input); }
  Status UpdateConnection(const std::string& name, const Json& input) override { return PutConnection(name, input); }

  Result<Json> GetConnection(const std::string& name) override {
    std::lock_guard lock(mu_);
    return NamedDoc("SELECT doc FROM connections WHERE name = ?", "connection", name);
  }

  Result<std::vector<Json>> GetConnections() override {
    std::lock_guard lock(mu_);
    return AllDocs("SELECT doc FROM connections ORDER BY name", "listing connections");
  }

  Status DeleteConnection(const std::string& name) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_RETURN_NOT_OK(NamedDoc("SELECT doc FROM connections WHERE name = ?", "connection", name).status());
      return ExecBound("DELETE FROM connections WHERE name = ?", {name});
    }();
    return Finish(st);
  }

  Status UpdateDatabase(const std::string& raw, const Json& input) override {
    if (!input.is_object()) return Status::InvalidInput("DatabaseInput must be an object");
    const std::string name = Lower(raw);
    std::string new_name = Lower(input.value("Name", name));
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(Json old, NamedDoc("SELECT doc FROM databases WHERE name = ?", "database", name));
      if (new_name != name) return Status::InvalidInput("UpdateDatabase cannot rename database {} to {}", name, new_name);
      Json doc = input;
      doc["Name"] = name;
      doc["CreateTime"] = old.value("CreateTime", Now());
      if (old.contains("CatalogId")) doc["CatalogId"] = old["CatalogId"];
      if (!doc.contains("Parameters")) doc["Parameters"] = Json::object();
      return ExecBound("UPDATE databases SET doc = ? WHERE name = ?", {doc.dump(), name});
    }();
    return Finish(st);
  }

  Status UpdatePartition(const std::string& raw_db, const std::string& raw_table, const std::vector<std::string>& values,
                         const Json& input) override {
    std::string db = Lower(raw_db), tbl = Lower(raw_table);
    if (!input.is_object()) return Status::InvalidInput("PartitionInput must be an object");
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(Json table, GetTableLocked(db, tbl));
      EPOXY_ASSIGN_OR_RETURN(Json old, NamedDoc("SELECT doc FROM partitions WHERE db = ?1 AND tbl = ?2 AND vals = ?3",
                                                "partition", db, tbl, Json(values).dump()));
      Json new_values = input.value("Values", Json(values));
      const size_t num_keys = table.value("PartitionKeys", Json::array()).size();
      bool strings = new_values.is_array() && (num_keys == 0 || new_values.size() == num_keys);
      for (const auto& v : new_values) strings = strings && v.is_string();
      if (!strings) return Status::InvalidInput("the table has {} partition keys; Values must be that many strings", num_keys);
      Json doc = input;
      doc["Values"] = new_values;
      doc["DatabaseName"] = db;
      doc["TableName"] = tbl;
      doc["CreationTime"] = old.value("CreationTime", Now());
      if (!doc.contains("Parameters")) doc["Parameters"] = Json::object();
      EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM partitions WHERE db = ? AND tbl = ? AND vals = ?",
                                    {db, tbl, Json(values).dump()}));
      EPOXY_ASSIGN_OR_RETURN(int inserted, InsertPartitionRow(db_, db, tbl, new_values, doc));
      if (inserted == SQLITE_CONSTRAINT) return Status::AlreadyExists("partition {} of {}.{} already exists", new_values.dump(), db, tbl);
      if (inserted != SQLITE_DONE) return Error("updating a partition");
      return Status::OK();
    }();
    return Finish(st);
  }

  Status PutObject(const std::string& kind, const std::string& key, const Json& doc) override {
    std::lock_guard lock(mu_);
    return ExecBound("INSERT OR REPLACE INTO objects(kind, key, doc) VALUES(?, ?, ?)", {kind, key, doc.dump()});
  }

  Result<Json> GetObject(const std::string& kind, const std::string& key) override {
    std::lock_guard lock(mu_);
    Stmt get(db_, "SELECT doc FROM objects WHERE kind = ? AND key = ?");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, kind).Bind(2, key);
    int rc = get.Step();
    if (rc == SQLITE_ROW) return Json::parse(get.Text(0));
    if (rc == SQLITE_DONE) return Status::NotFound("{} {} not found", kind, key);
    return Error("reading " + kind);
  }

  Result<std::vector<std::pair<std::string, Json>>> ListObjects(const std::string& kind,
                                                                const std::string& prefix) override {
    std::lock_guard lock(mu_);
    // substr rather than LIKE: keys may hold % and _.
    Stmt list(db_, "SELECT key, doc FROM objects WHERE kind = ? AND substr(key, 1, length(?)) = ? ORDER BY key");
    EPOXY_RETURN_NOT_OK(list.ok());
    list.Bind(1, kind).Bind(2, prefix).Bind(3, prefix);
    std::vector<std::pair<std::string, Json>> out;
    int rc;
    while ((rc = list.Step()) == SQLITE_ROW) out.emplace_back(list.Text(0), Json::parse(list.Text(1)));
    if (rc != SQLITE_DONE) return Error("listing " + kind);
    return out;
  }

  Status DeleteObject(const std::string& kind, const std::string& key) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM objects WHERE kind = ? AND key = ?", {kind, key}));
    if (sqlite3_changes(db_) == 0) return Status::NotFound("{} {} not found", kind, key);
    return Status::OK();
  }

  Status ResetAll(const std::vector<std::string>& kept_kinds) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      Stmt list(db_, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'epoxy_meta'");
      EPOXY_RETURN_NOT_OK(list.ok());
      std::vector<std::string> tables;
      int rc;
      while ((rc = list.Step()) == SQLITE_ROW) tables.push_back(list.Text(0));
      if (rc != SQLITE_DONE) return Error("listing the catalog's tables");
      for (const auto& t : tables) {
        if (t != "objects") EPOXY_RETURN_NOT_OK(Exec("DELETE FROM \"" + t + "\""));
      }
      Stmt objects(db_, "SELECT DISTINCT kind FROM objects");
      EPOXY_RETURN_NOT_OK(objects.ok());
      std::vector<std::string> kinds;
      while ((rc = objects.Step()) == SQLITE_ROW) kinds.push_back(objects.Text(0));
      if (rc != SQLITE_DONE) return Error("listing the catalog's objects");
      for (const auto& kind : kinds) {
        if (std::find(kept_kinds.begin(), kept_kinds.end(), kind) == kept_kinds.end()) {
          EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM objects WHERE kind = ?", {kind}));
        }
      }
      return Status::OK();
    }();
    return Finish(st);
  }

  Result<std::vector<Json>> GetCrawlHistory(const std::string& name, int max) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(GetCrawlerLocked(name).status());
    Stmt list(db_, "SELECT doc FROM crawls WHERE crawler = ? ORDER BY id DESC LIMIT ?");
    EPOXY_RETURN_NOT_OK(list.ok());
    list.Bind(1, name).Bind(2, ClampMax(max, 1000));
    std::vector<Json> out;
    int rc;
    while ((rc = list.Step()) == SQLITE_ROW) out.push_back(Json::parse(list.Text(0)));
    if (rc != SQLITE_DONE) return Error("listing crawls");
    return out;
  }

  Result<std::vector<std::string>> GetCrawledFolders(const std::string& name) override {
    std::lock_guard lock(mu_);
    Stmt list(db_, "SELECT folder FROM crawled_folders WHERE crawler = ?");
    EPOXY_RETURN_NOT_OK(list.ok());
    list.Bind(1, name);
    std::vector<std::string> out;
    int rc;
    while ((rc = list.Step()) == SQLITE_ROW) out.push_back(list.Text(0));
    if (rc != SQLITE_DONE) return Error("listing crawled folders");
    return out;
  }

  Status AddCrawledFolders(const std::string& name, const std::vector<std::string>& folders) override {
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      for (const auto& f : folders) {
        EPOXY_RETURN_NOT_OK(ExecBound("INSERT OR IGNORE INTO crawled_folders(crawler, folder) VALUES(?, ?)", {name, f}));
      }
      return Status::OK();
    }();
    return Finish(st);
  }

  Status DeletePartition(const std::string& raw_db, const std::string& raw_table,
                         const std::vector<std::string>& values) override {
    std::string db = Lower(raw_db), tbl = Lower(raw_table);
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM partitions WHERE db = ? AND tbl = ? AND vals = ?", {db, tbl, Json(values).dump()}));
    if (sqlite3_changes(db_) == 0) return Status::NotFound("partition {} of {}.{} not found", Json(values).dump(), db, tbl);
    return Status::OK();
  }

 private:
  static int ClampMax(int max, int limit) { return max <= 0 || max > limit ? limit : max; }

  Status Error(const std::string& what) {
    int code = sqlite3_errcode(db_);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
      return Status::IOError("catalog '{}' is locked by another process ({}): {}", path_, what, sqlite3_errmsg(db_));
    }
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
      return Status::InvalidData("catalog '{}' is corrupt ({}): {}", path_, what, sqlite3_errmsg(db_));
    }
    return Status::IOError("catalog '{}': {}: {}", path_, what, sqlite3_errmsg(db_));
  }

  Status Exec(const std::string& sql) {
    char* message = nullptr;
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
    if (rc == SQLITE_OK) return Status::OK();
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT) {
      return Status::InvalidData("'{}' is not an epoxy catalog (or is corrupt): {}", path_, text);
    }
    if (rc == SQLITE_BUSY) return Status::IOError("catalog '{}' is locked by another process: {}", path_, text);
    return Status::IOError("catalog '{}': {}", path_, text);
  }

  Status ExecBound(const std::string& sql, const std::vector<std::string>& params) {
    Stmt stmt(db_, sql);
    EPOXY_RETURN_NOT_OK(stmt.ok());
    for (size_t i = 0; i < params.size(); ++i) stmt.Bind(static_cast<int>(i + 1), params[i]);
    int rc = stmt.Step();
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) return Error("updating the catalog");
    return Status::OK();
  }

  /// Commits when `st` is OK, else rolls back; returns `st` (or the commit's failure).
  Status Finish(const Status& st) {
    if (!st.ok()) {
      (void)Exec("ROLLBACK");
      return st;
    }
    return Exec("COMMIT");
  }

  Status RequireDatabase(const std::string& db) {
    Stmt get(db_, "SELECT 1 FROM databases WHERE name = ?");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, db);
    int rc = get.Step();
    if (rc == SQLITE_DONE) return Status::NotFound("database {} not found", db);
    if (rc != SQLITE_ROW) return Error("reading database " + db);
    return Status::OK();
  }

  /// Creates (`update` false) or replaces a classifier, keeping Glue's CreationTime/Version.
  Status PutClassifier(const Json& classifier, bool update) {
    EPOXY_ASSIGN_OR_RETURN(auto kind_and_name, ClassifierKindAndName(classifier));
    const auto& [kind, name] = kind_and_name;
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&, &kind = kind, &name = name]() -> Status {
      Json doc = classifier;
      Json& body = doc[kind];
      auto old = GetClassifierLocked(name);
      if (!old.ok() && old.status().code() != StatusCode::kNotFound) return old.status();
      if (old.ok() && !update) return Status::AlreadyExists("classifier {} already exists", name);
      if (!old.ok() && update) return old.status();
      if (old.ok()) {
        const std::string old_kind = old->begin().key();
        if (old_kind != kind) {
          return Status::InvalidInput("classifier {} is a {}; it cannot become a {}", name, old_kind, kind);
        }
        const Json& old_body = old->begin().value();
        body["CreationTime"] = old_body.value("CreationTime", Now());
        body["Version"] = old_body.value("Version", int64_t{1}) + 1;
      } else {
        body["CreationTime"] = Now();
        body["Version"] = 1;
      }
      body["LastUpdated"] = Now();
      return ExecBound("INSERT OR REPLACE INTO classifiers(name, doc) VALUES(?, ?)", {name, doc.dump()});
    }();
    return Finish(st);
  }

  /// Creates (`old_name` empty) or replaces a connection, keeping its CreationTime.
  Status PutConnection(const std::string& old_name, const Json& input) {
    if (!input.is_object() || !input.contains("Name") || !input["Name"].is_string()) {
      return Status::InvalidInput("ConnectionInput needs a Name");
    }
    const std::string name = input["Name"].get<std::string>();
    EPOXY_RETURN_NOT_OK(ValidateName("connection", name));
    const std::string type = input.value("ConnectionType", "");
    if (type.empty()) return Status::InvalidInput("ConnectionInput {} needs a ConnectionType", name);
    if (input.contains("ConnectionProperties") && !input["ConnectionProperties"].is_object()) {
      return Status::InvalidInput("ConnectionInput {}: ConnectionProperties must be a map", name);
    }
    std::lock_guard lock(mu_);
    EPOXY_RETURN_NOT_OK(Exec("BEGIN IMMEDIATE"));
    Status st = [&]() -> Status {
      Json doc = input;
      auto existing = NamedDoc("SELECT doc FROM connections WHERE name = ?", "connection", old_name.empty() ? name : old_name);
      if (!existing.ok() && existing.status().code() != StatusCode::kNotFound) return existing.status();
      if (old_name.empty() && existing.ok()) return Status::AlreadyExists("connection {} already exists", name);
      if (!old_name.empty() && !existing.ok()) return existing.status();
      if (!old_name.empty() && name != old_name) {
        auto clash = NamedDoc("SELECT doc FROM connections WHERE name = ?", "connection", name);
        if (clash.ok()) return Status::AlreadyExists("connection {} already exists", name);
        EPOXY_RETURN_NOT_OK(ExecBound("DELETE FROM connections WHERE name = ?", {old_name}));
      }
      doc["CreationTime"] = existing.ok() ? existing->value("CreationTime", Now()) : Now();
      doc["LastUpdatedTime"] = Now();
      return ExecBound("INSERT OR REPLACE INTO connections(name, doc) VALUES(?, ?)", {name, doc.dump()});
    }();
    return Finish(st);
  }

  Result<Json> GetClassifierLocked(const std::string& name) {
    return NamedDoc("SELECT doc FROM classifiers WHERE name = ?", "classifier", name);
  }

  /// Every row's doc of a `SELECT doc ...` without parameters.
  Result<std::vector<Json>> AllDocs(const char* sql, const std::string& what) {
    Stmt list(db_, sql);
    EPOXY_RETURN_NOT_OK(list.ok());
    std::vector<Json> out;
    int rc;
    while ((rc = list.Step()) == SQLITE_ROW) out.push_back(Json::parse(list.Text(0)));
    if (rc != SQLITE_DONE) return Error(what);
    return out;
  }

  /// The doc of the one row `sql` finds by name; kNotFound names the `kind`.
  Result<Json> NamedDoc(const char* sql, const char* kind, const std::string& name) {
    Stmt get(db_, sql);
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, name);
    int rc = get.Step();
    if (rc == SQLITE_ROW) return Json::parse(get.Text(0));
    if (rc == SQLITE_DONE) return Status::NotFound("{} {} not found", kind, name);
    return Error(fmt::format("reading {} {}", kind, name));
  }

  Result<Json> NamedDoc(const char* sql, const char* kind, const std::string& db, const std::string& table,
                        const std::string& values) {
    Stmt get(db_, sql);
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, db).Bind(2, table).Bind(3, values);
    int rc = get.Step();
    if (rc == SQLITE_ROW) return Json::parse(get.Text(0));
    if (rc == SQLITE_DONE) return Status::NotFound("{} {} of {}.{} not found", kind, values, db, table);
    return Error(fmt::format("reading {} {}", kind, values));
  }

  Result<Json> GetCrawlerLocked(const std::string& name) {
    return NamedDoc("SELECT doc FROM crawlers WHERE name = ?", "crawler", name);
  }

  Result<Json> GetTableLocked(const std::string& db, const std::string& name) {
    Stmt get(db_, "SELECT doc FROM tables WHERE db = ? AND name = ?");
    EPOXY_RETURN_NOT_OK(get.ok());
    get.Bind(1, db).Bind(2, name);
    int rc = get.Step();
    if (rc == SQLITE_ROW) return Json::parse(get.Text(0));
    if (rc != SQLITE_DONE) return Error("reading table " + name);
    EPOXY_RETURN_NOT_OK(RequireDatabase(db));
    return Status::NotFound("table {}.{} not found", db, name);
  }

  /// Validates a TableInput and returns the stored Table document.
  Result<Json> CheckTableInput(const std::string& db, const Json& input) {
    if (!input.is_object() || !input.contains("Name") || !input["Name"].is_string()) {
      return Status::InvalidInput("TableInput needs a Name");
    }
    Json doc = input;
    std::string name = Lower(input["Name"].get<std::string>());
    EPOXY_RETURN_NOT_OK(ValidateName("table", name));
    doc["Name"] = name;
    doc["DatabaseName"] = db;
    if (!doc.contains("PartitionKeys")) doc["PartitionKeys"] = Json::array();
    if (!doc.contains("TableType")) doc["TableType"] = "EXTERNAL_TABLE";
    if (!doc.contains("Parameters")) doc["Parameters"] = Json::object();
    auto check_columns = [&](const Json& columns, std::string_view where) -> Status {
      if (!columns.is_array()) return Status::InvalidInput("{} must be a list", where);
      for (const auto& c : columns) {
        if (!c.is_object() || !c.contains("Name") || !c["Name"].is_string() || c["Name"].get<std::string>().empty()) {
          return Status::InvalidInput("every column of {} needs a Name", where);
        }
        std::string type = c.value("Type", "string");
        auto parsed = ParseType(type);
        if (!parsed.ok()) {
          return Status::InvalidInput("column {} of {}: {}", c["Name"].get<std::string>(), where, parsed.status().message());
        }
      }
      return Status::OK();
    };
    EPOXY_RETURN_NOT_OK(check_columns(doc["PartitionKeys"], "PartitionKeys"));
    if (doc.contains("StorageDescriptor")) {
      const Json& sd = doc["StorageDescriptor"];
      if (!sd.is_object()) return Status::InvalidInput("StorageDescriptor must be an object");
      if (sd.contains("Columns")) EPOXY_RETURN_NOT_OK(check_columns(sd["Columns"], "StorageDescriptor.Columns"));
    }
    return doc;
  }

  /// One page of `list`, whose rows are (key, document) and which asks for max + 1 rows: the
  /// extra row only tells that a next page exists, whose token is the last key returned.
  /// `item` turns a row into the page's item (the parsed document when null).
  Result<Page> ReadPage(Stmt& list, int max, const std::string& what,
                        const std::function<Json(const Stmt&)>& item = nullptr) {
    Page page;
    int rc;
    std::string last;
    while ((rc = list.Step()) == SQLITE_ROW) {
      if (static_cast<int>(page.items.size()) == max) {
        page.next_token = EncodeToken(last);
        break;
      }
      last = list.Text(0);
      page.items.push_back(item ? item(list) : Json::parse(list.Text(1)));
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      // A partition value that is not of its key's type (see TypedPartitionKey).
      const std::string message = sqlite3_errmsg(db_);
      if (message.rfind("InvalidStateException: ", 0) == 0) return Status::InvalidData("{}", message);
      return Error(what);
    }
    return page;
  }

  sqlite3* db_;
  std::string path_;
  std::mutex mu_;  // one connection: statements serialise within this process
};

}  // namespace

Result<int> InsertPartitionRow(sqlite3* db, const std::string& database, const std::string& table, const Json& values,
                               const Json& doc) {
  Stmt row(db, "INSERT INTO partitions(db, tbl, vals, doc, v0, v1, v2, v3, v4, v5, v6, v7, v8, v9) "
               "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  EPOXY_RETURN_NOT_OK(row.ok());
  row.Bind(1, database).Bind(2, table).Bind(3, values.dump()).Bind(4, doc.dump());
  for (int k = 0; k < kMaxPartitionKeys; ++k) {
    if (static_cast<size_t>(k) < values.size()) {
      row.Bind(5 + k, values[k].get<std::string>());
    } else {
      row.BindNull(5 + k);
    }
  }
  return row.Step();
}

Result<std::unique_ptr<CatalogStore>> OpenSqliteCatalog(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close_v2(db);
    return Status::IOError("cannot open catalog '{}': {}", path, message);
  }
  auto store = std::make_unique<SqliteCatalogStore>(db, path);
  EPOXY_RETURN_NOT_OK(store->Init());
  return std::unique_ptr<CatalogStore>(std::move(store));
}

}  // namespace epoxy::catalog
