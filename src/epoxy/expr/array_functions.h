// SPDX-License-Identifier: Apache-2.0
// Kernels of the array functions (size, sort_array, array_sort), called from functions.cc.
#pragma once

#include "epoxy/expr/datum.h"

namespace epoxy::expr {

/// size(array or map): the number of elements, -1 for null (Spark's default).
Result<ArrayPtr> ArraySize(const Datum& a, int64_t n, MemoryPool* pool);

/// Each array with its elements ordered by Spark's ordering; nulls first or last.
Result<ArrayPtr> SortArray(const Datum& a, int64_t n, bool ascending, bool nulls_first, MemoryPool* pool);

}  // namespace epoxy::expr
