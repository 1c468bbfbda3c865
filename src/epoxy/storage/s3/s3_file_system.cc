// SPDX-License-Identifier: Apache-2.0
// S3FileSystem.
#include "epoxy/storage/s3/s3_file_system.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>

#include "epoxy/common/thread_pool.h"

namespace epoxy {
namespace {

constexpr int64_t kParallelReadChunk = 8 << 20;

FileInfo InfoOf(const std::string& bucket, const S3Object& o) {
  FileInfo info;
  info.path = "s3://" + bucket + "/" + o.key;
  info.size = o.size;
  info.mtime_ns = o.mtime_ns;
  info.etag = o.etag;
  return info;
}

class S3ReadFile final : public RandomAccessFile {
 public:
  S3ReadFile(std::shared_ptr<S3Client> client, std::string path, std::string bucket, std::string key,
             int64_t size)
      : client_(std::move(client)), path_(std::move(path)), bucket_(std::move(bucket)),
        key_(std::move(key)), size_(size) {}

  const std::string& path() const override { return path_; }
  int64_t size() const override { return size_; }
  int64_t padding() const override { return 64; }

  Result<BufferPtr> ReadAt(int64_t offset, int64_t length) const override {
    if (offset < 0 || length < 0) return Status::InvalidInput("read of '{}' at {} length {}", path_, offset, length);
    if (offset >= size_) return Buffer::Wrap(nullptr, 0, nullptr);
    length = std::min(length, size_ - offset);
    BufferBuilder out;
    EPOXY_RETURN_NOT_OK(out.Reserve(length + 64));  // readable padding for parsers
    uint8_t* dst = out.mutable_data();
    if (length <= kParallelReadChunk) {
      EPOXY_ASSIGN_OR_RETURN(std::string bytes, client_->Get(bucket_, key_, offset, length));
      if (static_cast<int64_t>(bytes.size()) != length) {
        return Status::IOError("reading '{}': got {} bytes of {}", path_, bytes.size(), length);
      }
      std::memcpy(dst, bytes.data(), bytes.size());
    } else {
      // Large ranges: parallel ranged GETs into place.
      TaskGroup tasks(ThreadPool::Default());
      for (int64_t at = 0; at < length; at += kParallelReadChunk) {
        int64_t n = std::min(kParallelReadChunk, length - at);
        tasks.Spawn([this, dst, at, n, offset]() -> Status {
          EPOXY_ASSIGN_OR_RETURN(std::string bytes, client_->Get(bucket_, key_, offset + at, n));
          if (static_cast<int64_t>(bytes.size()) != n) {
            return Status::IOError("reading '{}': got {} bytes of {}", path_, bytes.size(), n);
          }
          std::memcpy(dst + at, bytes.data(), bytes.size());
          return Status::OK();
        });
      }
      EPOXY_RETURN_NOT_OK(tasks.Wait());
    }
    std::memset(dst + length, 0, 64);
    out.UnsafeAdvance(length);
    return out.Finish();
  }

 private:
  std::shared_ptr<S3Client> client_;
  std::string path_, bucket_, key_;
  int64_t size_;
};

class S3Writer final : public FileWriter {
 public:
  S3Writer(std::shared_ptr<S3Client> client, std::string bucket, std::string key)
      : client_(std::move(client)), bucket_(std::move(bucket)), key_(std::move(key)),
        tasks_(std::make_unique<TaskGroup>(ThreadPool::Default())) {}

  ~S3Writer() override {
    (void)tasks_->Wait();
    if (!closed_ && !upload_id_.empty()) (void)client_->AbortMultipartUpload(bucket_, key_, upload_id_);
  }

