// SPDX-License-Identifier: Apache-2.0
// `epoxy parquet-meta`: a Parquet file's metadata, for debugging.
#include <cstring>

#include "epoxy/cli/read_command.h"
#include "epoxy/cli/read_session.h"
#include "epoxy/format/parquet/parquet_reader.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/types/value_text.h"

namespace epoxy::cli {
namespace {

using parquet::PhysicalType;

/// A statistics bound as readable text (numbers, dates, text; hex for other bytes).
std::string BoundText(const parquet::SchemaElement& e, const TypePtr& type, const std::string& b) {
  auto load = [&](auto v) {
    std::memcpy(&v, b.data(), sizeof(v));
    return v;
  };
  switch (*e.type) {
    case PhysicalType::kBoolean: return b.size() == 1 ? (b[0] ? "true" : "false") : "?";
    case PhysicalType::kInt32:
      if (b.size() != 4) break;
      if (type->id() == TypeId::kDate) return FormatDate(load(int32_t{}));
      if (type->id() == TypeId::kDecimal) return FormatDecimal(load(int32_t{}), type->scale());
      return std::to_string(load(int32_t{}));
    case PhysicalType::kInt64:
      if (b.size() != 8) break;
      if (type->id() == TypeId::kDecimal) return FormatDecimal(load(int64_t{}), type->scale());
      return std::to_string(load(int64_t{}));
    case PhysicalType::kFloat: return b.size() == 4 ? FormatDouble(load(float{})) : "?";
    case PhysicalType::kDouble: return b.size() == 8 ? FormatDouble(load(double{})) : "?";
    case PhysicalType::kByteArray:
      if (type->id() == TypeId::kString) return b;
      break;
    default: break;
  }
  std::string hex = "0x";
  for (unsigned char c : b) hex += fmt::format("{:02x}", c);
  return hex;
}

std::string EncodingList(const std::vector<int32_t>& encodings) {
  std::vector<std::string> names;
  for (int32_t e : encodings) names.push_back(parquet::EncodingName(e));
  return fmt::format("{}", fmt::join(names, ","));
}

std::string Quote(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

}  // namespace

Result<int> RunParquetMeta(const std::string& path, bool json) {
  EPOXY_ASSIGN_OR_RETURN(auto file, parquet::ParquetFile::Open(path));
  const parquet::FileMetaData& md = file->metadata();
  const parquet::FileSchema& schema = file->schema();
  std::string out;
  if (!json) {
    out += fmt::format("file: {}\ncreated_by: {}\nversion: {}\nrows: {}\nrow groups: {}\ncolumns: {}\n",
                       path, md.created_by.value_or(""), md.version, md.num_rows, md.row_groups.size(),
                       schema.leaves.size());
    out += "schema:\n";
    for (const auto& f : schema.schema->fields()) out += fmt::format("  {}: {}\n", f.name, f.type->ToString());
    for (const auto& kv : md.key_value_metadata) {
      std::string v = kv.value.value_or("");
      if (v.size() > 200) v = v.substr(0, 200) + "...";
      out += fmt::format("metadata: {} = {}\n", kv.key, v);
    }
    for (size_t g = 0; g < md.row_groups.size(); ++g) {
      const auto& rg = md.row_groups[g];
      out += fmt::format("row group {}: rows {}, uncompressed {} bytes, compressed {} bytes\n", g,
                         rg.num_rows, rg.total_byte_size, rg.total_compressed_size.value_or(0));
      for (size_t c = 0; c < rg.columns.size(); ++c) {
        const auto& cc = rg.columns[c];
        const parquet::SchemaNode& leaf = *schema.leaves[c];
        if (!cc.meta_data) {
          out += fmt::format("  column {}: no metadata\n", c);
          continue;
        }
        const auto& m = *cc.meta_data;
        out += fmt::format("  column {} ({}): {} {}, encodings {}, values {}, compressed {} bytes, "
                           "uncompressed {} bytes, data page at {}",
                           fmt::join(m.path_in_schema, "."), leaf.type->ToString(),
                           parquet::PhysicalTypeName(m.type), parquet::CodecName(m.codec),
                           EncodingList(m.encodings), m.num_values, m.total_compressed_size,
                           m.total_uncompressed_size, m.data_page_offset);
        if (m.dictionary_page_offset) out += fmt::format(", dictionary page at {}", *m.dictionary_page_offset);
        if (m.statistics) {
          const auto& s = *m.statistics;
          const auto* lo = s.min_value ? &*s.min_value : s.min ? &*s.min : nullptr;
          const auto* hi = s.max_value ? &*s.max_value : s.max ? &*s.max : nullptr;
          if (lo && hi) {
            out += fmt::format(", min {}, max {}", BoundText(*leaf.element, leaf.type, *lo),
                               BoundText(*leaf.element, leaf.type, *hi));
          }
          if (s.null_count) out += fmt::format(", nulls {}", *s.null_count);
        }
        if (cc.column_index_offset) out += ", column index";
        if (cc.offset_index_offset) out += ", offset index";
        out += '\n';
      }
    }
    EPOXY_RETURN_NOT_OK(WriteStdout(out));
    return 0;
  }
  out += fmt::format("{{\"file\":{},\"created_by\":{},\"version\":{},\"num_rows\":{},\"schema\":[", Quote(path),
                     Quote(md.created_by.value_or("")), md.version, md.num_rows);
  for (int i = 0; i < schema.schema->num_fields(); ++i) {
    if (i > 0) out += ',';
    out += fmt::format("{{\"name\":{},\"type\":{}}}", Quote(schema.schema->field(i).name),
                       Quote(schema.schema->field(i).type->ToString()));
  }
  out += "],\"key_value_metadata\":{";
  for (size_t i = 0; i < md.key_value_metadata.size(); ++i) {
    if (i > 0) out += ',';
    out += Quote(md.key_value_metadata[i].key) + ":" + Quote(md.key_value_metadata[i].value.value_or(""));
  }
  out += "},\"row_groups\":[";
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    const auto& rg = md.row_groups[g];
    if (g > 0) out += ',';
    out += fmt::format("{{\"num_rows\":{},\"total_byte_size\":{},\"total_compressed_size\":{},\"columns\":[",
                       rg.num_rows, rg.total_byte_size, rg.total_compressed_size.value_or(0));
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      if (c > 0) out += ',';
      const auto& cc = rg.columns[c];
      const parquet::SchemaNode& leaf = *schema.leaves[c];
      if (!cc.meta_data) {
        out += "{}";
        continue;
      }
      const auto& m = *cc.meta_data;
      std::vector<std::string> encodings;
      for (int32_t e : m.encodings) encodings.push_back(Quote(parquet::EncodingName(e)));
      out += fmt::format("{{\"path\":{},\"physical_type\":{},\"codec\":{},\"encodings\":[{}],\"num_values\":{},"
                         "\"total_compressed_size\":{},\"total_uncompressed_size\":{},\"data_page_offset\":{}",
                         Quote(fmt::format("{}", fmt::join(m.path_in_schema, "."))),
                         Quote(parquet::PhysicalTypeName(m.type)), Quote(parquet::CodecName(m.codec)),
                         fmt::join(encodings, ","), m.num_values, m.total_compressed_size,
                         m.total_uncompressed_size, m.data_page_offset);
      if (m.dictionary_page_offset) out += fmt::format(",\"dictionary_page_offset\":{}", *m.dictionary_page_offset);
      if (m.statistics) {
        const auto& s = *m.statistics;
        out += ",\"statistics\":{";
        bool first = true;
        auto add = [&](std::string_view key, const std::string& value) {
          if (!first) out += ',';
          first = false;
          out += Quote(key) + ":" + value;
        };
        const auto* lo = s.min_value ? &*s.min_value : s.min ? &*s.min : nullptr;
        const auto* hi = s.max_value ? &*s.max_value : s.max ? &*s.max : nullptr;
        if (lo) add("min", Quote(BoundText(*leaf.element, leaf.type, *lo)));
        if (hi) add("max", Quote(BoundText(*leaf.element, leaf.type, *hi)));
        if (s.null_count) add("null_count", std::to_string(*s.null_count));
        out += '}';
      }
      out += fmt::format(",\"column_index\":{},\"offset_index\":{}}}", cc.column_index_offset ? "true" : "false",
                         cc.offset_index_offset ? "true" : "false");
    }
    out += "]}";
  }
  out += "]}\n";
  EPOXY_RETURN_NOT_OK(WriteStdout(out));
  return 0;
}

}  // namespace epoxy::cli
