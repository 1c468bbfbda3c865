// SPDX-License-Identifier: Apache-2.0
// Glue's glob dialect, and turning user paths (files, folders, globs) into file lists.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "epoxy/storage/file_system.h"

namespace epoxy {

/// A compiled glob: `*` matches within one path level, `**` across levels, `?` one character,
/// `[abc]`, `[a-z]`, `[!a-c]` a class, `{a,b}` alternatives (not nested), `\` escapes.
class Glob {
 public:
  static Result<Glob> Compile(std::string_view pattern);
  /// Whether `path` (relative, '/'-separated) matches. Runs in O(pattern * path) time.
  bool Matches(std::string_view path) const;

 private:
  std::vector<std::string> alternatives_;  // braces expanded
};

/// Whether `text` contains glob metacharacters.
bool HasGlobChars(std::string_view text);

/// Expands each input (a file, a folder read recursively, or a glob) into the files it names,
/// sorted and without duplicates. Names starting with '.' or '_' are skipped inside folders and
/// globs (as Spark and Glue skip _SUCCESS and hidden files), except '_' names holding a '='
/// partition; a file named directly is always read.
Result<std::vector<FileInfo>> ExpandPaths(const std::vector<std::string>& inputs);

}  // namespace epoxy
