// SPDX-License-Identifier: Apache-2.0
// Classification and sampling of one file.
#include "epoxy/crawler/file_profile.h"

#include <algorithm>
#include <optional>

#include "epoxy/format/csv/csv_dialect.h"
#include "epoxy/format/csv/csv_inference.h"
#include "epoxy/format/csv/csv_tokenizer.h"
#include "epoxy/format/parquet/parquet_reader.h"
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

/// `head` without its last line when the head was cut short of the file's end.
std::string_view CompleteLines(std::string_view head) {
  if (head.size() < static_cast<size_t>(kHeadBytes)) return head;
  size_t cut = head.rfind('\n');
  return cut == std::string_view::npos ? head : head.substr(0, cut + 1);
}

/// The shape a CSV classifier asks for: at least two columns (one when allowed) and, over the
/// sample, at least 90% of the records as wide as the first.
bool LooksLikeCsv(std::string_view body, const CsvDialect& dialect, bool allow_single_column, CsvTokens* tokens) {
  if (!TokenizeCsv(body, dialect, 200, tokens).ok() || tokens->num_records() < 1) return false;
  uint32_t width = tokens->num_fields(0);
  if (width < (allow_single_column ? 1u : 2u)) return false;
  if (!allow_single_column && tokens->num_records() < 2) return false;
  int64_t same = 0;
  for (int64_t r = 0; r < tokens->num_records(); ++r) same += tokens->num_fields(r) == width ? 1 : 0;
  return same * 10 >= tokens->num_records() * 9;
}

bool AnyQuoted(const CsvTokens& tokens) {
  return std::any_of(tokens.field_flags.begin(), tokens.field_flags.end(),
                     [](uint8_t f) { return f & CsvTokens::kQuoted; });
}

/// Glue's built-in classifiers, by content: parquet, orc, avro, json, csv, or UNKNOWN.
std::string ClassifyBuiltIn(std::string_view head, FileProfile* p) {
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
  std::string_view body = CompleteLines(head.substr(i));
  dialect.separator = SniffSeparator(body, dialect);
  CsvTokens tokens;
  if (!LooksLikeCsv(body, dialect, false, &tokens)) return "UNKNOWN";
  p->delimiter = dialect.separator;
  p->header = DetectHeader(body, tokens, dialect);
  p->quoted = AnyQuoted(tokens);
  return "csv";
}


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

/// Reads a bounded sample with `p.read_options` and fills in the schema and record counts.
/// False, with `p` marked skipped, when the file cannot be read.
bool SampleRecords(FileProfile& p, FileFormat format, std::string_view head, const ProfileOptions& options) {
  ErrorSink errors(100);
  ReadOptions read;
  read.errors = &errors;
  read.block_size = 1 << 20;
  read.pool = options.parse_pool;
  read.format_options = p.read_options;
  auto reader = MakeRecordReader(format, {p.file}, read);
  if (!reader.ok()) {
    SkipFile(p, "unreadable", reader.status().message());
    return false;
  }
  SchemaPtr merged;
  int64_t rows = 0;
  bool complete = true;
  while (rows < options.sample_rows) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      SkipFile(p, "corrupt", batch.status().message());
      return false;
    }
    if (*batch == nullptr) break;
    rows += (*batch)->num_rows();
    merged = merged ? MergeSchemas(*merged, *(*batch)->schema(), MergeMode::kCatalog) : (*batch)->schema();
    if (rows >= options.sample_rows) complete = false;
  }
  if (merged == nullptr || merged->num_fields() == 0) {
    SkipFile(p, "no records", errors.count() > 0 ? errors.errors()[0].ToString() : "no records");
    return false;
  }
  p.schema = Schema::Make(WidenIntegers(ToCatalogSchema(*merged)->AsStruct())->fields());
  int64_t lines = std::count(head.begin(), head.end(), '\n');
  int64_t head_size = static_cast<int64_t>(head.size());
  p.average_record_size = lines > 0 ? head_size / lines : head_size;
  p.records = complete ? rows : (p.average_record_size > 0 ? p.file.size / p.average_record_size : rows);
  if (p.compression != Compression::kNone && !complete) p.records = rows;  // no size to scale from
  return true;
}

