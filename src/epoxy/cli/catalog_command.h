// SPDX-License-Identifier: Apache-2.0
// `epoxy catalog ...`: the Data Catalog from the command line.
#pragma once

#include <string>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct CatalogArgs {
  std::string catalog;      // --catalog URI ("" for $EPOXY_HOME/catalog.db)
  std::string action;       // databases, create-database, tables, table, partitions, versions, ...
  std::vector<std::string> names;  // positional: database, table
  bool json = false;
  std::string expression;
  std::string location;
  std::string columns;      // "name:type,..."
  std::string partition_keys;
  std::string format = "parquet";
  std::string values;       // "v1,v2"
};

/// Runs one catalog action; errors carry Glue's exception names.
Result<int> RunCatalog(const CatalogArgs& args);

}  // namespace epoxy::cli
