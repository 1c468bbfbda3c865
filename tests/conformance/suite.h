// SPDX-License-Identifier: Apache-2.0
// A conformance suite: cases with expected rows, run one by one, checked against a list of known
// failures that may only shrink, and reported by group.
#pragma once

#include <string>
#include <vector>

#include "case_runner.h"

namespace epoxy::conformance {

struct SuiteCase {
  std::string group;  // what counts are reported by: the gold file, the function's doc group
  std::string owner;  // the case's first key in the known-failures list: the gold file, the function
  std::string query;  // its second key
  std::vector<std::string> rows;
  bool ordered = false;
  bool trim_rows = false;  // blanks at either end of a row do not count (the gold corpus's rows)
  bool has_schema = false;  // the expected output schema below is known
  std::vector<std::string> column_names;
  std::vector<std::string> column_types;
};

struct SuiteOptions {
  std::string name;        // "Spark gold", "function examples"
  std::string known_path;  // the known-failures list
  std::string known_header;  // the list's comment lines, for --update-known
  bool update_known = false;  // rewrite the list from this run instead of checking it
  bool check_stale = true;    // lines naming no case fail (false when a filter chose the cases)
  bool isolate = true;        // each case in a child process
  bool verbose = false;       // print known failures and schema differences too
  RunnerOptions runner;
};

/// Runs every case and prints the report. Returns the process exit code: 0 when every failing
/// case is listed and every listed case fails, 1 otherwise, 2 when the list cannot be read or
/// written.
int RunSuite(const std::vector<SuiteCase>& cases, const SuiteOptions& options);

}  // namespace epoxy::conformance
