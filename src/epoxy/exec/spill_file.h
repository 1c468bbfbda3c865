// SPDX-License-Identifier: Apache-2.0
// Spilling: batches written to anonymous temporary files (under EPOXY_TMPDIR, else TMPDIR, else
// /tmp) and read back in order. A file has no name in the folder once created, so it is gone when
// the query ends, fails, is interrupted or killed. EPOXY_MAX_TEMP_SIZE caps the bytes a process may
// spill (default: no cap beyond the disk's free space); past it, or when the disk is full, the
// write fails with a message naming the folder.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "epoxy/vector/array.h"

namespace epoxy::exec {

/// Where spill files go and how much may be spilled. Thread-safe.
class SpillSpace {
 public:
  /// The process's spill space, configured from the environment.
  static SpillSpace& Default();
  SpillSpace(std::string folder, int64_t max_bytes);

  const std::string& folder() const { return folder_; }
  /// Counts `bytes` against the cap; an error when they do not fit.
  Status Claim(int64_t bytes);
  void Unclaim(int64_t bytes);
  int64_t bytes_written() const { return total_written_.load(); }
  int64_t files_created() const { return files_created_.load(); }
  void CountFile() { ++files_created_; }

 private:
  std::string folder_;
  int64_t max_bytes_;  // 0: no cap
  std::atomic<int64_t> in_use_{0};
  std::atomic<int64_t> total_written_{0};
  std::atomic<int64_t> files_created_{0};
};

/// One temporary file of batches of one schema: appended, then read back from the start (any
/// number of times). Not thread-safe.
class SpillFile {
 public:
  static Result<std::unique_ptr<SpillFile>> Create(SpillSpace* space = nullptr);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  Status Append(const Batch& batch);
  int64_t num_batches() const { return num_batches_; }
  int64_t num_rows() const { return num_rows_; }
  int64_t size_bytes() const { return size_; }

  /// Reads the batches back in order, each under `schema`.
  class Reader {
   public:
    Result<BatchPtr> Next();  // nullptr at the end

   private:
    friend class SpillFile;
    Reader(const SpillFile* file, SchemaPtr schema, MemoryPool* pool) : file_(file), schema_(std::move(schema)), pool_(pool) {}
    Result<ArrayPtr> ReadArray(const TypePtr& type);
    Status ReadBytes(void* out, int64_t n);
    const SpillFile* file_;
    SchemaPtr schema_;
    MemoryPool* pool_;
    int64_t position_ = 0;
    int64_t batches_read_ = 0;
  };
  /// REQUIRES: no Append after the first Read.
  Result<Reader> Read(SchemaPtr schema, MemoryPool* pool);

 private:
  SpillFile(int fd, SpillSpace* space) : fd_(fd), space_(space) {}
  Status WriteArray(const Array& array);
  Status Write(const void* data, int64_t n);
  Status Flush();

  int fd_;
  SpillSpace* space_;
  std::string buffer_;  // one batch's bytes, gathered into large writes
  int64_t size_ = 0;
  int64_t num_batches_ = 0;
  int64_t num_rows_ = 0;
};

}  // namespace epoxy::exec
