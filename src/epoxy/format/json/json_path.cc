// SPDX-License-Identifier: Apache-2.0
// JsonPath parsing.
#include "epoxy/format/json/json_path.h"

namespace epoxy {

Result<JsonPath> JsonPath::Parse(std::string_view text) {
  JsonPath path;
  auto error = [&](size_t pos, std::string_view what) {
    return Status::InvalidInput("jsonPath '{}': {} at position {}", text, what, pos);
  };
  if (text.empty() || text[0] != '$') return error(0, "must start with '$'");
  size_t i = 1;
  while (i < text.size()) {
    if (text[i] == '.') {
      ++i;
      if (i < text.size() && text[i] == '*') {
        path.steps_.push_back({JsonPathStep::Kind::kWildcard, "", 0});
        ++i;
        continue;
      }
      size_t start = i;
      while (i < text.size() && text[i] != '.' && text[i] != '[') ++i;
      if (i == start) return error(start, "expected a field name");
      path.steps_.push_back({JsonPathStep::Kind::kField, std::string(text.substr(start, i - start)), 0});
    } else if (text[i] == '[') {
      ++i;
      if (i < text.size() && text[i] == '*') {
        ++i;
        if (i >= text.size() || text[i] != ']') return error(i, "expected ']'");
        ++i;
        path.steps_.push_back({JsonPathStep::Kind::kWildcard, "", 0});
      } else if (i < text.size() && (text[i] == '\'' || text[i] == '"')) {
        char q = text[i++];
        size_t close = text.find(q, i);
        if (close == std::string_view::npos) return error(i, "unclosed quoted name");
        std::string name(text.substr(i, close - i));
        i = close + 1;
        if (i >= text.size() || text[i] != ']') return error(i, "expected ']'");
        ++i;
        path.steps_.push_back({JsonPathStep::Kind::kField, std::move(name), 0});
      } else {
        size_t start = i;
        int64_t index = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
          if (index > (INT64_MAX - 9) / 10) return error(start, "index too large");
          index = index * 10 + (text[i] - '0');
          ++i;
        }
        if (i == start || i >= text.size() || text[i] != ']') return error(start, "expected an index or '*'");
        ++i;
        path.steps_.push_back({JsonPathStep::Kind::kIndex, "", index});
      }
    } else {
      return error(i, "expected '.' or '['");
    }
  }
  return path;
}

}  // namespace epoxy
