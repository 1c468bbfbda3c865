// SPDX-License-Identifier: Apache-2.0
// GlueServer: `epoxy serve`, the Glue API over HTTP/1.1 in AWS JSON 1.1 (POST / with
// X-Amz-Target: AWSGlue.<Operation>), every request verified with SigV4 against the server's
// access keys, answered by the handlers of operation.h on a pool of threads sharing one catalog
// (whose transactions keep concurrent requests consistent). Also GET /health, GET /metrics and,
// with allow_reset on a loopback address, POST /moto-api/reset.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::api {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8999;  // 0: any free port
  std::string account_id = "123456789012";
  /// Regions requests may be signed for; the first is the server's own.
  std::vector<std::string> regions = {"us-east-1"};
  std::string catalog_uri;  // "" is $EPOXY_HOME/catalog.db
  bool allow_reset = false;
  int threads = 16;
  /// How far a request's X-Amz-Date may be from the server's clock (AWS: 15 minutes).
  int64_t max_clock_skew_seconds = 15 * 60;
  /// The scheduler's clock moves only when a test advances it (POST /epoxy-test/clock, with
  /// allow_reset on loopback).
  bool test_clock = false;
  /// The root key pair (EPOXY_ACCESS_KEY_ID / EPOXY_SECRET_ACCESS_KEY), empty when unset.
  std::string root_access_key_id, root_secret_access_key;
};

class GlueServer {
 public:
  /// Opens the catalog, binds and starts serving in background threads. Refuses a non-loopback
  /// address without any access key, and allow_reset off loopback.
  static Result<std::unique_ptr<GlueServer>> Start(ServerOptions options);
  ~GlueServer();

  int port() const;
  /// Blocks until Stop() (or a signal handler calling it).
  void Wait();
  void Stop();

  struct Impl;

 private:
  explicit GlueServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
bool IsLoopback(const std::string& host);

}  // namespace epoxy::api
