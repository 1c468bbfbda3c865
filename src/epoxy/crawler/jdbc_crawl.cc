// SPDX-License-Identifier: Apache-2.0
#include "epoxy/crawler/jdbc_crawl.h"

#include <fmt/format.h>

#include "epoxy/database/connection_properties.h"
#include "epoxy/database/table_listing.h"
#include "epoxy/storage/glob.h"

namespace epoxy::crawler {

using catalog::Json;

Status CrawlJdbcTargets(catalog::CatalogStore& store, const Json& crawler, CrawlSummary* summary) {
  const std::string name = crawler.value("Name", "");
  const std::string db = crawler.value("DatabaseName", "");
  const std::string prefix = crawler.value("TablePrefix", "");
  const std::string update = crawler.value("SchemaChangePolicy", Json::object()).value("UpdateBehavior", "UPDATE_IN_DATABASE");
  for (const auto& target : crawler.value("Targets", Json::object()).value("JdbcTargets", Json::array())) {
    const std::string connection_name = target.value("ConnectionName", "");
    const std::string path = target.value("Path", "");
    if (connection_name.empty() || path.empty()) {
      return Status::InvalidInput("crawler {}: a JdbcTarget needs a ConnectionName and a Path", name);
    }
    auto connection = store.GetConnection(connection_name);
    if (!connection.ok()) return Status(connection.status().code(), fmt::format("crawler {}: {}", name, connection.status().message()));
    EPOXY_ASSIGN_OR_RETURN(auto options, database::ConnectionOptions(*connection));
    EPOXY_ASSIGN_OR_RETURN(database::Endpoint endpoint, database::ParseJdbcUrl(options["url"]));
    endpoint.user = options["user"].empty() ? endpoint.user : options["user"];
    endpoint.password = options["password"].empty() ? endpoint.password : options["password"];
    std::vector<Glob> exclusions;
    for (const auto& e : target.value("Exclusions", Json::array())) {
      EPOXY_ASSIGN_OR_RETURN(Glob g, Glob::Compile(e.get<std::string>()));
      exclusions.push_back(std::move(g));
    }
    EPOXY_ASSIGN_OR_RETURN(auto tables, database::ListTables(endpoint, path));
    auto existing_db = store.GetDatabase(db);
    if (!existing_db.ok()) {
      if (existing_db.status().code() != StatusCode::kNotFound) return existing_db.status();
      EPOXY_RETURN_NOT_OK(store.CreateDatabase(Json{{"Name", db}}));
      summary->database_created = true;
    }
    for (const auto& t : tables) {
      const std::string listed = t.schema.empty() ? t.database + "/" + t.name : t.database + "/" + t.schema + "/" + t.name;
      const std::string relative = t.schema.empty() ? t.name : t.schema + "/" + t.name;
      bool excluded = false;
      for (const auto& g : exclusions) excluded |= g.Matches(listed) || g.Matches(relative) || g.Matches(t.name);
      if (excluded) {
        summary->log.push_back(fmt::format("{}: excluded", listed));
        continue;
      }
      Json columns = Json::array();
      for (const auto& c : t.columns) {
        columns.push_back({{"Name", c.name}, {"Type", c.type->ToString()}, {"Comment", c.source_type}});
      }
      const std::string classification(database::EngineName(endpoint.engine));
      Json params = {{"classification", classification}, {"connectionName", connection_name},
                     {"typeOfData", t.view ? "view" : "table"}, {"UPDATED_BY_CRAWLER", name}};
      if (!t.primary_key.empty()) params["primaryKey"] = fmt::format("{}", fmt::join(t.primary_key, ","));
      const std::string table_name = TableNameFor(t.schema.empty() ? t.database + "_" + t.name
                                                                   : t.database + "_" + t.schema + "_" + t.name, prefix);
      Json input = {{"Name", table_name}, {"TableType", "EXTERNAL_TABLE"}, {"Parameters", params},
                    {"StorageDescriptor", {{"Columns", columns}, {"Location", t.Location()},
                                           {"Parameters", {{"classification", classification}}}}}};
      auto old = store.GetTable(db, table_name);
      if (!old.ok()) {
        if (old.status().code() != StatusCode::kNotFound) return old.status();
        EPOXY_RETURN_NOT_OK(store.CreateTable(db, input));
        ++summary->tables_created;
        summary->log.push_back(fmt::format("{}: created table {}", listed, table_name));
      } else if (update == "LOG") {
        summary->log.push_back(fmt::format("{}: table {} exists; UpdateBehavior LOG leaves it as it is", listed, table_name));
      } else if (old->value("StorageDescriptor", Json::object()).value("Columns", Json::array()) != columns ||
                 old->value("Parameters", Json::object()).value("primaryKey", "") != params.value("primaryKey", "")) {
        EPOXY_RETURN_NOT_OK(store.UpdateTable(db, input, false));
        ++summary->tables_updated;
        summary->log.push_back(fmt::format("{}: updated table {}", listed, table_name));
      }
    }
  }
  return Status::OK();
}

}  // namespace epoxy::crawler
