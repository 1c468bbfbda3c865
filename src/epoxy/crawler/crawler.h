// SPDX-License-Identifier: Apache-2.0
// Crawlers: turn folders or buckets of files into catalog tables with partitions, the way Glue's
// crawlers do, with Glue's policies (schema change, deletion, recrawl, grouping).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

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

/// Runs crawler `name` (defined in `store`). Fails with CrawlerRunningException (kAlreadyExists)
/// when it is running already; records the crawl in the crawler's history either way.
Result<CrawlSummary> RunCrawler(catalog::CatalogStore& store, const std::string& name,
                                const CrawlProgress& progress = nullptr);

/// "events-2026" -> "events_2026": Glue's table names (lower case, [a-z0-9_], with the prefix,
/// at most 128 characters).
std::string TableNameFor(const std::string& folder, const std::string& prefix);

}  // namespace epoxy::crawler
