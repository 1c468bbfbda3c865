// SPDX-License-Identifier: Apache-2.0
// ParquetFile and the Parquet RecordReader.
#include "epoxy/format/parquet/parquet_reader.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>

#include "epoxy/format/parquet/assembler.h"
#include "epoxy/format/parquet/row_ranges.h"
#include "epoxy/format/parquet/column_chunk_reader.h"
#include "epoxy/vector/builder.h"

namespace epoxy::parquet {
namespace {

constexpr int64_t kBatchRows = 128 * 1024;

Status FileError(const std::string& path, const Status& st) { return st.WithContext(path); }

/// The subtree leaves of a node.
void CollectLeaves(const SchemaNode& node, std::vector<int>* out) {
  if (node.kind == SchemaNode::Kind::kPrimitive) {
    out->push_back(node.leaf);
    return;
  }
  for (const auto& c : node.children) CollectLeaves(c, out);
}

bool SignedOrder(const SchemaElement& e) {
  switch (*e.type) {
    case PhysicalType::kBoolean:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: return !(e.logical.kind == LogicalType::kInteger && !e.logical.is_signed);
    default: return false;
  }
}

/// Decodes a PLAIN statistics bound into a literal for the column's epoxy type.
bool BoundToLiteral(const SchemaElement& e, const TypePtr& type, const std::string& bytes, Literal* out) {
  switch (*e.type) {
    case PhysicalType::kInt32: {
      if (bytes.size() != 4 || type->id() == TypeId::kDecimal || type->id() == TypeId::kString) return false;
      int32_t v;
      std::memcpy(&v, bytes.data(), 4);
      *out = static_cast<int64_t>(v);
      return true;
    }
    case PhysicalType::kInt64: {
      if (bytes.size() != 8 || type->id() != TypeId::kBigInt) return false;
      int64_t v;
      std::memcpy(&v, bytes.data(), 8);
      *out = v;
      return true;
    }
    case PhysicalType::kFloat: {
      if (bytes.size() != 4) return false;
      float v;
      std::memcpy(&v, bytes.data(), 4);
      if (v != v) return false;  // NaN bounds are not trusted
      *out = static_cast<double>(v);
      return true;
    }
    case PhysicalType::kDouble: {
      if (bytes.size() != 8) return false;
      double v;
      std::memcpy(&v, bytes.data(), 8);
      if (v != v) return false;
      *out = v;
      return true;
    }
    case PhysicalType::kByteArray:
      if (type->id() != TypeId::kString) return false;
      *out = bytes;
      return true;
    case PhysicalType::kBoolean:
      if (bytes.size() != 1) return false;
      *out = bytes[0] != 0;
      return true;
    default: return false;
  }
}

}  // namespace

Result<std::unique_ptr<ParquetFile>> ParquetFile::Open(const std::string& path) {
  EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(path));
  EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs->OpenForRead(path));
  return Open(std::move(file));
}

Result<std::unique_ptr<ParquetFile>> ParquetFile::Open(std::unique_ptr<RandomAccessFile> file) {
  auto pf = std::unique_ptr<ParquetFile>(new ParquetFile());
  pf->path_ = file->path();
  pf->file_ = std::move(file);
  const std::string& path = pf->path_;
  int64_t size = pf->file_->size();
  if (size < 12) {
    return Status::InvalidData("'{}' is not a Parquet file: {} bytes is too short", path, size);
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr head, pf->file_->ReadAt(0, 4));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr tail, pf->file_->ReadAt(size - 8, 8));
  std::string_view magic = tail->view().substr(4);
  if (magic == "PARE" || head->view() == "PARE") {
    return Status::NotSupported(
        "'{}' is an encrypted Parquet file (encrypted footer); reading encrypted Parquet is not "
        "supported yet",
        path);
  }
  if (head->view() != "PAR1" || magic != "PAR1") {
    return Status::InvalidData("'{}' is not a Parquet file (no PAR1 magic at both ends)", path);
  }
  uint32_t footer_len;
  std::memcpy(&footer_len, tail->data(), 4);
  if (footer_len > static_cast<uint64_t>(size - 12)) {
    return Status::InvalidData("'{}': footer length {} exceeds the file ({} bytes)", path, footer_len, size);
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr footer, pf->file_->ReadAt(size - 8 - footer_len, footer_len));
  auto metadata = DecodeFileMetaData(footer->data(), static_cast<size_t>(footer->size()));
  if (!metadata.ok()) return FileError(path, metadata.status().WithContext("corrupt footer"));
  pf->metadata_ = std::move(*metadata);
  pf->footer_bytes_ = 12 + footer_len;
  bool encrypted_column = false;
  for (const auto& g : pf->metadata_.row_groups) {
    for (const auto& c : g.columns) encrypted_column = encrypted_column || c.encrypted;
  }
  if (pf->metadata_.encrypted_plaintext_footer || encrypted_column) {
    return Status::NotSupported(
        "'{}' is an encrypted Parquet file (encrypted columns); reading encrypted Parquet is not "
        "supported yet",
        path);
  }
  auto schema = BuildFileSchema(pf->metadata_);
  if (!schema.ok()) return FileError(path, schema.status());
  pf->schema_ = std::move(*schema);
  size_t num_leaves = pf->schema_->leaves.size();
  for (size_t i = 0; i < pf->metadata_.row_groups.size(); ++i) {
    const RowGroup& g = pf->metadata_.row_groups[i];
    if (g.columns.size() != num_leaves) {
      return Status::InvalidData("'{}': row group {} has {} columns, the schema {}", path, i,
                                 g.columns.size(), num_leaves);
    }
    if (g.num_rows < 0) return Status::InvalidData("'{}': row group {} has {} rows", path, i, g.num_rows);
  }
  return pf;
}

