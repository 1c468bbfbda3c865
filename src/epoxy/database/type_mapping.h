// SPDX-License-Identifier: Apache-2.0
// How database columns become epoxy columns (and back, for the tables sinks create). The table is
// in the README ("Database sources and sinks").
#pragma once

#include <string>

#include "epoxy/database/client.h"
#include "epoxy/types/data_type.h"

namespace epoxy::database {

/// How a cell's text becomes a value.
enum class Decoding {
  kText,            // the text, cast to the column's type
  kPgBytea,         // PostgreSQL's hex bytea (\x0a1b...)
  kPgTimestampTz,   // a UTC timestamp with its "+00" zone
  kBlob,            // raw bytes (SQLite blobs)
};

struct ColumnMapping {
  std::string name;
  TypePtr type;
  std::string source_type;  // as the database names it, for messages and the catalog
  Decoding decoding = Decoding::kText;
  bool array = false;  // a PostgreSQL one-dimensional array: `decoding` applies to its elements
  /// Whether values order meaningfully, so the column can be a bookmark key.
  bool comparable = true;
};

Result<ColumnMapping> MapPostgresColumn(const DescribedColumn& column);
ColumnMapping MapSqliteColumn(const DescribedColumn& column);

/// The column type a sink declares for `type` when it creates a table.
Result<std::string> SinkColumnType(Engine engine, const DataType& type, const std::string& column);

}  // namespace epoxy::database
