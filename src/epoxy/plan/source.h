// SPDX-License-Identifier: Apache-2.0
// Resolving what a scan reads: a folder (its format, `key=value` partition folders and the
// schema of its files) or a catalog table.
#pragma once

#include <string>
#include <vector>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/plan/logical_plan.h"

namespace epoxy::plan {

/// A folder, file or glob of `format` files. Partition keys come from `key=value` folders (typed
/// as Spark infers them: int, bigint, double, date or string); the data schema from the first file.
Result<ScanSource> ResolveFileSource(FileFormat format, const std::string& path, const FormatOptions& options = {});

/// A catalog table: its location, format (from `classification`), reader options (from its
/// SerDe), columns and partition keys.
Result<ScanSource> ResolveCatalogSource(catalog::CatalogStore& store, const std::string& database,
                                        const std::string& table);

/// The `key=value` partition folders below `root`, walked folder by folder (no files listed).
/// `keys` gets the key names of the first one; folders that do not fit are left out. Empty when
/// `root` has no partition folders.
Result<std::vector<PartitionDir>> DiscoverPartitions(const std::string& root, std::vector<std::string>* keys);

/// Whether a listed file holds data: not empty, and not named like `_SUCCESS`, `.crc` or other
/// hidden and marker files.
bool IsDataFile(const FileInfo& file);

/// Spark's partition value type inference over every value of one key.
TypePtr InferPartitionType(const std::vector<PartitionDir>& partitions, size_t key);

}  // namespace epoxy::plan
