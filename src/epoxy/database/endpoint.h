// SPDX-License-Identifier: Apache-2.0
// Where a database source or sink connects: a JDBC URL as Glue and Spark take it
// (jdbc:postgresql://host:5432/db?sslmode=require, jdbc:sqlite:/path/file.db) with the user and
// password that go with it.
#pragma once

#include <map>
#include <string>

#include "epoxy/common/result.h"

namespace epoxy::database {

enum class Engine { kPostgres, kSqlite };

/// "postgresql" or "sqlite": Glue's connection_type and classification.
std::string_view EngineName(Engine engine);

struct Endpoint {
  Engine engine = Engine::kPostgres;
  std::string host = "localhost";
  int port = 5432;
  std::string database;  // PostgreSQL: the database name
  std::string path;      // SQLite: the file
  /// The URL's query parameters (sslmode, connect_timeout, ...), and for PostgreSQL the
  /// `user`/`password` ones moved into the fields below.
  std::map<std::string, std::string> params;
  std::string user, password;
  /// A sink may create a missing SQLite file; a source may not.
  bool create_if_missing = false;

  /// The URL without credentials, for messages and logs ("postgresql://host:5432/db").
  std::string Describe() const;
};

/// Parses `url` (`jdbc:` prefix optional). Errors name the URL and what is wrong with it.
Result<Endpoint> ParseJdbcUrl(const std::string& url);

}  // namespace epoxy::database
