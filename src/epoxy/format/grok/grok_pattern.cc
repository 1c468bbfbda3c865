// SPDX-License-Identifier: Apache-2.0
// Grok expansion and matching on RE2.
#include "epoxy/format/grok/grok_pattern.h"

#include <algorithm>
#include <map>

#include <re2/re2.h>

namespace epoxy::grok {
namespace {

constexpr size_t kMaxExpandedSize = 1 << 20;  // bounds what a recursive definition can blow up to
constexpr int kMaxDepth = 64;

bool IsPatternNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Reads `NAME regex` definitions into `defs`, later ones replacing earlier ones.
Status AddDefinitions(std::string_view text, std::string_view origin, std::map<std::string, std::string, std::less<>>* defs) {
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos || line[start] == '#') continue;
    line.remove_prefix(start);
    size_t name_end = 0;
    while (name_end < line.size() && IsPatternNameChar(line[name_end])) ++name_end;
    size_t body = line.find_first_not_of(" \t", name_end);
    if (name_end == 0 || name_end == line.size() || (line[name_end] != ' ' && line[name_end] != '\t') ||
        body == std::string_view::npos) {
      return Status::InvalidInput("{} line {}: expected 'NAME regex', got '{}'", origin, line_no, line);
    }
    (*defs)[std::string(line.substr(0, name_end))] = std::string(line.substr(body));
  }
  return Status::OK();
}

class Expander {
 public:
  explicit Expander(const std::map<std::string, std::string, std::less<>>& defs) : defs_(defs) {}

  Result<std::string> Expand(std::string_view text, int depth) {
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
      if (text.compare(i, 2, "%{") == 0) {
        size_t close = text.find('}', i + 2);
        if (close == std::string_view::npos) return Status::InvalidInput("grok: unclosed '%{{' in '{}'", text);
        EPOXY_RETURN_NOT_OK(Reference(text.substr(i + 2, close - i - 2), depth, &out));
        i = close + 1;
      } else if (text.compare(i, 3, "(?<") == 0 && i + 3 < text.size() && text[i + 3] != '=' && text[i + 3] != '!') {
        // An Oniguruma-style named group, which grok patterns may use directly: a string field.
        size_t close = text.find('>', i + 3);
        if (close == std::string_view::npos) return Status::InvalidInput("grok: unclosed '(?<' in '{}'", text);
        out += "(?P<" + AddField(std::string(text.substr(i + 3, close - i - 3)), DataType::String()) + ">";
        i = close + 1;
      } else if (text[i] == '\\' && i + 1 < text.size()) {
        out.append(text.substr(i, 2));
        i += 2;
      } else {
        out.push_back(text[i++]);
      }
      if (out.size() > kMaxExpandedSize) return Status::InvalidInput("grok: the pattern expands beyond 1 MB");
    }
    return out;
  }

  std::vector<GrokField> fields;
  std::vector<std::vector<std::string>> field_groups;  // capture group names of each field

 private:
  /// Expands `%{NAME}`, `%{NAME:field}` or `%{NAME:field:type}` (the text between the braces).
  Status Reference(std::string_view spec, int depth, std::string* out) {
    std::vector<std::string_view> parts;
    for (size_t start = 0;;) {
      size_t colon = spec.find(':', start);
      parts.push_back(spec.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
      if (colon == std::string_view::npos) break;
      start = colon + 1;
    }
    std::string_view name = parts[0];
    if (parts.size() > 3 || name.empty() || !std::all_of(name.begin(), name.end(), IsPatternNameChar)) {
      return Status::InvalidInput("grok: '%{{{}}}' is not %{{PATTERN}}, %{{PATTERN:field}} or %{{PATTERN:field:type}}", spec);
    }
    auto def = defs_.find(name);
    if (def == defs_.end()) return Status::InvalidInput("grok: unknown pattern '{}'", name);
    if (std::find(stack_.begin(), stack_.end(), name) != stack_.end() || depth > kMaxDepth) {
      return Status::InvalidInput("grok: pattern '{}' refers to itself (through {})", name, fmt::join(stack_, " -> "));
    }
    stack_.emplace_back(name);
    EPOXY_ASSIGN_OR_RETURN(std::string inner, Expand(def->second, depth + 1));
    stack_.pop_back();
    if (parts.size() == 1 || parts[1].empty()) {
      *out += "(?:" + inner + ")";
      return Status::OK();
    }
    TypePtr type = DataType::String();
    if (parts.size() == 3) {
      auto t = GrokType(parts[2]);
      if (!t.ok()) return Status::InvalidInput("grok: field '{}': {}", parts[1], t.status().message());
      type = *t;
    }
    *out += "(?P<" + AddField(std::string(parts[1]), type) + ">" + inner + ")";
    return Status::OK();
  }

  /// Our own group name for a capture of `name`: field names may repeat (alternatives) and may
  /// hold characters RE2 does not allow in group names.
  std::string AddField(std::string name, TypePtr type) {
    std::string group = "epoxy_g" + std::to_string(num_groups_++);
    auto it = std::find_if(fields.begin(), fields.end(), [&](const GrokField& f) { return f.name == name; });
    if (it == fields.end()) {
      fields.push_back({std::move(name), std::move(type)});
      field_groups.emplace_back();
      it = fields.end() - 1;
    }
    field_groups[static_cast<size_t>(it - fields.begin())].push_back(group);
    return group;
  }

  const std::map<std::string, std::string, std::less<>>& defs_;
  std::vector<std::string> stack_;
  int num_groups_ = 0;
};

}  // namespace

