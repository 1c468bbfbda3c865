// SPDX-License-Identifier: Apache-2.0
// Whole-file compression of text inputs (gzip, zstd, bzip2): detection and streaming decompression.
#pragma once

#include <memory>
#include <string_view>

#include "epoxy/storage/file_system.h"

namespace epoxy {

enum class Compression { kNone, kGzip, kZstd, kBzip2 };

/// The name Glue uses in the `compressionType` table parameter ("none", "gzip", "zstd", "bzip2").
std::string_view CompressionName(Compression c);
/// By magic bytes first (so a misnamed file still reads), then by extension.
Compression DetectCompression(std::string_view path, std::string_view first_bytes);

/// Sequential decompressed bytes of one file. Not thread-safe.
class DecompressingReader {
 public:
  virtual ~DecompressingReader() = default;
  /// Fills up to `capacity` bytes; returns 0 only at the end. A truncated or corrupt stream is an
  /// InvalidData error naming the file.
  virtual Result<int64_t> Read(uint8_t* out, int64_t capacity) = 0;

  static Result<std::unique_ptr<DecompressingReader>> Make(
      std::shared_ptr<const RandomAccessFile> file, Compression compression);
};

}  // namespace epoxy
