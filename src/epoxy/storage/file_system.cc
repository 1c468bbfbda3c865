// SPDX-License-Identifier: Apache-2.0
// Choosing a file system by URI scheme, and whole-file helpers.
#include "epoxy/storage/file_system.h"

#include <algorithm>

#include <mutex>

#include "epoxy/storage/local_file_system.h"
#include "epoxy/storage/s3/s3_file_system.h"

namespace epoxy {

namespace {

class BufferFile final : public RandomAccessFile {
 public:
  BufferFile(std::string name, BufferPtr bytes) : name_(std::move(name)), bytes_(std::move(bytes)) {}
  const std::string& path() const override { return name_; }
  int64_t size() const override { return bytes_->size(); }
  Result<BufferPtr> ReadAt(int64_t offset, int64_t length) const override {
    if (offset < 0 || length < 0) return Status::InvalidInput("read of '{}' at {} length {}", name_, offset, length);
    if (offset >= bytes_->size()) return Buffer::Wrap(nullptr, 0, nullptr);
    return Buffer::Slice(bytes_, offset, std::min(length, bytes_->size() - offset));
  }

 private:
  std::string name_;
  BufferPtr bytes_;
};

}  // namespace

std::unique_ptr<RandomAccessFile> MakeBufferFile(std::string name, BufferPtr bytes) {
  return std::make_unique<BufferFile>(std::move(name), std::move(bytes));
}

Result<std::shared_ptr<FileSystem>> FileSystemFor(std::string_view uri) {
  static const auto kLocal = std::make_shared<LocalFileSystem>();
  size_t scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos || uri.starts_with("file://")) return kLocal;
  std::string_view scheme = uri.substr(0, scheme_end);
  if (scheme == "s3" || scheme == "s3a" || scheme == "s3n") {
    static std::mutex mu;
    static std::shared_ptr<FileSystem> s3;
    std::lock_guard lock(mu);
    if (s3 == nullptr) {
      EPOXY_ASSIGN_OR_RETURN(std::shared_ptr<S3Client> client, S3Client::Default());
      s3 = std::make_shared<S3FileSystem>(std::move(client));
    }
    return s3;
  }
  return Status::InvalidInput("'{}': unknown URI scheme '{}' (use a path, file:// or s3://)", uri,
                              scheme);
}

Result<std::string> ReadWholeFile(FileSystem& fs, const std::string& path) {
  EPOXY_ASSIGN_OR_RETURN(auto file, fs.OpenForRead(path));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr bytes, file->ReadAt(0, file->size()));
  return std::string(bytes->view());
}

Status WriteWholeFile(FileSystem& fs, const std::string& path, std::string_view bytes) {
  EPOXY_ASSIGN_OR_RETURN(auto writer, fs.OpenForWrite(path));
  EPOXY_RETURN_NOT_OK(writer->Append(bytes));
  return writer->Close();
}

}  // namespace epoxy
