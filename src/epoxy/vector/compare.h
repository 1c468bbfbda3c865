// SPDX-License-Identifier: Apache-2.0
// Spark's ordering of values: numbers with NaN above everything and -0.0 equal to 0.0, strings
// and binary by unsigned bytes, false before true, structs field by field and arrays element by
// element (nulls first inside them), then by length.
#pragma once

#include <cstdint>

#include "epoxy/vector/array.h"

namespace epoxy {

/// <0, 0 or >0 as row `i` of `a` orders before, with or after row `j` of `b` (same type, both
/// non-null at the top level).
int CompareValues(const Array& a, int64_t i, const Array& b, int64_t j);

/// Whether values of `type` can be ordered (maps and choices cannot).
bool IsOrderable(const DataType& type);

}  // namespace epoxy
