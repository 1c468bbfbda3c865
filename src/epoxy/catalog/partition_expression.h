// SPDX-License-Identifier: Apache-2.0
// Glue's GetPartitions expression grammar, parsed and translated into SQL over the partition
// value columns of the catalog store (so filtering runs inside the store, using its indexes).
#pragma once

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
/// key's declared type: integer keys compare as integers, decimal keys as numbers, strings, dates
/// and timestamps as text. Errors are InvalidInput naming the position.
Result<SqlFilter> TranslatePartitionExpression(std::string_view expression,
                                               const std::vector<PartitionKey>& keys);

}  // namespace epoxy::catalog
