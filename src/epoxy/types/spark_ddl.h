// SPDX-License-Identifier: Apache-2.0
// Spark's DDL type syntax: parsing `a INT, b ARRAY<STRING> NOT NULL COMMENT 'x'` and
// `STRUCT<c: MAP<STRING, INT>>` (what from_json, from_csv and friends take as a schema), and the
// SQL text Spark prints for a type (`STRUCT<col: BIGINT>`, what schema_of_json returns).
#pragma once

#include <string>
#include <string_view>

#include "epoxy/types/data_type.h"

namespace epoxy {

struct DdlParseOptions {
  /// CHAR(n) and VARCHAR(n) read as STRING (Spark's spark.sql.legacy.charVarcharAsString); when
  /// false they are an error, as in the schemas of from_json and from_csv.
  bool char_varchar_as_string = false;
};

/// One type in Spark's SQL syntax (DataType.fromDDL's first try): `INT`, `DECIMAL(10,2)`,
/// `ARRAY<STRUCT<a: INT, `b c`: STRING NOT NULL COMMENT 'x'>>`, case-insensitive, with Spark's
/// aliases (LONG, SHORT, BYTE, INTEGER, REAL, DEC, NUMERIC, TIMESTAMP_LTZ). Nullability and
/// comments are read and dropped (epoxy's types carry neither).
Result<TypePtr> ParseDdlType(std::string_view text, const DdlParseOptions& options = {});

/// A column list `a INT, b STRING` as a struct (Spark's parseTableSchema).
Result<TypePtr> ParseDdlColumns(std::string_view text, const DdlParseOptions& options = {});

/// Spark's schema-string rule (DataType.fromDDL): a single type first, else a column list.
Result<TypePtr> ParseDdlSchema(std::string_view text, const DdlParseOptions& options = {});

/// Spark's DataType.sql: `BIGINT`, `DECIMAL(38,18)`, `ARRAY<STRING>`, `MAP<STRING, INT>`,
/// `STRUCT<a: INT, `b c`: STRING>` (names backquoted unless they are letters, digits and `_`).
std::string SparkSqlTypeText(const DataType& type);

/// A field name as Spark's quoteIfNeeded writes it (backquoted unless plain, doubled backquotes).
std::string QuoteIdentifierIfNeeded(std::string_view name);

}  // namespace epoxy
