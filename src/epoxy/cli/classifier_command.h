// SPDX-License-Identifier: Apache-2.0
// `epoxy classifier ...`: custom classifiers for crawlers (Grok, CSV with explicit options, JSON path).
#pragma once

#include <string>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct ClassifierArgs {
  std::string catalog;
  std::string action;  // create-csv | create-json | create-grok | list | show | delete
  std::string name;
  bool update = false;  // replace an existing classifier's settings (UpdateClassifier)
  bool json = false;
  // create-csv
  std::string delimiter, quote, header = "unknown", serde;
  std::vector<std::string> columns, datatypes;
  bool allow_single_column = false, disable_value_trimming = false;
  // create-json
  std::string json_path;
  // create-grok
  std::string classification, pattern, custom_patterns, custom_patterns_file;
};

Result<int> RunClassifierCommand(const ClassifierArgs& args);

}  // namespace epoxy::cli
