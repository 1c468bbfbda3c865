// SPDX-License-Identifier: Apache-2.0
#include "epoxy/api/operation.h"

#include <re2/re2.h>

namespace epoxy::api {

const Operations& AllOperations() {
  static const Operations* all = [] {
    auto* ops = new Operations();
    AddCatalogOperations(ops);
    AddPartitionOperations(ops);
    AddConnectionOperations(ops);
    AddTagOperations(ops);
    AddCrawlerOperations(ops);
    AddJobOperations(ops);
    AddFunctionAndStatisticsOperations(ops);
    AddTriggerOperations(ops);
    AddWorkflowOperations(ops);
    return ops;
  }();
  return *all;
}

Result<std::string> RequiredString(const Json& request, const char* name) {
  auto it = request.find(name);
  if (it == request.end() || !it->is_string()) {
    return Status::InvalidInput("1 validation error detected: Value null at '{}' failed to satisfy constraint: Member "
                                "must not be null", name);
  }
  return it->get<std::string>();
}

std::string OptionalString(const Json& request, const char* name, const std::string& fallback) {
  auto it = request.find(name);
  return it != request.end() && it->is_string() ? it->get<std::string>() : fallback;
}

Status CheckCatalogId(const Json& request, const ApiContext& context) {
  std::string id = OptionalString(request, "CatalogId");
  if (!id.empty() && id != context.account_id) {
    return Status::NotFound("catalog {} not found (this server's CatalogId is {})", id, context.account_id);
  }
  return Status::OK();
}

std::string GlueMessage(const Status& status) {
  std::string m = status.message();
  const std::string type(catalog::GlueErrorName(status));
  if (m.rfind(type + ": ", 0) == 0) m = m.substr(type.size() + 2);
  if (status.code() != StatusCode::kNotFound) return m;
  static const RE2 database("database (.+) not found");
  static const RE2 table("table [^.]+\\.(.+) not found");
  static const RE2 version("version .+ of .+ not found");
  static const RE2 crawler("crawler (.+) not found");
  static const RE2 connection("connection (.+) not found");
  std::string name;
  if (RE2::FullMatch(m, database, &name)) return "Database " + name + " not found.";
  if (RE2::FullMatch(m, table, &name)) return "Table " + name + " not found.";
  if (RE2::FullMatch(m, version)) return "Version not found.";
  if (RE2::FullMatch(m, crawler, &name)) return "Crawler " + name + " not found.";
  if (RE2::FullMatch(m, connection, &name)) return "Connection " + name + " not found.";
  return m;
}

Json ErrorDetail(const Status& status) {
  return {{"ErrorCode", std::string(catalog::GlueErrorName(status))}, {"ErrorMessage", status.message()}};
}

Result<int> MaxResults(const Json& request, int limit) {
  auto it = request.find("MaxResults");
  if (it == request.end() || it->is_null()) return limit;
  if (!it->is_number_integer() || it->get<int64_t>() < 1) {
    return Status::InvalidInput("MaxResults must be a positive integer");
  }
  return static_cast<int>(std::min<int64_t>(it->get<int64_t>(), limit));
}

NamedPage PageByName(std::vector<Json> sorted, const std::string& after, int max, const char* name_member) {
  NamedPage page;
  for (auto& item : sorted) {
    const std::string name = item.value(name_member, "");
    if (!after.empty() && name <= after) continue;
    if (static_cast<int>(page.items.size()) == max) {
      page.next_token = page.items.back().value(name_member, "");
      break;
    }
    page.items.push_back(std::move(item));
  }
  return page;
}

NamedPage PageAfter(std::vector<Json> items, const std::string& after, int max, const char* id_member) {
  NamedPage page;
  bool skipping = !after.empty();
  for (auto& item : items) {
    if (skipping) {
      skipping = item.value(id_member, "") != after;
      continue;
    }
    if (static_cast<int>(page.items.size()) == max) {
      page.next_token = page.items.back().value(id_member, "");
      break;
    }
    page.items.push_back(std::move(item));
  }
  return page;
}

Json WithNextToken(Json out, const std::string& next_token) {
  if (!next_token.empty()) out["NextToken"] = next_token;
  return out;
}

Result<FoundAndMissing> GetEach(const Json& request, const char* names_member,
                                const std::function<Result<Json>(const std::string&)>& get) {
  FoundAndMissing out;
  for (const auto& name : request.value(names_member, Json::array())) {
    if (!name.is_string()) return Status::InvalidInput("{} must be a list of strings", names_member);
    auto item = get(name.get<std::string>());
    if (item.ok()) {
      out.found.push_back(std::move(*item));
    } else if (item.status().code() == StatusCode::kNotFound) {
      out.missing.push_back(name);
    } else {
      return item.status();
    }
  }
  return out;
}

Status StoreTags(const Json& request, const std::string& arn, ApiContext& context) {
  auto tags = request.find("Tags");
  if (tags == request.end() || tags->is_null()) return Status::OK();
  if (!tags->is_object()) return Status::InvalidInput("Tags must be a map of strings");
  for (const auto& [key, value] : tags->items()) {
    if (!value.is_string()) return Status::InvalidInput("tag {} must have a string value", key);
  }
  return context.store->PutObject("tags", arn, *tags);
}

Result<std::vector<Json>> FilterByTags(std::vector<Json> resources, const std::string& kind, const Json& request,
                                       ApiContext& context) {
  const Json wanted = request.value("Tags", Json::object());
  if (!wanted.is_object() || wanted.empty()) return resources;
  std::vector<Json> out;
  for (auto& r : resources) {
    auto tags = context.store->GetObject("tags", context.Arn(kind, r.value("Name", "")));
    if (!tags.ok() && tags.status().code() != StatusCode::kNotFound) return tags.status();
    bool all = tags.ok();
    for (const auto& [key, value] : wanted.items()) all = all && tags->contains(key) && (*tags)[key] == value;
    if (all) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace epoxy::api
