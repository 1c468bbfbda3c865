// SPDX-License-Identifier: Apache-2.0
// Reads one column chunk: its pages, decompressed and decoded into definition and repetition
// levels and the non-null values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "epoxy/format/parquet/metadata.h"
#include "epoxy/storage/file_system.h"

namespace epoxy::parquet {

/// The decoded content of one column chunk.
struct LeafData {
  int64_t num_entries = 0;     // level entries (values, nulls and empty lists)
  /// Definition levels; empty when every entry's level is `uniform_def` (the column's max
  /// definition level is 0, or no entry of the chunk is null: the common flat column).
  std::vector<int16_t> def;
  int16_t uniform_def = 0;
  int16_t DefAt(int64_t i) const { return def.empty() ? uniform_def : def[static_cast<size_t>(i)]; }
  std::vector<int16_t> rep;    // empty when the column's max repetition level is 0
  // Non-null values, in order: fixed-width physical values packed `width` bytes apart (booleans
  // one byte each), or views for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
  int width = 0;
  std::string fixed;
  std::vector<std::string_view> binary;
  int64_t binary_bytes = 0;  // the sum of the sizes of `binary`'s values
  int64_t num_values = 0;
  std::vector<BufferPtr> pages;      // keep the bytes `binary` views point into
  std::vector<std::string> storage;  // values rebuilt by DELTA_BYTE_ARRAY
};

struct ChunkReadOptions {
  bool verify_crc = true;
};

/// Reads the chunk of leaf column `element` (max levels given) from `file`.
Status ReadColumnChunk(const RandomAccessFile& file, const ColumnChunk& chunk,
                       const SchemaElement& element, int16_t max_def, int16_t max_rep,
                       const ChunkReadOptions& options, LeafData* out);

}  // namespace epoxy::parquet
