// SPDX-License-Identifier: Apache-2.0
// Parquet file metadata (the structures of parquet.thrift that epoxy reads and writes), with
// decoding from and encoding to the Thrift compact protocol.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class ConvertedType : int32_t {
  kUtf8 = 0, kMap = 1, kMapKeyValue = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6,
  kTimeMillis = 7, kTimeMicros = 8, kTimestampMillis = 9, kTimestampMicros = 10, kUint8 = 11,
  kUint16 = 12, kUint32 = 13, kUint64 = 14, kInt8 = 15, kInt16 = 16, kInt32 = 17, kInt64 = 18,
  kJson = 19, kBson = 20, kInterval = 21,
};

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

enum class Codec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };

enum class TimeUnit { kMillis, kMicros, kNanos };

/// The LogicalType union; `kind` names the member that is set (0 when none or unknown).
struct LogicalType {
  enum Kind {
    kNone = 0, kString = 1, kMap = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6, kTime = 7,
    kTimestamp = 8, kInteger = 10, kUnknown = 11, kJson = 12, kBson = 13, kUuid = 14,
    kFloat16 = 15, kVariant = 16, kGeometry = 17, kGeography = 18,
  };
  int kind = kNone;
  int32_t scale = 0, precision = 0;     // decimal
  bool adjusted_to_utc = false;         // time, timestamp
  TimeUnit unit = TimeUnit::kMicros;    // time, timestamp
  int8_t bit_width = 0;                 // integer
  bool is_signed = true;                // integer
};

struct SchemaElement {
  std::optional<PhysicalType> type;
  int32_t type_length = 0;
  std::optional<Repetition> repetition;
  std::string name;
  int32_t num_children = 0;
  std::optional<int32_t> converted_type;
  int32_t scale = 0, precision = 0;
  std::optional<int32_t> field_id;
  LogicalType logical;
};

struct Statistics {
  std::optional<std::string> max, min;              // legacy, signed order
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value, min_value;  // by the column order
  std::optional<bool> is_max_value_exact, is_min_value_exact;
  std::optional<int64_t> nan_count;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct PageEncodingStats {
  int32_t page_type = 0;
  int32_t encoding = 0;
  int32_t count = 0;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kInt32;
  std::vector<int32_t> encodings;
  std::vector<std::string> path_in_schema;
  int32_t codec = 0;  // a Codec; kept raw so unknown codecs are reported, not misread
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::vector<PageEncodingStats> encoding_stats;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  bool encrypted = false;  // crypto_metadata or encrypted_column_metadata present
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::vector<SortingColumn> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  /// One per leaf: 1 TYPE_ORDER, 2 IEEE_754_TOTAL_ORDER, 3 INT96 order, 0 unknown.
  std::vector<int> column_orders;
  bool encrypted_plaintext_footer = false;  // encryption_algorithm set
};

struct DataPageHeader {
  int32_t num_values = 0;
  int32_t encoding = 0;
  int32_t definition_level_encoding = 0;
  int32_t repetition_level_encoding = 0;
  std::optional<Statistics> statistics;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  int32_t encoding = 0;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
  std::optional<Statistics> statistics;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  int32_t encoding = 0;
  bool is_sorted = false;
};

struct PageHeader {
  int32_t type = 0;  // a PageType, raw
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page;
  std::optional<DictionaryPageHeader> dictionary_page;
  std::optional<DataPageHeaderV2> data_page_v2;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values, max_values;
  int32_t boundary_order = 0;
  std::vector<int64_t> null_counts;
};

/// Decoding: `*consumed` receives the bytes read (a page header precedes its page body).
Result<FileMetaData> DecodeFileMetaData(const uint8_t* data, size_t size);
Result<PageHeader> DecodePageHeader(const uint8_t* data, size_t size, size_t* consumed);
Result<OffsetIndex> DecodeOffsetIndex(const uint8_t* data, size_t size);
Result<ColumnIndex> DecodeColumnIndex(const uint8_t* data, size_t size);

std::string EncodeFileMetaData(const FileMetaData& metadata);
std::string EncodePageHeader(const PageHeader& header);
std::string EncodeOffsetIndex(const OffsetIndex& index);
std::string EncodeColumnIndex(const ColumnIndex& index);

/// Names for printing (`epoxy parquet-meta`).
std::string_view PhysicalTypeName(PhysicalType type);
std::string EncodingName(int32_t encoding);
std::string CodecName(int32_t codec);

}  // namespace epoxy::parquet
