// SPDX-License-Identifier: Apache-2.0
// Classification and sampling of one file.
#include "epoxy/crawler/file_profile.h"

#include <algorithm>

#include "epoxy/format/csv/csv_dialect.h"
#include "epoxy/format/csv/csv_inference.h"
#include "epoxy/format/csv/csv_tokenizer.h"
#include "epoxy/format/parquet/parquet_reader.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/types/type_merge.h"

namespace epoxy::crawler {
namespace {

constexpr int64_t kHeadBytes = 64 << 10;

/// The first decompressed bytes of a file.
Result<std::string> Head(const FileInfo& file, Compression* compression) {
  EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(file.path));
  EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> input, fs->OpenForRead(file.path));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr raw, input->ReadAt(0, kHeadBytes));
  *compression = DetectCompression(file.path, raw->view());
  if (*compression == Compression::kNone) return std::string(raw->view());
  std::shared_ptr<const RandomAccessFile> shared(std::move(input));
  EPOXY_ASSIGN_OR_RETURN(auto reader, DecompressingReader::Make(shared, *compression));
  std::string out(kHeadBytes, '\0');
  int64_t got = 0;
  while (got < kHeadBytes) {
    auto n = reader->Read(reinterpret_cast<uint8_t*>(out.data()) + got, kHeadBytes - got);
    if (!n.ok() || *n == 0) break;  // a truncated stream still classifies by what it has
    got += *n;
  }
  out.resize(static_cast<size_t>(got));
  return out;
}

std::string Classify(std::string_view head, bool* csv_header, char* delimiter, bool* quoted) {
  if (head.size() >= 4 && (head.substr(0, 4) == "PAR1" || head.substr(0, 4) == "PARE")) return "parquet";
  if (head.size() >= 3 && head.substr(0, 3) == "ORC") return "orc";
  if (head.size() >= 4 && head.substr(0, 4) == "Obj\x01") return "avro";
  size_t i = head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  if (i >= head.size()) return "UNKNOWN";
  if (head[i] == '{' || head[i] == '[') return "json";
  // CSV as Glue's classifier decides it: a delimiter that gives at least two columns on at least
  // two rows, consistently.
  CsvDialect dialect;
  std::string_view body = head.substr(i);
  size_t cut = body.rfind('\n');
  if (cut != std::string_view::npos && body.size() == kHeadBytes) body = body.substr(0, cut + 1);
  dialect.separator = SniffSeparator(body, dialect);
  CsvTokens tokens;
  if (!TokenizeCsv(body, dialect, 200, &tokens).ok() || tokens.num_records() < 2) return "UNKNOWN";
  uint32_t width = tokens.num_fields(0);
  if (width < 2) return "UNKNOWN";
  int64_t same = 0;
  for (int64_t r = 0; r < tokens.num_records(); ++r) same += tokens.num_fields(r) == width ? 1 : 0;
  if (same * 10 < tokens.num_records() * 9) return "UNKNOWN";
  *delimiter = dialect.separator;
  *csv_header = DetectHeader(body, tokens, dialect);
  *quoted = std::any_of(tokens.field_flags.begin(), tokens.field_flags.end(),
                        [](uint8_t f) { return f & CsvTokens::kQuoted; });
  return "csv";
}

}  // namespace

namespace {

/// Marks `p` as skipped. Messages from the readers start with the quoted path, which the crawl
/// log already prints, so it is dropped here.
void SkipFile(FileProfile& p, const char* kind, std::string reason) {
  std::string quoted = "'" + p.file.path + "': ";
  if (reason.rfind(quoted, 0) == 0) reason.erase(0, quoted.size());
  p.classification = "UNKNOWN";
  p.skip_kind = kind;
  p.skip_reason = std::move(reason);
}

/// Glue's crawlers type every integer column of a text file `bigint`, whatever its range (the
/// readers pick the narrowest type, as DynamicFrames do).
TypePtr WidenIntegers(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt: return DataType::BigInt();
    case TypeId::kArray: return DataType::Array(WidenIntegers(type->element()));
    case TypeId::kMap: return DataType::Map(WidenIntegers(type->key()), WidenIntegers(type->value()));
    case TypeId::kStruct: {
      std::vector<Field> fields;
      for (const auto& f : type->fields()) fields.push_back({f.name, WidenIntegers(f.type)});
      return DataType::Struct(std::move(fields));
    }
    default: return type;
  }
}

}  // namespace

FileProfile ProfileFile(const FileInfo& file, int64_t sample_rows, ThreadPool* parse_pool) {
  FileProfile p;
  p.file = file;
  p.classification = "UNKNOWN";
  if (file.size == 0) {
    SkipFile(p, "empty file", "empty file");
    return p;
  }
  auto head = Head(file, &p.compression);
  if (!head.ok()) {
    SkipFile(p, "unreadable", head.status().message());
    return p;
  }
  p.classification = Classify(*head, &p.header, &p.delimiter, &p.quoted);
  if (p.classification == "UNKNOWN") {
    SkipFile(p, "unknown format", "no classifier recognises the content");
    return p;
  }
  if (p.classification == "orc" || p.classification == "avro") {
    SkipFile(p, "format not read", p.classification + " files are classified but not read by this build");
    return p;
  }
  if (p.classification == "parquet") {
    auto pf = parquet::ParquetFile::Open(file.path);
    if (!pf.ok()) {
      SkipFile(p, "corrupt", pf.status().message());
      return p;
    }
    p.schema = ToCatalogSchema(*(*pf)->schema().schema);
    p.records = (*pf)->metadata().num_rows;
    p.average_record_size = p.records > 0 ? file.size / p.records : 0;
    return p;
  }
  // CSV and JSON: read a bounded sample through the format reader.
  ErrorSink errors(100);
  ReadOptions options;
  options.errors = &errors;
  options.block_size = 1 << 20;
  options.pool = parse_pool;
  if (p.classification == "csv") {
    options.format_options["separator"] = std::string(1, p.delimiter);
    options.format_options["withHeader"] = p.header ? "true" : "false";
  }
  auto reader = MakeRecordReader(p.classification == "csv" ? FileFormat::kCsv : FileFormat::kJson, {file}, options);
  if (!reader.ok()) {
    SkipFile(p, "unreadable", reader.status().message());
    return p;
  }
  SchemaPtr merged;
  int64_t rows = 0;
  bool complete = true;
  while (rows < sample_rows) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      SkipFile(p, "corrupt", batch.status().message());
      return p;
    }
    if (*batch == nullptr) break;
    rows += (*batch)->num_rows();
    merged = merged ? MergeSchemas(*merged, *(*batch)->schema(), MergeMode::kCatalog) : (*batch)->schema();
    if (rows >= sample_rows) complete = false;
  }
  if (merged == nullptr || merged->num_fields() == 0) {
    SkipFile(p, "no records", errors.count() > 0 ? errors.errors()[0].ToString() : "no records");
    return p;
  }
  p.schema = Schema::Make(WidenIntegers(ToCatalogSchema(*merged)->AsStruct())->fields());
  int64_t lines = std::count(head->begin(), head->end(), '\n');
  int64_t head_size = static_cast<int64_t>(head->size());
  p.average_record_size = lines > 0 ? head_size / lines : head_size;
  p.records = complete ? rows : (p.average_record_size > 0 ? file.size / p.average_record_size : rows);
  if (p.compression != Compression::kNone && !complete) p.records = rows;  // no size to scale from
  return p;
}

}  // namespace epoxy::crawler
