// SPDX-License-Identifier: Apache-2.0
// Bounding batches in bytes: a decoded row group whose string values are too large for one batch
// (string offsets are 32-bit) is cut into row ranges, and each leaf's levels and values sliced to
// a range, so the assembler builds one batch per range.
#pragma once

#include <utility>
#include <vector>

#include "epoxy/format/parquet/column_chunk_reader.h"

namespace epoxy::parquet {

struct LeafLevels {
  int16_t max_def = 0;
  int16_t max_rep = 0;
};

/// Row ranges [start, end) covering `num_rows`, each holding at most `max_bytes` of the string
/// values of `leaves` (indexes into `data`), except a single row that is larger on its own. One
/// range when everything fits.
std::vector<std::pair<int64_t, int64_t>> RowRanges(const std::vector<LeafData>& data, const std::vector<int>& leaves,
                                                   const std::vector<LeafLevels>& levels, int64_t num_rows,
                                                   int64_t max_bytes);

/// The entries of `leaf` for rows [start, end). String values stay views into `leaf`'s pages,
/// so `leaf` must outlive the slice.
LeafData SliceLeaf(const LeafData& leaf, LeafLevels levels, int64_t start, int64_t end);

}  // namespace epoxy::parquet
