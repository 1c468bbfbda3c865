// SPDX-License-Identifier: Apache-2.0
// Choosing and configuring a reader.
#include "epoxy/format/record_reader.h"

#include "epoxy/format/compression.h"
#include "epoxy/format/csv/csv_reader.h"
#include "epoxy/format/json/json_reader.h"
#include "epoxy/format/parallel_block_reader.h"
#include "epoxy/format/parquet/parquet_reader.h"

namespace epoxy {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string_view FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kCsv: return "csv";
    case FileFormat::kJson: return "json";
    case FileFormat::kParquet: return "parquet";
  }
  return "unknown";
}

Result<FileFormat> ParseFileFormat(std::string_view name) {
  std::string lower = Lower(name);
  if (lower == "csv") return FileFormat::kCsv;
  if (lower == "json" || lower == "jsonl" || lower == "ndjson") return FileFormat::kJson;
  if (lower == "parquet") return FileFormat::kParquet;
  return Status::InvalidInput("unknown format '{}' (expected csv, json or parquet)", name);
}

Result<std::unique_ptr<RecordReader>> MakeRecordReader(FileFormat format,
                                                       std::vector<FileInfo> files,
                                                       const ReadOptions& options) {
  if (options.errors == nullptr) return Status::Internal("ReadOptions.errors is required");
  std::unique_ptr<BlockFormat> block_format;
  switch (format) {
    case FileFormat::kCsv: {
      EPOXY_ASSIGN_OR_RETURN(block_format, MakeCsvFormat(options.format_options));
      break;
    }
    case FileFormat::kJson: {
      EPOXY_ASSIGN_OR_RETURN(block_format, MakeJsonFormat(options.format_options));
      break;
    }
    case FileFormat::kParquet: return parquet::MakeParquetReader(std::move(files), options);
  }
  return std::unique_ptr<RecordReader>(
      new ParallelBlockReader(std::move(block_format), std::move(files), options));
}

Result<FileFormat> DetectFileFormat(const FileInfo& file) {
  std::string name = Lower(file.path);
  for (std::string_view ext : {".gz", ".gzip", ".zst", ".zstd", ".bz2"}) {
    if (EndsWith(name, ext)) {
      name.resize(name.size() - ext.size());
      break;
    }
  }
  if (EndsWith(name, ".csv") || EndsWith(name, ".tsv") || EndsWith(name, ".psv")) {
    return FileFormat::kCsv;
  }
  if (EndsWith(name, ".json") || EndsWith(name, ".jsonl") || EndsWith(name, ".ndjson")) {
    return FileFormat::kJson;
  }
  if (EndsWith(name, ".parquet") || EndsWith(name, ".parq")) return FileFormat::kParquet;
  // No telling extension: look at the first decompressed bytes.
  EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(file.path));
  EPOXY_ASSIGN_OR_RETURN(auto input, fs->OpenListed(file));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr head, input->ReadAt(0, 4096));
  std::string text(head->view());
  Compression compression = DetectCompression(file.path, text);
  if (compression != Compression::kNone) {
    std::shared_ptr<const RandomAccessFile> shared(std::move(input));
    EPOXY_ASSIGN_OR_RETURN(auto reader, DecompressingReader::Make(shared, compression));
    text.assign(4096, '\0');
    auto n = reader->Read(reinterpret_cast<uint8_t*>(text.data()), 4096);
    text.resize(n.ok() ? static_cast<size_t>(*n) : 0);
  }
  if (text.size() >= 4 && (text.substr(0, 4) == "PAR1" || text.substr(0, 4) == "PARE")) {
    return FileFormat::kParquet;
  }
  size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && (text[i] == '{' || text[i] == '[')) return FileFormat::kJson;
  return FileFormat::kCsv;
}

std::vector<std::string> ListOption(const FormatOptions& options, const std::string& key) {
  std::vector<std::string> items;
  auto it = options.find(key);
  if (it == options.end()) return items;
  const std::string& text = it->second;
  for (size_t start = 0; start <= text.size();) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

Result<bool> BooleanOption(const FormatOptions& options, const std::string& key, bool fallback) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  std::string v = Lower(it->second);
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no") return false;
  return Status::InvalidInput("option {} must be true or false, got '{}'", key, it->second);
}

Result<int> CharOption(const FormatOptions& options, const std::string& key, int fallback) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  const std::string& v = it->second;
  if (v == "-1" || v.empty()) return -1;
  if (v == "\\t" || v == "tab") return '\t';
  if (v.size() == 1) return static_cast<unsigned char>(v[0]);
  return Status::InvalidInput("option {} must be a single character, got '{}'", key, v);
}

}  // namespace epoxy
