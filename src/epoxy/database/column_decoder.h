// SPDX-License-Identifier: Apache-2.0
// Turns the text cells of fetched rows into typed columns: the text is collected, then cast as
// Spark casts strings (a value that does not convert is an error naming the column and value,
// never a silent null).
#pragma once

#include <vector>

#include "epoxy/database/client.h"
#include "epoxy/database/type_mapping.h"

namespace epoxy::database {

/// Column `column` of `block`, rows `rows` (all when null), as `mapping.type`.
Result<ArrayPtr> DecodeColumn(const RowBlock& block, int column, const std::vector<int32_t>* rows,
                              const ColumnMapping& mapping, MemoryPool* pool);

/// A row's identity: a hash of the text of columns [first, first + count), nulls told apart from
/// empty text. Bookmarks remember the rows they read at the boundary by it.
uint64_t RowIdentity(const RowBlock& block, int64_t row, int first, int count);

}  // namespace epoxy::database
