// SPDX-License-Identifier: Apache-2.0
// Shared test helpers.
#include "epoxy/testing/test_util.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>

#include "epoxy/format/record_writer.h"
#include "epoxy/storage/glob.h"
#include "epoxy/types/type_merge.h"

namespace epoxy::testing {

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  auto base = std::filesystem::temp_directory_path();
  path_ = (base / fmt::format("epoxy-test-{}-{}", ::getpid(), counter.fetch_add(1))).string();
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Write(const std::string& relative, std::string_view content) const {
  std::filesystem::path full = std::filesystem::path(path_) / relative;
  std::filesystem::create_directories(full.parent_path());
  std::ofstream out(full, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  return full.string();
}

std::string SharedDir() {
  const char* env = std::getenv("EPOXY_SHARED_DIR");
  if (env == nullptr) return "";
  std::error_code ec;
  if (!std::filesystem::is_directory(env, ec)) return "";
  return std::filesystem::canonical(env, ec).string();
}

std::vector<std::string> ToJsonLines(const Batch& batch) {
  std::vector<std::string> lines;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    std::string line = "{";
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c > 0) line += ',';
      AppendJsonString(batch.schema()->field(c).name, &line);
      line += ':';
      AppendJsonValue(*batch.column(c), r, &line);
    }
    line += '}';
    lines.push_back(std::move(line));
  }
  return lines;
}

ReadOutcome ReadPaths(FileFormat format, const std::vector<std::string>& paths,
                      const FormatOptions& options, int64_t block_size) {
  ReadOutcome out;
  auto files = ExpandPaths(paths);
  if (!files.ok()) {
    out.status = files.status();
    return out;
  }
  ErrorSink errors;
  ReadOptions read;
  read.format_options = options;
  read.block_size = block_size;
  read.errors = &errors;
  auto reader = MakeRecordReader(format, *files, read);
  if (!reader.ok()) {
    out.status = reader.status();
    return out;
  }
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      out.status = batch.status();
      break;
    }
    if (*batch == nullptr) break;
    ++out.num_batches;
    out.schema = out.schema == nullptr
                     ? (*batch)->schema()
                     : MergeSchemas(*out.schema, *(*batch)->schema(), MergeMode::kDynamicFrame);
    for (auto& line : ToJsonLines(**batch)) out.rows.push_back(std::move(line));
  }
  if (out.schema == nullptr) out.schema = Schema::Make({});
  out.errors = errors.errors();
  return out;
}

ReadOutcome ReadText(FileFormat format, std::string_view content, const FormatOptions& options,
                     const std::string& name, int64_t block_size) {
  TempDir dir;
  std::string path = dir.Write(name, content);
  return ReadPaths(format, {path}, options, block_size);
}

BatchPtr JsonBatch(std::string_view json_lines) {
  TempDir dir;
  std::string path = dir.Write("t.json", json_lines);
  ErrorSink errors(10);
  ReadOptions options;
  options.errors = &errors;
  FileInfo file;
  file.path = path;
  file.size = static_cast<int64_t>(json_lines.size());
  auto reader = MakeRecordReader(FileFormat::kJson, {file}, options);
  EXPECT_TRUE(reader.ok());
  if (!reader.ok()) return nullptr;
  auto batch = (*reader)->Next();
  EXPECT_TRUE(batch.ok() && *batch != nullptr);
  return batch.ok() ? *batch : nullptr;
}

}  // namespace epoxy::testing
