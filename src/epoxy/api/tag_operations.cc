// SPDX-License-Identifier: Apache-2.0
// Tags on resources, by ARN (arn:aws:glue:REGION:ACCOUNT:database/NAME, table/DB/NAME, job/NAME...).
#include "epoxy/api/operation.h"

namespace epoxy::api {
namespace {

Result<Json> CurrentTags(const std::string& arn, ApiContext& context) {
  auto tags = context.store->GetObject("tags", arn);
  if (tags.ok()) return *tags;
  if (tags.status().code() == StatusCode::kNotFound) return Json::object();
  return tags.status();
}

Result<Json> TagResource(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string arn, RequiredString(request, "ResourceArn"));
  EPOXY_ASSIGN_OR_RETURN(Json tags, CurrentTags(arn, context));
  const Json add = request.value("TagsToAdd", Json::object());
  if (!add.is_object()) return Status::InvalidInput("TagsToAdd must be a map of strings");
  for (const auto& [key, value] : add.items()) {
    if (!value.is_string()) return Status::InvalidInput("tag {} must have a string value", key);
    tags[key] = value;
  }
  if (tags.size() > 50) return Status::InvalidInput("a resource holds at most 50 tags");
  EPOXY_RETURN_NOT_OK(context.store->PutObject("tags", arn, tags));
  return Json::object();
}

Result<Json> UntagResource(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string arn, RequiredString(request, "ResourceArn"));
  EPOXY_ASSIGN_OR_RETURN(Json tags, CurrentTags(arn, context));
  for (const auto& key : request.value("TagsToRemove", Json::array())) {
    if (key.is_string()) tags.erase(key.get<std::string>());
  }
  EPOXY_RETURN_NOT_OK(context.store->PutObject("tags", arn, tags));
  return Json::object();
}

Result<Json> GetTags(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string arn, RequiredString(request, "ResourceArn"));
  EPOXY_ASSIGN_OR_RETURN(Json tags, CurrentTags(arn, context));
  return Json{{"Tags", std::move(tags)}};
}

}  // namespace

void AddTagOperations(Operations* ops) {
  ops->Add("TagResource", TagResource);
  ops->Add("UntagResource", UntagResource);
  ops->Add("GetTags", GetTags);
}

}  // namespace epoxy::api
