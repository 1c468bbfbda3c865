// SPDX-License-Identifier: Apache-2.0
// How source and sink options arrive from Python: names in any case, lists as JSON or commas.
#pragma once

#include <cctype>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace epoxy::database {

inline std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// A list option: a JSON array (["a","b"]) or comma-separated names.
inline std::vector<std::string> ListValue(const std::string& text) {
  std::vector<std::string> out;
  if (!text.empty() && text.front() == '[') {
    auto parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_array()) {
      for (const auto& v : parsed) {
        if (v.is_string()) out.push_back(v.get<std::string>());
      }
      return out;
    }
  }
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    part.erase(0, part.find_first_not_of(" \t"));
    part.erase(part.find_last_not_of(" \t") + 1);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace epoxy::database
