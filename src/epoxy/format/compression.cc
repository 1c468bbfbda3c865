// SPDX-License-Identifier: Apache-2.0
// Streaming gzip (zlib), zstd and bzip2 decompression.
#include "epoxy/format/compression.h"

#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>

namespace epoxy {
namespace {

constexpr int64_t kInputChunk = 1 << 20;

/// Hands out the compressed file in chunks without copying.
class ChunkedInput {
 public:
  explicit ChunkedInput(std::shared_ptr<const RandomAccessFile> file) : file_(std::move(file)) {}
  /// Next chunk, empty at the end.
  Result<BufferPtr> Next() {
    EPOXY_ASSIGN_OR_RETURN(BufferPtr chunk, file_->ReadAt(offset_, kInputChunk));
    offset_ += chunk->size();
    return chunk;
  }
  const std::string& path() const { return file_->path(); }

 private:
  std::shared_ptr<const RandomAccessFile> file_;
  int64_t offset_ = 0;
};

class GzipReader final : public DecompressingReader {
 public:
  explicit GzipReader(std::shared_ptr<const RandomAccessFile> file) : input_(std::move(file)) {}
  ~GzipReader() override {
    if (initialized_) inflateEnd(&stream_);
  }

  Status Init() {
    std::memset(&stream_, 0, sizeof(stream_));
    if (inflateInit2(&stream_, 15 + 32) != Z_OK) return Status::Internal("inflateInit2 failed");
    initialized_ = true;
    return Status::OK();
  }

  Result<int64_t> Read(uint8_t* out, int64_t capacity) override {
    stream_.next_out = out;
    stream_.avail_out = static_cast<uInt>(std::min<int64_t>(capacity, UINT32_MAX));
    while (stream_.avail_out > 0 && !finished_) {
      if (stream_.avail_in == 0) {
        EPOXY_ASSIGN_OR_RETURN(chunk_, input_.Next());
        if (chunk_->size() == 0) {
          if (!member_done_) {
            return Status::InvalidData("'{}': gzip stream is truncated", input_.path());
          }
          finished_ = true;
          break;
        }
        stream_.next_in = const_cast<Bytef*>(chunk_->data());
        stream_.avail_in = static_cast<uInt>(chunk_->size());
      }
      member_done_ = false;
      int rc = inflate(&stream_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        // Another gzip member may follow (concatenated .gz files are valid).
        member_done_ = true;
        inflateReset(&stream_);
        continue;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        return Status::InvalidData("'{}': corrupt gzip data ({})", input_.path(),
                                   stream_.msg ? stream_.msg : "inflate failed");
      }
    }
    return capacity - static_cast<int64_t>(stream_.avail_out);
  }

 private:
  ChunkedInput input_;
  BufferPtr chunk_;
  z_stream stream_;
  bool initialized_ = false;
  bool member_done_ = false;
  bool finished_ = false;
};

class ZstdReader final : public DecompressingReader {
 public:
  explicit ZstdReader(std::shared_ptr<const RandomAccessFile> file)
      : input_(std::move(file)), stream_(ZSTD_createDStream()) {}
  ~ZstdReader() override { ZSTD_freeDStream(stream_); }

  Result<int64_t> Read(uint8_t* out, int64_t capacity) override {
    ZSTD_outBuffer output{out, static_cast<size_t>(capacity), 0};
    while (output.pos < output.size && !finished_) {
      if (in_.pos == in_.size) {
        EPOXY_ASSIGN_OR_RETURN(chunk_, input_.Next());
        if (chunk_->size() == 0) {
          if (last_hint_ != 0) {
            return Status::InvalidData("'{}': zstd stream is truncated", input_.path());
          }
          finished_ = true;
          break;
        }
        in_ = {chunk_->data(), static_cast<size_t>(chunk_->size()), 0};
      }
      last_hint_ = ZSTD_decompressStream(stream_, &output, &in_);
      if (ZSTD_isError(last_hint_)) {
        return Status::InvalidData("'{}': corrupt zstd data ({})", input_.path(),
                                   ZSTD_getErrorName(last_hint_));
      }
    }
    return static_cast<int64_t>(output.pos);
  }

 private:
  ChunkedInput input_;
  BufferPtr chunk_;
  ZSTD_DStream* stream_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  size_t last_hint_ = 1;  // 0 once a frame is complete
  bool finished_ = false;
};

class Bzip2Reader final : public DecompressingReader {
 public:
  explicit Bzip2Reader(std::shared_ptr<const RandomAccessFile> file) : input_(std::move(file)) {}
  ~Bzip2Reader() override {
    if (initialized_) BZ2_bzDecompressEnd(&stream_);
  }

