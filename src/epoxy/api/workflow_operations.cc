// SPDX-License-Identifier: Apache-2.0
// Workflows: a graph of triggers, jobs and crawlers run together, with run properties shared by
// the jobs of a run. Runs are carried forward by the server's TriggerEngine.
#include <algorithm>

#include "epoxy/api/operation.h"
#include "epoxy/scheduler/clock.h"
#include "epoxy/scheduler/trigger_definition.h"
#include "epoxy/scheduler/trigger_engine.h"

namespace epoxy::api {
namespace {

using scheduler::kWorkflowKind;
using scheduler::kWorkflowRunKind;

Status EntityNotFound() { return Status::NotFound("EntityNotFoundException: Entity not found"); }

Result<Json> WorkflowOf(const std::string& name, ApiContext& context) {
  auto w = context.store->GetObject(kWorkflowKind, name);
  if (!w.ok() && w.status().code() == StatusCode::kNotFound) return EntityNotFound();
  return w;
}

Result<Json> RunOf(const std::string& workflow, const std::string& run_id, ApiContext& context) {
  EPOXY_RETURN_NOT_OK(WorkflowOf(workflow, context).status());
  auto run = context.store->GetObject(kWorkflowRunKind, workflow + "/" + run_id);
  if (!run.ok() && run.status().code() == StatusCode::kNotFound) return EntityNotFound();
  return run;
}

/// A WorkflowRun as the API shows it, with its graph when asked.
Result<Json> RunOut(Json run, bool include_graph, ApiContext& context) {
  run.erase("Fired");
  if (include_graph) {
    EPOXY_ASSIGN_OR_RETURN(Json graph, context.engine->Graph(run.value("Name", ""), run.value("WorkflowRunId", "")));
    run["Graph"] = std::move(graph);
  }
  return run;
}

Result<std::vector<Json>> RunsOf(const std::string& workflow, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(auto runs, context.store->ListObjects(kWorkflowRunKind, workflow + "/"));
  std::vector<Json> out;
  for (auto& [key, run] : runs) out.push_back(std::move(run));
  std::sort(out.begin(), out.end(), [](const Json& a, const Json& b) {
    return a.value("StartedOn", 0.0) > b.value("StartedOn", 0.0);  // newest first
  });
  return out;
}

Result<Json> WorkflowOut(Json workflow, bool include_graph, ApiContext& context) {
  const std::string name = workflow.value("Name", "");
  EPOXY_ASSIGN_OR_RETURN(auto runs, RunsOf(name, context));
  if (!runs.empty()) {
    EPOXY_ASSIGN_OR_RETURN(Json last, RunOut(runs.front(), include_graph, context));
    workflow["LastRun"] = std::move(last);
  }
  if (include_graph) {
    EPOXY_ASSIGN_OR_RETURN(Json graph, context.engine->Graph(name, ""));
    workflow["Graph"] = std::move(graph);
  }
  return workflow;
}

Status CheckProperties(const Json& properties, const char* member) {
  if (!properties.is_object()) return Status::InvalidInput("{} must be a map of strings", member);
  for (const auto& [k, v] : properties.items()) {
    if (!v.is_string()) return Status::InvalidInput("{} {} must be a string", member, k);
  }
  return Status::OK();
}

Result<Json> CreateWorkflow(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  if (context.store->GetObject(kWorkflowKind, name).ok()) {
    return Status::AlreadyExists("Workflow with name {} already exists", name);
  }
  EPOXY_ASSIGN_OR_RETURN(Json workflow, scheduler::WorkflowFromInput(name, request, nullptr, context.clock->Now()));
  EPOXY_RETURN_NOT_OK(context.store->PutObject(kWorkflowKind, name, workflow));
  EPOXY_RETURN_NOT_OK(StoreTags(request, context.Arn("workflow", name), context));
  return Json{{"Name", name}};
}

Result<Json> GetWorkflow(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json workflow, WorkflowOf(name, context));
  EPOXY_ASSIGN_OR_RETURN(Json out, WorkflowOut(std::move(workflow), request.value("IncludeGraph", false), context));
  return Json{{"Workflow", std::move(out)}};
}

Result<Json> UpdateWorkflow(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json existing, WorkflowOf(name, context));
  EPOXY_ASSIGN_OR_RETURN(Json workflow, scheduler::WorkflowFromInput(name, request, &existing, context.clock->Now()));
  EPOXY_RETURN_NOT_OK(context.store->PutObject(kWorkflowKind, name, workflow));
  return Json{{"Name", name}};
}

Result<Json> DeleteWorkflow(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(scheduler::DeleteWorkflow(*context.store, name));
  return Json{{"Name", name}};
}

Result<Json> ListWorkflows(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 25));
  EPOXY_ASSIGN_OR_RETURN(auto all, context.store->ListObjects(kWorkflowKind, ""));
  std::vector<Json> workflows;
  for (auto& [name, w] : all) workflows.push_back(std::move(w));
  NamedPage page = PageByName(std::move(workflows), OptionalString(request, "NextToken"), max);
  Json names = Json::array();
  for (const auto& w : page.items) names.push_back(w.value("Name", ""));
  return WithNextToken(Json{{"Workflows", std::move(names)}}, page.next_token);
}

