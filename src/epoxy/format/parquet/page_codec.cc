// SPDX-License-Identifier: Apache-2.0
// Page compression over snappy, zlib, zstd, lz4 and brotli.
#include "epoxy/format/parquet/page_codec.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>

namespace epoxy::parquet {
namespace {

Status SizeMismatch(std::string_view codec, int64_t got, int64_t want) {
  return Status::InvalidData("{} page decompressed to {} bytes, its header says {}", codec, got,
                             want);
}

Status Gunzip(std::string_view in, uint8_t* out, int64_t size) {
  z_stream s{};
  if (inflateInit2(&s, 15 + 32) != Z_OK) return Status::Internal("inflateInit2 failed");
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = out;
  s.avail_out = static_cast<uInt>(size);
  while (true) {
    int rc = inflate(&s, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      if (s.avail_in > 0 && s.avail_out > 0) {  // another gzip member follows
        inflateReset(&s);
        continue;
      }
      break;
    }
    if (rc == Z_OK) continue;
    bool output_full = s.avail_out == 0;
    std::string message = s.msg ? s.msg : "inflate failed";
    inflateEnd(&s);
    if (output_full) return SizeMismatch("GZIP", size + 1, size);
    return Status::InvalidData("corrupt GZIP page ({})", rc == Z_BUF_ERROR ? "truncated" : message);
  }
  int64_t produced = size - static_cast<int64_t>(s.avail_out);
  inflateEnd(&s);
  if (produced != size) return SizeMismatch("GZIP", produced, size);
  return Status::OK();
}

/// LZ4 with Hadoop's framing ([BE u32 raw][BE u32 compressed][block]...); false when the input
/// does not parse that way.
bool HadoopLz4(std::string_view in, uint8_t* out, int64_t size) {
  auto be32 = [](const char* p) {
    return (static_cast<uint32_t>(static_cast<uint8_t>(p[0])) << 24) |
           (static_cast<uint32_t>(static_cast<uint8_t>(p[1])) << 16) |
           (static_cast<uint32_t>(static_cast<uint8_t>(p[2])) << 8) |
           static_cast<uint32_t>(static_cast<uint8_t>(p[3]));
  };
  int64_t produced = 0;
  while (!in.empty()) {
    if (in.size() < 8) return false;
    uint32_t raw = be32(in.data());
    uint32_t compressed = be32(in.data() + 4);
    in.remove_prefix(8);
    if (compressed > in.size() || raw > size - produced) return false;
    int n = LZ4_decompress_safe(in.data(), reinterpret_cast<char*>(out + produced),
                                static_cast<int>(compressed), static_cast<int>(raw));
    if (n < 0 || static_cast<uint32_t>(n) != raw) return false;
    produced += raw;
    in.remove_prefix(compressed);
  }
  return produced == size;
}

}  // namespace

Result<BufferPtr> DecompressPage(int32_t codec, std::string_view in, int64_t size) {
  if (size < 0) return Status::InvalidData("page has a negative uncompressed size");
  if (codec == static_cast<int32_t>(Codec::kUncompressed)) {
    if (static_cast<int64_t>(in.size()) != size) {
      return SizeMismatch("uncompressed", static_cast<int64_t>(in.size()), size);
    }
    return Buffer::CopyOf(in);
  }
  BufferBuilder builder;
  EPOXY_RETURN_NOT_OK(builder.Reserve(size + 64));  // charged first: a bomb fails here
  uint8_t* out = builder.mutable_data();
  if (size == 0) return builder.Finish();  // all-null v2 pages may hold no compressed bytes
  switch (static_cast<Codec>(codec)) {
    case Codec::kSnappy: {
      size_t length = 0;
      if (!snappy::GetUncompressedLength(in.data(), in.size(), &length)) {
        return Status::InvalidData("corrupt SNAPPY page");
      }
      if (static_cast<int64_t>(length) != size) return SizeMismatch("SNAPPY", static_cast<int64_t>(length), size);
      if (!snappy::RawUncompress(in.data(), in.size(), reinterpret_cast<char*>(out))) {
        return Status::InvalidData("corrupt SNAPPY page");
      }
      break;
    }
    case Codec::kGzip: EPOXY_RETURN_NOT_OK(Gunzip(in, out, size)); break;
    case Codec::kZstd: {
      size_t n = ZSTD_decompress(out, static_cast<size_t>(size), in.data(), in.size());
      if (ZSTD_isError(n)) {
        return Status::InvalidData("corrupt ZSTD page ({})", ZSTD_getErrorName(n));
      }
      if (static_cast<int64_t>(n) != size) return SizeMismatch("ZSTD", static_cast<int64_t>(n), size);
      break;
    }
    case Codec::kLz4Raw: {
      int n = LZ4_decompress_safe(in.data(), reinterpret_cast<char*>(out), static_cast<int>(in.size()),
                                  static_cast<int>(size));
      if (n < 0) return Status::InvalidData("corrupt LZ4_RAW page");
      if (n != size) return SizeMismatch("LZ4_RAW", n, size);
      break;
    }
    case Codec::kLz4: {
      // Hadoop framing first; old parquet-cpp wrote a bare block under the same codec id.
      if (!HadoopLz4(in, out, size)) {
        int n = LZ4_decompress_safe(in.data(), reinterpret_cast<char*>(out),
                                    static_cast<int>(in.size()), static_cast<int>(size));
        if (n != size) return Status::InvalidData("corrupt LZ4 page (neither Hadoop framing nor a raw block)");
      }
      break;
    }
    case Codec::kBrotli: {
      size_t n = static_cast<size_t>(size);
      if (BrotliDecoderDecompress(in.size(), reinterpret_cast<const uint8_t*>(in.data()), &n, out) !=
          BROTLI_DECODER_RESULT_SUCCESS) {
        return Status::InvalidData("corrupt BROTLI page");
      }
      if (static_cast<int64_t>(n) != size) return SizeMismatch("BROTLI", static_cast<int64_t>(n), size);
      break;
    }
    default:
      return Status::NotSupported("pages compressed with {} are not supported", CodecName(codec));
  }
  builder.UnsafeAdvance(size);
  return builder.Finish();
}

namespace {
/// `n` writable bytes at the start of `*scratch`, which grows but never shrinks: a writer reusing
/// it pays for zero-filling once, not per page.
char* Room(std::string* scratch, size_t n) {
  if (scratch->size() < n) scratch->resize(n);
  return scratch->data();
}
}  // namespace

Result<std::string_view> CompressPage(Codec codec, std::string_view in, std::string* scratch) {
  switch (codec) {
    case Codec::kUncompressed: return in;
    case Codec::kSnappy: {
      char* out = Room(scratch, snappy::MaxCompressedLength(in.size()));
      size_t n = 0;
      snappy::RawCompress(in.data(), in.size(), out, &n);
      return std::string_view(out, n);
    }
    case Codec::kGzip: {
      z_stream s{};
      if (deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return Status::Internal("deflateInit2 failed");
      }
      size_t room = deflateBound(&s, in.size()) + 32;
      char* out = Room(scratch, room);
      s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      s.avail_in = static_cast<uInt>(in.size());
      s.next_out = reinterpret_cast<Bytef*>(out);
      s.avail_out = static_cast<uInt>(room);
      int rc = deflate(&s, Z_FINISH);
      size_t n = s.total_out;
      deflateEnd(&s);
      if (rc != Z_STREAM_END) return Status::Internal("gzip compression failed");
      return std::string_view(out, n);
    }
    case Codec::kZstd: {
      size_t room = ZSTD_compressBound(in.size());
      char* out = Room(scratch, room);
      size_t n = ZSTD_compress(out, room, in.data(), in.size(), 1);
      if (ZSTD_isError(n)) return Status::Internal("zstd compression failed: {}", ZSTD_getErrorName(n));
      return std::string_view(out, n);
    }
    case Codec::kLz4Raw: {
      int room = LZ4_compressBound(static_cast<int>(in.size()));
      char* out = Room(scratch, static_cast<size_t>(room));
      int n = LZ4_compress_default(in.data(), out, static_cast<int>(in.size()), room);
      if (n <= 0 && !in.empty()) return Status::Internal("lz4 compression failed");
      return std::string_view(out, static_cast<size_t>(n));
    }
    case Codec::kBrotli: {
      size_t n = BrotliEncoderMaxCompressedSize(in.size());
      if (n == 0) n = in.size() + 1024;
      char* out = Room(scratch, n);
      if (!BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, in.size(),
                                 reinterpret_cast<const uint8_t*>(in.data()), &n,
                                 reinterpret_cast<uint8_t*>(out))) {
        return Status::Internal("brotli compression failed");
      }
      return std::string_view(out, n);
    }
    default: return Status::NotSupported("writing {} pages is not supported", CodecName(static_cast<int32_t>(codec)));
  }
}

Result<Codec> ParseCodecName(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "snappy") return Codec::kSnappy;
  if (lower == "zstd") return Codec::kZstd;
  if (lower == "gzip") return Codec::kGzip;
  if (lower == "lz4_raw" || lower == "lz4") return Codec::kLz4Raw;
  if (lower == "brotli") return Codec::kBrotli;
  if (lower == "none" || lower == "uncompressed") return Codec::kUncompressed;
  return Status::InvalidInput(
      "unknown compression '{}' (snappy, zstd, gzip, lz4_raw, brotli or none)", name);
}

uint32_t PageCrc(std::string_view bytes) {
  return static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

}  // namespace epoxy::parquet