  Status Init() {
    std::memset(&stream_, 0, sizeof(stream_));
    if (BZ2_bzDecompressInit(&stream_, 0, 0) != BZ_OK) return Status::Internal("bzip2 init failed");
    initialized_ = true;
    return Status::OK();
  }

  Result<int64_t> Read(uint8_t* out, int64_t capacity) override {
    stream_.next_out = reinterpret_cast<char*>(out);
    stream_.avail_out = static_cast<unsigned>(std::min<int64_t>(capacity, UINT32_MAX));
    while (stream_.avail_out > 0 && !finished_) {
      if (stream_.avail_in == 0) {
        EPOXY_ASSIGN_OR_RETURN(chunk_, input_.Next());
        if (chunk_->size() == 0) {
          if (!stream_done_) {
            return Status::InvalidData("'{}': bzip2 stream is truncated", input_.path());
          }
          finished_ = true;
          break;
        }
        stream_.next_in = const_cast<char*>(reinterpret_cast<const char*>(chunk_->data()));
        stream_.avail_in = static_cast<unsigned>(chunk_->size());
      }
      if (stream_done_) {
        // A further concatenated bzip2 stream follows.
        BZ2_bzDecompressEnd(&stream_);
        char* next_in = stream_.next_in;
        unsigned avail_in = stream_.avail_in;
        char* next_out = stream_.next_out;
        unsigned avail_out = stream_.avail_out;
        std::memset(&stream_, 0, sizeof(stream_));
        if (BZ2_bzDecompressInit(&stream_, 0, 0) != BZ_OK) return Status::Internal("bzip2 init failed");
        stream_.next_in = next_in;
        stream_.avail_in = avail_in;
        stream_.next_out = next_out;
        stream_.avail_out = avail_out;
        stream_done_ = false;
      }
      int rc = BZ2_bzDecompress(&stream_);
      if (rc == BZ_STREAM_END) {
        stream_done_ = true;
        continue;
      }
      if (rc != BZ_OK) {
        return Status::InvalidData("'{}': corrupt bzip2 data (error {})", input_.path(), rc);
      }
    }
    return capacity - static_cast<int64_t>(stream_.avail_out);
  }

 private:
  ChunkedInput input_;
  BufferPtr chunk_;
  bz_stream stream_;
  bool initialized_ = false;
  bool stream_done_ = false;
  bool finished_ = false;
};

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone: return "none";
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
    case Compression::kBzip2: return "bzip2";
  }
  return "none";
}

Compression DetectCompression(std::string_view path, std::string_view head) {
  if (head.size() >= 2 && static_cast<uint8_t>(head[0]) == 0x1f &&
      static_cast<uint8_t>(head[1]) == 0x8b) {
    return Compression::kGzip;
  }
  if (head.size() >= 4 && static_cast<uint8_t>(head[0]) == 0x28 &&
      static_cast<uint8_t>(head[1]) == 0xb5 && static_cast<uint8_t>(head[2]) == 0x2f &&
      static_cast<uint8_t>(head[3]) == 0xfd) {
    return Compression::kZstd;
  }
  if (head.size() >= 4 && head.substr(0, 3) == "BZh" && head[3] >= '1' && head[3] <= '9') {
    return Compression::kBzip2;
  }
  if (head.empty()) {
    // An empty file still names its compression by extension; reading it gives a clear error.
    if (EndsWith(path, ".gz") || EndsWith(path, ".gzip")) return Compression::kGzip;
    if (EndsWith(path, ".zst") || EndsWith(path, ".zstd")) return Compression::kZstd;
    if (EndsWith(path, ".bz2")) return Compression::kBzip2;
  }
  return Compression::kNone;
}

Result<std::unique_ptr<DecompressingReader>> DecompressingReader::Make(
    std::shared_ptr<const RandomAccessFile> file, Compression compression) {
  switch (compression) {
    case Compression::kGzip: {
      auto r = std::make_unique<GzipReader>(std::move(file));
      EPOXY_RETURN_NOT_OK(r->Init());
      return std::unique_ptr<DecompressingReader>(std::move(r));
    }
    case Compression::kZstd:
      return std::unique_ptr<DecompressingReader>(new ZstdReader(std::move(file)));
    case Compression::kBzip2: {
      auto r = std::make_unique<Bzip2Reader>(std::move(file));
      EPOXY_RETURN_NOT_OK(r->Init());
      return std::unique_ptr<DecompressingReader>(std::move(r));
    }
    case Compression::kNone: break;
  }
  return Status::Internal("DecompressingReader for uncompressed input");
}

}  // namespace epoxy
