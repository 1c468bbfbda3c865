// SPDX-License-Identifier: Apache-2.0
// Grok patterns, as Glue's grok classifiers and GrokSerDe use them: a regular expression written
// with named building blocks (`%{IPORHOST:client} %{NUMBER:bytes:int}`), run on RE2.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"
#include "epoxy/types/data_type.h"

namespace re2 {
class RE2;
}

namespace epoxy::grok {

/// One named capture of a pattern: `%{PATTERN:name:type}` or `(?<name>...)`.
struct GrokField {
  std::string name;
  TypePtr type;  // string unless the capture names one of Glue's grok types
};

/// A compiled grok pattern. Immutable and safe to share between threads.
class GrokPattern {
 public:
  /// Expands `pattern` with the standard named patterns and `custom_patterns` (one `NAME regex`
  /// definition per line; blank lines and `#` comments ignored; they override the standard ones)
  /// and compiles it. Errors name the unknown pattern, the cycle, the bad type or RE2's complaint.
  static Result<GrokPattern> Compile(std::string_view pattern, std::string_view custom_patterns = {});

  const std::vector<GrokField>& fields() const { return fields_; }
  /// The expanded regular expression (for error messages and `explain`).
  const std::string& regex() const { return regex_; }

  /// Matches the whole of `line`. On a match, `values` gets one entry per field (a view into
  /// `line`; `matched[i]` is false for a capture that took no part in the match).
  bool Match(std::string_view line, std::vector<std::string_view>* values, std::vector<bool>* matched) const;

 private:
  std::shared_ptr<const re2::RE2> re_;
  std::string regex_;
  std::vector<GrokField> fields_;
  std::vector<int> group_of_field_;  // RE2 capture group index of each field
  std::vector<std::pair<size_t, int>> extra_groups_;  // (field, group) for names captured twice
  int num_groups_ = 0;
};

/// The standard pattern library, `NAME regex` per line (what Glue documents as built in).
std::string_view StandardGrokPatterns();

/// Glue's grok types: byte, boolean, double, short, int, long, float (and string).
Result<TypePtr> GrokType(std::string_view name);

}  // namespace epoxy::grok
