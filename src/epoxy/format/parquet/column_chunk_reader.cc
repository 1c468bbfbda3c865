// SPDX-License-Identifier: Apache-2.0
// Page-by-page decoding of a column chunk.
#include "epoxy/format/parquet/column_chunk_reader.h"

#include <algorithm>
#include <cstring>

#include "epoxy/format/parquet/encoding.h"
#include "epoxy/format/parquet/page_codec.h"

namespace epoxy::parquet {
namespace {

int FixedWidth(const SchemaElement& e) {
  switch (*e.type) {
    case PhysicalType::kBoolean: return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    default: return 0;  // byte arrays
  }
}

/// The dictionary of a chunk: fixed-width bytes or views.
struct Dictionary {
  bool present = false;
  std::string fixed;
  std::vector<std::string_view> binary;
  int64_t size = 0;
};

class ChunkDecoder {
 public:
  ChunkDecoder(const SchemaElement& e, int16_t max_def, int16_t max_rep, LeafData* out)
      : e_(e), max_def_(max_def), max_rep_(max_rep), out_(out) {
    out_->width = FixedWidth(e);
    if (out_->def.empty()) out_->uniform_def = max_def;  // until a page has another level
  }

  /// PLAIN values of a page or dictionary into `fixed` / `binary`.
  Status DecodePlain(const uint8_t* data, size_t size, int64_t n, std::string* fixed,
                     std::vector<std::string_view>* binary) {
    switch (*e_.type) {
      case PhysicalType::kBoolean: {
        if (static_cast<uint64_t>(n + 7) / 8 > size) return Truncated();
        size_t start = fixed->size();
        fixed->resize(start + static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) (*fixed)[start + i] = static_cast<char>((data[i >> 3] >> (i & 7)) & 1);
        return Status::OK();
      }
      case PhysicalType::kByteArray: {
        size_t pos = 0;
        for (int64_t i = 0; i < n; ++i) {
          if (size - pos < 4) return Truncated();
          uint32_t len;
          std::memcpy(&len, data + pos, 4);
          pos += 4;
          if (len > size - pos) return Truncated();
          binary->emplace_back(reinterpret_cast<const char*>(data + pos), len);
          pos += len;
        }
        return Status::OK();
      }
      case PhysicalType::kFixedLenByteArray: {
        int w = e_.type_length;
        if (w <= 0) return Status::InvalidData("FIXED_LEN_BYTE_ARRAY column has width {}", w);
        if (static_cast<uint64_t>(n) * static_cast<uint64_t>(w) > size) return Truncated();
        for (int64_t i = 0; i < n; ++i) {
          binary->emplace_back(reinterpret_cast<const char*>(data) + i * w, static_cast<size_t>(w));
        }
        return Status::OK();
      }
      default: {
        int w = out_->width;
        uint64_t bytes = static_cast<uint64_t>(n) * static_cast<uint64_t>(w);
        if (bytes > size) return Truncated();
        fixed->append(reinterpret_cast<const char*>(data), static_cast<size_t>(bytes));
        return Status::OK();
      }
    }
  }

  Status ReadDictionary(const PageHeader& header, const BufferPtr& body) {
    if (dictionary_.present) return Status::InvalidData("column chunk has two dictionary pages");
    int32_t n = header.dictionary_page->num_values;
    if (n < 0) return Status::InvalidData("dictionary page claims {} values", n);
    if (*e_.type == PhysicalType::kBoolean) return Status::InvalidData("BOOLEAN columns cannot have a dictionary");
    dictionary_.present = true;
    dictionary_.size = n;
    out_->pages.push_back(body);
    return DecodePlain(body->data(), static_cast<size_t>(body->size()), n, &dictionary_.fixed,
                       &dictionary_.binary);
  }

