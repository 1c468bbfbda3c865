// SPDX-License-Identifier: Apache-2.0
// A crawler's JdbcTargets: the tables and views of a database, through a catalog connection, as
// catalog tables (classification postgresql or sqlite, Location db.schema.table, the columns with
// their types and the primary key), as Glue's JDBC crawlers make them.
#pragma once

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/crawler/crawler.h"

namespace epoxy::crawler {

/// Crawls every JdbcTarget of `crawler` (a Crawler document) into its database, adding to `summary`.
Status CrawlJdbcTargets(catalog::CatalogStore& store, const catalog::Json& crawler, CrawlSummary* summary);

}  // namespace epoxy::crawler
