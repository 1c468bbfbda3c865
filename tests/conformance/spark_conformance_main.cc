// SPDX-License-Identifier: Apache-2.0
// The Spark conformance runner: the gold cases (`spark_gold`) and every registry entry's
// documented examples (`function_examples`), each case through the `epoxy sql` session in a child
// process of its own. See README.md.
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "epoxy/expr/function_registry.h"
#include "gold_corpus.h"
#include "suite.h"

namespace epoxy::conformance {
namespace {

constexpr int kSkipped = 77;  // CTest's SKIP_RETURN_CODE

constexpr char kHeaderCommon[] =
    "# One case a line: its key, a tab, its query, a tab, the reason it fails (a tab, a newline or\n"
    "# a backslash within a field is written \\t, \\n or \\\\). The test fails when a case not\n"
    "# listed here fails, and when a listed case passes (delete its line: the list only shrinks).\n"
    "# Reasons: `not implemented yet`; `Spark 4: ...` where the expected answer is Spark 4's and\n"
    "# Spark 3.5 (Glue 5) has no such function or answers otherwise; `nondeterministic: ...`,\n"
    "# `environment: ...` and `no JVM: ...` for answers no engine can reproduce. Regenerate it\n"
    "# after your work (reasons already written are kept) with\n";

std::string GoldHeader() {
  return std::string("# Spark gold cases that do not pass yet; a case's key is its file.\n") +
         kHeaderCommon +
         "#   ninja -C build/test spark_gold_known_failures\n"
         "# (see tests/conformance/README.md).\n";
}

std::string ExamplesHeader() {
  return std::string(
             "# Documented function examples (doc.examples of the registry's entries) that do not\n"
             "# pass yet; an example's key is its function's name.\n") +
         kHeaderCommon +
         "#   ninja -C build/test function_examples_known_failures\n"
         "# (see tests/conformance/README.md).\n";
}

struct Flags {
  std::string mode;
  std::string cases_dir;
  std::string known_path;
  std::string filter;  // only cases whose file, function or query contains it
  bool update_known = false;
  bool isolate = true;
  bool verbose = false;
  int timeout_seconds = 60;
};

void Usage() {
  std::fputs(
      "usage: spark_conformance gold --cases DIR --known FILE [options]\n"
      "       spark_conformance examples --known FILE [options]\n"
      "options: --update-known (rewrite FILE from this run), --filter TEXT (only cases whose file,\n"
      "         function or query contains TEXT), --verbose (known failures and schema\n"
      "         differences too), --no-isolate (no child processes), --timeout SECONDS\n",
      stderr);
}

bool ParseFlags(int argc, char** argv, Flags* flags) {
  if (argc < 2) return false;
  flags->mode = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string number;
    if (arg == "--cases") {
      if (!value(&flags->cases_dir)) return false;
    } else if (arg == "--known") {
      if (!value(&flags->known_path)) return false;
    } else if (arg == "--filter") {
      if (!value(&flags->filter)) return false;
    } else if (arg == "--timeout") {
      if (!value(&number)) return false;
      flags->timeout_seconds = std::atoi(number.c_str());
      if (flags->timeout_seconds <= 0) return false;
    } else if (arg == "--update-known") {
      flags->update_known = true;
    } else if (arg == "--no-isolate") {
      flags->isolate = false;
    } else if (arg == "--verbose") {
      flags->verbose = true;
    } else {
      return false;
    }
  }
  return (flags->mode == "gold" || flags->mode == "examples") && !flags->known_path.empty();
}

bool Chosen(const Flags& flags, const std::string& owner, const std::string& query) {
  return flags.filter.empty() || owner.find(flags.filter) != std::string::npos ||
         query.find(flags.filter) != std::string::npos;
}

/// A scratch folder for the catalog of queries that name tables.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "spark_conformance.XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string CatalogUri() const { return path_.empty() ? "" : "sqlite://" + path_ + "/catalog.db"; }

 private:
  std::string path_;
};

int Main(const Flags& flags) {
  std::vector<SuiteCase> cases;
  SuiteOptions options;
  if (flags.mode == "gold") {
    if (flags.cases_dir.empty() || !std::filesystem::is_directory(flags.cases_dir)) {
      std::printf("SKIPPED: no Spark gold cases at '%s' (../shared is absent)\n",
                  flags.cases_dir.c_str());
      return kSkipped;
    }
    auto gold = LoadGoldCases(flags.cases_dir);
    if (!gold.ok()) {
      std::fprintf(stderr, "error: %s\n", gold.status().ToString().c_str());
      return 2;
    }
    for (GoldCase& g : *gold) {
      if (!Chosen(flags, g.file, g.query)) continue;
      SuiteCase c;
      c.group = g.file;
      c.owner = g.file;
      c.ordered = HasTopLevelOrderBy(g.query);
      c.trim_rows = true;
      c.query = std::move(g.query);
      c.rows = std::move(g.rows);
      c.has_schema = true;
      c.column_names = std::move(g.column_names);
      c.column_types = std::move(g.column_types);
      cases.push_back(std::move(c));
    }
    options.name = "Spark gold";
    options.known_header = GoldHeader();
  } else {
    int entries = 0, without_examples = 0;
    std::string undocumented;
    for (const expr::FunctionEntry* entry : expr::FunctionRegistry::Builtins().Entries()) {
      ++entries;
      if (entry->doc.examples.empty()) {
        ++without_examples;
        undocumented += " " + entry->name;
      }
      for (const expr::FunctionExample& example : entry->doc.examples) {
        if (!Chosen(flags, entry->name, example.query)) continue;
        SuiteCase c;
        c.group = entry->doc.group.empty() ? "(no group)" : entry->doc.group;
        c.owner = entry->name;
        c.query = example.query;
        c.rows = example.rows;
        c.ordered = example.ordered;
        cases.push_back(std::move(c));
      }
    }
    std::printf("%d of %d registry entries have no examples yet (informational)%s\n",
                without_examples, entries, flags.verbose ? (":" + undocumented).c_str() : "");
    options.name = "function examples";
    options.known_header = ExamplesHeader();
  }
  ScratchDir scratch;
  options.known_path = flags.known_path;
  options.update_known = flags.update_known;
  options.check_stale = flags.filter.empty();
  options.isolate = flags.isolate;
  options.verbose = flags.verbose;
  options.runner.catalog_uri = scratch.CatalogUri();
  options.runner.timeout_seconds = flags.timeout_seconds;
  if (flags.update_known && !flags.filter.empty()) {
    std::fprintf(stderr, "error: --update-known rewrites the whole list: run it without --filter\n");
    return 2;
  }
  return RunSuite(cases, options);
}

}  // namespace
}  // namespace epoxy::conformance

int main(int argc, char** argv) {
  // The engine's memory budget for each case (its pool reads it when a child first allocates),
  // unless the caller chose one.
  setenv("EPOXY_MEMORY_LIMIT", "2G", /*overwrite=*/0);
  epoxy::conformance::Flags flags;
  if (!epoxy::conformance::ParseFlags(argc, argv, &flags)) {
    epoxy::conformance::Usage();
    return 2;
  }
  return epoxy::conformance::Main(flags);
}
