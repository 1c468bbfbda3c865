// SPDX-License-Identifier: Apache-2.0
// Triggers: SCHEDULED (Glue's cron), CONDITIONAL (predicates on job runs and crawls), ON_DEMAND
// and EVENT, kept as catalog objects and fired by the server's TriggerEngine.
#include "epoxy/api/operation.h"
#include "epoxy/scheduler/clock.h"
#include "epoxy/scheduler/trigger_definition.h"
#include "epoxy/scheduler/trigger_engine.h"

namespace epoxy::api {
namespace {

using scheduler::kTriggerKind;

Result<Json> TriggerOf(const std::string& name, ApiContext& context) {
  auto t = context.store->GetObject(kTriggerKind, name);
  if (!t.ok() && t.status().code() == StatusCode::kNotFound) {
    return Status::NotFound("EntityNotFoundException: Trigger {} not found", name);
  }
  return t;
}

/// The folder or prefix an EVENT trigger watches: its epoxy:watch-path tag.
std::string WatchPath(const std::string& name, ApiContext& context) {
  auto tags = context.store->GetObject("tags", context.Arn("trigger", name));
  return tags.ok() ? tags->value(scheduler::kWatchPathTag, "") : "";
}

Status Activate(const Json& trigger, ApiContext& context) {
  const std::string name = trigger.value("Name", "");
  return scheduler::ActivateTrigger(*context.store, trigger, context.clock->Now(), WatchPath(name, context));
}

Result<Json> CreateTrigger(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(RequiredString(request, "Type").status());
  if (context.store->GetObject(kTriggerKind, name).ok()) {
    return Status::AlreadyExists("Trigger with name {} already exists", name);
  }
  EPOXY_ASSIGN_OR_RETURN(Json trigger, scheduler::TriggerFromInput(request, nullptr, *context.jobs));
  const std::string type = trigger.value("Type", "");
  if (request.value("StartOnCreation", false) && type == "ON_DEMAND") {
    return Status::InvalidInput("StartOnCreation is not supported for ON_DEMAND triggers");
  }
  if (type == "EVENT" && request.value("Tags", Json::object()).value(scheduler::kWatchPathTag, "").empty()) {
    return Status::InvalidInput("an EVENT trigger needs the tag {} (the folder or s3:// prefix whose new objects "
                                "fire it): epoxy has no EventBridge", scheduler::kWatchPathTag);
  }
  EPOXY_RETURN_NOT_OK(StoreTags(request, context.Arn("trigger", name), context));
  EPOXY_RETURN_NOT_OK(context.store->PutObject(kTriggerKind, name, trigger));
  if (request.value("StartOnCreation", false)) EPOXY_RETURN_NOT_OK(Activate(trigger, context));
  return Json{{"Name", name}};
}

Result<Json> GetTrigger(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json trigger, TriggerOf(name, context));
  return Json{{"Trigger", trigger}};
}

/// The triggers (sorted by name) whose actions start `job` (all when empty).
Result<std::vector<Json>> TriggersStarting(const std::string& job, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(auto all, context.store->ListObjects(kTriggerKind, ""));
  std::vector<Json> out;
  for (auto& [name, t] : all) {
    bool starts = job.empty();
    for (const auto& a : t.value("Actions", Json::array())) starts = starts || a.value("JobName", "") == job;
    if (starts) out.push_back(std::move(t));
  }
  return out;
}

Result<Json> GetTriggers(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 200));
  EPOXY_ASSIGN_OR_RETURN(auto triggers, TriggersStarting(OptionalString(request, "DependentJobName"), context));
  NamedPage page = PageByName(std::move(triggers), OptionalString(request, "NextToken"), max);
  Json list = Json::array();
  for (const auto& t : page.items) list.push_back(t);
  return WithNextToken(Json{{"Triggers", std::move(list)}}, page.next_token);
}

