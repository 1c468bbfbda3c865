// SPDX-License-Identifier: Apache-2.0
// User-defined functions and column statistics (of tables and of partitions), kept as catalog
// objects beside the tables they describe and removed with them.
#include <algorithm>

#include <re2/re2.h>

#include "epoxy/api/operation.h"

namespace epoxy::api {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string FunctionKey(const std::string& database, const std::string& function) {
  return Lower(database) + "/" + function;
}

Result<Json> FunctionFromInput(const Json& request, const std::string& database, ApiContext& context) {
  if (!request.contains("FunctionInput") || !request["FunctionInput"].is_object()) {
    return RequiredString(request, "FunctionInput").status();
  }
  const Json& input = request["FunctionInput"];
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(input, "FunctionName"));
  Json function = {{"FunctionName", name}, {"DatabaseName", Lower(database)}, {"CatalogId", context.account_id}};
  for (const char* member : {"ClassName", "OwnerName", "OwnerType", "ResourceUris"}) {
    if (input.contains(member)) function[member] = input[member];
  }
  return function;
}

Result<Json> CreateUserDefinedFunction(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_RETURN_NOT_OK(context.store->GetDatabase(database).status());
  EPOXY_ASSIGN_OR_RETURN(Json function, FunctionFromInput(request, database, context));
  const std::string key = FunctionKey(database, function["FunctionName"]);
  if (context.store->GetObject("function", key).ok()) {
    return Status::AlreadyExists("Function {} already exists in database {}.", function["FunctionName"].get<std::string>(),
                                 database);
  }
  function["CreateTime"] = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EPOXY_RETURN_NOT_OK(context.store->PutObject("function", key, function));
  return Json::object();
}

Result<Json> FunctionOf(const Json& request, ApiContext& context, std::string* key) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "FunctionName"));
  EPOXY_RETURN_NOT_OK(context.store->GetDatabase(database).status());
  *key = FunctionKey(database, name);
  auto function = context.store->GetObject("function", *key);
  if (!function.ok() && function.status().code() == StatusCode::kNotFound) {
    return Status::NotFound("EntityNotFoundException: Function {} not found.", name);
  }
  return function;
}

Result<Json> GetUserDefinedFunction(const Json& request, ApiContext& context) {
  std::string key;
  EPOXY_ASSIGN_OR_RETURN(Json function, FunctionOf(request, context, &key));
  return Json{{"UserDefinedFunction", std::move(function)}};
}

Result<Json> UpdateUserDefinedFunction(const Json& request, ApiContext& context) {
  std::string key;
  EPOXY_ASSIGN_OR_RETURN(Json old, FunctionOf(request, context, &key));
  EPOXY_ASSIGN_OR_RETURN(Json function, FunctionFromInput(request, old.value("DatabaseName", ""), context));
  if (function["FunctionName"] != old["FunctionName"]) {
    return Status::InvalidInput("UpdateUserDefinedFunction cannot rename function {}", old["FunctionName"].get<std::string>());
  }
  function["CreateTime"] = old.value("CreateTime", 0.0);
  EPOXY_RETURN_NOT_OK(context.store->PutObject("function", key, function));
  return Json::object();
}

Result<Json> DeleteUserDefinedFunction(const Json& request, ApiContext& context) {
  std::string key;
  EPOXY_RETURN_NOT_OK(FunctionOf(request, context, &key).status());
  EPOXY_RETURN_NOT_OK(context.store->DeleteObject("function", key));
  return Json::object();
}

Result<Json> GetUserDefinedFunctions(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string pattern, RequiredString(request, "Pattern"));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 100));
  const std::string database = OptionalString(request, "DatabaseName");
  if (!database.empty()) EPOXY_RETURN_NOT_OK(context.store->GetDatabase(database).status());
  // Pattern is a regular expression in which '*' alone means any characters, as in GetTables.
  std::string regex;
  for (size_t i = 0; i < pattern.size(); ++i) {
    regex += pattern[i] == '*' && (i == 0 || pattern[i - 1] != '.') ? std::string(".*") : std::string(1, pattern[i]);
  }
  RE2::Options options;
  options.set_log_errors(false);
  RE2 re(regex, options);
  if (!re.ok()) return Status::InvalidInput("Pattern '{}' is not a valid pattern: {}", pattern, re.error());
  EPOXY_ASSIGN_OR_RETURN(auto all, context.store->ListObjects("function", database.empty() ? "" : Lower(database) + "/"));
  std::vector<Json> matching;
  for (auto& [key, function] : all) {
    if (!RE2::FullMatch(function.value("FunctionName", ""), re)) continue;
    function["Key"] = key;
    matching.push_back(std::move(function));
  }
  NamedPage page = PageByName(std::move(matching), OptionalString(request, "NextToken"), max, "Key");
  Json list = Json::array();
  for (auto& f : page.items) {
    f.erase("Key");
    list.push_back(std::move(f));
  }
  return WithNextToken(Json{{"UserDefinedFunctions", std::move(list)}}, page.next_token);
}

