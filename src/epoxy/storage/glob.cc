// SPDX-License-Identifier: Apache-2.0
// Glob matching with a dynamic-programming matcher (no exponential backtracking).
#include "epoxy/storage/glob.h"

#include <algorithm>
#include <set>

namespace epoxy {
namespace {

constexpr size_t kMaxAlternatives = 4096;

Status ExpandBraces(std::string_view pattern, std::vector<std::string>* out) {
  std::vector<std::string> results{""};
  size_t i = 0;
  while (i < pattern.size()) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      for (auto& r : results) r.append(pattern.substr(i, 2));
      i += 2;
      continue;
    }
    if (c == '{') {
      size_t close = pattern.find('}', i);
      if (close == std::string_view::npos) {
        return Status::InvalidInput("glob '{}': unclosed '{{' at position {}", pattern, i);
      }
      std::string_view body = pattern.substr(i + 1, close - i - 1);
      if (body.find('{') != std::string_view::npos) {
        return Status::InvalidInput("glob '{}': nested braces are not allowed", pattern);
      }
      std::vector<std::string_view> options;
      size_t start = 0;
      while (true) {
        size_t comma = body.find(',', start);
        options.push_back(body.substr(start, comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
      std::vector<std::string> next;
      for (const auto& r : results) {
        for (auto o : options) next.push_back(r + std::string(o));
      }
      if (next.size() > kMaxAlternatives) {
        return Status::InvalidInput("glob '{}' expands to too many alternatives", pattern);
      }
      results = std::move(next);
      i = close + 1;
      continue;
    }
    for (auto& r : results) r.push_back(c);
    ++i;
  }
  *out = std::move(results);
  return Status::OK();
}

/// Matches a class starting at pattern[p] == '['; sets *end past ']'. Returns false when the
/// class is malformed (then '[' is literal).
bool MatchClass(std::string_view pattern, size_t p, char c, size_t* end, bool* matched) {
  size_t i = p + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negate = true;
    ++i;
  }
  bool any = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    char lo = pattern[i];
    if (lo == '\\' && i + 1 < pattern.size()) lo = pattern[++i];
    char hi = lo;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      hi = pattern[i + 2];
      i += 2;
    }
    if (c >= lo && c <= hi) any = true;
    ++i;
  }
  if (i >= pattern.size()) return false;
  *end = i + 1;
  *matched = (any != negate) && c != '/';
  return true;
}

bool MatchOne(std::string_view pattern, std::string_view text) {
  // reachable[s] after consuming pattern up to p: can pattern[0..p) match text[0..s)?
  std::vector<char> reachable(text.size() + 1, 0), next(text.size() + 1, 0);
  reachable[0] = 1;
  size_t p = 0;
  while (p < pattern.size()) {
    std::fill(next.begin(), next.end(), 0);
    char c = pattern[p];
    size_t advance = 1;
    if (c == '*') {
      bool double_star = p + 1 < pattern.size() && pattern[p + 1] == '*';
      advance = double_star ? 2 : 1;
      for (size_t s = 0; s <= text.size(); ++s) {
        if (!reachable[s] && !(s > 0 && next[s - 1] && (double_star || text[s - 1] != '/'))) {
          continue;
        }
        next[s] = 1;
      }
    } else if (c == '?') {
      for (size_t s = 0; s < text.size(); ++s) {
        if (reachable[s] && text[s] != '/') next[s + 1] = 1;
      }
    } else if (c == '[') {
      size_t end = p + 1;
      bool class_ok = true;
      for (size_t s = 0; s < text.size(); ++s) {
        if (!reachable[s]) continue;
        bool matched = false;
        if (!MatchClass(pattern, p, text[s], &end, &matched)) {
          class_ok = false;
          break;
        }
        if (matched) next[s + 1] = 1;
      }
      if (class_ok) {
        bool dummy = false;
        if (MatchClass(pattern, p, 'a', &end, &dummy)) advance = end - p;
      } else {
        std::fill(next.begin(), next.end(), 0);  // literal '['
        for (size_t s = 0; s < text.size(); ++s) {
          if (reachable[s] && text[s] == '[') next[s + 1] = 1;
        }
      }
    } else {
      char literal = c;
      if (c == '\\' && p + 1 < pattern.size()) {
        literal = pattern[p + 1];
        advance = 2;
      }
      for (size_t s = 0; s < text.size(); ++s) {
        if (reachable[s] && text[s] == literal) next[s + 1] = 1;
      }
    }
    reachable.swap(next);
    p += advance;
  }
  return reachable[text.size()] != 0;
}

