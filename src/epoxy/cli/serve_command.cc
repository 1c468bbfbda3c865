// SPDX-License-Identifier: Apache-2.0
#include "epoxy/cli/serve_command.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <nlohmann/json.hpp>

#include "epoxy/api/access_keys.h"
#include "epoxy/api/glue_server.h"
#include "epoxy/catalog/catalog_store.h"

namespace epoxy::cli {
namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace

Result<int> RunServe(const ServeArgs& args) {
  api::ServerOptions options;
  options.host = args.host;
  options.port = args.port;
  options.account_id = args.account_id;
  options.regions = SplitList(args.region);
  options.catalog_uri = args.catalog;
  options.allow_reset = args.allow_reset;
  options.test_clock = args.test_clock;
  options.threads = args.threads;
  options.max_clock_skew_seconds = args.max_clock_skew;
  const char* id = std::getenv("EPOXY_ACCESS_KEY_ID");
  const char* secret = std::getenv("EPOXY_SECRET_ACCESS_KEY");
  if ((id && *id) != (secret && *secret)) {
    return Status::InvalidInput("set both EPOXY_ACCESS_KEY_ID and EPOXY_SECRET_ACCESS_KEY, or neither");
  }
  if (id && *id) {
    options.root_access_key_id = id;
    options.root_secret_access_key = secret;
  }
  // SIGINT and SIGTERM stop the server from a thread that waits for them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  EPOXY_ASSIGN_OR_RETURN(auto server, api::GlueServer::Start(options));
  std::printf("epoxy serve: listening on http://%s:%d (account %s, region %s)\n", args.host.c_str(), server->port(),
              options.account_id.c_str(), options.regions.front().c_str());
  std::fflush(stdout);
  std::thread waiter([&] {
    int received = 0;
    sigwait(&signals, &received);
    server->Stop();
  });
  server->Wait();
  if (waiter.joinable()) {
    pthread_kill(waiter.native_handle(), SIGTERM);  // when the server stopped on its own
    waiter.join();
  }
  return 0;
}

Result<int> RunAccessKeyCommand(const AccessKeyArgs& args) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::CatalogStore::Open(args.catalog));
  if (args.action == "create") {
    EPOXY_ASSIGN_OR_RETURN(nlohmann::json key, api::CreateAccessKey(*store));
    std::printf("%s\n", key.dump(2).c_str());
    return 0;
  }
  if (args.action == "list") {
    EPOXY_ASSIGN_OR_RETURN(auto keys, api::ListAccessKeys(*store));
    std::printf("%s\n", nlohmann::json{{"AccessKeys", keys}}.dump(2).c_str());
    return 0;
  }
  if (args.action == "delete") {
    if (args.id.empty()) return Status::InvalidInput("epoxy access-key delete needs the AccessKeyId");
    EPOXY_RETURN_NOT_OK(api::DeleteAccessKey(*store, args.id));
    return 0;
  }
  return Status::InvalidInput("unknown access-key action '{}' (create, list, delete)", args.action);
}

}  // namespace epoxy::cli
