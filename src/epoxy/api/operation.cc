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

}  // namespace epoxy::api
