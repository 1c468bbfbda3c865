// SPDX-License-Identifier: Apache-2.0
// `epoxy serve`: the Glue API server; `epoxy access-key ...`: the keys it accepts.
#pragma once

#include <cstdint>
#include <string>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct ServeArgs {
  std::string host = "127.0.0.1";
  int port = 8999;
  std::string account_id = "123456789012";
  std::string region = "us-east-1";  // a comma-separated list: the first is the server's own
  std::string catalog;
  bool allow_reset = false;
  bool test_clock = false;
  int threads = 16;
  int64_t max_clock_skew = 15 * 60;
};

/// Serves until SIGINT or SIGTERM; prints "epoxy serve: listening on http://HOST:PORT" once ready.
Result<int> RunServe(const ServeArgs& args);

struct AccessKeyArgs {
  std::string action;  // create | list | delete
  std::string id;
  std::string catalog;
};

Result<int> RunAccessKeyCommand(const AccessKeyArgs& args);

}  // namespace epoxy::cli
