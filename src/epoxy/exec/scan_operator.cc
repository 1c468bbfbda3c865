// SPDX-License-Identifier: Apache-2.0
// The scan: prunes partitions by their values before listing their files, reads the remaining
// files with projection and statistics pushdown, fits each batch to the scan's schema, adds the
// partition columns and applies the pushed row filter.
#include <nlohmann/json.hpp>

#include "epoxy/common/crash_point.h"
#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/operator.h"
#include "epoxy/expr/cast.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/format/parquet/parquet_reader.h"
#include "epoxy/plan/scan_predicate.h"
#include "epoxy/plan/source.h"
#include "epoxy/storage/glob.h"
#include "epoxy/vector/builder.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

/// The partitions of a catalog table, from the catalog, in its order.
Result<std::vector<plan::PartitionDir>> CatalogPartitions(catalog::CatalogStore& store, const plan::ScanSource& source) {
  std::string db = source.catalog_table.substr(0, source.catalog_table.find('.'));
  std::string table = source.catalog_table.substr(source.catalog_table.find('.') + 1);
  std::vector<plan::PartitionDir> out;
  std::string token;
  do {
    EPOXY_ASSIGN_OR_RETURN(catalog::Page page,
                           store.GetPartitions(db, table, source.catalog_partition_predicate, token, 1000));
    for (const auto& p : page.items) {
      plan::PartitionDir dir;
      dir.path = p.value("StorageDescriptor", catalog::Json::object()).value("Location", "");
      while (dir.path.size() > 1 && dir.path.back() == '/') dir.path.pop_back();
      for (const auto& v : p.value("Values", catalog::Json::array())) dir.values.push_back(v.get<std::string>());
      out.push_back(std::move(dir));
    }
    token = page.next_token;
  } while (!token.empty());
  return out;
}

/// Whether `path` lies in a folder below `root` whose name starts with `_` or `.` (a write's
/// `_temporary` staging, `.hidden`), which Spark's readers skip too.
bool InHiddenFolder(const std::string& path, const std::string& root) {
  if (path.size() <= root.size() || path.compare(0, root.size(), root) != 0) return false;
  size_t slash = path.find('/', root.size());
  while (slash != std::string::npos) {
    size_t next = path.find('/', slash + 1);
    if (next == std::string::npos) break;  // the file's own name: IsDataFile's part
    if (slash + 1 < path.size() && (path[slash + 1] == '_' || path[slash + 1] == '.')) return true;
    slash = next;
  }
  return false;
}

class ScanOperator final : public BatchSource {
 public:
  ScanOperator(plan::PlanPtr node, ExecContext* context, std::vector<bool> needed)
      : node_(std::move(node)), context_(context), needed_(std::move(needed)) {}

