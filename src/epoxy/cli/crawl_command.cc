// SPDX-License-Identifier: Apache-2.0
// `epoxy crawl` and `epoxy crawler ...`.
#include "epoxy/cli/crawl_command.h"

#include <unistd.h>

#include <cstdio>
#include <mutex>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/cli/read_session.h"
#include "epoxy/crawler/crawler.h"
#include "epoxy/types/value_text.h"

namespace epoxy::cli {
namespace {

using catalog::Json;

/// A progress line on a terminal, nothing otherwise.
crawler::CrawlProgress ProgressBar() {
  if (!isatty(STDERR_FILENO)) return nullptr;
  auto mu = std::make_shared<std::mutex>();
  return [mu](int64_t done, int64_t total) {
    std::lock_guard lock(*mu);
    int width = 30;
    int filled = total > 0 ? static_cast<int>(width * done / total) : width;
    std::fprintf(stderr, "\r[%s%s] %lld/%lld files", std::string(static_cast<size_t>(filled), '#').c_str(),
                 std::string(static_cast<size_t>(width - filled), ' ').c_str(), static_cast<long long>(done),
                 static_cast<long long>(total));
    if (done == total) std::fprintf(stderr, "\n");
    std::fflush(stderr);
  };
}

std::string SummaryText(const std::string& name, const crawler::CrawlSummary& s) {
  std::string out = fmt::format(
      "crawler {}: {} table(s) created, {} updated, {} deleted; {} partition(s) added; "
      "{} file(s) listed, {} read, {} skipped; {:.2f} s\n",
      name, s.tables_created, s.tables_updated, s.tables_deleted, s.partitions_added, s.files_listed,
      s.files_read, s.files_skipped, s.seconds);
  if (s.database_created) out += "  (the database was created)\n";
  for (const auto& [reason, count] : s.skipped_reasons) out += fmt::format("  skipped {}: {}\n", count, reason);
  // Each skipped file with its path, up to a limit (a million tiny files must not flood).
  constexpr int kMaxSkipLines = 20;
  int skip_lines = 0;
  for (const auto& line : s.log) {
    if (line.rfind("skipped ", 0) == 0 && ++skip_lines > kMaxSkipLines) continue;
    out += "  " + line + "\n";
  }
  if (skip_lines > kMaxSkipLines) {
    out += fmt::format("  ... and {} more skipped files (epoxy crawler history --json has them all)\n",
                       skip_lines - kMaxSkipLines);
  }
  return out;
}

Result<int> Report(const std::string& name, const Result<crawler::CrawlSummary>& result) {
  if (!result.ok()) return catalog::WithGlueErrorName(result.status());
  EPOXY_RETURN_NOT_OK(WriteStdout(SummaryText(name, *result)));
  return 0;
}

}  // namespace

Result<int> RunCrawl(const CrawlArgs& args) {
  if (args.database.empty()) return Status::InvalidInput("epoxy crawl needs --database");
  std::string update, del, recrawl;
  if (args.recrawl == "everything") recrawl = "CRAWL_EVERYTHING";
  else if (args.recrawl == "new-folders") recrawl = "CRAWL_NEW_FOLDERS_ONLY";
  else return Status::InvalidInput("--recrawl must be everything or new-folders");
  // Glue only allows LOG behaviours with CRAWL_NEW_FOLDERS_ONLY: old folders are never re-read.
  const bool new_folders = recrawl == "CRAWL_NEW_FOLDERS_ONLY";
  if (new_folders && ((!args.update_behavior.empty() && args.update_behavior != "log") ||
                      (!args.delete_behavior.empty() && args.delete_behavior != "log"))) {
    return Status::InvalidInput("--recrawl new-folders needs --update-behavior log and --delete-behavior log");
  }
  std::string update_behavior = args.update_behavior.empty() ? (new_folders ? "log" : "update") : args.update_behavior;
  std::string delete_behavior = args.delete_behavior.empty() ? (new_folders ? "log" : "deprecate") : args.delete_behavior;
  if (update_behavior == "update") update = "UPDATE_IN_DATABASE";
  else if (update_behavior == "log") update = "LOG";
  else return Status::InvalidInput("--update-behavior must be update or log");
  if (delete_behavior == "log") del = "LOG";
  else if (delete_behavior == "delete") del = "DELETE_FROM_DATABASE";
  else if (delete_behavior == "deprecate") del = "DEPRECATE_IN_DATABASE";
  else return Status::InvalidInput("--delete-behavior must be log, delete or deprecate");
  std::string path = args.path;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  std::string name = args.name;
  if (name.empty()) name = args.database + "_" + crawler::TableNameFor(path.substr(path.rfind('/') + 1), "");
  Json config = {{"Version", 1.0}};
  if (args.inherit_from_table) config["CrawlerOutput"]["Partitions"]["AddOrUpdateBehavior"] = "InheritFromTable";
  if (args.merge_new_columns) config["CrawlerOutput"]["Tables"]["AddOrUpdateBehavior"] = "MergeNewColumns";
  if (args.combine_compatible) config["Grouping"]["TableGroupingPolicy"] = "CombineCompatibleSchemas";
  if (args.table_level > 0) config["Grouping"]["TableLevelConfiguration"] = args.table_level;
  if (args.table_threshold > 0) config["CrawlerOutput"]["Tables"]["TableThreshold"] = args.table_threshold;
  Json target = {{"Path", path}, {"Exclusions", args.excludes}};
  if (args.sample_size > 0) target["SampleSize"] = args.sample_size;
  Json targets = {{"S3Targets", Json::array({target})}};
  if (!args.connection.empty()) {
    target["ConnectionName"] = args.connection;
    targets = {{"JdbcTargets", Json::array({target})}};
  }
  Json crawler = {{"Name", name},
                  {"Role", "epoxy"},
                  {"DatabaseName", args.database},
                  {"Targets", targets},
                  {"TablePrefix", args.table_prefix},
                  {"SchemaChangePolicy", {{"UpdateBehavior", update}, {"DeleteBehavior", del}}},
                  {"RecrawlPolicy", {{"RecrawlBehavior", recrawl}}},
                  {"Classifiers", args.classifiers},
                  {"Configuration", config.dump()}};
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::CatalogStore::Open(args.catalog));
  for (const auto& c : args.classifiers) EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(store->GetClassifier(c).status()));
  EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(store->PutCrawler(crawler)));
  return Report(name, crawler::RunCrawler(*store, name, ProgressBar()));
}

