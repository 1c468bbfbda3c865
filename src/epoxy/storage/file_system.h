// SPDX-License-Identifier: Apache-2.0
// FileSystem: the storage interface every reader and writer goes through (local now, S3 later).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"
#include "epoxy/memory/buffer.h"

namespace epoxy {

/// One listed object.
struct FileInfo {
  std::string path;     // full path or URI, as passed to OpenForRead
  int64_t size = 0;     // bytes
  int64_t mtime_ns = 0; // last modification, nanoseconds since the epoch
  std::string etag;     // changes whenever the content may have changed
  bool is_dir = false;
};

/// Reads byte ranges of one object. Thread-safe: ReadAt may be called concurrently.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual const std::string& path() const = 0;
  virtual int64_t size() const = 0;
  /// Up to `length` bytes from `offset` (fewer at the end). The buffer may view shared memory
  /// (an mmap) and stays valid as long as it is held.
  virtual Result<BufferPtr> ReadAt(int64_t offset, int64_t length) const = 0;
  /// Bytes that may be read (not used) past the end of any buffer ReadAt returns, so that parsers
  /// which read ahead in wide loads (simdjson) need no padded copy. 0 unless an implementation
  /// promises more.
  virtual int64_t padding() const { return 0; }
};

/// Writes one object; nothing is visible under the final path until Close() succeeds, and an
/// object closed before is replaced atomically. Destroying an unclosed writer discards it.
class FileWriter {
 public:
  virtual ~FileWriter() = default;
  virtual Status Append(std::string_view bytes) = 0;
  virtual Status Close() = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  virtual Result<FileInfo> GetFileInfo(const std::string& path) = 0;
  /// The files (not folders) under `dir`, recursively when asked, sorted by path.
  virtual Result<std::vector<FileInfo>> ListFiles(const std::string& dir, bool recursive) = 0;
  /// The folders directly under `dir` (full paths, without a trailing '/'), sorted. Lets a scan
  /// walk partition folders without listing the files inside ones it prunes.
  virtual Result<std::vector<std::string>> ListSubdirs(const std::string& dir) = 0;
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) = 0;
  /// A file as a listing described it: stores that must ask for the size (S3's HEAD) use the
  /// listed one instead, when it is known (size > 0).
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenListed(const FileInfo& file) { return OpenForRead(file.path); }
  /// Creates missing parent folders.
  virtual Result<std::unique_ptr<FileWriter>> OpenForWrite(const std::string& path) = 0;
  virtual Status DeleteFile(const std::string& path) = 0;
  /// Deletes a folder and everything under it; a missing folder is not an error.
  virtual Status DeleteDirRecursive(const std::string& path) = 0;
  virtual Status CreateDirs(const std::string& path) = 0;
  /// Moves a file, replacing the target atomically where the store allows.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
};

/// A RandomAccessFile over bytes in memory (tests, fuzzing, small objects).
std::unique_ptr<RandomAccessFile> MakeBufferFile(std::string name, BufferPtr bytes);

/// The file system serving `uri` (a plain path, file://, or s3://).
Result<std::shared_ptr<FileSystem>> FileSystemFor(std::string_view uri);

/// Reads a whole object (for small files and tests).
Result<std::string> ReadWholeFile(FileSystem& fs, const std::string& path);
/// Writes a whole object atomically.
Status WriteWholeFile(FileSystem& fs, const std::string& path, std::string_view bytes);

}  // namespace epoxy
