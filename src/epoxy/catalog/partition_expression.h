// SPDX-License-Identifier: Apache-2.0
// Glue's GetPartitions expression grammar, parsed and translated into SQL over the partition
// value columns of the catalog store (so filtering runs inside the store, using its indexes).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::catalog {

/// A partition key as the table declares it.
struct PartitionKey {
  std::string name;
  std::string type;  // Glue type string: string, date, timestamp, int, bigint, tinyint, ...
};

/// SQL text with `?` placeholders and their values, in order.
struct SqlFilter {
  std::string sql;
  std::vector<std::string> params;
};

/// Parses `expression` (comparisons = <> != < > <= >=, AND OR NOT, parentheses, BETWEEN, IN,
/// LIKE, IS [NOT] NULL; string, number and date literals; at most 2048 characters) and returns a
/// WHERE fragment over columns v0, v1, ... (key i's value, as text). Comparisons are typed by the
/// key's declared type, as Glue types them: string, char and varchar keys compare as text;
/// tinyint, smallint, int, bigint and long as integers; decimal as numbers; date and timestamp
/// as instants. A key of another type (float, double, boolean...) may not appear in an
/// expression. Literals are checked against their key's type. Errors are InvalidInput with
/// Glue's wording: "Invalid partition expression!" for a name that is not a partition key,
/// "Unsupported expression ..." (with the position) for text that does not parse.
Result<SqlFilter> TranslatePartitionExpression(std::string_view expression,
                                               const std::vector<PartitionKey>& keys);

/// The SQL function the filters apply to stored values of typed keys:
/// epoxy_partition_key(KIND, value) with KIND one of "int", "decimal", "date", "timestamp".
inline constexpr const char* kPartitionKeyFunction = "epoxy_partition_key";

/// What epoxy_partition_key returns: an integer, a number, or canonical text ("YYYY-MM-DD",
/// "YYYY-MM-DD HH:MM:SS.nnnnnnnnn") that orders as the instants do.
struct TypedKeyValue {
  enum class Kind { kInteger, kReal, kText } kind = Kind::kText;
  int64_t integer = 0;
  double real = 0;
  std::string text;
};

/// `text` read as a value of KIND; InvalidInput ("\"x\" is not an integer", ...) when it is not one.
Result<TypedKeyValue> ParseTypedKeyValue(std::string_view kind, std::string_view text);

}  // namespace epoxy::catalog
