// SPDX-License-Identifier: Apache-2.0
// Where and as whom to reach S3, resolved the way the AWS CLI resolves it.
#pragma once

#include <string>

#include "epoxy/common/result.h"

namespace epoxy {

struct S3Config {
  std::string endpoint;        // "https://s3.us-east-1.amazonaws.com" or a custom endpoint URL
  bool path_style = false;     // bucket in the path (custom endpoints) or in the host (AWS)
  std::string region = "us-east-1";
  std::string access_key;
  std::string secret_key;
  std::string session_token;
  long connect_timeout_ms = 10000;
  long read_timeout_ms = 60000;  // a transfer making no progress for this long fails
  int max_attempts = 5;          // per request, with exponential backoff and jitter
  int64_t part_size = 16 << 20;  // multipart upload part size
  int max_parallel_requests = 8;

  /// Environment and ~/.aws files: endpoint from EPOXY_S3_ENDPOINT, AWS_ENDPOINT_URL_S3 or
  /// AWS_ENDPOINT_URL; region from AWS_REGION, AWS_DEFAULT_REGION or the profile's config;
  /// credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, else the
  /// profile (AWS_PROFILE, default "default") in ~/.aws/credentials and ~/.aws/config
  /// (AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE move them). Timeouts from
  /// EPOXY_S3_CONNECT_TIMEOUT_MS, EPOXY_S3_READ_TIMEOUT_MS, EPOXY_S3_MAX_ATTEMPTS and
  /// EPOXY_S3_PART_SIZE (bytes, at least 5 MiB).
  static Result<S3Config> FromEnvironment();
};

/// Parses "s3://bucket/key" into bucket and key (key may be empty).
Status ParseS3Uri(std::string_view uri, std::string* bucket, std::string* key);

}  // namespace epoxy
