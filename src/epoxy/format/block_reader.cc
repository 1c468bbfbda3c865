// SPDX-License-Identifier: Apache-2.0
// BlockReader over mapped and decompressed files.
#include "epoxy/format/block_reader.h"

#include <algorithm>
#include <cstring>

namespace epoxy {
namespace {
constexpr int64_t kDecompressedPadding = 64;
}  // namespace

int64_t LastNewlineBoundary(std::string_view data) {
  const void* p = memrchr(data.data(), '\n', data.size());
  if (p == nullptr) return 0;
  return static_cast<const char*>(p) - data.data() + 1;
}

Result<std::unique_ptr<BlockReader>> BlockReader::Open(const FileInfo& info, int64_t block_size,
                                                       RecordBoundaryFn boundary) {
  EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(info.path));
  EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs->OpenListed(info));
  std::unique_ptr<BlockReader> reader(new BlockReader());
  reader->path_ = info.path;
  reader->block_size_ = std::max<int64_t>(block_size, 1);
  reader->boundary_ = std::move(boundary);
  reader->file_ = std::move(file);
  // A small file is read whole at once (one request on S3), and its compression told from that.
  constexpr int64_t kReadWholeFirst = 4 << 20;
  const int64_t size = reader->file_->size();
  BufferPtr whole;
  if (size > 0 && size <= kReadWholeFirst) {
    EPOXY_ASSIGN_OR_RETURN(whole, reader->file_->ReadAt(0, size));
  }
  BufferPtr head = whole;
  if (head == nullptr) {
    EPOXY_ASSIGN_OR_RETURN(head, reader->file_->ReadAt(0, 8));
  }
  reader->compression_ = DetectCompression(info.path, head->view().substr(0, 8));
  if (size == 0) {
    reader->input_done_ = true;
    reader->whole_ = head;  // empty
  } else if (reader->compression_ == Compression::kNone) {
    if (whole == nullptr) {
      EPOXY_ASSIGN_OR_RETURN(whole, reader->file_->ReadAt(0, size));
    }
    reader->whole_ = std::move(whole);
  } else {
    EPOXY_ASSIGN_OR_RETURN(reader->decompressor_,
                           DecompressingReader::Make(reader->file_, reader->compression_));
  }
  return reader;
}

Block BlockReader::MakeBlock(BufferPtr data) {
  Block block;
  block.byte_offset = next_offset_;
  block.first_in_file = first_;
  first_ = false;
  next_offset_ += data->size();
  block.data = std::move(data);
  return block;
}

Result<std::optional<Block>> BlockReader::Next() {
  if (decompressor_ != nullptr) return NextDecompressed();
  return NextMapped();
}

Result<std::optional<Block>> BlockReader::NextMapped() {
  int64_t size = whole_ ? whole_->size() : 0;
  if (position_ >= size) return std::optional<Block>();
  int64_t window = block_size_;
  while (true) {
    int64_t end = std::min(size, position_ + window);
    if (end == size) break;  // the rest of the file is the last block
    std::string_view data(reinterpret_cast<const char*>(whole_->data()) + position_,
                          static_cast<size_t>(end - position_));
    int64_t cut = boundary_(data);
    if (cut > 0) {
      BufferPtr block = Buffer::Slice(whole_, position_, cut);
      position_ += cut;
      Block b = MakeBlock(std::move(block));
      b.padding = size - position_ + file_->padding();
      return std::optional<Block>(std::move(b));
    }
    window *= 2;  // one record longer than the window: look further
  }
  BufferPtr block = Buffer::Slice(whole_, position_, size - position_);
  position_ = size;
  Block b = MakeBlock(std::move(block));
  b.padding = file_->padding();
  return std::optional<Block>(std::move(b));
}

Result<std::optional<Block>> BlockReader::NextDecompressed() {
  while (true) {
    if (!input_done_) {
      // Read in bounded steps: a whole-file block has a huge block_size_.
      int64_t want = std::min<int64_t>(
          std::max<int64_t>(block_size_ - pending_.size(), block_size_ / 4), 16 << 20);
      EPOXY_RETURN_NOT_OK(pending_.Reserve(want));
      EPOXY_ASSIGN_OR_RETURN(int64_t n,
                             decompressor_->Read(pending_.mutable_data() + pending_.size(), want));
      pending_.UnsafeAdvance(n);
      if (n == 0) input_done_ = true;
      if (!input_done_ && pending_.size() < block_size_) continue;
    }
    if (pending_.size() == 0) return std::optional<Block>();
    int64_t cut = pending_.size();
    if (!input_done_) {
      std::string_view data(reinterpret_cast<const char*>(pending_.data()),
                            static_cast<size_t>(pending_.size()));
      cut = boundary_(data);
      if (cut == 0) {
        EPOXY_RETURN_NOT_OK(pending_.Reserve(pending_.size()));  // grow for a long record
        continue;
      }
    }
    int64_t total = pending_.size();
    EPOXY_RETURN_NOT_OK(pending_.Reserve(kDecompressedPadding));  // readable tail for parsers
    EPOXY_ASSIGN_OR_RETURN(BufferPtr all, pending_.Finish());
    if (cut < total) {
      EPOXY_RETURN_NOT_OK(pending_.Append(all->data() + cut, total - cut));
    }
    Block b = MakeBlock(Buffer::Slice(all, 0, cut));
    b.padding = total - cut + kDecompressedPadding;
    return std::optional<Block>(std::move(b));
  }
}

}  // namespace epoxy