bool IsHiddenName(std::string_view name) {
  if (name.empty()) return false;
  if (name[0] == '.') return true;
  return name[0] == '_' && name.find('=') == std::string_view::npos;
}

/// Whether any level of `relative` is hidden.
bool IsHiddenRelative(std::string_view relative) {
  size_t start = 0;
  while (start <= relative.size()) {
    size_t slash = relative.find('/', start);
    std::string_view part = relative.substr(start, slash - start);
    if (IsHiddenName(part)) return true;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return false;
}

}  // namespace

Result<Glob> Glob::Compile(std::string_view pattern) {
  Glob glob;
  EPOXY_RETURN_NOT_OK(ExpandBraces(pattern, &glob.alternatives_));
  return glob;
}

bool Glob::Matches(std::string_view path) const {
  return std::any_of(alternatives_.begin(), alternatives_.end(),
                     [&](const std::string& alt) { return MatchOne(alt, path); });
}

bool HasGlobChars(std::string_view text) {
  return text.find_first_of("*?[{") != std::string_view::npos;
}

Result<std::vector<FileInfo>> ExpandPaths(const std::vector<std::string>& inputs) {
  std::vector<FileInfo> out;
  std::set<std::string> seen;
  auto add = [&](FileInfo info) {
    if (seen.insert(info.path).second) out.push_back(std::move(info));
  };
  for (const auto& raw : inputs) {
    EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(raw));
    std::string input = raw.starts_with("file://") ? raw.substr(7) : raw;
    if (input.empty()) return Status::InvalidInput("an empty path was given");
    if (HasGlobChars(input)) {
      // List from the deepest folder without glob characters, then match the rest.
      size_t first_meta = input.find_first_of("*?[{");
      size_t slash = input.rfind('/', first_meta);
      std::string root = slash == std::string::npos ? "." : input.substr(0, slash);
      if (root.empty()) root = "/";
      std::string_view rest = std::string_view(input).substr(slash == std::string::npos ? 0 : slash + 1);
      EPOXY_ASSIGN_OR_RETURN(Glob glob, Glob::Compile(rest));
      auto listed = fs->ListFiles(root, /*recursive=*/true);
      if (!listed.ok()) {
        if (listed.status().code() == StatusCode::kNotFound) continue;
        return listed.status();
      }
      std::string prefix = root == "/" ? "/" : root + "/";
      for (auto& info : *listed) {
        std::string_view relative = std::string_view(info.path).substr(prefix.size());
        if (glob.Matches(relative) && !IsHiddenRelative(relative)) add(std::move(info));
      }
      continue;
    }
    EPOXY_ASSIGN_OR_RETURN(FileInfo info, fs->GetFileInfo(input));
    if (!info.is_dir) {
      add(std::move(info));
      continue;
    }
    EPOXY_ASSIGN_OR_RETURN(auto listed, fs->ListFiles(input, /*recursive=*/true));
    std::string prefix = input.back() == '/' ? input : input + "/";
    for (auto& file : listed) {
      std::string_view relative = std::string_view(file.path).substr(prefix.size());
      if (!IsHiddenRelative(relative)) add(std::move(file));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
  return out;
}

}  // namespace epoxy