  /// Levels of a v1 page section: u32 length then RLE, or legacy BIT_PACKED.
  Status ReadV1Levels(const uint8_t* data, size_t size, size_t* pos, int32_t encoding, int16_t max,
                      int64_t n, bool definition) {
    int width = BitWidth(static_cast<uint64_t>(max));
    scratch_.resize(static_cast<size_t>(n));
    if (encoding == static_cast<int32_t>(Encoding::kBitPacked)) {
      size_t bytes = (static_cast<size_t>(n) * static_cast<size_t>(width) + 7) / 8;
      if (bytes > size - *pos) return Truncated();
      EPOXY_RETURN_NOT_OK(DecodeBitPackedLegacy(data + *pos, bytes, width, n, scratch_.data()));
      *pos += bytes;
    } else {
      if (size - *pos < 4) return Truncated();
      uint32_t len;
      std::memcpy(&len, data + *pos, 4);
      *pos += 4;
      if (len > size - *pos) return Truncated();
      RleDecoder decoder(data + *pos, len, width);
      EPOXY_RETURN_NOT_OK(decoder.Decode(scratch_.data(), n));
      *pos += len;
    }
    return definition ? AppendDefinitionLevels(n) : AppendLevels(max, n, &out_->rep);
  }

  Status AppendLevels(int16_t max, int64_t n, std::vector<int16_t>* out) {
    // Check all, then narrow all: two loops the compiler vectorises.
    uint32_t highest = 0;
    for (int64_t i = 0; i < n; ++i) highest = std::max(highest, scratch_[i]);
    if (highest > static_cast<uint32_t>(max)) {
      return Status::InvalidData("level {} exceeds the column's maximum {}", highest, max);
    }
    size_t at = out->size();
    out->resize(at + static_cast<size_t>(n));
    int16_t* dst = out->data() + at;
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<int16_t>(scratch_[i]);
    return Status::OK();
  }

  /// The page's definition levels (decoded in scratch_) after those before: while every level so
  /// far is the maximum, none is stored (LeafData::uniform_def says it).
  Status AppendDefinitionLevels(int64_t n) {
    if (out_->def.empty()) {
      // Any level other than the maximum: OR of XORs, a loop that vectorises with plain SSE2.
      const uint32_t* levels = scratch_.data();
      const auto max = static_cast<uint32_t>(max_def_);
      uint32_t differ = 0;
      for (int64_t i = 0; i < n; ++i) differ |= levels[i] ^ max;
      if (differ == 0) return Status::OK();
      // The first page with another level: the levels before it are spelled out.
      out_->def.assign(static_cast<size_t>(out_->num_entries), max_def_);
    }
    return AppendLevels(max_def_, n, &out_->def);
  }

  /// A page's values, and (while they are in cache) the bytes of its strings.
  Status DecodeValues(int32_t encoding, const uint8_t* data, size_t size, int64_t n,
                      const BufferPtr& page) {
    const size_t first = out_->binary.size();
    EPOXY_RETURN_NOT_OK(DecodeValuesOf(encoding, data, size, n, page));
    int64_t bytes = 0;
    for (size_t i = first; i < out_->binary.size(); ++i) bytes += static_cast<int64_t>(out_->binary[i].size());
    out_->binary_bytes += bytes;
    return Status::OK();
  }