Result<TypePtr> GrokType(std::string_view name) {
  if (name == "byte") return DataType::TinyInt();
  if (name == "boolean") return DataType::Boolean();
  if (name == "double") return DataType::Double();
  if (name == "short") return DataType::SmallInt();
  if (name == "int") return DataType::Int();
  if (name == "long") return DataType::BigInt();
  if (name == "float") return DataType::Float();
  if (name == "string") return DataType::String();
  return Status::InvalidInput("unknown grok type '{}' (known: byte, boolean, double, short, int, long, float, string)", name);
}

Result<GrokPattern> GrokPattern::Compile(std::string_view pattern, std::string_view custom_patterns) {
  std::map<std::string, std::string, std::less<>> defs;
  EPOXY_RETURN_NOT_OK(AddDefinitions(StandardGrokPatterns(), "standard grok patterns", &defs));
  EPOXY_RETURN_NOT_OK(AddDefinitions(custom_patterns, "custom grok patterns", &defs));
  Expander expander(defs);
  EPOXY_ASSIGN_OR_RETURN(std::string regex, expander.Expand(pattern, 0));
  if (expander.fields.empty()) {
    return Status::InvalidInput("grok pattern '{}' names no field (write %{{PATTERN:field}})", pattern);
  }
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(64 << 20);
  auto re = std::make_shared<RE2>(regex, options);
  if (!re->ok()) return Status::InvalidInput("grok pattern '{}': {}", pattern, re->error());
  GrokPattern out;
  out.num_groups_ = re->NumberOfCapturingGroups();
  const auto& names = re->NamedCapturingGroups();
  for (const auto& groups : expander.field_groups) {
    // Several captures of one name (in alternatives): the first that took part wins.
    out.group_of_field_.push_back(names.at(groups[0]));
    for (size_t k = 1; k < groups.size(); ++k) out.extra_groups_.push_back({out.group_of_field_.size() - 1, names.at(groups[k])});
  }
  out.re_ = std::move(re);
  out.regex_ = std::move(regex);
  out.fields_ = std::move(expander.fields);
  return out;
}

bool GrokPattern::Match(std::string_view line, std::vector<std::string_view>* values, std::vector<bool>* matched) const {
  std::vector<re2::StringPiece> groups(static_cast<size_t>(num_groups_) + 1);
  if (!re_->Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::ANCHOR_BOTH, groups.data(),
                  num_groups_ + 1)) {
    return false;
  }
  values->assign(fields_.size(), std::string_view());
  matched->assign(fields_.size(), false);
  auto take = [&](size_t field, int group) {
    const re2::StringPiece& g = groups[static_cast<size_t>(group)];
    if ((*matched)[field] || g.data() == nullptr) return;
    (*values)[field] = std::string_view(g.data(), g.size());
    (*matched)[field] = true;
  };
  for (size_t f = 0; f < fields_.size(); ++f) take(f, group_of_field_[f]);
  for (const auto& [field, group] : extra_groups_) take(field, group);
  return true;
}

}  // namespace epoxy::grok
