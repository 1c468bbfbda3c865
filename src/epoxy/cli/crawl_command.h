// SPDX-License-Identifier: Apache-2.0
// `epoxy crawl` and `epoxy crawler ...`.
#pragma once

#include <string>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct CrawlArgs {
  std::string catalog;
  std::string path;
  std::string database;
  std::string name;            // default: the database and folder names
  std::string table_prefix;
  std::vector<std::string> excludes;
  int64_t sample_size = 0;
  std::string recrawl = "everything";           // everything | new-folders
  std::string update_behavior;  // update | log; default update, or log for new-folders recrawls
  std::string delete_behavior;  // log | delete | deprecate; default deprecate, or log likewise
  bool combine_compatible = false;
  bool inherit_from_table = false;
  bool merge_new_columns = false;
  int table_level = 0;
  int64_t table_threshold = 0;
  std::vector<std::string> classifiers;  // custom classifiers, in order
  std::string connection;  // a JDBC connection: `path` is then db/schema/table (a JdbcTarget)
};

/// Creates or updates the crawler definition and runs it; prints a summary.
Result<int> RunCrawl(const CrawlArgs& args);

struct CrawlerArgs {
  std::string catalog;
  std::string action;  // list | show | run | history
  std::string name;
  bool json = false;
};

Result<int> RunCrawlerCommand(const CrawlerArgs& args);

}  // namespace epoxy::cli
