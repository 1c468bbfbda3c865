// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/table_listing.h"

#include <fmt/format.h>

#include "epoxy/database/client.h"

namespace epoxy::database {
namespace {

std::vector<std::string> SplitPath(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return parts;
}

}  // namespace

std::string ListedTable::Location() const {
  return schema.empty() ? fmt::format("{}.{}", database, name) : fmt::format("{}.{}.{}", database, schema, name);
}

std::string ListedTable::Relation() const {
  return schema.empty() ? QuoteIdentifier(name) : QuoteIdentifier(schema) + "." + QuoteIdentifier(name);
}

Result<std::vector<ListedTable>> ListTables(const Endpoint& endpoint, const std::string& path) {
  std::vector<std::string> parts = SplitPath(path);
  if (parts.size() < 2 || parts.size() > 3 || parts[0].empty()) {
    return Status::InvalidInput("JdbcTarget Path '{}' must be db/schema/table or db/table (% matches any name)", path);
  }
  const std::string& db = parts[0];
  std::string schema_pattern = parts.size() == 3 ? parts[1] : (endpoint.engine == Engine::kPostgres ? "public" : "");
  std::string table_pattern = parts.back().empty() ? "%" : parts.back();
  EPOXY_ASSIGN_OR_RETURN(auto client, Connect(endpoint));
  std::vector<ListedTable> out;
  if (endpoint.engine == Engine::kPostgres) {
    if (db.find('%') != std::string::npos) return Status::InvalidInput("JdbcTarget Path '{}': % is not allowed in the database", path);
    if (db != endpoint.database) {
      return Status::InvalidInput("JdbcTarget Path '{}' names database {}, but the connection's URL is for {}", path, db,
                                  endpoint.database);
    }
    EPOXY_ASSIGN_OR_RETURN(auto tables, client->QueryAll(
        "SELECT table_schema, table_name, table_type FROM information_schema.tables WHERE table_schema LIKE $1 "
        "AND table_name LIKE $2 AND table_schema NOT IN ('pg_catalog', 'information_schema') "
        "AND table_type IN ('BASE TABLE', 'VIEW') ORDER BY 1, 2", {schema_pattern, table_pattern}));
    for (int64_t r = 0; r < tables->num_rows(); ++r) {
      ListedTable t;
      t.database = db;
      t.schema = std::string(tables->Value(r, 0));
      t.name = std::string(tables->Value(r, 1));
      t.view = tables->Value(r, 2) == "VIEW";
      out.push_back(std::move(t));
    }
  } else {
    EPOXY_ASSIGN_OR_RETURN(auto tables, client->QueryAll(
        "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name LIKE ?1 "
        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name", {table_pattern}));
    for (int64_t r = 0; r < tables->num_rows(); ++r) {
      ListedTable t;
      t.database = db;
      t.name = std::string(tables->Value(r, 0));
      t.view = tables->Value(r, 1) == "view";
      out.push_back(std::move(t));
    }
  }
  for (auto& t : out) {
    EPOXY_ASSIGN_OR_RETURN(auto described, client->Describe("SELECT * FROM " + t.Relation()));
    for (const auto& d : described) {
      if (endpoint.engine == Engine::kPostgres) {
        EPOXY_ASSIGN_OR_RETURN(ColumnMapping m, MapPostgresColumn(d));
        t.columns.push_back(std::move(m));
      } else {
        t.columns.push_back(MapSqliteColumn(d));
      }
    }
    std::unique_ptr<RowBlock> keys;
    if (endpoint.engine == Engine::kPostgres) {
      EPOXY_ASSIGN_OR_RETURN(keys, client->QueryAll(
          "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
          "WHERE i.indrelid = to_regclass($1) AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)",
          {t.Relation()}));
    } else {
      EPOXY_ASSIGN_OR_RETURN(keys, client->QueryAll("SELECT name FROM pragma_table_info(?1) WHERE pk > 0 ORDER BY pk", {t.name}));
    }
    for (int64_t r = 0; r < keys->num_rows(); ++r) t.primary_key.emplace_back(keys->Value(r, 0));
  }
  return out;
}

}  // namespace epoxy::database
