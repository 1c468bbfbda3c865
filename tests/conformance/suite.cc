// SPDX-License-Identifier: Apache-2.0
// Running a suite and reporting it.
#include "suite.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "gold_corpus.h"

namespace epoxy::conformance {
namespace {

struct GroupCounts {
  int total = 0;
  int passed = 0;
  int failed = 0;  // failing and not listed
  int known = 0;   // failing and listed
  int fixed = 0;   // listed but passing
  int with_schema = 0;
  int schema_matched = 0;

  void Add(const GroupCounts& other) {
    total += other.total;
    passed += other.passed;
    failed += other.failed;
    known += other.known;
    fixed += other.fixed;
    with_schema += other.with_schema;
    schema_matched += other.schema_matched;
  }
};

std::string Rows(const std::vector<std::string>& rows) {
  if (rows.empty()) return "    (no rows)\n";
  std::string out;
  for (const auto& row : rows) out += "    " + row + "\n";
  return out;
}

std::string SchemaText(const std::vector<std::string>& names, const std::vector<std::string>& types) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += "`" + names[i] + "` " + (i < types.size() ? types[i] : "?");
  }
  return out;
}

std::string Detail(const SuiteCase& c, const CaseOutput& out) {
  std::string text = fmt::format("  {}: {}\n  expected ({}):\n{}", c.owner, c.query,
                                 c.ordered ? "in order" : "in any order", Rows(c.rows));
  text += out.ok ? "  got:\n" + Rows(out.rows) : "  error: " + out.error + "\n";
  return text;
}

void PrintCounts(const std::map<std::string, GroupCounts>& groups) {
  std::printf("%-28s %6s %6s %6s %6s %9s\n", "category", "cases", "passed", "failed", "known",
              "schema ok");
  GroupCounts all;
  auto line = [](const std::string& name, const GroupCounts& n) {
    std::string schema = n.with_schema > 0 ? std::to_string(n.schema_matched) : "-";
    std::printf("%-28s %6d %6d %6d %6d %9s\n", name.c_str(), n.total, n.passed, n.failed,
                n.known, schema.c_str());
  };
  for (const auto& [name, n] : groups) {
    line(name, n);
    all.Add(n);
  }
  line("all", all);
  if (all.total == 0) return;
  std::printf("passed %d of %d (%.1f%%)", all.passed, all.total, 100.0 * all.passed / all.total);
  if (all.with_schema > 0) {
    std::printf("; output schema (names and types) as Spark's in %d of %d (%.1f%%, informational)",
                all.schema_matched, all.with_schema, 100.0 * all.schema_matched / all.with_schema);
  }
  std::printf("\n");
}

}  // namespace

int RunSuite(const std::vector<SuiteCase>& cases, const SuiteOptions& options) {
  std::vector<KnownFailure> known_list;
  if (std::filesystem::exists(options.known_path)) {
    auto read = ReadKnownFailures(options.known_path);
    if (!read.ok()) {
      std::fprintf(stderr, "error: %s\n", read.status().ToString().c_str());
      return 2;
    }
    known_list = std::move(*read);
  } else if (!options.update_known) {
    std::fprintf(stderr, "error: no known-failures list at '%s'\n", options.known_path.c_str());
    return 2;
  }
  std::map<std::pair<std::string, std::string>, std::string> known;  // (owner, query) -> reason
  for (const auto& k : known_list) known[{k.file, k.query}] = k.reason;

  std::map<std::string, GroupCounts> groups;
  std::vector<KnownFailure> still_failing;
  std::set<std::pair<std::string, std::string>> seen;
  std::string unexpected, fixed;
  for (const SuiteCase& c : cases) {
    seen.insert({c.owner, c.query});
    CaseOutput out = options.isolate ? RunScriptIsolated(c.query, options.runner)
                                     : RunScript(c.query, options.runner);
    const bool passed = out.ok && RowsMatch(c.rows, out.rows, c.ordered, c.trim_rows);
    GroupCounts& count = groups[c.group];
    ++count.total;
    if (c.has_schema) {
      ++count.with_schema;
      if (out.ok && out.column_names == c.column_names && out.column_types == c.column_types) {
        ++count.schema_matched;
      } else if (out.ok && options.verbose) {
        std::printf("schema differs: %s: %s\n  expected: %s\n  got:      %s\n", c.owner.c_str(),
                    c.query.c_str(), SchemaText(c.column_names, c.column_types).c_str(),
                    SchemaText(out.column_names, out.column_types).c_str());
      }
    }
    auto listed = known.find({c.owner, c.query});
    if (passed) {
      ++count.passed;
      if (listed != known.end()) {
        ++count.fixed;
        fixed += KnownFailureLine({c.owner, c.query, listed->second}) + "\n";
      }
      continue;
    }
    still_failing.push_back(
        {c.owner, c.query, listed != known.end() ? listed->second : "not implemented yet"});
    if (listed != known.end()) {
      ++count.known;
      if (options.verbose) {
        std::printf("known failure (%s)\n%s", listed->second.c_str(), Detail(c, out).c_str());
      }
    } else {
      ++count.failed;
      unexpected += Detail(c, out);
    }
  }
  std::string stale;
  if (options.check_stale) {
    for (const auto& k : known_list) {
      if (!seen.count({k.file, k.query})) stale += KnownFailureLine(k) + "\n";
    }
  }

  std::printf("%s: %zu cases\n", options.name.c_str(), cases.size());
  PrintCounts(groups);
  if (options.update_known) {
    Status written = WriteKnownFailures(options.known_path, options.known_header, still_failing);
    if (!written.ok()) {
      std::fprintf(stderr, "error: %s\n", written.ToString().c_str());
      return 2;
    }
    std::printf("wrote %zu known failures to %s\n", still_failing.size(),
                options.known_path.c_str());
    return 0;
  }
  bool ok = true;
  if (!unexpected.empty()) {
    ok = false;
    std::printf("\nFAILED: these cases fail and are not on the known-failures list %s:\n%s",
                options.known_path.c_str(), unexpected.c_str());
  }
  if (!fixed.empty()) {
    ok = false;
    std::printf("\nFAILED: these listed cases pass now; delete their lines from %s:\n%s",
                options.known_path.c_str(), fixed.c_str());
  }
  if (!stale.empty()) {
    ok = false;
    std::printf("\nFAILED: these lines of %s name no case; delete them:\n%s",
                options.known_path.c_str(), stale.c_str());
  }
  return ok ? 0 : 1;
}

}  // namespace epoxy::conformance
