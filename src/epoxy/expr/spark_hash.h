// SPDX-License-Identifier: Apache-2.0
// Spark's `hash()`: Murmur3 x86 32-bit over each argument in turn (seed 42), with Spark's own
// treatment of each type, so epoxy's hashes equal Spark's (bucketing, sampling, dedup keys).
#pragma once

#include <cstdint>

#include "epoxy/vector/array.h"

namespace epoxy::expr {

/// Spark's Murmur3 of one 4-byte and one 8-byte value, and of bytes (its tail differs from the
/// reference Murmur3: each remaining byte is mixed as a whole signed int).
int32_t SparkHashInt(int32_t value, int32_t seed);
int32_t SparkHashLong(int64_t value, int32_t seed);
int32_t SparkHashBytes(const uint8_t* data, int64_t size, int32_t seed);

/// Folds row `row` of `array` into `seed` the way Spark's Murmur3Hash does (a null leaves the
/// seed unchanged; arrays, maps and structs hash their elements in order).
int32_t SparkHashValue(const Array& array, int64_t row, int32_t seed);

}  // namespace epoxy::expr
