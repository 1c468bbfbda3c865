// SPDX-License-Identifier: Apache-2.0
// The tables (and views) of a database that a JDBC crawler target names, with their columns and
// primary keys.
#pragma once

#include <string>
#include <vector>

#include "epoxy/database/endpoint.h"
#include "epoxy/database/type_mapping.h"

namespace epoxy::database {

struct ListedTable {
  std::string database, schema, name;  // schema is "" for SQLite
  bool view = false;
  std::vector<ColumnMapping> columns;
  std::vector<std::string> primary_key;
  /// "db.schema.table" (SQLite: "db.table"), the catalog table's Location as Glue writes it.
  std::string Location() const;
  /// What a source's dbtable names: "schema"."table" (SQLite: "table"), quoted.
  std::string Relation() const;
};

/// The tables matching a JdbcTarget's Path: `db/schema/table` or `db/table`, `%` a wildcard
/// within the schema or table part (as in SQL LIKE). PostgreSQL's db must be the URL's database.
Result<std::vector<ListedTable>> ListTables(const Endpoint& endpoint, const std::string& path);

}  // namespace epoxy::database
