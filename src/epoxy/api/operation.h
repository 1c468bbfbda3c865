// SPDX-License-Identifier: Apache-2.0
// Glue API operations: a handler per operation name, taking the request's JSON and answering the
// response's JSON (or a Status whose Glue exception name the server sends back). Handlers are
// grouped by area (catalog_operations.cc, partition_operations.cc, ...), each area registering
// its own into the Operations table.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/common/result.h"

namespace epoxy::api {

using Json = nlohmann::json;

/// What a handler works with: the catalog and the server's identity (CatalogId, region, ARNs).
struct ApiContext {
  catalog::CatalogStore* store = nullptr;
  std::string account_id = "123456789012";
  std::string region = "us-east-1";

  /// arn:aws:glue:REGION:ACCOUNT:KIND/NAME
  std::string Arn(const std::string& kind, const std::string& name) const {
    return "arn:aws:glue:" + region + ":" + account_id + ":" + kind + "/" + name;
  }
};

using Handler = std::function<Result<Json>(const Json& request, ApiContext& context)>;

class Operations {
 public:
  void Add(const std::string& name, Handler handler) { handlers_[name] = std::move(handler); }
  const Handler* Find(const std::string& name) const {
    auto it = handlers_.find(name);
    return it == handlers_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, Handler>& all() const { return handlers_; }

 private:
  std::map<std::string, Handler> handlers_;
};

void AddCatalogOperations(Operations* operations);
void AddPartitionOperations(Operations* operations);
void AddConnectionOperations(Operations* operations);
void AddTagOperations(Operations* operations);

/// Every operation epoxy serves.
const Operations& AllOperations();

// Request helpers: a required string member (InvalidInputException naming it when missing), an
// optional one, and the CatalogId check (another account's catalog is EntityNotFoundException).
Result<std::string> RequiredString(const Json& request, const char* name);
std::string OptionalString(const Json& request, const char* name, const std::string& fallback = "");
Status CheckCatalogId(const Json& request, const ApiContext& context);
/// The message Glue sends for a failed status: the catalog's "database x not found" becomes
/// "Database x not found.", "table db.t not found" "Table t not found.", and so on.
std::string GlueMessage(const Status& status);

/// A batch operation's ErrorDetail for a failed item: {"ErrorCode", "ErrorMessage"}.
Json ErrorDetail(const Status& status);

/// MaxResults within [1, limit] (absent: limit); InvalidInputException outside.
Result<int> MaxResults(const Json& request, int limit);

}  // namespace epoxy::api
