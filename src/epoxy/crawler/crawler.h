// SPDX-License-Identifier: Apache-2.0
// Crawlers: turn folders or buckets of files into catalog tables with partitions, the way Glue's
// crawlers do, with Glue's policies (schema change, deletion, recrawl, grouping).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"

namespace epoxy::crawler {

/// What one crawl did (Glue's crawl metrics, plus file counts and the log).
struct CrawlSummary {
  int64_t tables_created = 0;
  int64_t tables_updated = 0;
  int64_t tables_deleted = 0;
  int64_t partitions_added = 0;
  int64_t files_listed = 0;
  int64_t files_read = 0;
  int64_t files_skipped = 0;
  std::map<std::string, int64_t> skipped_reasons;
  std::vector<std::string> log;  // one line per decision worth knowing (conflicts, skips, ...)
  bool database_created = false;
  double seconds = 0;
};

/// Called as files are read: (files done, files to read).
using CrawlProgress = std::function<void(int64_t done, int64_t total)>;

/// Asked now and then during a crawl: true ends it (CANCELLED) before it writes to the catalog.
using StopRequested = std::function<bool()>;

/// Runs crawler `name` (defined in `store`) in this thread. A definition that cannot run is
/// refused before anything is recorded; CrawlerRunningException (kAlreadyExists) when it is
/// running already; otherwise the crawl is in the crawler's history, however it ends.
Result<CrawlSummary> RunCrawler(catalog::CatalogStore& store, const std::string& name,
                                const CrawlProgress& progress = nullptr);

/// A crawl recorded as RUNNING, owned by this process.
struct StartedCrawl {
  std::string crawler, crawl_id;
  double start_time = 0;
  nlohmann::json extra = nlohmann::json::object();  // kept in the history entry
};

/// The two halves of RunCrawler, for a server that answers StartCrawler at once and crawls in
/// the background: BeginCrawl makes the crawler RUNNING (CrawlerRunningException when it is not
/// READY); CompleteCrawl crawls and records the outcome, a definition that cannot run included
/// (as a FAILED crawl, as Glue records it).
/// `crawl_id` empty: a new one. `extra` members go into the crawl's history entry (a workflow run).
Result<StartedCrawl> BeginCrawl(catalog::CatalogStore& store, const std::string& name,
                                const std::string& crawl_id = "", const nlohmann::json* extra = nullptr);
Result<CrawlSummary> CompleteCrawl(catalog::CatalogStore& store, const StartedCrawl& started,
                                   const CrawlProgress& progress, const StopRequested& stop_requested);

/// Marks FAILED the running crawl of `name` whose process is gone (a killed `epoxy crawl`, or a
/// server that stopped mid-crawl); returns whether there was one.
Result<bool> SettleDeadCrawl(catalog::CatalogStore& store, const std::string& name);

/// A new crawl id (a random UUID).
std::string NewCrawlId();

/// "events-2026" -> "events_2026": Glue's table names (lower case, [a-z0-9_], with the prefix,
/// at most 128 characters).
std::string TableNameFor(const std::string& folder, const std::string& prefix);

}  // namespace epoxy::crawler
