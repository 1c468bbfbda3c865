// SPDX-License-Identifier: Apache-2.0
// The CatalogStore in one SQLite file (WAL mode, busy timeout, versioned migrations).
#pragma once

#include "epoxy/catalog/catalog_store.h"

namespace epoxy::catalog {

/// Opens (creating if needed) the catalog at `path`. A file that is not a catalog, is corrupt,
/// or was written by a newer epoxy is refused with an error saying so, and left unchanged.
Result<std::unique_ptr<CatalogStore>> OpenSqliteCatalog(const std::string& path);

}  // namespace epoxy::catalog
