// SPDX-License-Identifier: Apache-2.0
#include "epoxy/scheduler/trigger_definition.h"

#include <algorithm>

#include <fmt/format.h>

#include "epoxy/scheduler/cron.h"
#include "epoxy/storage/file_system.h"

namespace epoxy::scheduler {
namespace {

const char* const kJobStates[] = {"SUCCEEDED", "STOPPED", "FAILED", "TIMEOUT", "ERROR"};
const char* const kCrawlStates[] = {"SUCCEEDED", "FAILED", "CANCELLED"};

bool OneOf(const std::string& value, const char* const* begin, const char* const* end) {
  for (auto it = begin; it != end; ++it) {
    if (value == *it) return true;
  }
  return false;
}

Status CheckActions(const Json& actions, catalog::JobStore& jobs) {
  if (!actions.is_array() || actions.empty()) return Status::InvalidInput("a trigger needs at least one action in Actions");
  for (size_t i = 0; i < actions.size(); ++i) {
    const Json& a = actions[i];
    if (!a.is_object() || a.contains("JobName") == a.contains("CrawlerName")) {
      return Status::InvalidInput("Actions[{}] must name exactly one of JobName and CrawlerName", i);
    }
    if (a.contains("JobName")) {
      EPOXY_RETURN_NOT_OK(jobs.GetJob(a.value("JobName", "")).status());
      if (a.contains("Arguments")) {
        if (!a["Arguments"].is_object()) return Status::InvalidInput("Actions[{}].Arguments must be a map", i);
        for (const auto& [k, v] : a["Arguments"].items()) {
          if (!v.is_string()) return Status::InvalidInput("Actions[{}].Arguments {} must be a string", i, k);
        }
      }
    } else {
      EPOXY_RETURN_NOT_OK(jobs.catalog().GetCrawler(a.value("CrawlerName", "")).status());
    }
  }
  return Status::OK();
}

Status CheckPredicate(const Json& predicate) {
  if (!predicate.is_object()) return Status::InvalidInput("Predicate must be an object");
  const std::string logical = predicate.value("Logical", "AND");
  if (logical != "AND" && logical != "ANY") return Status::InvalidInput("Predicate.Logical must be AND or ANY");
  const Json conditions = predicate.value("Conditions", Json::array());
  if (!conditions.is_array() || conditions.empty()) {
    return Status::InvalidInput("a CONDITIONAL trigger needs Predicate.Conditions");
  }
  for (size_t i = 0; i < conditions.size(); ++i) {
    const Json& c = conditions[i];
    if (!c.is_object() || c.contains("JobName") == c.contains("CrawlerName")) {
      return Status::InvalidInput("Conditions[{}] must name exactly one of JobName and CrawlerName", i);
    }
    if (c.value("LogicalOperator", "EQUALS") != "EQUALS") {
      return Status::InvalidInput("Conditions[{}].LogicalOperator must be EQUALS", i);
    }
    if (c.contains("JobName") && !OneOf(c.value("State", ""), std::begin(kJobStates), std::end(kJobStates))) {
      return Status::InvalidInput("Conditions[{}].State must be SUCCEEDED, STOPPED, FAILED, TIMEOUT or ERROR", i);
    }
    if (c.contains("CrawlerName") && !OneOf(c.value("CrawlState", ""), std::begin(kCrawlStates), std::end(kCrawlStates))) {
      return Status::InvalidInput("Conditions[{}].CrawlState must be SUCCEEDED, FAILED or CANCELLED", i);
    }
  }
  return Status::OK();
}

}  // namespace

Result<Json> TriggerFromInput(const Json& input, const Json* existing, catalog::JobStore& jobs) {
  Json t = existing ? *existing : Json::object();
  for (const char* member : {"Name", "WorkflowName", "Type", "Description", "Schedule", "Actions", "Predicate",
                             "EventBatchingCondition"}) {
    if (input.contains(member) && !input[member].is_null()) t[member] = input[member];
  }
  const std::string name = t.value("Name", "");
  EPOXY_RETURN_NOT_OK(catalog::ValidateName("trigger", name));
  const std::string type = t.value("Type", "");
  if (type != "SCHEDULED" && type != "CONDITIONAL" && type != "ON_DEMAND" && type != "EVENT") {
    return Status::InvalidInput("Type must be SCHEDULED, CONDITIONAL, ON_DEMAND or EVENT, not '{}'", type);
  }
  if (type == "SCHEDULED") EPOXY_RETURN_NOT_OK(CronSchedule::Parse(t.value("Schedule", "")).status());
  if (type == "CONDITIONAL") EPOXY_RETURN_NOT_OK(CheckPredicate(t.value("Predicate", Json())));
  if (type == "EVENT") {
    const Json batching = t.value("EventBatchingCondition", Json::object());
    const int size = batching.value("BatchSize", 1), window = batching.value("BatchWindow", 900);
    if (size < 1 || size > 100) return Status::InvalidInput("EventBatchingCondition.BatchSize must be 1 to 100");
    if (window < 1 || window > 900) return Status::InvalidInput("EventBatchingCondition.BatchWindow must be 1 to 900");
  }
  EPOXY_RETURN_NOT_OK(CheckActions(t.value("Actions", Json()), jobs));
  if (const std::string workflow = t.value("WorkflowName", ""); !workflow.empty()) {
    auto w = jobs.catalog().GetObject(kWorkflowKind, workflow);
    if (!w.ok()) return Status::NotFound("EntityNotFoundException: Workflow {} not found", workflow);
  }
  t["Id"] = name;
  if (!t.contains("State")) t["State"] = "CREATED";
  return t;
}

Result<std::vector<std::string>> WatchedObjects(const std::string& path) {
  EPOXY_ASSIGN_OR_RETURN(auto files, FileSystemFor(path));
  auto listed = files->ListFiles(path, true);
  if (!listed.ok() && listed.status().code() == StatusCode::kNotFound) return std::vector<std::string>{};
  EPOXY_RETURN_NOT_OK(listed.status());
  std::vector<std::string> out;
  const std::string root = path.back() == '/' ? path : path + "/";
  for (const auto& f : *listed) {
    if (f.is_dir) continue;
    const std::string relative = f.path.rfind(root, 0) == 0 ? f.path.substr(root.size()) : f.path;
    bool hidden = false;
    size_t start = 0;
    while (start < relative.size()) {
      size_t slash = relative.find('/', start);
      const std::string part = relative.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
      hidden = hidden || part.empty() || part[0] == '.' || part[0] == '_';
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    if (!hidden) out.push_back(f.path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Status ActivateTrigger(catalog::CatalogStore& store, Json trigger, double now, const std::string& watch_path) {
  const std::string name = trigger.value("Name", "");
  trigger["State"] = "ACTIVATED";
  Json state = {{"ActivatedAt", now}};
  if (trigger.value("Type", "") == "EVENT") {
    if (watch_path.empty()) {
      return Status::InvalidInput("EVENT trigger {} needs the tag {} (the folder or s3:// prefix whose new objects "
                                  "fire it): epoxy has no EventBridge", name, kWatchPathTag);
    }
    EPOXY_ASSIGN_OR_RETURN(std::vector<std::string> present, WatchedObjects(watch_path));
    state["WatchPath"] = watch_path;
    state["Seen"] = present;  // what is there already is not an event
    state["Pending"] = Json::array();
  }
  EPOXY_RETURN_NOT_OK(store.PutObject(kTriggerStateKind, name, state));
  return store.PutObject(kTriggerKind, name, trigger);
}

Status DeleteTrigger(catalog::CatalogStore& store, const std::string& name) {
  for (const char* kind : {kTriggerKind, kTriggerStateKind}) {
    Status st = store.DeleteObject(kind, name);
    if (!st.ok() && st.code() != StatusCode::kNotFound) return st;
  }
  return Status::OK();
}

Result<Json> WorkflowFromInput(const std::string& name, const Json& input, const Json* existing, double now) {
  EPOXY_RETURN_NOT_OK(catalog::ValidateName("workflow", name));
  Json w = existing ? *existing : Json{{"Name", name}, {"CreatedOn", now}};
  w["LastModifiedOn"] = now;
  if (input.contains("Description")) w["Description"] = input["Description"];
  if (input.contains("DefaultRunProperties")) {
    const Json& p = input["DefaultRunProperties"];
    if (!p.is_object()) return Status::InvalidInput("DefaultRunProperties must be a map of strings");
    for (const auto& [k, v] : p.items()) {
      if (!v.is_string()) return Status::InvalidInput("DefaultRunProperties {} must be a string", k);
    }
    w["DefaultRunProperties"] = p;
  }
  if (input.contains("MaxConcurrentRuns")) {
    if (!input["MaxConcurrentRuns"].is_number_integer() || input["MaxConcurrentRuns"].get<int64_t>() < 1) {
      return Status::InvalidInput("MaxConcurrentRuns must be a positive integer");
    }
    w["MaxConcurrentRuns"] = input["MaxConcurrentRuns"];
  }
  return w;
}

Status DeleteWorkflow(catalog::CatalogStore& store, const std::string& name) {
  EPOXY_ASSIGN_OR_RETURN(auto triggers, store.ListObjects(kTriggerKind, ""));
  for (const auto& [trigger, t] : triggers) {
    if (t.value("WorkflowName", "") == name) EPOXY_RETURN_NOT_OK(DeleteTrigger(store, trigger));
  }
  for (const char* kind : {kActiveWorkflowRunKind, kWorkflowRunKind}) {
    EPOXY_ASSIGN_OR_RETURN(auto runs, store.ListObjects(kind, name + "/"));
    for (const auto& [key, run] : runs) EPOXY_RETURN_NOT_OK(store.DeleteObject(kind, key));
  }
  Status st = store.DeleteObject(kWorkflowKind, name);
  return st.code() == StatusCode::kNotFound ? Status::OK() : st;
}

Status StopWorkflowRun(catalog::CatalogStore& store, const std::string& workflow, const std::string& run_id) {
  EPOXY_ASSIGN_OR_RETURN(Json run, store.GetObject(kWorkflowRunKind, workflow + "/" + run_id));
  if (run.value("Status", "") != "RUNNING") {
    return Status::InvalidInput("IllegalWorkflowStateException: workflow run {} is {}, not RUNNING", run_id,
                                run.value("Status", ""));
  }
  run["Status"] = "STOPPING";
  return store.PutObject(kWorkflowRunKind, workflow + "/" + run_id, run);
}

Status RequestFiring(catalog::CatalogStore& store, const std::string& name) {
  auto state = store.GetObject(kTriggerStateKind, name);
  if (!state.ok() && state.status().code() != StatusCode::kNotFound) return state.status();
  Json doc = state.ok() ? *state : Json::object();
  doc["Requested"] = doc.value("Requested", 0) + 1;
  return store.PutObject(kTriggerStateKind, name, doc);
}

Status RequestWorkflowRun(catalog::CatalogStore& store, const std::string& workflow, const Json& properties,
                          double now) {
  EPOXY_RETURN_NOT_OK(store.GetObject(kWorkflowKind, workflow).status());
  return store.PutObject(kWorkflowRequestKind, fmt::format("{}/{:.6f}", workflow, now),
                         Json{{"Workflow", workflow}, {"RunProperties", properties}, {"RequestedAt", now}});
}

Status DeactivateTrigger(catalog::CatalogStore& store, Json trigger) {
  trigger["State"] = "DEACTIVATED";
  return store.PutObject(kTriggerKind, trigger.value("Name", ""), trigger);
}

}  // namespace epoxy::scheduler
