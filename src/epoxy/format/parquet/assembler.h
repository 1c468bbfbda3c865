// SPDX-License-Identifier: Apache-2.0
// Rebuilds Arrow-layout arrays (structs, lists, maps, nulls at every level) from the definition
// and repetition levels and values of a row group's leaf columns.
#pragma once

#include <vector>

#include "epoxy/format/parquet/column_chunk_reader.h"
#include "epoxy/format/parquet/schema.h"
#include "epoxy/vector/array.h"

namespace epoxy::parquet {

/// The array of top-level field `field` for one row group of `num_rows` rows. `leaves[i]` holds
/// column i's decoded chunk (only the leaves under `field` are used; flat columns may take their
/// decoded bytes over).
Result<ArrayPtr> AssembleField(const SchemaNode& field, std::vector<LeafData>& leaves,
                               int64_t num_rows);

}  // namespace epoxy::parquet
