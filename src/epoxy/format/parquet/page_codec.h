// SPDX-License-Identifier: Apache-2.0
// Compression of Parquet pages: every codec the format names that Debian's libraries cover.
#pragma once

#include <string>
#include <string_view>

#include "epoxy/common/result.h"
#include "epoxy/format/parquet/metadata.h"
#include "epoxy/memory/buffer.h"

namespace epoxy::parquet {

/// Decompresses one page body into exactly `uncompressed_size` bytes; any other size is corruption.
/// The output buffer is charged to the memory pool, so a page claiming a huge size against the
/// limit fails with OutOfMemory before anything is inflated.
Result<BufferPtr> DecompressPage(int32_t codec, std::string_view input, int64_t uncompressed_size);

/// Compresses one page body: the result is `input` itself (none) or a view into `*scratch`, which
/// the caller keeps across pages. Supported for writing: none, snappy, gzip, zstd, lz4_raw, brotli.
Result<std::string_view> CompressPage(Codec codec, std::string_view input, std::string* scratch);

/// Parses a --compression name ("snappy", "zstd", "gzip", "lz4_raw", "brotli", "none").
Result<Codec> ParseCodecName(std::string_view name);

/// CRC-32 (gzip's polynomial) of a page body, as Parquet stores it.
uint32_t PageCrc(std::string_view bytes);

}  // namespace epoxy::parquet
