// SPDX-License-Identifier: Apache-2.0
// JsonPath: the subset of JSONPath Glue's jsonPath option and JSON classifiers use.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy {

/// "$", ".name", "['name']", "[*]", ".*", "[n]" steps from the root.
struct JsonPathStep {
  enum class Kind { kField, kIndex, kWildcard } kind;
  std::string name;
  int64_t index = 0;
};

class JsonPath {
 public:
  static Result<JsonPath> Parse(std::string_view text);
  const std::vector<JsonPathStep>& steps() const { return steps_; }
  bool is_root() const { return steps_.empty(); }

 private:
  std::vector<JsonPathStep> steps_;
};

}  // namespace epoxy