Result<std::vector<std::vector<ArrayPtr>>> ParquetFile::ReadRowGroup(int index, const std::vector<int>& fields,
                                                                     bool verify_crc, ThreadPool* pool,
                                                                     int64_t max_string_bytes) const {
  const RowGroup& group = metadata_.row_groups[index];
  std::vector<int> leaves;
  for (int f : fields) CollectLeaves(schema_->fields[f], &leaves);
  std::vector<LeafData> data(schema_->leaves.size());
  ChunkReadOptions options;
  options.verify_crc = verify_crc;
  {
    TaskGroup group_tasks(*pool);
    for (int leaf : leaves) {
      group_tasks.Spawn([&, leaf]() -> Status {
        const SchemaNode& node = *schema_->leaves[leaf];
        Status st = ReadColumnChunk(*file_, group.columns[leaf], *node.element,
                                    schema_->max_def[leaf], schema_->max_rep[leaf], options,
                                    &data[leaf]);
        return st.WithContext(fmt::format("'{}' row group {}", path_, index));
      });
    }
    EPOXY_RETURN_NOT_OK(group_tasks.Wait());
  }
  std::vector<LeafLevels> levels(schema_->leaves.size());
  for (int leaf : leaves) levels[static_cast<size_t>(leaf)] = {schema_->max_def[leaf], schema_->max_rep[leaf]};
  const auto ranges = RowRanges(data, leaves, levels, group.num_rows, max_string_bytes);
  std::vector<std::vector<ArrayPtr>> out;
  for (const auto& [start, end] : ranges) {
    std::vector<LeafData> sliced;
    if (ranges.size() > 1) {
      sliced.resize(data.size());
      for (int leaf : leaves) {
        sliced[static_cast<size_t>(leaf)] = SliceLeaf(data[static_cast<size_t>(leaf)], levels[static_cast<size_t>(leaf)], start, end);
      }
    }
    std::vector<LeafData>& range_data = ranges.size() > 1 ? sliced : data;
    std::vector<ArrayPtr> arrays;
    for (int f : fields) {
      auto array = AssembleField(schema_->fields[f], range_data, end - start);
      if (!array.ok()) return array.status().WithContext(fmt::format("'{}' row group {}", path_, index));
      arrays.push_back(std::move(*array));
    }
    out.push_back(std::move(arrays));
  }
  return out;
}

int64_t ParquetFile::ChunkBytes(int index, const std::vector<int>& fields) const {
  std::vector<int> leaves;
  for (int f : fields) CollectLeaves(schema_->fields[f], &leaves);
  int64_t bytes = 0;
  for (int leaf : leaves) {
    const ColumnChunk& chunk = metadata_.row_groups[index].columns[leaf];
    if (chunk.meta_data && chunk.meta_data->num_values > 0) bytes += std::max<int64_t>(0, chunk.meta_data->total_compressed_size);
  }
  return bytes;
}