  Status DecodeValuesOf(int32_t encoding, const uint8_t* data, size_t size, int64_t n,
                        const BufferPtr& page) {
    out_->num_values += n;
    switch (static_cast<Encoding>(encoding)) {
      case Encoding::kPlain:
        out_->pages.push_back(page);
        return DecodePlain(data, size, n, &out_->fixed, &out_->binary);
      case Encoding::kPlainDictionary:
      case Encoding::kRleDictionary: {
        if (!dictionary_.present) return Status::InvalidData("dictionary-encoded page without a dictionary");
        if (n == 0) return Status::OK();
        if (size < 1) return Truncated();
        int width = data[0];
        if (width > 32) return Status::InvalidData("dictionary index width {} is invalid", width);
        scratch_.resize(static_cast<size_t>(n));
        RleDecoder decoder(data + 1, size - 1, width);
        EPOXY_RETURN_NOT_OK(decoder.Decode(scratch_.data(), n));
        for (int64_t i = 0; i < n; ++i) {
          if (scratch_[i] >= static_cast<uint64_t>(dictionary_.size)) {
            return Status::InvalidData("dictionary index {} is out of range (dictionary of {})",
                                       scratch_[i], dictionary_.size);
          }
        }
        if (*e_.type == PhysicalType::kByteArray || *e_.type == PhysicalType::kFixedLenByteArray) {
          for (int64_t i = 0; i < n; ++i) out_->binary.push_back(dictionary_.binary[scratch_[i]]);
        } else {
          int w = out_->width;
          size_t start = out_->fixed.size();
          out_->fixed.resize(start + static_cast<size_t>(n) * w);
          char* dst = out_->fixed.data() + start;
          const char* dict = dictionary_.fixed.data();
          auto gather = [&](auto tag) {  // one width per loop: a fixed-size copy, not a call
            constexpr size_t kw = sizeof(tag);
            for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * kw, dict + static_cast<size_t>(scratch_[i]) * kw, kw);
          };
          if (w == 4) {
            gather(int32_t{});
          } else if (w == 8) {
            gather(int64_t{});
          } else {
            for (int64_t i = 0; i < n; ++i) {
              std::memcpy(dst + i * w, dict + static_cast<size_t>(scratch_[i]) * w, w);
            }
          }
        }
        return Status::OK();
      }
      case Encoding::kRle: {
        if (*e_.type != PhysicalType::kBoolean) return Unsupported(encoding);
        if (size < 4) return Truncated();
        uint32_t len;
        std::memcpy(&len, data, 4);
        if (len > size - 4) return Truncated();
        scratch_.resize(static_cast<size_t>(n));
        RleDecoder decoder(data + 4, len, 1);
        EPOXY_RETURN_NOT_OK(decoder.Decode(scratch_.data(), n));
        for (int64_t i = 0; i < n; ++i) out_->fixed.push_back(static_cast<char>(scratch_[i] & 1));
        return Status::OK();
      }
      case Encoding::kDeltaBinaryPacked: {
        bool is32 = *e_.type == PhysicalType::kInt32;
        if (!is32 && *e_.type != PhysicalType::kInt64) return Unsupported(encoding);
        std::vector<int64_t> values;
        size_t consumed = 0;
        EPOXY_RETURN_NOT_OK(DecodeDeltaBinaryPacked(data, size, n, is32, &values, &consumed));
        for (int64_t v : values) {
          if (is32) {
            int32_t x = static_cast<int32_t>(v);
            out_->fixed.append(reinterpret_cast<const char*>(&x), 4);
          } else {
            out_->fixed.append(reinterpret_cast<const char*>(&v), 8);
          }
        }
        return Status::OK();
      }
      case Encoding::kDeltaLengthByteArray:
        if (*e_.type != PhysicalType::kByteArray) return Unsupported(encoding);
        out_->pages.push_back(page);
        {
          std::vector<std::string_view> values;
          EPOXY_RETURN_NOT_OK(DecodeDeltaLengthByteArray(data, size, n, &values));
          out_->binary.insert(out_->binary.end(), values.begin(), values.end());
        }
        return Status::OK();
      case Encoding::kDeltaByteArray: {
        if (*e_.type != PhysicalType::kByteArray && *e_.type != PhysicalType::kFixedLenByteArray) {
          return Unsupported(encoding);
        }
        out_->storage.emplace_back();
        std::vector<std::string_view> values;
        EPOXY_RETURN_NOT_OK(DecodeDeltaByteArray(data, size, n, &values, &out_->storage.back()));
        out_->binary.insert(out_->binary.end(), values.begin(), values.end());
        return Status::OK();
      }
      case Encoding::kByteStreamSplit: {
        int w = *e_.type == PhysicalType::kFixedLenByteArray ? e_.type_length : out_->width;
        if (w <= 0 || *e_.type == PhysicalType::kBoolean || *e_.type == PhysicalType::kByteArray) {
          return Unsupported(encoding);
        }
        std::string bytes(static_cast<size_t>(n) * w, '\0');
        EPOXY_RETURN_NOT_OK(DecodeByteStreamSplit(data, size, n, w, reinterpret_cast<uint8_t*>(bytes.data())));
        if (*e_.type == PhysicalType::kFixedLenByteArray) {
          out_->storage.push_back(std::move(bytes));
          const std::string& s = out_->storage.back();
          for (int64_t i = 0; i < n; ++i) out_->binary.emplace_back(s.data() + i * w, static_cast<size_t>(w));
        } else {
          out_->fixed.append(bytes);
        }
        return Status::OK();
      }
      default: return Unsupported(encoding);
    }
  }

