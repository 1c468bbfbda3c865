// SPDX-License-Identifier: Apache-2.0
// The Spark gold cases (../shared/conformance/spark-gold/cases/**.json, read in place), the list
// of known failures, and how a case's rows are compared.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::conformance {

struct GoldCase {
  std::string file;   // relative to the cases folder: "function/math.json" (its category)
  std::string query;  // also the case's key within its file
  std::vector<std::string> rows;
  std::vector<std::string> column_names;
  /// Spark's JSON schema types as type strings comparable with DataType::ToString(): "integer"
  /// is "int", "decimal(2, 1)" is "decimal(2,1)", {"type": "array", ...} is "array<int>".
  std::vector<std::string> column_types;
};

/// Every case of every `*.json` under `dir`, files in name order, cases in file order.
Result<std::vector<GoldCase>> LoadGoldCases(const std::string& dir);

/// Whether `query` ends in an ORDER BY of its own (outside parentheses, literals and comments):
/// only then is the order of its rows defined.
bool HasTopLevelOrderBy(std::string_view query);

/// Equal in order when `ordered`, else as multisets. With `trim`, blanks at either end of a row
/// do not count: the gold corpus recorded its rows trimmed (`ltrim('  a  ')` is recorded `a`).
bool RowsMatch(std::vector<std::string> expected, std::vector<std::string> actual, bool ordered,
               bool trim);

struct KnownFailure {
  std::string file;
  std::string query;
  std::string reason;
};

/// Reads the known-failures list: one `file<TAB>query<TAB>reason` a line, tabs, newlines and
/// backslashes within a field escaped as \t, \n and \\; `#` starts a comment line.
Result<std::vector<KnownFailure>> ReadKnownFailures(const std::string& path);
/// One line of that list (without the newline).
std::string KnownFailureLine(const KnownFailure& failure);
/// Rewrites the list: `header` (comment lines), then the entries.
Status WriteKnownFailures(const std::string& path, const std::string& header,
                          const std::vector<KnownFailure>& failures);

}  // namespace epoxy::conformance
