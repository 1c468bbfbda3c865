// SPDX-License-Identifier: Apache-2.0
// `epoxy sql "SELECT ..."`: a query over catalog tables and files, printed like `epoxy cat`.
#pragma once

#include <string>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct SqlArgs {
  std::string query;
  std::string output = "table";  // table | csv | jsonl
  int64_t max_rows = -1;         // table output: rows shown (-1: 20)
  bool profile = false;          // the run's metrics on stderr
  bool json = false;             // with --profile: as one JSON object
  bool explain = false;          // print the optimized plan instead of running it
  std::string catalog;
  std::string database = "default";
};

Result<int> RunSql(const SqlArgs& args);

}  // namespace epoxy::cli
