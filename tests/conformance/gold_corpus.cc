// SPDX-License-Identifier: Apache-2.0
// Loading the gold cases and the known-failures list; comparing rows.
#include "gold_corpus.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "epoxy/types/data_type.h"

namespace epoxy::conformance {
namespace {

std::string StructFieldName(const std::string& name) {
  return NeedsQuoting(name) ? "`" + name + "`" : name;
}

std::string SimpleTypeString(std::string name) {
  for (size_t at; (at = name.find(", ")) != std::string::npos;) name.erase(at + 1, 1);  // decimal(2, 1)
  if (name == "integer") return "int";
  if (name == "long") return "bigint";
  if (name == "short") return "smallint";
  if (name == "byte") return "tinyint";
  if (name == "void") return "null";
  return name;
}

std::string TypeString(const nlohmann::json& type) {
  if (type.is_string()) return SimpleTypeString(type.get<std::string>());
  const std::string kind = type.value("type", "");
  if (kind == "array") return "array<" + TypeString(type["elementType"]) + ">";
  if (kind == "map") {
    return "map<" + TypeString(type["keyType"]) + "," + TypeString(type["valueType"]) + ">";
  }
  if (kind == "struct") {
    std::string out = "struct<";
    bool first = true;
    for (const auto& field : type["fields"]) {
      if (!first) out += ',';
      first = false;
      out += StructFieldName(field.value("name", "")) + ":" + TypeString(field["type"]);
    }
    return out + ">";
  }
  return kind.empty() ? type.dump() : kind;  // a user-defined type: its JSON as written
}

std::string Unescape(std::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 1 < field.size()) {
      char next = field[++i];
      out += next == 't' ? '\t' : next == 'n' ? '\n' : next;
    } else {
      out += field[i];
    }
  }
  return out;
}

std::string Escape(std::string_view field) {
  std::string out;
  for (char c : field) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

Result<std::vector<GoldCase>> LoadGoldCases(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".json") files.push_back(it->path());
  }
  if (ec) return Status::IOError("cannot list {}: {}", dir, ec.message());
  std::sort(files.begin(), files.end());
  std::vector<GoldCase> cases;
  for (const auto& path : files) {
    std::ifstream in(path);
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.contains("cases") || !doc["cases"].is_array()) {
      return Status::InvalidData("{}: not a gold case file (no \"cases\" array)", path.string());
    }
    const std::string file = std::filesystem::relative(path, dir).generic_string();
    for (const auto& c : doc["cases"]) {
      if (!c.contains("query") || !c["query"].is_string() || !c.contains("result") ||
          !c["result"].is_array()) {
        return Status::InvalidData("{}: a case without a query and a result", file);
      }
      GoldCase gold;
      gold.file = file;
      gold.query = c["query"].get<std::string>();
      for (const auto& row : c["result"]) gold.rows.push_back(row.get<std::string>());
      if (c.contains("schema") && c["schema"].contains("fields")) {
        for (const auto& field : c["schema"]["fields"]) {
          gold.column_names.push_back(field.value("name", ""));
          gold.column_types.push_back(TypeString(field["type"]));
        }
      }
      cases.push_back(std::move(gold));
    }
  }
  return cases;
}

bool HasTopLevelOrderBy(std::string_view q) {
  int depth = 0;
  std::string previous_word;
  bool last_top_level_order_by = false;
  for (size_t i = 0; i < q.size();) {
    char c = q[i];
    if (c == '-' && i + 1 < q.size() && q[i + 1] == '-') {
      while (i < q.size() && q[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < q.size() && q[i + 1] == '*') {
      size_t end = q.find("*/", i + 2);
      i = end == std::string_view::npos ? q.size() : end + 2;
    } else if (c == '\'' || c == '"' || c == '`') {
      ++i;
      while (i < q.size() && q[i] != c) i += (q[i] == '\\' && c != '`') ? 2 : 1;
      ++i;
    } else if (c == '(') {
      ++depth;
      ++i;
    } else if (c == ')') {
      --depth;
      ++i;
    } else if (IsWordChar(c)) {
      size_t start = i;
      while (i < q.size() && IsWordChar(q[i])) ++i;
      std::string word(q.substr(start, i - start));
      for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (depth == 0) {
        if (word == "by" && previous_word == "order") last_top_level_order_by = true;
        // A later set operation orders nothing of what came before; a later ORDER BY still does.
        if (word == "union" || word == "intersect" || word == "except") {
          last_top_level_order_by = false;
        }
        previous_word = word;
      }
    } else {
      ++i;
    }
  }
  return last_top_level_order_by;
}

bool RowsMatch(std::vector<std::string> expected, std::vector<std::string> actual, bool ordered,
               bool trim) {
  if (trim) {
    auto strip = [](std::string& row) {
      const char* blanks = " \t\n\r\f\v";
      size_t end = row.find_last_not_of(blanks);
      row.erase(end == std::string::npos ? 0 : end + 1);
      row.erase(0, row.find_first_not_of(blanks));
    };
    for (auto& row : expected) strip(row);
    for (auto& row : actual) strip(row);
  }
  if (!ordered) {
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
  }
  return expected == actual;
}

Result<std::vector<KnownFailure>> ReadKnownFailures(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot read the known-failures list {}", path);
  std::vector<KnownFailure> failures;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    size_t a = line.find('\t');
    size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos) {
      return Status::InvalidData("{}:{}: want file<TAB>query<TAB>reason", path, number);
    }
    failures.push_back({Unescape(std::string_view(line).substr(0, a)),
                        Unescape(std::string_view(line).substr(a + 1, b - a - 1)),
                        Unescape(std::string_view(line).substr(b + 1))});
  }
  return failures;
}

std::string KnownFailureLine(const KnownFailure& f) {
  return Escape(f.file) + "\t" + Escape(f.query) + "\t" + Escape(f.reason);
}

Status WriteKnownFailures(const std::string& path, const std::string& header,
                          const std::vector<KnownFailure>& failures) {
  std::ostringstream text;
  text << header;
  for (const auto& f : failures) text << KnownFailureLine(f) << '\n';
  std::ofstream out(path, std::ios::trunc);
  out << text.str();
  out.close();
  if (!out) return Status::IOError("cannot write {}", path);
  return Status::OK();
}

}  // namespace epoxy::conformance
