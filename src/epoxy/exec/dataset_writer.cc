// SPDX-License-Identifier: Apache-2.0
// Partitioned, size-targeted, staged dataset writes.
#include "epoxy/exec/dataset_writer.h"

#include <unistd.h>

#include <chrono>
#include <random>
#include <set>
#include <unordered_map>

#include "epoxy/common/crash_point.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {

struct DatasetWriter::OpenFile {
  std::unique_ptr<OutputFile> file;
  std::string staged, final_path;
  int64_t last_write = 0;
  int64_t estimated_bytes = 0;  // what the file will take once closed, estimated as rows arrive
};

Result<SaveMode> ParseSaveMode(std::string_view name) {
  if (name == "error" || name == "errorifexists") return SaveMode::kErrorIfExists;
  if (name == "append") return SaveMode::kAppend;
  if (name == "overwrite") return SaveMode::kOverwrite;
  if (name == "ignore") return SaveMode::kIgnore;
  return Status::InvalidInput("mode must be error, append, overwrite or ignore, got '{}'", name);
}

std::string NewWriteId() {
  std::random_device rd;
  uint64_t r = (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
               static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
               static_cast<uint64_t>(::getpid());
  return fmt::format("{:016x}", r);
}

std::string EscapePartitionValue(std::string_view value) {
  std::string out;
  for (unsigned char c : value) {
    if (c < 0x20 || std::string_view("\"#%'*/:=?\\\x7f{[]^").find(static_cast<char>(c)) != std::string_view::npos) {
      out += fmt::format("%{:02X}", c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out.empty() ? "__HIVE_DEFAULT_PARTITION__" : out;
}

Result<std::unique_ptr<DatasetWriter>> DatasetWriter::Open(const DatasetWriteOptions& options, const SchemaPtr& schema) {
  auto w = std::unique_ptr<DatasetWriter>(new DatasetWriter());
  w->options_ = options;
  while (w->options_.path.size() > 1 && w->options_.path.back() == '/') w->options_.path.pop_back();
  if (w->options_.path.empty()) return Status::InvalidInput("no output path given");
  if (w->options_.write_id.empty()) w->options_.write_id = NewWriteId();
  if (options.target_file_bytes < 1024) return Status::InvalidInput("the target file size must be at least 1 KB");
  w->schema_ = schema;
  std::vector<Field> data;
  for (const auto& key : options.partition_keys) {
    int index = schema->FieldIndex(key);
    if (index < 0) {
      return Status::InvalidInput("partition key '{}' is not a column; columns: {}", key, schema->ColumnNames());
    }
    w->key_columns_.push_back(index);
  }
  for (int c = 0; c < schema->num_fields(); ++c) {
    if (std::find(w->key_columns_.begin(), w->key_columns_.end(), c) != w->key_columns_.end()) continue;
    w->data_columns_.push_back(c);
    data.push_back(schema->field(c));
  }
  if (data.empty()) return Status::InvalidInput("every column is a partition key; nothing is left to write in the files");
  w->file_schema_ = Schema::Make(std::move(data));
  EPOXY_ASSIGN_OR_RETURN(w->fs_, FileSystemFor(w->options_.path));
  w->local_ = w->options_.path.find("://") == std::string::npos || w->options_.path.rfind("file://", 0) == 0;
  // The save mode is decided before any data is written.
  auto existing = w->fs_->ListFiles(w->options_.path, true);
  bool exists = existing.ok() && !existing->empty();
  if (exists && options.mode == SaveMode::kErrorIfExists) {
    return Status::AlreadyExists("'{}' already exists and holds {} file(s); choose --mode append, overwrite or ignore",
                                 w->options_.path, existing->size());
  }
  w->skip_ = exists && options.mode == SaveMode::kIgnore;
  w->result_.skipped = w->skip_;
  w->staging_ = w->options_.path + "/_temporary/" + w->options_.write_id;
  return w;
}

DatasetWriter::~DatasetWriter() {
  if (!open_.empty() || !written_.empty()) (void)Abort();
}

Status DatasetWriter::Write(const BatchPtr& batch) {
  if (skip_ || batch->num_rows() == 0) return Status::OK();
  if (key_columns_.empty()) {
    std::vector<ArrayPtr> columns;
    for (int c : data_columns_) columns.push_back(batch->column(c));
    return WriteGroup("", Batch::Make(file_schema_, std::move(columns), batch->num_rows()));
  }
  // Rows by partition folder, in order of first appearance.
  std::unordered_map<std::string, size_t> group_of;
  std::vector<std::pair<std::string, std::vector<int32_t>>> groups;
  std::string dir;
  for (int64_t r = 0; r < batch->num_rows(); ++r) {
    dir.clear();
    for (size_t k = 0; k < key_columns_.size(); ++k) {
      const Array& column = *batch->column(key_columns_[k]);
      std::string value;
      if (column.IsValid(r)) AppendPlainValue(column, r, &value);
      dir += options_.partition_keys[k] + "=" + (column.IsNull(r) ? "__HIVE_DEFAULT_PARTITION__" : EscapePartitionValue(value)) + "/";
    }
    auto [it, added] = group_of.emplace(dir, groups.size());
    if (added) groups.push_back({dir, {}});
    groups[it->second].second.push_back(static_cast<int32_t>(r));
  }
  for (auto& [relative, rows] : groups) {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr taken, TakeBatch(batch, rows));
    std::vector<ArrayPtr> columns;
    for (int c : data_columns_) columns.push_back(taken->column(c));
    EPOXY_RETURN_NOT_OK(WriteGroup(relative, Batch::Make(file_schema_, std::move(columns), taken->num_rows())));
  }
  return Status::OK();
}

Status DatasetWriter::WriteGroup(const std::string& relative_dir, const BatchPtr& rows) {
  int64_t offset = 0;
  while (offset < rows->num_rows()) {
    auto it = open_.find(relative_dir);
    if (it == open_.end()) {
      if (static_cast<int>(open_.size()) >= options_.max_open_files) {
        // Too many partitions at once: close the one written least recently.
        auto oldest = std::min_element(open_.begin(), open_.end(), [](const auto& a, const auto& b) {
          return a.second->last_write < b.second->last_write;
        });
        EPOXY_RETURN_NOT_OK(CloseFile(oldest->first));
      }
      auto f = std::make_unique<OpenFile>();
      std::string name = fmt::format("part-{:05}-{}.{}", next_file_++, options_.write_id, OutputExtension(options_.format));
      f->final_path = options_.path + "/" + relative_dir + name;
      // S3 writes straight to the final key, unless a job run publishes it later.
      f->staged = local_ || options_.defer_publish ? staging_ + "/" + relative_dir + name : f->final_path;
      OutputFileOptions file_options = options_.file;
      file_options.row_group_bytes = std::min(file_options.row_group_bytes, options_.target_file_bytes);
      EPOXY_ASSIGN_OR_RETURN(f->file, OutputFile::Open(options_.format, f->staged, file_schema_, file_options));
      written_.push_back({f->staged, f->final_path});
      it = open_.emplace(relative_dir, std::move(f)).first;
    }
    OpenFile& f = *it->second;
    f.last_write = ++tick_;
    // Bytes a row takes in the file: measured once some are flushed, else guessed from memory
    // (Parquet encodes and compresses to about a third of it).
    double per_row = f.file->bytes() > 0 && f.file->rows() > 0
                         ? static_cast<double>(f.file->bytes()) / static_cast<double>(f.file->rows())
                         : static_cast<double>(rows->buffer_bytes()) / static_cast<double>(rows->num_rows()) /
                               (options_.format == OutputFormat::kParquet ? 3.0 : 1.0);
    per_row = std::max(per_row, 1.0);
    int64_t room = static_cast<int64_t>(static_cast<double>(options_.target_file_bytes - f.estimated_bytes) / per_row);
    int64_t take = std::clamp<int64_t>(room, 1, rows->num_rows() - offset);
    if (options_.max_records_per_file > 0) take = std::min(take, options_.max_records_per_file - f.file->rows());
    EPOXY_RETURN_NOT_OK(f.file->Write(*rows->Slice(offset, take)));
    offset += take;
    f.estimated_bytes += static_cast<int64_t>(static_cast<double>(take) * per_row);
    bool full = (options_.max_records_per_file > 0 && f.file->rows() >= options_.max_records_per_file) ||
                f.estimated_bytes >= options_.target_file_bytes;
    if (full) EPOXY_RETURN_NOT_OK(CloseFile(relative_dir));
  }
  return Status::OK();
}

Status DatasetWriter::CloseFile(const std::string& relative_dir) {
  auto it = open_.find(relative_dir);
  if (it == open_.end()) return Status::OK();
  std::unique_ptr<OpenFile> f = std::move(it->second);
  open_.erase(it);
  result_.rows += f->file->rows();
  EPOXY_RETURN_NOT_OK(f->file->Close());
  CrashPoint("output_file");
  return Status::OK();
}

Status DatasetWriter::EndGroup() {
  while (!open_.empty()) EPOXY_RETURN_NOT_OK(CloseFile(open_.begin()->first));
  return Status::OK();
}

Result<WriteResult> DatasetWriter::Commit() {
  EPOXY_ASSIGN_OR_RETURN(StagedWrite staged, Stage());
  if (skip_) return result_;
  if (!local_ && !options_.defer_publish) {
    // On S3 the files are at their keys already: the old contents go, and a manifest lists them.
    if (staged.replace || !staged.replace_dirs.empty()) {
      EPOXY_ASSIGN_OR_RETURN(auto old, fs_->ListFiles(options_.path, true));
      for (const auto& f : old) {
        bool ours = std::any_of(staged.files.begin(), staged.files.end(), [&](const auto& w) { return w.second == f.path; });
        bool replaced = staged.replace || std::any_of(staged.replace_dirs.begin(), staged.replace_dirs.end(),
                                                      [&](const std::string& d) { return f.path.rfind(d + "/", 0) == 0; });
        if (!ours && replaced && f.path.rfind(options_.path + "/_temporary/", 0) != 0) EPOXY_RETURN_NOT_OK(fs_->DeleteFile(f.path));
      }
    }
    std::string manifest = "{\"write_id\":\"" + options_.write_id + "\",\"files\":[";
    for (size_t i = 0; i < staged.files.size(); ++i) {
      const std::string& final_path = staged.files[i].second;
      EPOXY_ASSIGN_OR_RETURN(FileInfo info, fs_->GetFileInfo(final_path));
      result_.bytes += info.size;
      result_.files.push_back(final_path);
      manifest += fmt::format("{}\"{}\"", i > 0 ? "," : "", final_path);
    }
    manifest += "]}";
    EPOXY_RETURN_NOT_OK(WriteWholeFile(*fs_, options_.path + "/_epoxy_manifests/" + options_.write_id + ".json", manifest));
    return result_;
  }
  EPOXY_ASSIGN_OR_RETURN(WriteResult published, PublishStaged(staged));
  result_.bytes = published.bytes;
  result_.files = std::move(published.files);
  return result_;
}

Result<StagedWrite> DatasetWriter::Stage() {
  EPOXY_RETURN_NOT_OK(EndGroup());
  StagedWrite staged;
  staged.path = options_.path;
  staged.write_id = options_.write_id;
  staged.staging = staging_;
  staged.files = std::move(written_);
  staged.replace = options_.mode == SaveMode::kOverwrite && !skip_;
  if (staged.replace && options_.dynamic_overwrite && !options_.partition_keys.empty()) {
    staged.replace = false;
    std::set<std::string> dirs;
    for (const auto& file : staged.files) {
      const std::string& final_path = file.second;
      dirs.insert(final_path.substr(0, final_path.rfind('/')));
    }
    staged.replace_dirs.assign(dirs.begin(), dirs.end());
  }
  staged.rows = result_.rows;
  written_.clear();
  return staged;
}

Result<WriteResult> PublishStaged(const StagedWrite& staged) {
  EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(staged.path));
  WriteResult result;
  result.rows = staged.rows;
  std::set<std::string> finals;
  for (const auto& file : staged.files) finals.insert(file.second);
  // The old contents go just before the new files are published (a rerun keeps the new ones).
  std::vector<std::string> replaced = staged.replace_dirs;
  if (staged.replace) replaced.push_back(staged.path);
  for (const auto& dir : replaced) {
    auto old = fs->ListFiles(dir, true);
    if (!old.ok()) continue;  // nothing there yet
    const std::string staging_prefix = staged.path + "/_temporary/";
    for (const auto& f : *old) {
      if (f.path.rfind(staging_prefix, 0) == 0 || finals.count(f.path) > 0) continue;
      EPOXY_RETURN_NOT_OK(fs->DeleteFile(f.path));
    }
  }
  for (const auto& [staged_path, final_path] : staged.files) {
    auto moved = fs->GetFileInfo(final_path);
    if (!moved.ok()) {
      EPOXY_RETURN_NOT_OK(fs->CreateDirs(final_path.substr(0, final_path.rfind('/'))));
      EPOXY_RETURN_NOT_OK(fs->Rename(staged_path, final_path));
      EPOXY_ASSIGN_OR_RETURN(moved, fs->GetFileInfo(final_path));
      CrashPoint("publish");
    }
    result.bytes += moved->size;
    result.files.push_back(final_path);
  }
  EPOXY_RETURN_NOT_OK(fs->DeleteDirRecursive(staged.staging));
  // The shared _temporary folder goes too when no other write is using it.
  auto others = fs->ListSubdirs(staged.path + "/_temporary");
  if (others.ok() && others->empty()) (void)fs->DeleteDirRecursive(staged.path + "/_temporary");
  return result;
}

Status RemoveStaged(const StagedWrite& staged) {
  EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(staged.path));
  for (const auto& [staged_path, final_path] : staged.files) {
    for (const std::string& p : {staged_path, final_path}) {
      Status st = fs->DeleteFile(p);
      if (!st.ok() && st.code() != StatusCode::kNotFound) return st;
    }
  }
  EPOXY_RETURN_NOT_OK(fs->DeleteDirRecursive(staged.staging));
  auto others = fs->ListSubdirs(staged.path + "/_temporary");
  if (others.ok() && others->empty()) (void)fs->DeleteDirRecursive(staged.path + "/_temporary");
  return Status::OK();
}

Status DatasetWriter::Abort() {
  open_.clear();  // unclosed files are never published
  Status first;
  for (const auto& [staged, final_path] : written_) {
    Status st = fs_->DeleteFile(staged);
    if (!st.ok() && st.code() != StatusCode::kNotFound && first.ok()) first = st;
  }
  written_.clear();
  if (local_) (void)fs_->DeleteDirRecursive(staging_);
  return first;
}

}  // namespace epoxy::exec
