// SPDX-License-Identifier: Apache-2.0
// Databases, tables and table versions.
#include <algorithm>

#include <re2/re2.h>

#include "epoxy/api/operation.h"

namespace epoxy::api {
namespace {

Json Empty() { return Json::object(); }

Json WithCatalog(Json doc, const ApiContext& context) {
  doc["CatalogId"] = context.account_id;
  return doc;
}

Json TableOut(Json table, const std::string& database, const ApiContext& context) {
  if (!table.contains("DatabaseName")) table["DatabaseName"] = database;
  table["IsRegisteredWithLakeFormation"] = false;
  return WithCatalog(std::move(table), context);
}

/// GetTables' Expression: a regular expression on the whole name, in which a `*` not after a `.`
/// means any characters, as Glue reads it.
Result<std::unique_ptr<RE2>> NamePattern(const std::string& expression) {
  std::string pattern;
  for (size_t i = 0; i < expression.size(); ++i) {
    if (expression[i] == '*' && (i == 0 || expression[i - 1] != '.')) {
      pattern += ".*";
    } else {
      pattern += expression[i];
    }
  }
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_unique<RE2>(pattern, options);
  if (!re->ok()) return Status::InvalidInput("Expression '{}' is not a valid pattern: {}", expression, re->error());
  return re;
}

/// Table versions are numbered 1, 2, ...
Status CheckVersionId(const std::string& version) {
  const bool digits = !version.empty() && version.size() <= 18 &&
                      std::all_of(version.begin(), version.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits) return Status::InvalidInput("VersionId '{}' is not a version number", version);
  return Status::OK();
}

Result<Json> CreateDatabase(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  if (!request.contains("DatabaseInput")) return Status::InvalidInput("DatabaseInput is required");
  Json input = request["DatabaseInput"];
  EPOXY_RETURN_NOT_OK(context.store->CreateDatabase(input));
  EPOXY_RETURN_NOT_OK(StoreTags(request, context.Arn("database", OptionalString(input, "Name")), context));
  return Empty();
}

Result<Json> GetDatabase(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json database, context.store->GetDatabase(name));
  return Json{{"Database", WithCatalog(std::move(database), context)}};
}

Result<Json> GetDatabases(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 100));
  EPOXY_ASSIGN_OR_RETURN(catalog::Page page, context.store->GetDatabases(OptionalString(request, "NextToken"), max));
  Json list = Json::array();
  for (auto& d : page.items) list.push_back(WithCatalog(std::move(d), context));
  Json out = {{"DatabaseList", std::move(list)}};
  if (!page.next_token.empty()) out["NextToken"] = page.next_token;
  return out;
}

Result<Json> UpdateDatabase(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  if (!request.contains("DatabaseInput")) return Status::InvalidInput("DatabaseInput is required");
  EPOXY_RETURN_NOT_OK(context.store->UpdateDatabase(name, request["DatabaseInput"]));
  return Empty();
}

Result<Json> DeleteDatabase(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(context.store->DeleteDatabase(name));
  EPOXY_RETURN_NOT_OK(DeleteObjectsOfTable(name, "", context));
  return Empty();
}

Result<Json> CreateTable(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  if (!request.contains("TableInput") || !request["TableInput"].is_object()) {
    return Status::InvalidInput("TableInput is required");
  }
  Json input = request["TableInput"];
  // An Iceberg table: its metadata lives with its data, the catalog marks its type (as Glue does).
  if (request.contains("OpenTableFormatInput") && request["OpenTableFormatInput"].contains("IcebergInput")) {
    input["Parameters"]["table_type"] = "ICEBERG";
  }
  EPOXY_RETURN_NOT_OK(context.store->CreateTable(database, input));
  if (request.contains("PartitionIndexes") && request["PartitionIndexes"].is_array()) {
    const std::string table = OptionalString(request["TableInput"], "Name");
    for (const auto& index : request["PartitionIndexes"]) {
      Json descriptor = {{"IndexName", index.value("IndexName", "")}, {"Keys", Json::array()},
                         {"IndexStatus", "ACTIVE"}};
      for (const auto& k : index.value("Keys", Json::array())) descriptor["Keys"].push_back({{"Name", k}});
      EPOXY_RETURN_NOT_OK(context.store->PutObject(
          "partition_index", database + "/" + table + "/" + index.value("IndexName", ""), descriptor));
    }
  }
  return Empty();
}

Result<Json> GetTable(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json table, context.store->GetTable(database, name));
  return Json{{"Table", TableOut(std::move(table), database, context)}};
}

Result<Json> GetTables(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 100));
  std::unique_ptr<RE2> pattern;
  if (const std::string e = OptionalString(request, "Expression"); !e.empty()) {
    EPOXY_ASSIGN_OR_RETURN(pattern, NamePattern(e));
  }
  // With an Expression, pages of the store are filtered until a page fills or the listing ends.
  Json list = Json::array();
  std::string token = OptionalString(request, "NextToken");
  std::string next;
  while (true) {
    EPOXY_ASSIGN_OR_RETURN(catalog::Page page, context.store->GetTables(database, token, pattern ? 100 : max));
    for (auto& t : page.items) {
      if (pattern && !RE2::FullMatch(t.value("Name", ""), *pattern)) continue;
      list.push_back(TableOut(std::move(t), database, context));
    }
    next = page.next_token;
    if (!pattern || next.empty() || static_cast<int>(list.size()) >= max) break;
    token = next;
  }
  Json out = {{"TableList", std::move(list)}};
  if (!next.empty()) out["NextToken"] = next;
  return out;
}

