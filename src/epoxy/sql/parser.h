// SPDX-License-Identifier: Apache-2.0
// The Spark SQL statement parser: [EXPLAIN] [WITH ...] SELECT ... with joins, GROUP BY (grouping
// sets, ROLLUP, CUBE), HAVING, windows, subqueries, UNION / INTERSECT / EXCEPT [ALL | DISTINCT],
// ORDER BY, LIMIT and OFFSET, and the hints BROADCAST, REPARTITION and COALESCE.
#pragma once

#include <string_view>

#include "epoxy/sql/ast.h"

namespace epoxy::sql {

/// Parses one statement (a trailing ';' is allowed). Errors give the position.
Result<Statement> ParseStatement(std::string_view text);

}  // namespace epoxy::sql
