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
#include <vector>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/catalog/job_store.h"
#include "epoxy/common/result.h"

namespace epoxy::api {

using Json = nlohmann::json;

class BackgroundWork;
}  // namespace epoxy::api
namespace epoxy::scheduler {
class Clock;
class TriggerEngine;
}  // namespace epoxy::scheduler
namespace epoxy::api {

/// What a handler works with: the catalog, the jobs, the server's background work (crawls, run
/// workers) and the server's identity (CatalogId, region, ARNs).
struct ApiContext {
  catalog::CatalogStore* store = nullptr;
  catalog::JobStore* jobs = nullptr;
  BackgroundWork* background = nullptr;
  scheduler::TriggerEngine* engine = nullptr;  // triggers and workflow runs
  const scheduler::Clock* clock = nullptr;     // the scheduler's time
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
void AddCrawlerOperations(Operations* operations);
void AddJobOperations(Operations* operations);
void AddFunctionAndStatisticsOperations(Operations* operations);
void AddTriggerOperations(Operations* operations);
void AddWorkflowOperations(Operations* operations);

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

/// One page of a listing sorted by name: the items after the one named `after` (a NextToken),
/// at most `max`; `next_token` names the last item when more follow.
struct NamedPage {
  std::vector<Json> items;
  std::string next_token;
};
NamedPage PageByName(std::vector<Json> sorted, const std::string& after, int max, const char* name_member = "Name");
/// One page of a listing in its own order (newest first, say): the items after the one whose
/// `id_member` is `after` (a NextToken), at most `max`; `next_token` is the last item's id when
/// more follow.
NamedPage PageAfter(std::vector<Json> items, const std::string& after, int max, const char* id_member);
/// `out` with "NextToken" when `next_token` is not empty.
Json WithNextToken(Json out, const std::string& next_token);

/// Removes what the API keeps beside a table (its column statistics and partition indexes), or
/// beside a whole database (`table` empty: its functions too), once it is deleted.
Status DeleteObjectsOfTable(const std::string& database, const std::string& table, ApiContext& context);

/// What the BatchGet operations answer: the object `get` finds for each name in the request's
/// list member `names_member` (found), and the names it does not find (missing).
struct FoundAndMissing {
  Json found = Json::array(), missing = Json::array();
};
Result<FoundAndMissing> GetEach(const Json& request, const char* names_member,
                                const std::function<Result<Json>(const std::string&)>& get);

/// Stores the request's "Tags" (when given) on resource `arn`.
Status StoreTags(const Json& request, const std::string& arn, ApiContext& context);
/// The resources (of `kind`, by Name) that carry every tag of the request's "Tags" filter.
Result<std::vector<Json>> FilterByTags(std::vector<Json> resources, const std::string& kind, const Json& request,
                                       ApiContext& context);

}  // namespace epoxy::api