Result<Json> UpdateTable(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  if (!request.contains("TableInput")) return Status::InvalidInput("TableInput is required");
  EPOXY_RETURN_NOT_OK(context.store->UpdateTable(database, request["TableInput"], request.value("SkipArchive", false),
                                                 OptionalString(request, "VersionId")));
  return Empty();
}

Result<Json> DeleteTable(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(context.store->DeleteTable(database, name));
  EPOXY_RETURN_NOT_OK(DeleteObjectsOfTable(database, name, context));
  return Empty();
}

Result<Json> BatchDeleteTable(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  Json errors = Json::array();
  for (const auto& name : request.value("TablesToDelete", Json::array())) {
    if (!name.is_string()) continue;
    Status st = context.store->DeleteTable(database, name.get<std::string>());
    if (st.ok()) st = DeleteObjectsOfTable(database, name.get<std::string>(), context);
    if (!st.ok()) errors.push_back({{"TableName", name}, {"ErrorDetail", ErrorDetail(st)}});
  }
  return Json{{"Errors", std::move(errors)}};
}

Result<Json> GetTableVersions(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(std::string table, RequiredString(request, "TableName"));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 100));
  EPOXY_ASSIGN_OR_RETURN(catalog::Page page, context.store->GetTableVersions(database, table,
                                                                               OptionalString(request, "NextToken"), max));
  Json versions = Json::array();
  for (auto& v : page.items) {
    v["Table"] = TableOut(std::move(v["Table"]), database, context);
    versions.push_back(std::move(v));
  }
  Json out = {{"TableVersions", std::move(versions)}};
  if (!page.next_token.empty()) out["NextToken"] = page.next_token;
  return out;
}

Result<Json> GetTableVersion(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(std::string table, RequiredString(request, "TableName"));
  std::string version = OptionalString(request, "VersionId");
  if (version.empty()) {
    EPOXY_ASSIGN_OR_RETURN(Json current, context.store->GetTable(database, table));
    return Json{{"TableVersion", {{"Table", TableOut(current, database, context)},
                                  {"VersionId", current.value("VersionId", "1")}}}};
  }
  EPOXY_RETURN_NOT_OK(CheckVersionId(version));
  // The one asked for is found by paging.
  std::string token;
  do {
    EPOXY_ASSIGN_OR_RETURN(catalog::Page page, context.store->GetTableVersions(database, table, token, 100));
    for (auto& v : page.items) {
      if (v.value("VersionId", "") == version) {
        v["Table"] = TableOut(std::move(v["Table"]), database, context);
        return Json{{"TableVersion", std::move(v)}};
      }
    }
    token = page.next_token;
  } while (!token.empty());
  return Status::NotFound("version {} of table {}.{} not found", version, database, table);
}

Result<Json> DeleteTableVersion(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(std::string table, RequiredString(request, "TableName"));
  EPOXY_ASSIGN_OR_RETURN(std::string version, RequiredString(request, "VersionId"));
  EPOXY_RETURN_NOT_OK(CheckVersionId(version));
  EPOXY_RETURN_NOT_OK(context.store->DeleteTableVersion(database, table, version));
  return Empty();
}

Result<Json> BatchDeleteTableVersion(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(std::string table, RequiredString(request, "TableName"));
  Json errors = Json::array();
  for (const auto& v : request.value("VersionIds", Json::array())) {
    if (!v.is_string()) continue;
    Status st = context.store->DeleteTableVersion(database, table, v.get<std::string>());
    if (!st.ok()) errors.push_back({{"TableName", table}, {"VersionId", v}, {"ErrorDetail", ErrorDetail(st)}});
  }
  return Json{{"Errors", std::move(errors)}};
}

/// SearchTables: tables of every database whose name, description or columns hold SearchText.
Result<Json> SearchTables(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  const std::string text = OptionalString(request, "SearchText");
  Json list = Json::array();
  std::string db_token;
  do {
    EPOXY_ASSIGN_OR_RETURN(catalog::Page dbs, context.store->GetDatabases(db_token, 100));
    for (const auto& d : dbs.items) {
      const std::string database = d.value("Name", "");
      std::string token;
      do {
        EPOXY_ASSIGN_OR_RETURN(catalog::Page page, context.store->GetTables(database, token, 100));
        for (auto& t : page.items) {
          if (text.empty() || t.dump().find(text) != std::string::npos) list.push_back(TableOut(std::move(t), database, context));
        }
        token = page.next_token;
      } while (!token.empty());
    }
    db_token = dbs.next_token;
  } while (!db_token.empty());
  if (static_cast<int>(list.size()) > max) list.erase(list.begin() + max, list.end());
  return Json{{"TableList", std::move(list)}};
}

}  // namespace

void AddCatalogOperations(Operations* ops) {
  ops->Add("CreateDatabase", CreateDatabase);
  ops->Add("GetDatabase", GetDatabase);
  ops->Add("GetDatabases", GetDatabases);
  ops->Add("UpdateDatabase", UpdateDatabase);
  ops->Add("DeleteDatabase", DeleteDatabase);
  ops->Add("CreateTable", CreateTable);
  ops->Add("GetTable", GetTable);
  ops->Add("GetTables", GetTables);
  ops->Add("UpdateTable", UpdateTable);
  ops->Add("DeleteTable", DeleteTable);
  ops->Add("BatchDeleteTable", BatchDeleteTable);
  ops->Add("GetTableVersions", GetTableVersions);
  ops->Add("GetTableVersion", GetTableVersion);
  ops->Add("DeleteTableVersion", DeleteTableVersion);
  ops->Add("BatchDeleteTableVersion", BatchDeleteTableVersion);
  ops->Add("SearchTables", SearchTables);
}

}  // namespace epoxy::api