Result<Json> BatchGetWorkflows(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(FoundAndMissing got, GetEach(request, "Names", [&](const std::string& name) -> Result<Json> {
    EPOXY_ASSIGN_OR_RETURN(Json workflow, context.store->GetObject(kWorkflowKind, name));
    return WorkflowOut(std::move(workflow), request.value("IncludeGraph", false), context);
  }));
  return Json{{"Workflows", std::move(got.found)}, {"MissingWorkflows", std::move(got.missing)}};
}

Result<Json> StartWorkflowRun(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(WorkflowOf(name, context).status());
  const Json properties = request.value("RunProperties", Json::object());
  EPOXY_RETURN_NOT_OK(CheckProperties(properties, "RunProperties"));
  EPOXY_ASSIGN_OR_RETURN(std::string run_id, context.engine->StartWorkflowRun(name, properties));
  return Json{{"RunId", run_id}};
}

Result<Json> GetWorkflowRun(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(std::string run_id, RequiredString(request, "RunId"));
  EPOXY_ASSIGN_OR_RETURN(Json run, RunOf(name, run_id, context));
  EPOXY_ASSIGN_OR_RETURN(Json out, RunOut(std::move(run), request.value("IncludeGraph", false), context));
  return Json{{"Run", std::move(out)}};
}

Result<Json> GetWorkflowRuns(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  EPOXY_RETURN_NOT_OK(WorkflowOf(name, context).status());
  EPOXY_ASSIGN_OR_RETURN(auto runs, RunsOf(name, context));
  // Newest first; NextToken is the id of the last run of the previous page.
  NamedPage page = PageAfter(std::move(runs), OptionalString(request, "NextToken"), max, "WorkflowRunId");
  Json list = Json::array();
  for (auto& run : page.items) {
    EPOXY_ASSIGN_OR_RETURN(Json out, RunOut(std::move(run), request.value("IncludeGraph", false), context));
    list.push_back(std::move(out));
  }
  return WithNextToken(Json{{"Runs", std::move(list)}}, page.next_token);
}

Result<Json> StopWorkflowRun(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(std::string run_id, RequiredString(request, "RunId"));
  EPOXY_RETURN_NOT_OK(RunOf(name, run_id, context).status());
  EPOXY_RETURN_NOT_OK(scheduler::StopWorkflowRun(*context.store, name, run_id));
  return Json::object();
}

Result<Json> ResumeWorkflowRun(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(std::string run_id, RequiredString(request, "RunId"));
  EPOXY_RETURN_NOT_OK(RunOf(name, run_id, context).status());
  std::vector<std::string> nodes;
  for (const auto& id : request.value("NodeIds", Json::array())) {
    if (!id.is_string()) return Status::InvalidInput("NodeIds must be a list of strings");
    nodes.push_back(id.get<std::string>());
  }
  EPOXY_ASSIGN_OR_RETURN(std::string resumed, context.engine->ResumeWorkflowRun(name, run_id, nodes));
  return Json{{"RunId", resumed}, {"NodeIds", request.value("NodeIds", Json::array())}};
}

Result<Json> GetWorkflowRunProperties(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(std::string run_id, RequiredString(request, "RunId"));
  EPOXY_ASSIGN_OR_RETURN(Json run, RunOf(name, run_id, context));
  return Json{{"RunProperties", run.value("WorkflowRunProperties", Json::object())}};
}

Result<Json> PutWorkflowRunProperties(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(std::string run_id, RequiredString(request, "RunId"));
  const Json properties = request.value("RunProperties", Json::object());
  EPOXY_RETURN_NOT_OK(CheckProperties(properties, "RunProperties"));
  EPOXY_ASSIGN_OR_RETURN(Json run, RunOf(name, run_id, context));
  // Properties are added or replaced, never removed (as in Glue).
  for (const auto& [k, v] : properties.items()) run["WorkflowRunProperties"][k] = v;
  EPOXY_RETURN_NOT_OK(context.store->PutObject(kWorkflowRunKind, name + "/" + run_id, run));
  return Json::object();
}

}  // namespace

void AddWorkflowOperations(Operations* ops) {
  ops->Add("CreateWorkflow", CreateWorkflow);
  ops->Add("GetWorkflow", GetWorkflow);
  ops->Add("UpdateWorkflow", UpdateWorkflow);
  ops->Add("DeleteWorkflow", DeleteWorkflow);
  ops->Add("ListWorkflows", ListWorkflows);
  ops->Add("BatchGetWorkflows", BatchGetWorkflows);
  ops->Add("StartWorkflowRun", StartWorkflowRun);
  ops->Add("GetWorkflowRun", GetWorkflowRun);
  ops->Add("GetWorkflowRuns", GetWorkflowRuns);
  ops->Add("StopWorkflowRun", StopWorkflowRun);
  ops->Add("ResumeWorkflowRun", ResumeWorkflowRun);
  ops->Add("GetWorkflowRunProperties", GetWorkflowRunProperties);
  ops->Add("PutWorkflowRunProperties", PutWorkflowRunProperties);
}

}  // namespace epoxy::api