  Status Append(std::string_view bytes) override {
    if (closed_) return Status::Internal("write to closed object s3://{}/{}", bucket_, key_);
    buffer_.append(bytes);
    while (static_cast<int64_t>(buffer_.size()) >= client_->config().part_size) {
      Status st = StartPart(buffer_.substr(0, static_cast<size_t>(client_->config().part_size)));
      if (!st.ok()) return Fail(st);
      buffer_.erase(0, static_cast<size_t>(client_->config().part_size));
    }
    return Status::OK();
  }

  Status Close() override {
    if (closed_) return Status::Internal("object s3://{}/{} closed twice", bucket_, key_);
    if (upload_id_.empty()) {
      Status st = client_->Put(bucket_, key_, buffer_);
      closed_ = st.ok();
      return st;
    }
    if (!buffer_.empty()) {
      Status st = StartPart(std::move(buffer_));
      if (!st.ok()) return Fail(st);
    }
    Status st = tasks_->Wait();
    if (!st.ok()) return Fail(st);
    st = client_->CompleteMultipartUpload(bucket_, key_, upload_id_,
                                          std::vector<std::string>(etags_.begin(), etags_.end()));
    if (!st.ok()) return Fail(st);
    closed_ = true;
    return Status::OK();
  }

 private:
  /// Uploads one part on the pool, at most a few at once (memory stays bounded).
  Status StartPart(std::string part) {
    if (upload_id_.empty()) {
      EPOXY_ASSIGN_OR_RETURN(upload_id_, client_->CreateMultipartUpload(bucket_, key_));
    }
    if (tasks_->failed()) return tasks_->Wait();
    if (++parts_in_flight_ > kMaxPartsInFlight) {
      EPOXY_RETURN_NOT_OK(tasks_->Wait());
      tasks_ = std::make_unique<TaskGroup>(ThreadPool::Default());
      parts_in_flight_ = 1;
    }
    int number = static_cast<int>(etags_.size()) + 1;
    etags_.emplace_back();
    auto body = std::make_shared<std::string>(std::move(part));
    std::string* etag = &etags_.back();
    (void)etag;
    size_t index = etags_.size() - 1;
    tasks_->Spawn([this, body, number, index]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(std::string tag, client_->UploadPart(bucket_, key_, upload_id_, number, *body));
      std::lock_guard lock(mu_);
      etags_[index] = tag;
      return Status::OK();
    });
    return Status::OK();
  }

  Status Fail(const Status& st) {
    (void)tasks_->Wait();
    if (!upload_id_.empty()) {
      Status abort = client_->AbortMultipartUpload(bucket_, key_, upload_id_);
      upload_id_.clear();
      if (!abort.ok()) return st.WithContext(fmt::format("(and aborting the upload failed: {})", abort.message()));
    }
    closed_ = true;
    return st;
  }

  static constexpr int kMaxPartsInFlight = 4;
  std::shared_ptr<S3Client> client_;
  std::string bucket_, key_;
  std::string buffer_;
  std::string upload_id_;
  std::mutex mu_;
  std::deque<std::string> etags_;  // deque: stable addresses while parts upload
  std::unique_ptr<TaskGroup> tasks_;
  int parts_in_flight_ = 0;
  bool closed_ = false;
};

}  // namespace

Result<FileInfo> S3FileSystem::GetFileInfo(const std::string& path) {
  std::string bucket, key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(path, &bucket, &key));
  if (!key.empty() && key.back() != '/') {
    auto head = client_->Head(bucket, key);
    if (head.ok()) return InfoOf(bucket, *head);
    if (head.status().code() != StatusCode::kNotFound) return head.status();
  }
  // A folder: any object below the prefix.
  std::string prefix = key.empty() || key.back() == '/' ? key : key + "/";
  EPOXY_ASSIGN_OR_RETURN(S3Listing listing, client_->List(bucket, prefix, "/"));
  if (listing.objects.empty() && listing.common_prefixes.empty()) {
    return Status::NotFound("s3://{}/{}: no such object or folder", bucket, key);
  }
  FileInfo info;
  info.path = "s3://" + bucket + "/" + prefix;
  info.is_dir = true;
  return info;
}