  int64_t CountValues(int64_t first, int64_t n) const {
    if (max_def_ == 0 || out_->def.empty()) return n;  // every entry defined
    int64_t count = 0;
    for (int64_t i = first; i < first + n; ++i) count += out_->def[i] == max_def_ ? 1 : 0;
    return count;
  }

  /// Levels decode to two bytes a value, whatever the page's size (one RLE run can claim 2^31
  /// values), so a page may not claim more values than its bytes could plausibly hold: writers
  /// cap pages at tens of thousands of values; this bound is far above that.
  Status CheckPlausibleValues(int64_t n, int64_t page_bytes) const {
    if (n > std::max<int64_t>(int64_t{1} << 20, page_bytes * 512)) {
      return Status::InvalidData("a page of column '{}' claims {} values in {} bytes, more than a page can hold",
                                 e_.name, n, page_bytes);
    }
    return Status::OK();
  }

  Status DataPageV1(const PageHeader& header, const BufferPtr& body) {
    const DataPageHeader& h = *header.data_page;
    if (h.num_values < 0) return Status::InvalidData("data page claims {} values", h.num_values);
    EPOXY_RETURN_NOT_OK(CheckPlausibleValues(h.num_values, body->size()));
    const uint8_t* data = body->data();
    size_t size = static_cast<size_t>(body->size());
    size_t pos = 0;
    int64_t n = h.num_values;
    int64_t first = out_->num_entries;
    if (max_rep_ > 0) {
      EPOXY_RETURN_NOT_OK(ReadV1Levels(data, size, &pos, h.repetition_level_encoding, max_rep_, n, false));
    }
    if (max_def_ > 0) {
      EPOXY_RETURN_NOT_OK(ReadV1Levels(data, size, &pos, h.definition_level_encoding, max_def_, n, true));
    }
    out_->num_entries += n;
    return DecodeValues(h.encoding, data + pos, size - pos, CountValues(first, n), body);
  }

  Status DataPageV2(const PageHeader& header, std::string_view raw, int32_t codec) {
    const DataPageHeaderV2& h = *header.data_page_v2;
    if (h.num_values < 0 || h.definition_levels_byte_length < 0 || h.repetition_levels_byte_length < 0) {
      return Status::InvalidData("data page v2 header has negative sizes");
    }
    uint64_t levels = static_cast<uint64_t>(h.definition_levels_byte_length) +
                      static_cast<uint64_t>(h.repetition_levels_byte_length);
    if (levels > raw.size() || static_cast<int64_t>(levels) > header.uncompressed_page_size) {
      return Status::InvalidData("data page v2 levels exceed the page");
    }
    EPOXY_RETURN_NOT_OK(CheckPlausibleValues(h.num_values, static_cast<int64_t>(raw.size())));
    const uint8_t* data = reinterpret_cast<const uint8_t*>(raw.data());
    int64_t n = h.num_values;
    int64_t first = out_->num_entries;
    size_t pos = 0;
    if (max_rep_ > 0) {
      scratch_.resize(static_cast<size_t>(n));
      RleDecoder decoder(data, static_cast<size_t>(h.repetition_levels_byte_length), BitWidth(static_cast<uint64_t>(max_rep_)));
      EPOXY_RETURN_NOT_OK(decoder.Decode(scratch_.data(), n));
      EPOXY_RETURN_NOT_OK(AppendLevels(max_rep_, n, &out_->rep));
    }
    pos += static_cast<size_t>(h.repetition_levels_byte_length);
    if (max_def_ > 0) {
      scratch_.resize(static_cast<size_t>(n));
      RleDecoder decoder(data + pos, static_cast<size_t>(h.definition_levels_byte_length), BitWidth(static_cast<uint64_t>(max_def_)));
      EPOXY_RETURN_NOT_OK(decoder.Decode(scratch_.data(), n));
      EPOXY_RETURN_NOT_OK(AppendDefinitionLevels(n));
    }
    pos += static_cast<size_t>(h.definition_levels_byte_length);
    out_->num_entries += n;
    std::string_view values = raw.substr(pos);
    int64_t values_size = header.uncompressed_page_size - static_cast<int64_t>(levels);
    BufferPtr body;
    if (h.is_compressed && codec != static_cast<int32_t>(Codec::kUncompressed)) {
      EPOXY_ASSIGN_OR_RETURN(body, DecompressPage(codec, values, values_size));
    } else {
      EPOXY_ASSIGN_OR_RETURN(body, Buffer::CopyOf(values));
    }
    return DecodeValues(h.encoding, body->data(), static_cast<size_t>(body->size()),
                        CountValues(first, n), body);
  }

