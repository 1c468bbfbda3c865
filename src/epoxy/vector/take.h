// SPDX-License-Identifier: Apache-2.0
// Take: gathers rows of an array (or of every column of a batch) by index, the kernel behind
// filters and other row selections.
#pragma once

#include <cstdint>
#include <vector>

#include "epoxy/vector/array.h"

namespace epoxy {

/// The rows of `source` at `indices`, in that order. REQUIRES: every index is in [0, length).
Result<ArrayPtr> Take(const Array& source, const std::vector<int32_t>& indices, MemoryPool* pool = nullptr);

/// Every column of `batch` taken at `indices`. Taking all rows in order returns `batch` itself.
Result<BatchPtr> TakeBatch(const BatchPtr& batch, const std::vector<int32_t>& indices, MemoryPool* pool = nullptr);

/// A row reference into a list of arrays: the array's index in the high 32 bits, the row in the
/// low 32. kNullRow stands for a null.
using RowRef = uint64_t;
inline constexpr RowRef kNullRow = UINT64_MAX;
inline RowRef MakeRowRef(uint32_t array, uint32_t row) { return (static_cast<uint64_t>(array) << 32) | row; }

/// The rows `refs` point at in `sources` (arrays of type `type`), in order; kNullRow gives null.
Result<ArrayPtr> TakeFrom(const std::vector<ArrayPtr>& sources, const std::vector<RowRef>& refs, const TypePtr& type,
                          MemoryPool* pool = nullptr);

/// Byte width of a fixed-width type's values (boolean counts 0: bit-packed); 0 for others.
int FixedWidthOf(TypeId id);

}  // namespace epoxy