  Status Open() {
    const plan::ScanSource& source = node_->source;
    num_data_ = source.data_schema->num_fields();
    if (source.table_source != nullptr) return OpenTableSource();
    std::vector<plan::PartitionDir> partitions;
    if (!source.partition_keys.empty()) {
      if (source.from_catalog) {
        if (context_->catalog == nullptr) return Status::Internal("a catalog scan without a catalog");
        EPOXY_ASSIGN_OR_RETURN(partitions, CatalogPartitions(*context_->catalog, source));
      } else if (!source.discovered.empty()) {
        partitions = source.discovered;
      } else {
        std::vector<std::string> keys;
        EPOXY_ASSIGN_OR_RETURN(partitions, plan::DiscoverPartitions(source.root, &keys));
      }
      listed_partitions_ = static_cast<int64_t>(partitions.size());
      EPOXY_RETURN_NOT_OK(PrunePartitions(&partitions));
      partitions_ = std::move(partitions);
    } else {
      partitions_.push_back({source.root, {}});
    }
    for (const auto& pattern : source.exclusions) {
      EPOXY_ASSIGN_OR_RETURN(Glob g, Glob::Compile(pattern));
      exclusions_.push_back(std::move(g));
    }
    // Reader settings shared by every partition.
    read_.errors = &errors_;
    read_.memory = context_->memory;
    read_.counters = &counters_;
    read_.format_options = source.options;
    if (source.group_size != 0) read_.group_bytes = std::max<int64_t>(source.group_size, 0);
    if (node_->columns_pushed) {  // every reader takes the projection
      std::vector<std::string> names;
      for (int c : node_->columns) {
        if (c < num_data_) names.push_back(source.data_schema->field(c).name);
      }
      if (names.empty() && num_data_ > 0) names.push_back(source.data_schema->field(0).name);  // count(*): one column
      // Every column (SELECT *, a copy job): the readers' plain path, which matches no names per
      // field; Fit drops what the files hold beyond the schema.
      if (static_cast<int>(names.size()) < num_data_) read_.format_options["columns"] = fmt::format("{}", fmt::join(names, ","));
    }
    if (node_->row_filter && source.format == FileFormat::kParquet) {
      statistics_ = plan::LowerToPredicate(*node_->row_filter, *source.data_schema);
    }
    if (source.file_selector != nullptr && !source.file_selector->ordered() && partitions_.size() > 1) {
      EPOXY_RETURN_NOT_OK(SelectAllPartitions());
    }
    return Status::OK();
  }

  Result<BatchPtr> NextRaw() override {
    while (true) {
      if (reader_ == nullptr) {
        if (next_partition_ >= partitions_.size()) return BatchPtr();
        EPOXY_RETURN_NOT_OK(OpenPartition(partitions_[next_partition_++]));
        if (reader_ == nullptr) continue;
      }
      EPOXY_ASSIGN_OR_RETURN(BatchPtr raw, reader_->Next());
      if (errors_.count() > 0) {
        return Status::InvalidData("malformed record in {}: {}", errors_.errors()[0].path, errors_.errors()[0].ToString());
      }
      if (raw == nullptr) {
        reader_.reset();
        continue;
      }
      rows_read_ += raw->num_rows();
      return WithPartitionValues(raw);
    }
  }