 private:
  Status Truncated() const { return Status::InvalidData("page of column '{}' is truncated", e_.name); }
  Status Unsupported(int32_t encoding) const {
    return Status::NotSupported("encoding {} is not supported for {} column '{}'",
                                EncodingName(encoding), PhysicalTypeName(*e_.type), e_.name);
  }

  const SchemaElement& e_;
  int16_t max_def_, max_rep_;
  LeafData* out_;
  Dictionary dictionary_;
  std::vector<uint32_t> scratch_;
};

/// One page into the decoder, by its type; index pages and unknown types are skipped.
Status DecodePage(ChunkDecoder& decoder, const PageHeader& header, std::string_view raw, int32_t codec) {
  switch (static_cast<PageType>(header.type)) {
    case PageType::kDictionaryPage: {
      if (!header.dictionary_page) return Status::InvalidData("dictionary page without its header");
      EPOXY_ASSIGN_OR_RETURN(BufferPtr body, DecompressPage(codec, raw, header.uncompressed_page_size));
      return decoder.ReadDictionary(header, body);
    }
    case PageType::kDataPage: {
      if (!header.data_page) return Status::InvalidData("data page without its header");
      EPOXY_ASSIGN_OR_RETURN(BufferPtr body, DecompressPage(codec, raw, header.uncompressed_page_size));
      return decoder.DataPageV1(header, body);
    }
    case PageType::kDataPageV2:
      if (!header.data_page_v2) return Status::InvalidData("data page v2 without its header");
      return decoder.DataPageV2(header, raw, codec);
    default: return Status::OK();
  }
}

}  // namespace

