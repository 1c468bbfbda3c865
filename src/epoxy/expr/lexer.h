// SPDX-License-Identifier: Apache-2.0
// Tokens of Spark SQL text, shared by the expression parser and the SQL front end.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::expr {

struct Token {
  enum class Kind { kIdentifier, kQuotedIdentifier, kNumber, kString, kOperator, kHint, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;  // identifiers as written, strings unescaped, operators as written
  size_t position = 0;  // byte offset in the source, for error messages

  /// An unquoted identifier equal to `keyword`, any case.
  bool IsKeyword(std::string_view keyword) const;
  bool IsOperator(std::string_view op) const { return kind == Kind::kOperator && text == op; }
};

/// Splits `text` into tokens ending with kEnd. Strings use '...' or "..." with backslash escapes
/// (Spark's default); identifiers may be `back-quoted` (`` doubles a backquote); comments
/// (`--` to end of line, `/* */`) are skipped, except hints (`/*+ ... */`), which become kHint
/// tokens holding their text. Errors give the position.
Result<std::vector<Token>> Tokenize(std::string_view text);

}  // namespace epoxy::expr
