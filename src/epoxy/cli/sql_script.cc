// SPDX-License-Identifier: Apache-2.0
// The script splitter: a small scanner that knows only where statements cannot end.
#include "epoxy/cli/sql_script.h"

#include <cctype>

namespace epoxy::cli {

std::vector<ScriptStatement> SplitSqlScript(std::string_view script) {
  std::vector<ScriptStatement> statements;
  size_t start = 0;
  int line = 1;
  int start_line = 1;
  bool has_code = false;  // the current statement holds more than blanks and comments
  auto finish = [&](size_t end) {
    if (has_code) statements.push_back({std::string(script.substr(start, end - start)), start_line});
    has_code = false;
  };
  size_t i = 0;
  const size_t n = script.size();
  while (i < n) {
    const char c = script[i];
    if (c == '\n') {
      ++line;
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < n && script[i + 1] == '-') {
      while (i < n && script[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && script[i + 1] == '*') {
      if (!has_code && i + 2 < n && script[i + 2] == '+') {  // a hint /*+ ... */ is code
        has_code = true;
        start = i;
        start_line = line;
      }
      int depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (script[i] == '\n') ++line;
        if (script[i] == '/' && i + 1 < n && script[i + 1] == '*') {
          ++depth;
          i += 2;
        } else if (script[i] == '*' && i + 1 < n && script[i + 1] == '/') {
          --depth;
          i += 2;
        } else {
          ++i;
        }
      }
      continue;
    }
    if (!has_code && !std::isspace(static_cast<unsigned char>(c)) && c != ';') {
      has_code = true;
      start = i;
      start_line = line;
    }
    if (c == '\'' || c == '"' || c == '`') {
      ++i;
      while (i < n && script[i] != c) {
        if (script[i] == '\n') ++line;
        if (script[i] == '\\' && c != '`' && i + 1 < n) {
          if (script[i + 1] == '\n') ++line;
          ++i;
        }
        ++i;
      }
      ++i;  // the closing quote
      continue;
    }
    if (c == ';') {
      finish(i);
      ++i;
      continue;
    }
    ++i;
  }
  finish(n);
  return statements;
}

}  // namespace epoxy::cli
