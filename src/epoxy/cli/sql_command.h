// SPDX-License-Identifier: Apache-2.0
// `epoxy sql "SELECT ...; SELECT ..."` and `epoxy sql -f FILE`: statements over catalog tables
// and files, each one's rows printed in turn (like `epoxy cat`, or as spark-sql prints them).
#pragma once

#include <string>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct SqlArgs {
  std::string query;             // one or more `;`-separated statements
  std::string file;              // -f: read the statements from this file instead
  std::vector<std::string> conf; // --conf key=value: session settings
  std::string output = "table";  // table | csv | jsonl | spark
  int64_t max_rows = -1;         // table output: rows shown (-1: 20)
  bool profile = false;          // the run's metrics on stderr
  bool json = false;             // with --profile: as one JSON object
  bool explain = false;          // print the optimized plan instead of running it
  std::string catalog;
  std::string database = "default";
  // --write: the result goes to a folder instead of stdout.
  std::string write_path;
  std::string to = "parquet";                 // parquet | csv | json
  std::vector<std::string> partition_by;      // partitionKeys
  std::string mode = "error";                 // error | append | overwrite | ignore
  std::string target_file_size = "128M";
  int64_t max_records_per_file = 0;
  std::string compression = "snappy";
};

Result<int> RunSql(const SqlArgs& args);

}  // namespace epoxy::cli