/// A CsvClassifier: certain when the file has its shape with its delimiter and quote.
bool TryCsvClassifier(const CustomClassifier& c, std::string_view head, FileProfile& p, const ProfileOptions& options) {
  CsvDialect dialect;
  dialect.quote = static_cast<unsigned char>(c.quote);
  std::string_view body = CompleteLines(head);
  dialect.separator = c.delimiter ? *c.delimiter : SniffSeparator(body, dialect);
  CsvTokens tokens;
  if (!LooksLikeCsv(body, dialect, c.allow_single_column, &tokens)) return false;
  p.classification = "csv";
  p.delimiter = dialect.separator;
  p.quote = c.quote;
  p.quoted = AnyQuoted(tokens);
  p.serde = c.serde;
  p.header = c.contains_header == "PRESENT" || (c.contains_header == "UNKNOWN" && DetectHeader(body, tokens, dialect));
  p.read_options = {{"separator", std::string(1, p.delimiter)},
                    {"quoteChar", std::string(1, p.quote)},
                    {"withHeader", p.header ? "true" : "false"}};
  if (!SampleRecords(p, FileFormat::kCsv, head, options)) return true;  // classified, but unreadable
  std::vector<Field> fields = p.schema->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i < c.header.size()) fields[i].name = c.header[i];
    if (!CustomDatatypeAllows(c.custom_datatypes, fields[i].type->ToString())) fields[i].type = DataType::String();
  }
  p.schema = Schema::Make(std::move(fields));
  return true;
}

/// A JsonClassifier: certain when its JsonPath yields records from the file.
bool TryJsonClassifier(const CustomClassifier& c, std::string_view head, FileProfile& p, const ProfileOptions& options) {
  size_t i = 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  if (i >= head.size() || (head[i] != '{' && head[i] != '[')) return false;
  FileProfile attempt = p;
  attempt.classification = "json";
  attempt.read_options = {{"jsonPath", c.json_path}};
  if (!SampleRecords(attempt, FileFormat::kJson, head, options)) return false;
  p = std::move(attempt);
  return true;
}

/// A GrokClassifier: the share of the sampled lines its pattern matches (1.0 is certain).
double GrokCertainty(const CustomClassifier& c, std::string_view head, FileProfile& p, const ProfileOptions& options) {
  std::string_view body = CompleteLines(head);
  int64_t lines = 0, matched = 0;
  std::vector<std::string_view> values;
  std::vector<bool> present;
  while (!body.empty() && lines < options.sample_rows) {
    size_t end = body.find('\n');
    std::string_view line = body.substr(0, end);
    body = end == std::string_view::npos ? std::string_view() : body.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    ++lines;
    matched += c.grok->Match(line, &values, &present) ? 1 : 0;
  }
  if (matched == 0) return 0;
  std::vector<Field> fields;
  for (const auto& f : c.grok->fields()) fields.push_back({f.name, f.type});
  p.classification = c.classification;
  p.schema = Schema::Make(std::move(fields));
  p.grok_pattern = c.grok_pattern;
  p.grok_custom_patterns = c.custom_patterns;
  int64_t sampled = static_cast<int64_t>(CompleteLines(head).size());
  p.average_record_size = sampled / lines;
  bool whole_file = p.compression == Compression::kNone && static_cast<int64_t>(head.size()) == p.file.size;
  p.records = whole_file || p.average_record_size == 0 ? lines : p.file.size / p.average_record_size;
  return static_cast<double>(matched) / static_cast<double>(lines);
}

}  // namespace

FileProfile ProfileFile(const FileInfo& file, const ProfileOptions& options) {
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
  // Custom classifiers first, in order: the first certain one wins.
  std::optional<FileProfile> best_uncertain;
  double best_certainty = 0;
  for (const CustomClassifier& c : options.classifiers ? *options.classifiers : std::vector<CustomClassifier>()) {
    FileProfile attempt = p;
    attempt.classifier = c.name;
    switch (c.kind) {
      case CustomClassifier::Kind::kCsv:
        if (TryCsvClassifier(c, *head, attempt, options)) return attempt;
        break;
      case CustomClassifier::Kind::kJson:
        if (TryJsonClassifier(c, *head, attempt, options)) return attempt;
        break;
      case CustomClassifier::Kind::kGrok: {
        double certainty = GrokCertainty(c, *head, attempt, options);
        if (certainty >= 1.0) return attempt;
        if (certainty > best_certainty) {
          best_certainty = certainty;
          best_uncertain = std::move(attempt);
        }
        break;
      }
      case CustomClassifier::Kind::kXml: break;  // not read by this build; the crawl logs it once
    }
  }
  p.classification = ClassifyBuiltIn(*head, &p);
  if (p.classification == "UNKNOWN" && best_uncertain) return *best_uncertain;
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
  if (p.classification == "csv") {
    p.read_options = {{"separator", std::string(1, p.delimiter)}, {"withHeader", p.header ? "true" : "false"}};
  }
  SampleRecords(p, p.classification == "csv" ? FileFormat::kCsv : FileFormat::kJson, *head, options);
  return p;
}

}  // namespace epoxy::crawler
