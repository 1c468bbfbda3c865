// SPDX-License-Identifier: Apache-2.0
// `epoxy catalog ...`.
#include "epoxy/cli/catalog_command.h"

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/cli/read_session.h"

namespace epoxy::cli {
namespace {

using catalog::Json;

/// Splits "a:int,b:decimal(10,2),c:struct<x:int,y:string>" at top-level commas.
std::vector<std::string> SplitTopLevel(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(current);
      current.clear();
      continue;
    }
    current.push_back(c);
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

Result<Json> ParseColumns(const std::string& spec, std::string_view option) {
  Json columns = Json::array();
  for (const std::string& item : SplitTopLevel(spec)) {
    size_t colon = item.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == item.size()) {
      return Status::InvalidInput("{} entry '{}' must look like name:type", option, item);
    }
    columns.push_back(Json{{"Name", item.substr(0, colon)}, {"Type", item.substr(colon + 1)}});
  }
  return columns;
}

Result<Json> StorageFor(const std::string& format, const std::string& location, Json columns) {
  Json sd = {{"Columns", std::move(columns)}, {"Location", location}, {"Compressed", false},
             {"NumberOfBuckets", -1}, {"Parameters", Json::object()}};
  if (format == "parquet") {
    sd["InputFormat"] = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
    sd["OutputFormat"] = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
    sd["SerdeInfo"] = {{"SerializationLibrary", "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"},
                       {"Parameters", {{"serialization.format", "1"}}}};
  } else if (format == "csv") {
    sd["InputFormat"] = "org.apache.hadoop.mapred.TextInputFormat";
    sd["OutputFormat"] = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    sd["SerdeInfo"] = {{"SerializationLibrary", "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"},
                       {"Parameters", {{"field.delim", ","}}}};
  } else if (format == "json") {
    sd["InputFormat"] = "org.apache.hadoop.mapred.TextInputFormat";
    sd["OutputFormat"] = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    sd["SerdeInfo"] = {{"SerializationLibrary", "org.openx.data.jsonserde.JsonSerDe"},
                       {"Parameters", Json::object()}};
  } else {
    return Status::InvalidInput("--format must be parquet, csv or json, got '{}'", format);
  }
  return sd;
}

/// Every page of a listing.
template <typename Fetch>
Result<std::vector<Json>> All(Fetch fetch) {
  std::vector<Json> out;
  std::string token;
  do {
    EPOXY_ASSIGN_OR_RETURN(catalog::Page page, fetch(token));
    for (auto& item : page.items) out.push_back(std::move(item));
    token = page.next_token;
  } while (!token.empty());
  return out;
}

Status Print(const std::string& text) { return WriteStdout(text); }

Status Need(const CatalogArgs& args, size_t n, std::string_view usage) {
  if (args.names.size() != n) return Status::InvalidInput("usage: epoxy catalog {} {}", args.action, usage);
  return Status::OK();
}

Result<int> Run(const CatalogArgs& args, catalog::CatalogStore& store) {
  const std::string& a = args.action;
  if (a == "databases") {
    EPOXY_RETURN_NOT_OK(Need(args, 0, ""));
    EPOXY_ASSIGN_OR_RETURN(auto dbs, All([&](const std::string& t) { return store.GetDatabases(t, 100); }));
    if (args.json) {
      EPOXY_RETURN_NOT_OK(Print(Json{{"DatabaseList", dbs}}.dump(2) + "\n"));
    } else {
      for (const auto& d : dbs) EPOXY_RETURN_NOT_OK(Print(d["Name"].get<std::string>() + "\n"));
    }
    return 0;
  }
  if (a == "create-database") {
    EPOXY_RETURN_NOT_OK(Need(args, 1, "NAME"));
    EPOXY_RETURN_NOT_OK(store.CreateDatabase(Json{{"Name", args.names[0]}}));
    return 0;
  }
  if (a == "delete-database") {
    EPOXY_RETURN_NOT_OK(Need(args, 1, "NAME"));
    EPOXY_RETURN_NOT_OK(store.DeleteDatabase(args.names[0]));
    return 0;
  }
  if (a == "tables") {
    EPOXY_RETURN_NOT_OK(Need(args, 1, "DB"));
    EPOXY_ASSIGN_OR_RETURN(auto tables, All([&](const std::string& t) { return store.GetTables(args.names[0], t, 100); }));
    if (args.json) {
      EPOXY_RETURN_NOT_OK(Print(Json{{"TableList", tables}}.dump(2) + "\n"));
    } else {
      for (const auto& t : tables) EPOXY_RETURN_NOT_OK(Print(t["Name"].get<std::string>() + "\n"));
    }
    return 0;
  }
  if (a == "table") {
    EPOXY_RETURN_NOT_OK(Need(args, 2, "DB TABLE"));
    EPOXY_ASSIGN_OR_RETURN(Json t, store.GetTable(args.names[0], args.names[1]));
    if (args.json) {
      EPOXY_RETURN_NOT_OK(Print(Json{{"Table", t}}.dump(2) + "\n"));
      return 0;
    }
    std::string out = fmt::format("table: {}.{}\n", t["DatabaseName"].get<std::string>(), t["Name"].get<std::string>());
    const Json sd = t.value("StorageDescriptor", Json::object());
    out += fmt::format("location: {}\n", sd.value("Location", ""));
    out += "columns:\n";
    for (const auto& c : sd.value("Columns", Json::array())) {
      out += fmt::format("  {}: {}\n", c.value("Name", ""), c.value("Type", ""));
    }
    out += "partition keys:\n";
    for (const auto& c : t.value("PartitionKeys", Json::array())) {
      out += fmt::format("  {}: {}\n", c.value("Name", ""), c.value("Type", ""));
    }
    const Json parameters = t.value("Parameters", Json::object());  // items() needs a living object
    for (const auto& [k, v] : parameters.items()) {
      out += fmt::format("parameter: {} = {}\n", k, v.is_string() ? v.get<std::string>() : v.dump());
    }
    out += fmt::format("version: {}\n", t.value("VersionId", ""));
    EPOXY_RETURN_NOT_OK(Print(out));
    return 0;
  }
  if (a == "partitions") {
    EPOXY_RETURN_NOT_OK(Need(args, 2, "DB TABLE [--expression EXPR]"));
    EPOXY_ASSIGN_OR_RETURN(auto parts, All([&](const std::string& t) {
                             return store.GetPartitions(args.names[0], args.names[1], args.expression, t, 1000);
                           }));
    if (args.json) {
      EPOXY_RETURN_NOT_OK(Print(Json{{"Partitions", parts}}.dump(2) + "\n"));
    } else {
      for (const auto& p : parts) {
        std::vector<std::string> values = p["Values"].get<std::vector<std::string>>();
        std::string location = p.value("StorageDescriptor", Json::object()).value("Location", "");
        EPOXY_RETURN_NOT_OK(Print(fmt::format("{}{}\n", fmt::join(values, "/"), location.empty() ? "" : "  " + location)));
      }
    }
    return 0;
  }
  if (a == "versions") {
    EPOXY_RETURN_NOT_OK(Need(args, 2, "DB TABLE"));
    EPOXY_ASSIGN_OR_RETURN(auto versions, All([&](const std::string& t) {
                             return store.GetTableVersions(args.names[0], args.names[1], t, 100);
                           }));
    if (args.json) {
      EPOXY_RETURN_NOT_OK(Print(Json{{"TableVersions", versions}}.dump(2) + "\n"));
    } else {
      for (const auto& v : versions) {
        const Json& t = v["Table"];
        size_t columns = t.value("StorageDescriptor", Json::object()).value("Columns", Json::array()).size();
        EPOXY_RETURN_NOT_OK(Print(fmt::format("{}  updated {:.0f}  {} columns\n", v["VersionId"].get<std::string>(),
                                              t.value("UpdateTime", 0.0), columns)));
      }
    }
    return 0;
  }
  if (a == "create-table") {
    EPOXY_RETURN_NOT_OK(Need(args, 2, "DB TABLE --location PATH --columns name:type,... [--partition-keys ...] [--format ...]"));
    if (args.location.empty()) return Status::InvalidInput("create-table needs --location");
    if (args.columns.empty()) return Status::InvalidInput("create-table needs --columns");
    EPOXY_ASSIGN_OR_RETURN(Json columns, ParseColumns(args.columns, "--columns"));
    Json keys = Json::array();
    if (!args.partition_keys.empty()) {
      EPOXY_ASSIGN_OR_RETURN(keys, ParseColumns(args.partition_keys, "--partition-keys"));
    }
    EPOXY_ASSIGN_OR_RETURN(Json sd, StorageFor(args.format, args.location, std::move(columns)));
    Json input = {{"Name", args.names[1]}, {"StorageDescriptor", sd}, {"PartitionKeys", keys},
                  {"TableType", "EXTERNAL_TABLE"},
                  {"Parameters", {{"classification", args.format}, {"EXTERNAL", "TRUE"}}}};
    EPOXY_RETURN_NOT_OK(store.CreateTable(args.names[0], input));
    return 0;
  }
  if (a == "create-partition") {
    EPOXY_RETURN_NOT_OK(Need(args, 2, "DB TABLE --values v1,v2 [--location PATH]"));
    if (args.values.empty()) return Status::InvalidInput("create-partition needs --values");
    std::vector<std::string> values;
    size_t start = 0;
    while (true) {
      size_t comma = args.values.find(',', start);
      values.push_back(args.values.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    EPOXY_ASSIGN_OR_RETURN(Json table, store.GetTable(args.names[0], args.names[1]));
    Json sd = table.value("StorageDescriptor", Json::object());
    std::string location = args.location;
    if (location.empty()) {
      location = sd.value("Location", "");
      const Json keys = table.value("PartitionKeys", Json::array());
      for (size_t i = 0; i < values.size() && i < keys.size(); ++i) {
        location += (location.empty() || location.back() == '/' ? "" : "/") + keys[i].value("Name", "") + "=" + values[i];
      }
    }
    sd["Location"] = location;
    EPOXY_ASSIGN_OR_RETURN(auto errors, store.BatchCreatePartition(args.names[0], args.names[1],
                                                                  {Json{{"Values", values}, {"StorageDescriptor", sd}}}));
    if (!errors.empty()) {
      const Json& detail = errors[0]["ErrorDetail"];
      std::string code = detail.value("ErrorCode", "");
      std::string message = detail.value("ErrorMessage", "");
      if (code == "AlreadyExistsException") return Status::AlreadyExists("{}", message);
      return Status::InvalidInput("{}", message);
    }
    return 0;
  }
  if (a == "delete-table") {
    EPOXY_RETURN_NOT_OK(Need(args, 2, "DB TABLE"));
    EPOXY_RETURN_NOT_OK(store.DeleteTable(args.names[0], args.names[1]));
    return 0;
  }
  return Status::InvalidInput(
      "unknown catalog action '{}' (databases, create-database, delete-database, tables, table, "
      "partitions, versions, create-table, create-partition, delete-table)",
      a);
}

}  // namespace

Result<int> RunCatalog(const CatalogArgs& args) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::CatalogStore::Open(args.catalog));
  auto result = Run(args, *store);
  if (!result.ok()) return catalog::WithGlueErrorName(result.status());
  return result;
}

}  // namespace epoxy::cli
