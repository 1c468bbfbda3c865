// SPDX-License-Identifier: Apache-2.0
// ParallelBlockReader: reads files block by block on one thread and parses the blocks on the pool,
// handing batches back in file order. Text formats (CSV, JSON Lines) plug in a BlockFormat.
#pragma once

#include <deque>
#include <optional>
#include <memory>
#include <vector>

#include "epoxy/format/block_reader.h"
#include "epoxy/format/record_reader.h"

namespace epoxy {

/// What a format learns from a file's first block (a CSV header and column types, ...).
class FileContext {
 public:
  virtual ~FileContext() = default;
  /// Whether the whole file must be parsed as one block (a multi-line JSON document).
  virtual bool whole_file() const { return false; }
};

/// One text format's parsing. StartFile runs on the reading thread; ParseBlock on any pool thread,
/// concurrently, so it must not touch mutable state of the format.
class BlockFormat {
 public:
  virtual ~BlockFormat() = default;
  /// How to find the end of the last whole record in a block.
  virtual RecordBoundaryFn Boundary() const = 0;
  /// Called with each file's first block. `first` is null for an empty file.
  virtual Result<std::shared_ptr<const FileContext>> StartFile(const std::string& path,
                                                               const Block* first) = 0;
  /// Parses whole records into a batch (nullptr or an empty batch when there are none); malformed
  /// records go to `errors` with line numbers counted from 1 at the block's first byte.
  /// `*num_newlines` receives the block's count of '\n' bytes, so the reader can number the
  /// lines of the blocks after it.
  virtual Result<BatchPtr> ParseBlock(const std::string& path, const Block& block,
                                      const FileContext& context, std::vector<RecordError>* errors,
                                      int64_t* num_newlines) const = 0;
};

class ParallelBlockReader final : public RecordReader {
 public:
  ParallelBlockReader(std::unique_ptr<BlockFormat> format, std::vector<FileInfo> files,
                      const ReadOptions& options);
  ~ParallelBlockReader() override;

  Result<BatchPtr> Next() override;

 private:
  struct Slot;
  /// A block with what its parse needs (the file's path and context).
  struct Item {
    Block block;
    std::string path;
    std::shared_ptr<const FileContext> context;
    bool whole_small_file = false;  // the whole of a small file: may share a task with others
  };
  /// Schedules parse tasks until the window is full or the input ends.
  Status FillWindow();
  /// The next block (or the one looked ahead at), with its path and context.
  Result<std::optional<Item>> NextItem();
  /// The next block of the current or a following file, or nullopt at the end of the input.
  Result<std::optional<Block>> NextBlock();
  void WaitFor(Slot& slot);

  std::unique_ptr<BlockFormat> format_;
  std::vector<FileInfo> files_;
  ReadOptions options_;
  ThreadPool* pool_;
  size_t window_;
  size_t next_file_ = 0;
  std::unique_ptr<BlockReader> current_;
  std::shared_ptr<const FileContext> context_;
  std::deque<std::shared_ptr<Slot>> slots_;
  std::optional<Item> lookahead_;
  std::deque<BatchPtr> ready_;  // further batches of a grouped task, handed out before the next slot
  bool input_done_ = false;
  // Line numbering at delivery: lines of the current file's blocks handed out so far.
  std::string delivered_path_;
  int64_t delivered_lines_ = 0;
};

}  // namespace epoxy