std::unique_ptr<ColumnStats> ParquetFile::RowGroupStats(int row_group, int field) const {
  const SchemaNode& node = schema_->fields[field];
  if (node.kind != SchemaNode::Kind::kPrimitive) return nullptr;
  const ColumnChunk& chunk = metadata_.row_groups[row_group].columns[node.leaf];
  if (!chunk.meta_data || !chunk.meta_data->statistics) return nullptr;
  const Statistics& s = *chunk.meta_data->statistics;
  auto out = std::make_unique<ColumnStats>();
  out->num_values = metadata_.row_groups[row_group].num_rows;
  if (s.null_count) {
    out->has_null_count = true;
    out->null_count = *s.null_count;
  }
  const SchemaElement& e = *node.element;
  const std::string* min = nullptr;
  const std::string* max = nullptr;
  bool has_orders = !metadata_.column_orders.empty();
  if (has_orders && static_cast<size_t>(node.leaf) < metadata_.column_orders.size() &&
      metadata_.column_orders[node.leaf] == 1 && s.min_value && s.max_value) {
    min = &*s.min_value;
    max = &*s.max_value;
  } else if (!has_orders && SignedOrder(e) && s.min && s.max) {
    min = &*s.min;
    max = &*s.max;
  }
  if (min != nullptr && max != nullptr && BoundToLiteral(e, node.type, *min, &out->min) &&
      BoundToLiteral(e, node.type, *max, &out->max)) {
    out->has_bounds = true;
  }
  return out;
}

namespace {

/// One (file, row group) to read.
struct RowGroupTask {
  std::shared_ptr<const ParquetFile> file;
  int row_group = 0;
  std::vector<int> fields;
  SchemaPtr schema;
};

/// One range of empty arrays of `schema`'s types (a file without row groups still has a schema).
Result<std::vector<std::vector<ArrayPtr>>> EmptyColumns(const Schema& schema) {
  std::vector<ArrayPtr> empty;
  for (const auto& f : schema.fields()) {
    EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(f.type));
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr array, builder->Finish());
    empty.push_back(std::move(array));
  }
  return std::vector<std::vector<ArrayPtr>>{std::move(empty)};
}

class ParquetRecordReader final : public RecordReader {
 public:
  ParquetRecordReader(std::vector<FileInfo> files, const ReadOptions& options,
                      std::vector<std::string> columns, bool verify_crc, PredicatePtr predicate)
      : files_(std::move(files)),
        options_(options),
        pool_(options.pool ? options.pool : &ThreadPool::Default()),
        columns_(std::move(columns)),
        verify_crc_(verify_crc),
        predicate_(std::move(predicate)) {}

  ~ParquetRecordReader() override {
    for (auto& slot : slots_) Wait(*slot);
  }

  Result<BatchPtr> Next() override {
    while (true) {
      if (!pending_.empty()) {
        BatchPtr b = pending_.front();
        pending_.pop_front();
        return b;
      }
      EPOXY_RETURN_NOT_OK(Fill());
      if (slots_.empty()) return BatchPtr();
      auto slot = slots_.front();
      slots_.pop_front();
      Wait(*slot);
      std::lock_guard lock(slot->mu);
      EPOXY_RETURN_NOT_OK(slot->status);
      for (auto& arrays : slot->ranges) {
        const int64_t rows = arrays.empty() ? slot->rows : arrays[0]->length();
        BatchPtr batch = Batch::Make(slot->schema, std::move(arrays), rows);
        if (rows == 0) {
          pending_.push_back(batch);  // keeps the schema visible for empty files
          continue;
        }
        for (int64_t start = 0; start < rows; start += kBatchRows) {
          pending_.push_back(batch->Slice(start, std::min(kBatchRows, rows - start)));
        }
      }
    }
  }

 private:
  struct Slot {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Status status;
    std::vector<std::vector<ArrayPtr>> ranges;  // the row group's columns, per range of rows
    SchemaPtr schema;
    int64_t rows = 0;  // of the row group (what a read of no columns gives)
  };

  void Wait(Slot& slot) { HelpUntil(*pool_, slot.mu, slot.cv, [&] { return slot.done; }); }