Result<std::vector<FileInfo>> S3FileSystem::ListFiles(const std::string& dir, bool recursive) {
  std::string bucket, key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(dir, &bucket, &key));
  std::string prefix = key.empty() || key.back() == '/' ? key : key + "/";
  EPOXY_ASSIGN_OR_RETURN(S3Listing listing, client_->List(bucket, prefix, recursive ? "" : "/"));
  std::vector<FileInfo> out;
  for (const auto& o : listing.objects) {
    if (!o.key.empty() && o.key.back() == '/') continue;  // folder markers
    out.push_back(InfoOf(bucket, o));
  }
  std::sort(out.begin(), out.end(), [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
  return out;
}

Result<std::vector<std::string>> S3FileSystem::ListSubdirs(const std::string& dir) {
  std::string bucket, key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(dir, &bucket, &key));
  std::string prefix = key.empty() || key.back() == '/' ? key : key + "/";
  EPOXY_ASSIGN_OR_RETURN(S3Listing listing, client_->List(bucket, prefix, "/"));
  std::vector<std::string> out;
  for (std::string p : listing.common_prefixes) {
    if (!p.empty() && p.back() == '/') p.pop_back();
    out.push_back("s3://" + bucket + "/" + p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::unique_ptr<RandomAccessFile>> S3FileSystem::OpenForRead(const std::string& path) {
  std::string bucket, key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(path, &bucket, &key));
  EPOXY_ASSIGN_OR_RETURN(S3Object o, client_->Head(bucket, key));
  return std::unique_ptr<RandomAccessFile>(new S3ReadFile(client_, path, bucket, key, o.size));
}

Result<std::unique_ptr<RandomAccessFile>> S3FileSystem::OpenListed(const FileInfo& file) {
  if (file.size <= 0) return OpenForRead(file.path);
  std::string bucket, key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(file.path, &bucket, &key));
  // The listing's size saves a HEAD per object (half the requests for small files).
  return std::unique_ptr<RandomAccessFile>(new S3ReadFile(client_, file.path, bucket, key, file.size));
}

Result<std::unique_ptr<FileWriter>> S3FileSystem::OpenForWrite(const std::string& path) {
  std::string bucket, key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(path, &bucket, &key));
  if (key.empty() || key.back() == '/') return Status::InvalidInput("'{}' names a folder, not an object", path);
  return std::unique_ptr<FileWriter>(new S3Writer(client_, bucket, key));
}

Status S3FileSystem::DeleteFile(const std::string& path) {
  std::string bucket, key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(path, &bucket, &key));
  return client_->DeleteObjects(bucket, {key});
}

Status S3FileSystem::DeleteDirRecursive(const std::string& path) {
  std::string bucket, key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(path, &bucket, &key));
  std::string prefix = key.empty() || key.back() == '/' ? key : key + "/";
  EPOXY_ASSIGN_OR_RETURN(S3Listing listing, client_->List(bucket, prefix));
  std::vector<std::string> keys;
  for (const auto& o : listing.objects) keys.push_back(o.key);
  return client_->DeleteObjects(bucket, keys);
}

Status S3FileSystem::CreateDirs(const std::string&) { return Status::OK(); }  // prefixes need no creation

Status S3FileSystem::Rename(const std::string& from, const std::string& to) {
  std::string bucket, key, to_bucket, to_key;
  EPOXY_RETURN_NOT_OK(ParseS3Uri(from, &bucket, &key));
  EPOXY_RETURN_NOT_OK(ParseS3Uri(to, &to_bucket, &to_key));
  if (bucket != to_bucket) return Status::NotSupported("renaming across buckets ({} to {})", from, to);
  EPOXY_RETURN_NOT_OK(client_->CopyObject(bucket, key, to_key));
  return client_->DeleteObjects(bucket, {key});
}

}  // namespace epoxy
