// SPDX-License-Identifier: Apache-2.0
// Cutting a SQL script (`epoxy sql "a; b"`, `epoxy sql -f FILE`) into its statements.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace epoxy::cli {

/// One statement of a script: its text (comments kept, the `;` dropped) and the line it starts on.
struct ScriptStatement {
  std::string text;
  int line = 1;
};

/// Splits `script` at the `;` that stand outside string literals ('...' and "...", with
/// backslash escapes), backquoted names and comments (`-- ...` to the end of the line, `/* ... */`
/// nested as Spark nests them). Statements holding only blanks and comments are left out. An
/// unterminated literal or comment runs to the end of the script, where the statement parser
/// reports it.
std::vector<ScriptStatement> SplitSqlScript(std::string_view script);

}  // namespace epoxy::cli