Status ReadColumnChunk(const RandomAccessFile& file, const ColumnChunk& chunk,
                       const SchemaElement& element, int16_t max_def, int16_t max_rep,
                       const ChunkReadOptions& options, LeafData* out) {
  if (chunk.encrypted) {
    return Status::NotSupported("column '{}' is encrypted; reading encrypted Parquet is not supported",
                                element.name);
  }
  if (chunk.file_path) {
    return Status::NotSupported("column '{}' keeps its data in another file ('{}')", element.name,
                                *chunk.file_path);
  }
  if (!chunk.meta_data) return Status::InvalidData("column chunk '{}' has no metadata", element.name);
  const ColumnMetaData& md = *chunk.meta_data;
  if (md.num_values == 0) return Status::OK();  // an empty chunk may point nowhere
  if (md.type != *element.type) {
    return Status::InvalidData("column '{}' chunk type {} differs from the schema's {}", element.name,
                               PhysicalTypeName(md.type), PhysicalTypeName(*element.type));
  }
  int64_t start = md.data_page_offset;
  if (md.dictionary_page_offset && *md.dictionary_page_offset > 0 &&
      *md.dictionary_page_offset < start) {
    start = *md.dictionary_page_offset;
  }
  int64_t length = md.total_compressed_size;
  if (start < 4 || length < 0 || start > file.size() || length > file.size() - start) {
    return Status::InvalidData("column '{}' chunk [{}, +{}) lies outside the file of {} bytes",
                               element.name, start, length, file.size());
  }
  if (md.num_values < 0) return Status::InvalidData("column '{}' claims {} values", element.name, md.num_values);
  EPOXY_ASSIGN_OR_RETURN(BufferPtr bytes, file.ReadAt(start, length));
  ChunkDecoder decoder(element, max_def, max_rep, out);
  // Room for the chunk's entries up front, so the vectors do not regrow page by page; the count is
  // the file's claim, so the room is capped by what the chunk's bytes could plausibly hold.
  const auto expected = static_cast<size_t>(std::min<int64_t>(md.num_values, std::max<int64_t>(1 << 20, length * 8)));
  if (max_def > 0) out->def.reserve(out->def.size() + expected);
  if (max_rep > 0) out->rep.reserve(out->rep.size() + expected);
  if (out->width > 0 && *element.type != PhysicalType::kFixedLenByteArray) {
    out->fixed.reserve(out->fixed.size() + expected * static_cast<size_t>(out->width));
  } else {
    out->binary.reserve(out->binary.size() + expected);
  }
  size_t pos = 0;
  const size_t size = static_cast<size_t>(bytes->size());
  const int64_t chunk_start = out->num_entries;
  int page = 0;  // counted from 0, the dictionary page included, for error messages
  while (pos < size && out->num_entries < md.num_values) {
    size_t header_size = 0;
    EPOXY_ASSIGN_OR_RETURN(PageHeader header, DecodePageHeader(bytes->data() + pos, size - pos, &header_size));
    pos += header_size;
    if (static_cast<size_t>(header.compressed_page_size) > size - pos) {
      return Status::InvalidData("page of column '{}' ({} bytes) runs past its column chunk",
                                 element.name, header.compressed_page_size);
    }
    std::string_view raw(reinterpret_cast<const char*>(bytes->data() + pos),
                         static_cast<size_t>(header.compressed_page_size));
    pos += static_cast<size_t>(header.compressed_page_size);
    if (options.verify_crc && header.crc &&
        PageCrc(raw) != static_cast<uint32_t>(*header.crc)) {
      return Status::InvalidData("page of column '{}' fails its CRC check (corrupt data)", element.name);
    }
    const int64_t before = out->num_entries;
    Status st = DecodePage(decoder, header, raw, md.codec);
    if (!st.ok()) return st.WithContext(fmt::format("page {} of the chunk", page));
    ++page;
    // A record starts at repetition level 0: the chunk's first page must begin with one (there is no
    // record before it to continue), and so must every v2 page (v2 pages begin at record boundaries).
    if (max_rep > 0 && out->num_entries > before && out->rep[static_cast<size_t>(before)] != 0 &&
        (before == chunk_start || static_cast<PageType>(header.type) == PageType::kDataPageV2)) {
      return Status::InvalidData(
          "page {} of column '{}' begins inside a record that was never started (repetition level {}, not 0): "
          "corrupt data",
          page - 1, element.name, out->rep[static_cast<size_t>(before)]);
    }
  }
  if (out->num_entries < md.num_values) {
    return Status::InvalidData("column '{}' holds {} values, its metadata says {}", element.name,
                               out->num_entries, md.num_values);
  }
  if ((!out->def.empty() && static_cast<int64_t>(out->def.size()) != out->num_entries) ||
      (max_rep > 0 && static_cast<int64_t>(out->rep.size()) != out->num_entries)) {
    return Status::Internal("level count mismatch in column '{}'", element.name);
  }
  int64_t stored = out->width > 0 && *element.type != PhysicalType::kFixedLenByteArray &&
                           *element.type != PhysicalType::kByteArray
                       ? static_cast<int64_t>(out->fixed.size()) / out->width
                       : static_cast<int64_t>(out->binary.size());
  if (stored != out->num_values) {
    return Status::InvalidData("column '{}' decoded {} values where its levels need {}", element.name,
                               stored, out->num_values);
  }
  return Status::OK();
}

}  // namespace epoxy::parquet