  Result<BatchPtr> Complete(BatchPtr raw) const override {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, Fit(raw));
    if (node_->row_filter) {
      EPOXY_ASSIGN_OR_RETURN(expr::Datum keep, expr::Evaluate(*node_->row_filter, *batch, context_->memory));
      EPOXY_ASSIGN_OR_RETURN(std::vector<int32_t> rows, expr::SelectTrue(keep, batch->num_rows()));
      EPOXY_ASSIGN_OR_RETURN(batch, Selected(batch, rows));
    }
    rows_out_ += batch->num_rows();
    return batch;
  }

  /// The filter's rows of `batch`: the columns read above copied, the rest (read only by the
  /// filter) stood in for by nulls.
  Result<BatchPtr> Selected(const BatchPtr& batch, const std::vector<int32_t>& rows) const {
    if (static_cast<int64_t>(rows.size()) == batch->num_rows()) return batch;
    if (needed_.empty()) return TakeBatch(batch, rows, context_->memory);
    std::vector<ArrayPtr> columns;
    for (int c = 0; c < batch->num_columns(); ++c) {
      if (static_cast<size_t>(c) < needed_.size() && !needed_[static_cast<size_t>(c)]) {
        columns.push_back(Array::MakeNull(static_cast<int64_t>(rows.size())));
        continue;
      }
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr taken, Take(*batch->column(c), rows, context_->memory));
      columns.push_back(std::move(taken));
    }
    return Batch::Make(batch->schema(), std::move(columns), static_cast<int64_t>(rows.size()));
  }

  void Report(RunMetrics* m) const override {
    m->partitions_listed += listed_partitions_;
    m->partitions_pruned += pruned_partitions_;
    m->files_listed += files_listed_.load();
    m->bytes_listed += bytes_listed_.load();
    m->files_read += counters_.files_opened;
    m->bytes_read += counters_.bytes_read;
    m->row_groups_read += counters_.row_groups_read;
    m->row_groups_pruned += counters_.row_groups_pruned;
    m->rows_read += rows_read_;
    m->operator_rows.push_back({"scan rows out", rows_out_.load()});
  }

 private:
  /// A table source (a database): one reader, sent the scan's columns, the filter and the limit.
  Status OpenTableSource() {
    std::vector<int> columns;
    if (node_->columns_pushed) {
      for (int c : node_->columns) {
        if (c < num_data_) columns.push_back(c);
      }
      if (columns.empty() && num_data_ > 0) columns.push_back(0);  // count(*): one column
    }
    EPOXY_ASSIGN_OR_RETURN(reader_, node_->source.table_source->OpenReader(columns, node_->row_filter,
                                                                           node_->scan_limit, context_->memory));
    CrashPoint("read");
    return Status::OK();
  }

  /// Keeps the partitions whose values satisfy the partition filter (evaluated on all of them at
  /// once, as one batch of key values).
  Status PrunePartitions(std::vector<plan::PartitionDir>* partitions) {
    const auto& keys = node_->source.partition_keys;
    const int64_t n = static_cast<int64_t>(partitions->size());
    std::vector<ArrayPtr> columns;
    for (int c = 0; c < num_data_; ++c) columns.push_back(Array::MakeNull(n));
    for (size_t k = 0; k < keys.size(); ++k) {
      StringBuilder text(DataType::String(), context_->memory);
      for (const auto& p : *partitions) {
        if (k < p.values.size() && p.values[k]) {
          EPOXY_RETURN_NOT_OK(text.Append(*p.values[k]));
        } else {
          EPOXY_RETURN_NOT_OK(text.AppendNull());
        }
      }
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr strings, text.Finish());
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr typed, expr::CastArray(strings, keys[k].type, context_->memory));
      columns.push_back(std::move(typed));
    }
    partition_values_ = Batch::Make(node_->schema, columns, n);
    if (!node_->partition_filter) return Status::OK();
    EPOXY_ASSIGN_OR_RETURN(expr::Datum keep, expr::Evaluate(*node_->partition_filter, *partition_values_, context_->memory));
    EPOXY_ASSIGN_OR_RETURN(std::vector<int32_t> rows, expr::SelectTrue(keep, n));
    std::vector<plan::PartitionDir> kept;
    for (int32_t r : rows) kept.push_back(std::move((*partitions)[static_cast<size_t>(r)]));
    EPOXY_ASSIGN_OR_RETURN(partition_values_, TakeBatch(partition_values_, rows, context_->memory));
    pruned_partitions_ = n - static_cast<int64_t>(kept.size());
    *partitions = std::move(kept);
    return Status::OK();
  }

  /// The files of one partition folder (or of the whole source): recursively unless `recurse`
  /// is off, without the excluded ones.
  Result<std::vector<FileInfo>> ListPartition(const std::string& path) {
    const plan::ScanSource& source = node_->source;
    if (source.recurse && exclusions_.empty()) return ExpandPaths({path});
    std::vector<FileInfo> files;
    if (HasGlobChars(path)) {
      EPOXY_ASSIGN_OR_RETURN(files, ExpandPaths({path}));
    } else {
      EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(path));
      auto listed = fs->ListFiles(path, source.recurse);
      if (!listed.ok()) {
        auto info = fs->GetFileInfo(path);  // a file, not a folder?
        if (!info.ok()) return listed.status();
        files.push_back(*info);
      } else {
        files = std::move(*listed);
      }
    }
    std::vector<FileInfo> kept;
    for (auto& f : files) {
      std::string relative = f.path.size() > source.root.size() + 1 && f.path.rfind(source.root, 0) == 0
                                 ? f.path.substr(source.root.size() + 1) : f.path;
      bool excluded = std::any_of(exclusions_.begin(), exclusions_.end(), [&](const Glob& g) { return g.Matches(relative); });
      if (!excluded) kept.push_back(std::move(f));
    }
    return kept;
  }

  /// The data files one partition's scan reads: listed, without hidden ones, then chosen by the
  /// bookmark when there is one. Thread-safe.
  Result<std::vector<FileInfo>> PartitionFiles(const plan::PartitionDir& partition) {
    std::vector<FileInfo> files;
    auto listed = ListPartition(partition.path);
    if (!listed.ok()) {
      // A catalog partition whose folder is gone reads as empty, as Glue and Spark do.
      if (listed.status().code() == StatusCode::kNotFound && node_->source.from_catalog) return files;
      return listed.status();
    }
    int64_t count = 0, bytes = 0;
    for (auto& f : *listed) {
      if (!plan::IsDataFile(f) || InHiddenFolder(f.path, partition.path)) continue;
      ++count;
      bytes += f.size;
      files.push_back(std::move(f));
    }
    files_listed_ += count;
    bytes_listed_ += bytes;
    if (node_->source.file_selector != nullptr) {
      auto by_path = [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; };
      if (!std::is_sorted(files.begin(), files.end(), by_path)) std::sort(files.begin(), files.end(), by_path);
      EPOXY_ASSIGN_OR_RETURN(files, node_->source.file_selector->Select(partition.path, std::move(files)));
    }
    return files;
  }

  /// A bookmarked scan lists and selects every partition up front, in parallel: a rerun over many
  /// processed folders is all listing, and what it keeps is only the (few) files to read.
  Status SelectAllPartitions() {
    selected_.assign(partitions_.size(), {});
    TaskGroup group(ThreadPool::Default());
    const size_t n = partitions_.size();
    const size_t tasks = std::min<size_t>(n, static_cast<size_t>(DefaultThreadCount()) * 4);
    for (size_t t = 0; t < tasks; ++t) {
      group.Spawn([this, t, tasks, n]() -> Status {
        for (size_t i = t; i < n; i += tasks) {
          EPOXY_ASSIGN_OR_RETURN(selected_[i], PartitionFiles(partitions_[i]));
        }
        return Status::OK();
      });
    }
    EPOXY_RETURN_NOT_OK(group.Wait());
    preselected_ = true;
    return Status::OK();
  }

  Status OpenPartition(const plan::PartitionDir& partition) {
    current_partition_ = next_partition_ - 1;
    std::vector<FileInfo> files;
    if (preselected_) {
      files = std::move(selected_[current_partition_]);
    } else {
      EPOXY_ASSIGN_OR_RETURN(files, PartitionFiles(partition));
    }
    if (files.empty()) return Status::OK();
    EPOXY_ASSIGN_OR_RETURN(reader_, node_->source.format == FileFormat::kParquet
                                        ? parquet::MakeParquetReader(std::move(files), read_, statistics_)
                                        : MakeRecordReader(node_->source.format, std::move(files), read_));
    CrashPoint("read");
    return Status::OK();
  }

  /// A reader's batch with the current partition's values appended as columns (they travel
  /// with the batch, which may complete after the scan moved to the next partition).
  Result<BatchPtr> WithPartitionValues(const BatchPtr& raw) {
    if (partition_values_ == nullptr) return raw;
    std::vector<Field> fields = raw->schema()->fields();
    std::vector<ArrayPtr> columns = raw->columns();
    const int64_t n = raw->num_rows();
    for (int k = num_data_; k < node_->schema->num_fields(); ++k) {
      std::vector<int32_t> same(static_cast<size_t>(n), static_cast<int32_t>(current_partition_));
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr value, Take(*partition_values_->column(k), same, context_->memory));
      columns.push_back(std::move(value));
      fields.push_back({"\x01partition " + node_->schema->field(k).name, node_->schema->field(k).type});
    }
    return Batch::Make(Schema::Make(std::move(fields)), std::move(columns), n);
  }

  /// A raw batch with the scan's columns: data columns by name (cast where a file's type
  /// differs from the table's, nulls where a file lacks one), then the partition values.
  Result<BatchPtr> Fit(const BatchPtr& raw) const {
    const Schema& target = *node_->schema;
    const int64_t n = raw->num_rows();
    std::vector<ArrayPtr> columns;
    columns.reserve(static_cast<size_t>(target.num_fields()));
    for (int c = 0; c < num_data_; ++c) {
      const Field& field = target.field(c);
      bool wanted = !node_->columns_pushed ||
                    std::find(node_->columns.begin(), node_->columns.end(), c) != node_->columns.end();
      int index = wanted ? raw->schema()->FieldIndex(field.name) : -1;
      if (index < 0) {
        columns.push_back(wanted ? *expr::MakeArrayFromScalar(expr::Scalar::Null(field.type), n, context_->memory)
                                 : Array::MakeNull(n));
        continue;
      }
      ArrayPtr column = raw->column(index);
      if (!column->type()->Equals(*field.type)) {
        if (!expr::CanCast(*column->type(), *field.type)) {
          return Status::InvalidData("column {} is {} in a file of '{}', but the scan expects {}", field.name,
                                     column->type()->ToString(), node_->source.root, field.type->ToString());
        }
        int64_t nulls_before = column->null_count();
        EPOXY_ASSIGN_OR_RETURN(column, expr::CastArray(column, field.type, context_->memory));
        // A folder's schema is inferred from a sample of its files: a file whose values do not fit
        // it is an error, not values silently turned to nulls. (A catalog table's types are the
        // contract, and read as Spark reads them.)
        if (!node_->source.from_catalog && column->null_count() > nulls_before) {
          return Status::InvalidData(
              "column {} holds {} values in a file of '{}' that do not fit the type {} inferred from {} sampled "
              "file(s); crawl the folder into a table or cast the column in the query", field.name,
              raw->column(index)->type()->ToString(), node_->source.root, field.type->ToString(),
              node_->source.sampled_files);
        }
      }
      columns.push_back(std::move(column));
    }
    // The partition values NextRaw appended: the raw batch's last columns.
    const int num_keys = target.num_fields() - num_data_;
    for (int k = 0; k < num_keys; ++k) columns.push_back(raw->column(raw->num_columns() - num_keys + k));
    return Batch::Make(node_->schema, std::move(columns), n);
  }

  plan::PlanPtr node_;
  ExecContext* context_;
  std::vector<bool> needed_;  // the output columns read above (empty: all)
  int num_data_ = 0;
  std::vector<plan::PartitionDir> partitions_;
  BatchPtr partition_values_;  // one row per kept partition, in the scan's column layout
  size_t next_partition_ = 0;
  size_t current_partition_ = 0;
  ErrorSink errors_{100};
  ReadCounters counters_;
  ReadOptions read_;
  PredicatePtr statistics_;
  std::vector<Glob> exclusions_;
  std::unique_ptr<RecordReader> reader_;
  int64_t listed_partitions_ = 0, pruned_partitions_ = 0;
  std::atomic<int64_t> files_listed_{0}, bytes_listed_{0};
  std::vector<std::vector<FileInfo>> selected_;  // SelectAllPartitions' answer, per partition
  bool preselected_ = false;
  int64_t rows_read_ = 0;
  mutable std::atomic<int64_t> rows_out_{0};
};

}  // namespace

Result<std::unique_ptr<BatchSource>> MakeScan(const plan::PlanPtr& scan, ExecContext* context, std::vector<bool> needed) {
  auto op = std::make_unique<ScanOperator>(scan, context, std::move(needed));
  EPOXY_RETURN_NOT_OK(op->Open());
  return std::unique_ptr<BatchSource>(std::move(op));
}

}  // namespace epoxy::exec
