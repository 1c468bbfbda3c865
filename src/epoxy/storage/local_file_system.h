// SPDX-License-Identifier: Apache-2.0
// LocalFileSystem: folders on this machine, plain paths or file:// URIs.
#pragma once

#include "epoxy/storage/file_system.h"

namespace epoxy {

/// Reads map files into memory (zero-copy ranges); writes go to a temporary file beside the target
/// and are renamed into place on Close. Thread-safe.
class LocalFileSystem final : public FileSystem {
 public:
  Result<FileInfo> GetFileInfo(const std::string& path) override;
  Result<std::vector<FileInfo>> ListFiles(const std::string& dir, bool recursive) override;
  Result<std::vector<std::string>> ListSubdirs(const std::string& dir) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  Result<std::unique_ptr<FileWriter>> OpenForWrite(const std::string& path) override;
  Status DeleteFile(const std::string& path) override;
  Status DeleteDirRecursive(const std::string& path) override;
  Status CreateDirs(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
};

/// Strips a file:// prefix.
std::string LocalPathOf(std::string_view uri);

}  // namespace epoxy
