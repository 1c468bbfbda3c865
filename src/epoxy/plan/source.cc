// SPDX-License-Identifier: Apache-2.0
// Scan sources: partition discovery and schema sampling for folders, and catalog tables.
#include "epoxy/plan/source.h"

#include <nlohmann/json.hpp>

#include "epoxy/format/parquet/parquet_reader.h"
#include "epoxy/storage/glob.h"
#include "epoxy/types/type_merge.h"
#include "epoxy/types/value_text.h"

namespace epoxy::plan {
namespace {

std::string Basename(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Hive escapes special characters in partition values as %XX.
std::string Unescape(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

Status Walk(FileSystem& fs, const std::string& dir, size_t depth, std::vector<std::string>* keys,
            std::vector<std::optional<std::string>>* values, std::vector<PartitionDir>* out) {
  EPOXY_ASSIGN_OR_RETURN(std::vector<std::string> subdirs, fs.ListSubdirs(dir));
  bool deeper = false;
  for (const auto& sub : subdirs) {
    std::string name = Basename(sub);
    size_t eq = name.find('=');
    if (eq == std::string::npos || eq == 0) continue;  // not a partition folder (_temporary, ...)
    std::string key = name.substr(0, eq);
    if (depth == keys->size()) {
      if (depth > 0 && !out->empty()) continue;  // a deeper level the first partition lacked
      keys->push_back(key);
    }
    if ((*keys)[depth] != key) continue;  // does not fit the layout of the first partition
    deeper = true;
    std::string value = Unescape(name.substr(eq + 1));
    values->push_back(value == "__HIVE_DEFAULT_PARTITION__" ? std::nullopt : std::optional<std::string>(value));
    if (!out->empty() && depth + 1 == keys->size()) {
      // The layout is known and this is its last level: a deeper folder would be skipped anyway,
      // so the partition needs no listing (365 daily folders: 365 fewer directory reads).
      out->push_back({sub, *values});
    } else {
      EPOXY_RETURN_NOT_OK(Walk(fs, sub, depth + 1, keys, values, out));
    }
    values->pop_back();
  }
  if (!deeper && depth > 0 && depth == keys->size()) out->push_back({dir, *values});
  return Status::OK();
}

/// The schema of the first file of a source, read from its footer or first batch.
Result<SchemaPtr> SampleSchema(FileFormat format, const FileInfo& file, const FormatOptions& options) {
  if (format == FileFormat::kParquet) {
    EPOXY_ASSIGN_OR_RETURN(auto pf, parquet::ParquetFile::Open(file.path));
    return pf->schema().schema;
  }
  ErrorSink errors(100);
  ReadOptions read;
  read.errors = &errors;
  read.format_options = options;
  read.block_size = 1 << 20;
  read.max_blocks_in_flight = 1;  // the first batch only, not the file parsed ahead
  EPOXY_ASSIGN_OR_RETURN(auto reader, MakeRecordReader(format, {file}, read));
  EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, reader->Next());
  if (batch == nullptr) return Schema::Make({});
  return batch->schema();
}

FileFormat FormatOfClassification(const std::string& classification, bool* known) {
  *known = true;
  if (classification == "parquet") return FileFormat::kParquet;
  if (classification == "json") return FileFormat::kJson;
  if (classification == "csv") return FileFormat::kCsv;
  *known = false;
  return FileFormat::kParquet;
}

}  // namespace

bool IsDataFile(const FileInfo& file) {
  std::string name = Basename(file.path);
  return file.size > 0 && !name.empty() && name[0] != '_' && name[0] != '.';
}

Result<std::vector<PartitionDir>> DiscoverPartitions(const std::string& root, std::vector<std::string>* keys) {
  keys->clear();
  std::vector<PartitionDir> out;
  EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(root));
  if (!fs->ListSubdirs(root).ok()) return out;  // a file, or nothing: the listing says which
  std::vector<std::optional<std::string>> values;
  EPOXY_RETURN_NOT_OK(Walk(*fs, root, 0, keys, &values, &out));
  return out;
}

TypePtr InferPartitionType(const std::vector<PartitionDir>& partitions, size_t key) {
  bool all_int = true, all_long = true, all_double = true, all_date = true, any = false;
  for (const auto& p : partitions) {
    if (!p.values[key]) continue;
    const std::string& v = *p.values[key];
    any = true;
    int64_t i = 0;
    double d = 0;
    int32_t days = 0;
    bool is_long = ParseInt64(v, &i) && !(v.size() > 1 && v[0] == '0');  // "007" stays text
    all_long = all_long && is_long;
    all_int = all_int && is_long && i >= INT32_MIN && i <= INT32_MAX;
    all_double = all_double && ParseDouble(v, &d);
    all_date = all_date && v.size() == 10 && ParseDate(v, &days);
  }
  if (!any) return DataType::String();
  if (all_int) return DataType::Int();
  if (all_long) return DataType::BigInt();
  if (all_date) return DataType::Date();
  if (all_double) return DataType::Double();
  return DataType::String();
}

Result<ScanSource> ResolveFileSource(FileFormat format, const std::string& path, const FormatOptions& options) {
  ScanSource source;
  source.format = format;
  source.root = path;
  while (source.root.size() > 1 && source.root.back() == '/') source.root.pop_back();
  source.options = options;
  std::vector<std::string> keys;
  std::vector<PartitionDir> partitions;
  if (source.root.find_first_of("*?[{") == std::string::npos) {
    EPOXY_ASSIGN_OR_RETURN(partitions, DiscoverPartitions(source.root, &keys));
  }
  for (size_t k = 0; k < keys.size(); ++k) source.partition_keys.push_back({keys[k], InferPartitionType(partitions, k)});
  source.discovered = partitions;
  // The data schema: the first data file of up to kSampledFolders partitions spread over the
  // source (or the first files of an unpartitioned one), merged with the catalog's widening rules.
  constexpr size_t kSampledFolders = 16;
  std::vector<std::string> folders;
  if (partitions.empty()) {
    folders.push_back(source.root);
  } else {
    size_t step = std::max<size_t>(1, partitions.size() / kSampledFolders);
    for (size_t p = 0; p < partitions.size() && folders.size() < kSampledFolders; p += step) folders.push_back(partitions[p].path);
  }
  SchemaPtr merged;
  int sampled = 0;
  for (const auto& folder : folders) {
    auto files = ExpandPaths({folder});
    if (!files.ok()) {
      if (partitions.empty()) return Status(files.status().code(), fmt::format("reading {}: {}", path, files.status().message()));
      continue;
    }
    int taken = 0;
    for (const auto& f : *files) {
      if (!IsDataFile(f)) continue;
      EPOXY_ASSIGN_OR_RETURN(SchemaPtr schema, SampleSchema(format, f, options));
      merged = merged ? MergeSchemas(*merged, *schema, MergeMode::kCatalog) : schema;
      ++sampled;
      // One file a partition; an unpartitioned folder gets up to kSampledFolders files.
      if (++taken >= (partitions.empty() ? static_cast<int>(kSampledFolders) : 1)) break;
    }
  }
  if (merged == nullptr) return Status::NotFound("no data files in '{}'", path);
  source.data_schema = ToCatalogSchema(*merged);
  source.sampled_files = sampled;
  return source;
}

Result<ScanSource> ResolveCatalogSource(catalog::CatalogStore& store, const std::string& database,
                                        const std::string& table) {
  EPOXY_ASSIGN_OR_RETURN(catalog::Json t, store.GetTable(database, table));
  const catalog::Json sd = t.value("StorageDescriptor", catalog::Json::object());
  const catalog::Json params = t.value("Parameters", catalog::Json::object());
  ScanSource source;
  source.from_catalog = true;
  source.catalog_table = database + "." + table;
  source.root = sd.value("Location", "");
  while (source.root.size() > 1 && source.root.back() == '/') source.root.pop_back();
  if (source.root.empty()) return Status::InvalidInput("table {}.{} has no Location", database, table);
  bool known = false;
  std::string classification = params.value("classification", sd.value("Parameters", catalog::Json::object()).value("classification", ""));
  source.format = FormatOfClassification(classification, &known);
  if (!known) {
    std::string input_format = sd.value("InputFormat", "");
    if (input_format.find("Parquet") != std::string::npos) source.format = FileFormat::kParquet;
    else return Status::NotSupported("table {}.{} is classified '{}', which epoxy cannot read yet", database, table, classification);
  }
  const catalog::Json serde = sd.value("SerdeInfo", catalog::Json::object()).value("Parameters", catalog::Json::object());
  if (source.format == FileFormat::kCsv) {
    std::string delimiter = params.value("delimiter", serde.value("field.delim", serde.value("separatorChar", ",")));
    source.options["separator"] = delimiter;
    source.options["withHeader"] = params.value("skip.header.line.count", "0") == "1" ? "true" : "false";
    if (params.contains("quoteChar")) source.options["quoteChar"] = params["quoteChar"].get<std::string>();
  }
  if (source.format == FileFormat::kJson && params.contains("jsonPath")) source.options["jsonPath"] = params["jsonPath"];
  std::vector<Field> fields;
  for (const auto& c : sd.value("Columns", catalog::Json::array())) {
    auto type = ParseType(c.value("Type", "string"));
    if (!type.ok()) return Status::InvalidInput("table {}.{} column {}: {}", database, table, c.value("Name", ""), type.status().message());
    fields.push_back({c.value("Name", ""), *type});
  }
  source.data_schema = Schema::Make(std::move(fields));
  for (const auto& k : t.value("PartitionKeys", catalog::Json::array())) {
    auto type = ParseType(k.value("Type", "string"));
    if (!type.ok()) return Status::InvalidInput("table {}.{} partition key {}: {}", database, table, k.value("Name", ""), type.status().message());
    source.partition_keys.push_back({k.value("Name", ""), *type});
  }
  return source;
}

}  // namespace epoxy::plan
