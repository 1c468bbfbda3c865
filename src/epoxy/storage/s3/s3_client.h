// SPDX-License-Identifier: Apache-2.0
// S3Client: the S3 REST operations epoxy needs, over libcurl with its own SigV4 signing,
// connection reuse, bounded parallelism, timeouts and retries with backoff.
#pragma once

#include <cstdint>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "epoxy/common/result.h"
#include "epoxy/storage/s3/s3_config.h"

namespace epoxy {

struct S3Object {
  std::string key;
  int64_t size = 0;
  int64_t mtime_ns = 0;
  std::string etag;  // without quotes
};

struct S3Listing {
  std::vector<S3Object> objects;
  std::vector<std::string> common_prefixes;  // with a delimiter: the "folders" below the prefix
};

/// Thread-safe: requests may run concurrently (up to max_parallel_requests at once).
class S3Client {
 public:
  explicit S3Client(S3Config config);
  ~S3Client();
  S3Client(const S3Client&) = delete;
  S3Client& operator=(const S3Client&) = delete;

  /// The process client, configured from the environment on first use.
  static Result<std::shared_ptr<S3Client>> Default();

  const S3Config& config() const { return config_; }

  /// ListObjectsV2 over every page. With a delimiter, keys below the next delimiter are folded
  /// into common prefixes.
  Result<S3Listing> List(const std::string& bucket, const std::string& prefix,
                         const std::string& delimiter = "");
  Result<S3Object> Head(const std::string& bucket, const std::string& key);
  /// Bytes [offset, offset + length) of an object (fewer at its end).
  Result<std::string> Get(const std::string& bucket, const std::string& key, int64_t offset,
                          int64_t length);
  Status Put(const std::string& bucket, const std::string& key, std::string_view body);
  Result<std::string> CreateMultipartUpload(const std::string& bucket, const std::string& key);
  /// Returns the part's ETag.
  Result<std::string> UploadPart(const std::string& bucket, const std::string& key,
                                 const std::string& upload_id, int part_number,
                                 std::string_view body);
  Status CompleteMultipartUpload(const std::string& bucket, const std::string& key,
                                 const std::string& upload_id,
                                 const std::vector<std::string>& part_etags);
  Status AbortMultipartUpload(const std::string& bucket, const std::string& key,
                              const std::string& upload_id);
  /// DeleteObjects in batches of 1000.
  Status DeleteObjects(const std::string& bucket, const std::vector<std::string>& keys);
  Status CopyObject(const std::string& bucket, const std::string& from_key, const std::string& to_key);
  Status CreateBucket(const std::string& bucket);

 private:
  struct Response {
    long status = 0;
    std::string body;
    std::string etag;
    int64_t content_length = -1;
    std::string last_modified;
  };
  struct Request;

  /// Performs a request with retries; an HTTP error becomes a Status naming `what`.
  Result<Response> Perform(const Request& request, const std::string& what);
  Result<Response> PerformOnce(const Request& request, bool* retryable);
  std::string Url(const std::string& bucket, const std::string& key, const std::string& query) const;

  void* AcquireHandle();
  void ReleaseHandle(void* handle);

  S3Config config_;
  std::mutex mu_;
  std::vector<void*> idle_handles_;  // guarded by mu_
  int in_flight_ = 0;                // guarded by mu_
  std::condition_variable_any slot_free_;
};

/// "%2F"-style encoding of a key or query value (slashes kept in keys).
std::string UriEncode(std::string_view text, bool keep_slash);

}  // namespace epoxy
