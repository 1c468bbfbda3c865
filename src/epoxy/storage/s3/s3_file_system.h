// SPDX-License-Identifier: Apache-2.0
// S3FileSystem: s3://bucket/key paths through the FileSystem interface.
#pragma once

#include <memory>

#include "epoxy/storage/file_system.h"
#include "epoxy/storage/s3/s3_client.h"

namespace epoxy {

/// Objects are files and key prefixes ending in '/' are folders. Reads are ranged GETs (large
/// ranges in parallel); writes are one PUT for small objects and a parallel multipart upload for
/// large ones, aborted if the writer is dropped or fails, so no partial object and no orphan
/// upload is left. Thread-safe.
class S3FileSystem final : public FileSystem {
 public:
  explicit S3FileSystem(std::shared_ptr<S3Client> client) : client_(std::move(client)) {}

  Result<FileInfo> GetFileInfo(const std::string& path) override;
  Result<std::vector<FileInfo>> ListFiles(const std::string& dir, bool recursive) override;
  Result<std::vector<std::string>> ListSubdirs(const std::string& dir) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenListed(const FileInfo& file) override;
  Result<std::unique_ptr<FileWriter>> OpenForWrite(const std::string& path) override;
  Status DeleteFile(const std::string& path) override;
  Status DeleteDirRecursive(const std::string& path) override;
  Status CreateDirs(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;

  S3Client& client() { return *client_; }

 private:
  std::shared_ptr<S3Client> client_;
};

}  // namespace epoxy