Result<int> RunCrawlerCommand(const CrawlerArgs& args) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::CatalogStore::Open(args.catalog));
  if (args.action == "list") {
    EPOXY_ASSIGN_OR_RETURN(auto crawlers, store->GetCrawlers());
    if (args.json) {
      EPOXY_RETURN_NOT_OK(WriteStdout(Json{{"Crawlers", crawlers}}.dump(2) + "\n"));
      return 0;
    }
    for (const auto& c : crawlers) {
      EPOXY_RETURN_NOT_OK(WriteStdout(fmt::format("{}  {}  {}\n", c.value("Name", ""), c.value("State", ""),
                                                  c.value("LastCrawl", Json::object()).value("Status", "-"))));
    }
    return 0;
  }
  if (args.name.empty()) return Status::InvalidInput("epoxy crawler {} needs a crawler NAME", args.action);
  if (args.action == "show") {
    auto c = store->GetCrawler(args.name);
    if (!c.ok()) return catalog::WithGlueErrorName(c.status());
    EPOXY_RETURN_NOT_OK(WriteStdout(Json{{"Crawler", *c}}.dump(2) + "\n"));
    return 0;
  }
  if (args.action == "run") return Report(args.name, crawler::RunCrawler(*store, args.name, ProgressBar()));
  if (args.action == "history") {
    auto crawls = store->GetCrawlHistory(args.name, 100);
    if (!crawls.ok()) return catalog::WithGlueErrorName(crawls.status());
    if (args.json) {
      EPOXY_RETURN_NOT_OK(WriteStdout(Json{{"Crawls", *crawls}}.dump(2) + "\n"));
      return 0;
    }
    for (const auto& c : *crawls) {
      const Json s = c.value("Summary", Json::object());
      EPOXY_RETURN_NOT_OK(WriteStdout(fmt::format(
          "{}  {}  created {} updated {} deleted {} partitions {} files read {} {}\n",
          FormatTimestamp(static_cast<int64_t>(c.value("StartTime", 0.0) * 1e6)),
          c.value("Status", ""), s.value("TablesCreated", 0), s.value("TablesUpdated", 0), s.value("TablesDeleted", 0),
          s.value("PartitionsAdded", 0), s.value("FilesRead", 0), c.value("ErrorMessage", ""))));
    }
    return 0;
  }
  return Status::InvalidInput("unknown crawler action '{}' (list, show, run, history)", args.action);
}

}  // namespace epoxy::cli