Result<Json> ListTriggers(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 200));
  EPOXY_ASSIGN_OR_RETURN(auto triggers, TriggersStarting(OptionalString(request, "DependentJobName"), context));
  EPOXY_ASSIGN_OR_RETURN(triggers, FilterByTags(std::move(triggers), "trigger", request, context));
  NamedPage page = PageByName(std::move(triggers), OptionalString(request, "NextToken"), max);
  Json names = Json::array();
  for (const auto& t : page.items) names.push_back(t.value("Name", ""));
  return WithNextToken(Json{{"TriggerNames", std::move(names)}}, page.next_token);
}

Result<Json> BatchGetTriggers(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(FoundAndMissing got, GetEach(request, "TriggerNames", [&](const std::string& name) -> Result<Json> {
    EPOXY_ASSIGN_OR_RETURN(Json trigger, context.store->GetObject(kTriggerKind, name));
    return trigger;
  }));
  return Json{{"Triggers", std::move(got.found)}, {"TriggersNotFound", std::move(got.missing)}};
}

Result<Json> UpdateTrigger(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  if (!request.contains("TriggerUpdate") || !request["TriggerUpdate"].is_object()) {
    return RequiredString(request, "TriggerUpdate").status();
  }
  EPOXY_ASSIGN_OR_RETURN(Json existing, TriggerOf(name, context));
  Json update = request["TriggerUpdate"];
  if (update.contains("Name") && update["Name"] != name) {
    return Status::InvalidInput("UpdateTrigger cannot rename trigger {}", name);
  }
  EPOXY_ASSIGN_OR_RETURN(Json trigger, scheduler::TriggerFromInput(update, &existing, *context.jobs));
  EPOXY_RETURN_NOT_OK(context.store->PutObject(kTriggerKind, name, trigger));
  // A new schedule counts from now.
  if (trigger.value("State", "") == "ACTIVATED" && update.contains("Schedule")) {
    EPOXY_RETURN_NOT_OK(Activate(trigger, context));
  }
  return Json{{"Trigger", trigger}};
}

Result<Json> DeleteTrigger(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(scheduler::DeleteTrigger(*context.store, name));
  Status untag = context.store->DeleteObject("tags", context.Arn("trigger", name));
  if (!untag.ok() && untag.code() != StatusCode::kNotFound) return untag;
  return Json{{"Name", name}};  // as Glue, a trigger that does not exist is deleted too
}

Result<Json> StartTrigger(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json trigger, TriggerOf(name, context));
  if (trigger.value("Type", "") == "ON_DEMAND") {
    if (!trigger.value("WorkflowName", "").empty()) {
      return Status::InvalidInput("trigger {} starts workflow {}: use StartWorkflowRun", name,
                                  trigger.value("WorkflowName", ""));
    }
    EPOXY_RETURN_NOT_OK(context.engine->FireOnDemand(name));
  } else {
    EPOXY_RETURN_NOT_OK(Activate(trigger, context));
  }
  return Json{{"Name", name}};
}

Result<Json> StopTrigger(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json trigger, TriggerOf(name, context));
  if (trigger.value("Type", "") == "ON_DEMAND") {
    return Status::InvalidInput("IllegalTriggerStateException: ON_DEMAND trigger {} cannot be stopped", name);
  }
  EPOXY_RETURN_NOT_OK(scheduler::DeactivateTrigger(*context.store, trigger));
  return Json{{"Name", name}};
}

}  // namespace

void AddTriggerOperations(Operations* ops) {
  ops->Add("CreateTrigger", CreateTrigger);
  ops->Add("GetTrigger", GetTrigger);
  ops->Add("GetTriggers", GetTriggers);
  ops->Add("ListTriggers", ListTriggers);
  ops->Add("BatchGetTriggers", BatchGetTriggers);
  ops->Add("UpdateTrigger", UpdateTrigger);
  ops->Add("DeleteTrigger", DeleteTrigger);
  ops->Add("StartTrigger", StartTrigger);
  ops->Add("StopTrigger", StopTrigger);
}

}  // namespace epoxy::api
