// SPDX-License-Identifier: Apache-2.0
// BlockReader: cuts one file (decompressed if needed) into blocks that end on record boundaries,
// so that each block can be parsed on its own thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "epoxy/format/compression.h"

namespace epoxy {

/// Bytes of whole records from one file. Line numbers inside a block are counted from 1 by the
/// parse task; the reader adds the lines of the blocks before it (counting them here, on the one
/// reading thread, would serialise a full pass over the data).
struct Block {
  BufferPtr data;
  int64_t byte_offset = 0;  // offset of data[0] in the (decompressed) file
  bool first_in_file = false;
  int64_t padding = 0;      // bytes readable (not part of the block) after data's end
};

/// Returns the length of the longest prefix of `data` that ends right after a record, or 0 when
/// `data` holds no complete record. `data` always starts at a record boundary.
using RecordBoundaryFn = std::function<int64_t(std::string_view data)>;

/// Not thread-safe; one producer pulls blocks and hands them to parse tasks.
class BlockReader {
 public:
  /// `block_size` is a target: a block grows past it only to finish a record.
  static Result<std::unique_ptr<BlockReader>> Open(const FileInfo& file, int64_t block_size,
                                                   RecordBoundaryFn boundary);

  /// The next block, or nullopt at the end of the file. The last block holds whatever remains,
  /// even without a final newline.
  Result<std::optional<Block>> Next();

  Compression compression() const { return compression_; }
  const std::string& path() const { return path_; }

 private:
  BlockReader() = default;
  Result<std::optional<Block>> NextMapped();
  Result<std::optional<Block>> NextDecompressed();
  Block MakeBlock(BufferPtr data);

  std::string path_;
  int64_t block_size_ = 0;
  RecordBoundaryFn boundary_;
  Compression compression_ = Compression::kNone;
  std::shared_ptr<const RandomAccessFile> file_;
  // Uncompressed input: the whole file is one zero-copy view.
  BufferPtr whole_;
  int64_t position_ = 0;
  // Compressed input: decompressed bytes not yet handed out.
  std::unique_ptr<DecompressingReader> decompressor_;
  BufferBuilder pending_;
  bool input_done_ = false;
  // Shared bookkeeping.
  int64_t next_offset_ = 0;
  bool first_ = true;
};

/// Boundary after the last '\n' (JSON Lines, and CSV without quotes).
int64_t LastNewlineBoundary(std::string_view data);

}  // namespace epoxy