// Column statistics: one object per column, keyed by database, table, partition values (empty
// for the table's own) and column.

std::string StatisticsPrefix(const std::string& database, const std::string& table, const Json& values) {
  return Lower(database) + "/" + Lower(table) + "/" + values.dump() + "/";
}

/// The request's table (and partition, when `for_partition`), checked to exist; its columns.
Result<std::map<std::string, std::string>> ColumnsOf(const Json& request, bool for_partition, ApiContext& context,
                                                     std::string* prefix) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(std::string table_name, RequiredString(request, "TableName"));
  EPOXY_ASSIGN_OR_RETURN(Json table, context.store->GetTable(database, table_name));
  Json values = Json::array();
  std::map<std::string, std::string> columns;
  auto add = [&](const Json& list) {
    for (const auto& c : list) columns[Lower(c.value("Name", ""))] = Lower(c.value("Type", ""));
  };
  add(table.value("StorageDescriptor", Json::object()).value("Columns", Json::array()));
  if (for_partition) {
    if (!request.contains("PartitionValues") || !request["PartitionValues"].is_array()) {
      return RequiredString(request, "PartitionValues").status();
    }
    values = request["PartitionValues"];
    std::vector<std::string> list;
    for (const auto& v : values) list.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    EPOXY_ASSIGN_OR_RETURN(Json partition, context.store->GetPartition(database, table_name, list));
    add(partition.value("StorageDescriptor", Json::object()).value("Columns", Json::array()));
  } else {
    add(table.value("PartitionKeys", Json::array()));
  }
  *prefix = StatisticsPrefix(database, table_name, values);
  return columns;
}

/// Each StatisticsData holds Type and the one matching member (LongColumnStatisticsData, ...).
Status CheckStatistics(const Json& statistics, const std::map<std::string, std::string>& columns) {
  const std::string column = Lower(statistics.value("ColumnName", ""));
  if (column.empty()) return Status::InvalidInput("ColumnStatistics needs a ColumnName");
  auto it = columns.find(column);
  if (it == columns.end()) return Status::NotFound("EntityNotFoundException: Column {} not found.", column);
  if (!statistics.contains("StatisticsData") || !statistics["StatisticsData"].is_object() ||
      !statistics["StatisticsData"].contains("Type")) {
    return Status::InvalidInput("ColumnStatistics of {} needs StatisticsData with a Type", column);
  }
  static const std::map<std::string, std::string> kMembers = {
      {"BOOLEAN", "BooleanColumnStatisticsData"}, {"DATE", "DateColumnStatisticsData"},
      {"DECIMAL", "DecimalColumnStatisticsData"}, {"DOUBLE", "DoubleColumnStatisticsData"},
      {"LONG", "LongColumnStatisticsData"},       {"STRING", "StringColumnStatisticsData"},
      {"BINARY", "BinaryColumnStatisticsData"}};
  const std::string type = statistics["StatisticsData"].value("Type", "");
  auto member = kMembers.find(type);
  if (member == kMembers.end()) return Status::InvalidInput("StatisticsData Type '{}' is not a statistics type", type);
  if (!statistics["StatisticsData"].contains(member->second)) {
    return Status::InvalidInput("StatisticsData of type {} needs {}", type, member->second);
  }
  return Status::OK();
}

Result<Json> UpdateStatistics(const Json& request, ApiContext& context, bool for_partition) {
  std::string prefix;
  EPOXY_ASSIGN_OR_RETURN(auto columns, ColumnsOf(request, for_partition, context, &prefix));
  Json errors = Json::array();
  for (const auto& statistics : request.value("ColumnStatisticsList", Json::array())) {
    Status st = CheckStatistics(statistics, columns);
    if (st.ok()) {
      st = context.store->PutObject("column_statistics", prefix + Lower(statistics.value("ColumnName", "")), statistics);
    }
    if (!st.ok()) errors.push_back({{"ColumnStatistics", statistics}, {"Error", ErrorDetail(st)}});
  }
  return Json{{"Errors", std::move(errors)}};
}

