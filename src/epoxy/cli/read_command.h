// SPDX-License-Identifier: Apache-2.0
// The commands that read files: `epoxy schema` and `epoxy cat`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "epoxy/common/result.h"
#include "epoxy/format/parquet/parquet_writer.h"

namespace epoxy::cli {

/// What `schema` and `cat` share: inputs, format and Glue format options.
struct ReadArgs {
  std::vector<std::string> paths;
  std::string format;                // empty: detect per file
  std::vector<std::string> options;  // "key=value"
};

struct SchemaArgs {
  ReadArgs read;
  bool catalog = false;  // print catalog types (choices widened) instead of DynamicFrame types
};

struct CatArgs {
  ReadArgs read;
  std::string output = "jsonl";  // jsonl | csv | table
  int64_t limit = -1;
};

/// Both print their result to stdout and malformed records to stderr. They return the exit code:
/// 0, or 1 when malformed records were skipped (after printing everything else); a failed Status
/// for errors that stop the command.
Result<int> RunSchema(const SchemaArgs& args);
Result<int> RunCat(const CatArgs& args);

/// The process exit code for a failed Status (2 invalid input, 3 not found, 4 bad data, ...).
int ExitCodeFor(const Status& status);

struct ConvertArgs {
  ReadArgs read;           // read.paths holds the inputs; the output is separate
  std::string output;      // a file, or a folder when it ends in '/' or already is one
  std::string to;          // parquet (default), csv or json
  std::string compression = "snappy";
  int64_t row_group_bytes = parquet::kDefaultRowGroupBytes;
};

/// Converts the inputs into OUTPUT; prints a summary to stderr.
Result<int> RunConvert(const ConvertArgs& args);

/// Prints a Parquet file's metadata as text, or as JSON with `json`.
Result<int> RunParquetMeta(const std::string& path, bool json);

}  // namespace epoxy::cli
