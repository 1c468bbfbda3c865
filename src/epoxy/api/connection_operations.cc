// SPDX-License-Identifier: Apache-2.0
// JDBC connections (the catalog's, shared with `epoxy connection`); passwords are returned only
// when HidePassword is false, as Glue does.
#include "epoxy/api/operation.h"

namespace epoxy::api {
namespace {

Json ConnectionOut(Json connection, bool hide_password) {
  if (hide_password && connection.contains("ConnectionProperties") && connection["ConnectionProperties"].is_object()) {
    connection["ConnectionProperties"].erase("PASSWORD");
  }
  return connection;
}

Result<Json> CreateConnection(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  if (!request.contains("ConnectionInput")) return Status::InvalidInput("ConnectionInput is required");
  EPOXY_RETURN_NOT_OK(context.store->CreateConnection(request["ConnectionInput"]));
  EPOXY_RETURN_NOT_OK(StoreTags(request, context.Arn("connection", OptionalString(request["ConnectionInput"], "Name")),
                                context));
  return Json{{"CreateConnectionStatus", "READY"}};
}

Result<Json> GetConnection(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json connection, context.store->GetConnection(name));
  return Json{{"Connection", ConnectionOut(std::move(connection), request.value("HidePassword", false))}};
}

Result<Json> GetConnections(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  EPOXY_ASSIGN_OR_RETURN(auto all, context.store->GetConnections());
  const Json filter = request.value("Filter", Json::object());
  const std::string type = filter.value("ConnectionType", "");
  const bool hide = request.value("HidePassword", false);
  // NextToken is the name of the last connection of the previous page.
  const std::string after = OptionalString(request, "NextToken");
  Json list = Json::array();
  std::string next;
  for (auto& c : all) {
    const std::string name = c.value("Name", "");
    if (!after.empty() && name <= after) continue;
    if (!type.empty() && c.value("ConnectionType", "") != type) continue;
    if (static_cast<int>(list.size()) == max) {
      next = list.back().value("Name", "");
      break;
    }
    list.push_back(ConnectionOut(std::move(c), hide));
  }
  Json out = {{"ConnectionList", std::move(list)}};
  if (!next.empty()) out["NextToken"] = next;
  return out;
}

Result<Json> UpdateConnection(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  if (!request.contains("ConnectionInput")) return Status::InvalidInput("ConnectionInput is required");
  EPOXY_RETURN_NOT_OK(context.store->UpdateConnection(name, request["ConnectionInput"]));
  return Json::object();
}

Result<Json> DeleteConnection(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "ConnectionName"));
  EPOXY_RETURN_NOT_OK(context.store->DeleteConnection(name));
  return Json::object();
}

Result<Json> BatchDeleteConnection(const Json& request, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  Json succeeded = Json::array(), errors = Json::object();
  for (const auto& name : request.value("ConnectionNameList", Json::array())) {
    if (!name.is_string()) continue;
    Status st = context.store->DeleteConnection(name.get<std::string>());
    if (st.ok()) {
      succeeded.push_back(name);
    } else {
      errors[name.get<std::string>()] = ErrorDetail(st);
    }
  }
  return Json{{"Succeeded", std::move(succeeded)}, {"Errors", std::move(errors)}};
}

}  // namespace

void AddConnectionOperations(Operations* ops) {
  ops->Add("CreateConnection", CreateConnection);
  ops->Add("GetConnection", GetConnection);
  ops->Add("GetConnections", GetConnections);
  ops->Add("UpdateConnection", UpdateConnection);
  ops->Add("DeleteConnection", DeleteConnection);
  ops->Add("BatchDeleteConnection", BatchDeleteConnection);
}

}  // namespace epoxy::api