Result<Json> GetStatistics(const Json& request, ApiContext& context, bool for_partition) {
  std::string prefix;
  EPOXY_ASSIGN_OR_RETURN(auto columns, ColumnsOf(request, for_partition, context, &prefix));
  Json found = Json::array(), errors = Json::array();
  for (const auto& name : request.value("ColumnNames", Json::array())) {
    if (!name.is_string()) return Status::InvalidInput("ColumnNames must be a list of strings");
    auto statistics = context.store->GetObject("column_statistics", prefix + Lower(name.get<std::string>()));
    if (statistics.ok()) {
      found.push_back(std::move(*statistics));
    } else {
      Status why = statistics.status().code() == StatusCode::kNotFound
                       ? Status::NotFound("EntityNotFoundException: Column statistics of {} not found.",
                                          name.get<std::string>())
                       : statistics.status();
      errors.push_back({{"ColumnName", name}, {"Error", ErrorDetail(why)}});
    }
  }
  return Json{{"ColumnStatisticsList", std::move(found)}, {"Errors", std::move(errors)}};
}

Result<Json> DeleteStatistics(const Json& request, ApiContext& context, bool for_partition) {
  std::string prefix;
  EPOXY_ASSIGN_OR_RETURN(std::string column, RequiredString(request, "ColumnName"));
  EPOXY_RETURN_NOT_OK(ColumnsOf(request, for_partition, context, &prefix).status());
  Status st = context.store->DeleteObject("column_statistics", prefix + Lower(column));
  if (st.code() == StatusCode::kNotFound) {
    return Status::NotFound("EntityNotFoundException: Column statistics of {} not found.", column);
  }
  EPOXY_RETURN_NOT_OK(st);
  return Json::object();
}

}  // namespace

Status DeleteObjectsOfTable(const std::string& database, const std::string& table, ApiContext& context) {
  const std::string prefix = table.empty() ? Lower(database) + "/" : Lower(database) + "/" + Lower(table) + "/";
  for (const char* kind : {"column_statistics", "partition_index", "function"}) {
    if (!table.empty() && std::string(kind) == "function") continue;
    for (const std::string& p : {prefix, table.empty() ? database + "/" : database + "/" + table + "/"}) {
      EPOXY_ASSIGN_OR_RETURN(auto objects, context.store->ListObjects(kind, p));
      for (const auto& [key, doc] : objects) {
        Status st = context.store->DeleteObject(kind, key);
        if (!st.ok() && st.code() != StatusCode::kNotFound) return st;
      }
    }
  }
  return Status::OK();
}

void AddFunctionAndStatisticsOperations(Operations* ops) {
  ops->Add("CreateUserDefinedFunction", CreateUserDefinedFunction);
  ops->Add("GetUserDefinedFunction", GetUserDefinedFunction);
  ops->Add("UpdateUserDefinedFunction", UpdateUserDefinedFunction);
  ops->Add("DeleteUserDefinedFunction", DeleteUserDefinedFunction);
  ops->Add("GetUserDefinedFunctions", GetUserDefinedFunctions);
  ops->Add("UpdateColumnStatisticsForTable", [](const Json& r, ApiContext& c) { return UpdateStatistics(r, c, false); });
  ops->Add("UpdateColumnStatisticsForPartition", [](const Json& r, ApiContext& c) { return UpdateStatistics(r, c, true); });
  ops->Add("GetColumnStatisticsForTable", [](const Json& r, ApiContext& c) { return GetStatistics(r, c, false); });
  ops->Add("GetColumnStatisticsForPartition", [](const Json& r, ApiContext& c) { return GetStatistics(r, c, true); });
  ops->Add("DeleteColumnStatisticsForTable", [](const Json& r, ApiContext& c) { return DeleteStatistics(r, c, false); });
  ops->Add("DeleteColumnStatisticsForPartition",
           [](const Json& r, ApiContext& c) { return DeleteStatistics(r, c, true); });
}

}  // namespace epoxy::api