  /// Opens the next file and queues its row groups.
  Status OpenNextFile() {
    const FileInfo& info = files_[next_file_++];
    EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<ParquetFile> opened, ParquetFile::Open(info.path));
    if (options_.counters) {
      ++options_.counters->files_opened;
      options_.counters->bytes_read += opened->footer_bytes();
    }
    std::shared_ptr<const ParquetFile> file(std::move(opened));
    const FileSchema& schema = file->schema();
    std::vector<int> fields;
    std::vector<Field> projected;
    if (columns_.empty()) {
      for (int i = 0; i < static_cast<int>(schema.fields.size()); ++i) fields.push_back(i);
    } else {
      for (const auto& name : columns_) {
        int index = schema.schema->FieldIndex(name);
        if (index < 0) {
          return Status::InvalidInput("'{}' has no column '{}' (columns: {})", info.path, name,
                                      schema.schema->ColumnNames());
        }
        fields.push_back(index);
      }
    }
    for (int f : fields) projected.push_back(schema.schema->field(f));
    SchemaPtr out_schema = Schema::Make(std::move(projected));
    bool any = false;
    for (int g = 0; g < file->num_row_groups(); ++g) {
      if (predicate_ != nullptr) {
        std::vector<std::unique_ptr<ColumnStats>> held;
        bool may = MayMatch(*predicate_, [&](const std::string& column) -> const ColumnStats* {
          int index = schema.schema->FieldIndex(column);
          if (index < 0) return nullptr;
          held.push_back(file->RowGroupStats(g, index));
          return held.back().get();
        });
        if (!may) {
          if (options_.counters) ++options_.counters->row_groups_pruned;
          continue;
        }
      }
      if (options_.counters) ++options_.counters->row_groups_read;
      queue_.push_back({file, g, fields, out_schema});
      any = true;
    }
    if (!any) queue_.push_back({file, -1, fields, out_schema});  // an empty batch with the schema
    return Status::OK();
  }

  Status Fill() {
    size_t window = static_cast<size_t>(InFlight(pool_->num_threads() + 1, 16 << 20));
    while (slots_.size() < window) {
      if (queue_.empty()) {
        if (next_file_ >= files_.size()) break;
        EPOXY_RETURN_NOT_OK(OpenNextFile());
        continue;
      }
      RowGroupTask task = std::move(queue_.front());
      queue_.pop_front();
      auto slot = std::make_shared<Slot>();
      slot->schema = task.schema;
      slots_.push_back(slot);
      bool verify = verify_crc_;
      ThreadPool* pool = pool_;
      ReadCounters* counters = options_.counters;
      pool_->Submit([slot, task = std::move(task), verify, pool, counters] {
        Result<std::vector<std::vector<ArrayPtr>>> ranges = std::vector<std::vector<ArrayPtr>>();
        int64_t rows = 0;
        if (task.row_group >= 0) {
          rows = task.file->metadata().row_groups[static_cast<size_t>(task.row_group)].num_rows;
          ranges = task.file->ReadRowGroup(task.row_group, task.fields, verify, pool);
          // What a scan costs: the column chunks it read, not the whole file.
          if (counters) counters->bytes_read += task.file->ChunkBytes(task.row_group, task.fields);
        } else {
          ranges = EmptyColumns(*task.schema);
        }
        std::lock_guard lock(slot->mu);
        if (ranges.ok()) {
          slot->ranges = std::move(*ranges);
          slot->rows = rows;
        } else {
          slot->status = ranges.status();
        }
        slot->done = true;
        slot->cv.notify_all();
      });
    }
    return Status::OK();
  }

  std::vector<FileInfo> files_;
  ReadOptions options_;
  ThreadPool* pool_;
  std::vector<std::string> columns_;
  bool verify_crc_;
  PredicatePtr predicate_;
  size_t next_file_ = 0;
  std::deque<RowGroupTask> queue_;
  std::deque<std::shared_ptr<Slot>> slots_;
  std::deque<BatchPtr> pending_;
};

}  // namespace

Result<std::unique_ptr<RecordReader>> MakeParquetReader(std::vector<FileInfo> files,
                                                        const ReadOptions& options,
                                                        PredicatePtr predicate) {
  std::vector<std::string> columns;
  bool verify = true;
  for (const auto& [key, value] : options.format_options) {
    if (key == "columns") {
      columns = ListOption(options.format_options, key);
    } else if (key == "verifyChecksums") {
      EPOXY_ASSIGN_OR_RETURN(verify, BooleanOption(options.format_options, key, true));
    } else {
      return Status::InvalidInput("unknown parquet option '{}' (known: columns, verifyChecksums)", key);
    }
  }
  return std::unique_ptr<RecordReader>(
      new ParquetRecordReader(std::move(files), options, std::move(columns), verify, std::move(predicate)));
}

}  // namespace epoxy::parquet
