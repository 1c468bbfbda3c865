// SPDX-License-Identifier: Apache-2.0
#include "epoxy/scheduler/trigger_engine.h"

#include <openssl/sha.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <set>

#include <fmt/format.h>

#include "epoxy/common/crash_point.h"
#include "epoxy/common/logging.h"
#include "epoxy/jobs/run_lifecycle.h"
#include "epoxy/scheduler/cron.h"
#include "epoxy/scheduler/trigger_definition.h"

namespace epoxy::scheduler {
namespace {

std::string Sha256Hex(const std::string& text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  std::string out;
  for (unsigned char b : digest) out += fmt::format("{:02x}", b);
  return out;
}

/// A crawl's history entry as a condition sees it: SUCCEEDED, FAILED or CANCELLED.
std::string CrawlState(const Json& crawl) { return crawl.value("Status", "RUNNING"); }

Result<Json> ObjectOr(catalog::CatalogStore* store, const std::string& kind, const std::string& key, Json fallback) {
  auto doc = store->GetObject(kind, key);
  if (doc.ok()) return *doc;
  if (doc.status().code() == StatusCode::kNotFound) return fallback;
  return doc.status();
}

}  // namespace

std::string DerivedId(const std::string& prefix, const std::string& fire_id) { return prefix + Sha256Hex(fire_id); }

std::string NewWorkflowRunId(const std::string& workflow) {
  std::random_device random;
  return DerivedId("wr_", fmt::format("{}/{}/{}", workflow, random(), random()));
}

std::string DerivedUuid(const std::string& fire_id) {
  const std::string h = Sha256Hex(fire_id);
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-4" + h.substr(13, 3) + "-8" + h.substr(17, 3) + "-" + h.substr(20, 12);
}

TriggerEngine::TriggerEngine(catalog::CatalogStore* store, catalog::JobStore* jobs, const Clock* clock,
                             Launcher launcher)
    : store_(store), jobs_(jobs), clock_(clock), launcher_(std::move(launcher)) {}

Status TriggerEngine::Tick() {
  std::lock_guard lock(mu_);
  EPOXY_ASSIGN_OR_RETURN(auto triggers, store_->ListObjects(kTriggerKind, ""));
  for (const auto& [name, trigger] : triggers) {
    Status st = TickTrigger(trigger);
    if (!st.ok()) EPOXY_LOG(kWarning, "trigger {}: {}", name, st.message());
  }
  // Crawlers with a Schedule of their own (CreateCrawler's Schedule) crawl on it, as a SCHEDULED
  // trigger would start them; their state is kept as "crawler:NAME".
  EPOXY_ASSIGN_OR_RETURN(auto crawlers, store_->GetCrawlers());
  for (const auto& c : crawlers) {
    const Json schedule = c.value("Schedule", Json::object());
    if (schedule.value("State", "") != "SCHEDULED" || schedule.value("ScheduleExpression", "").empty()) continue;
    const std::string name = c.value("Name", "");
    Json as_trigger = {{"Name", "crawler:" + name}, {"Type", "SCHEDULED"}, {"State", "ACTIVATED"},
                       {"Schedule", schedule["ScheduleExpression"]}, {"Actions", {{{"CrawlerName", name}}}}};
    auto state = store_->GetObject(kTriggerStateKind, "crawler:" + name);
    if (!state.ok() && state.status().code() == StatusCode::kNotFound) {
      // Its schedule counts from when the scheduler first saw it.
      EPOXY_RETURN_NOT_OK(store_->PutObject(kTriggerStateKind, "crawler:" + name, Json{{"ActivatedAt", clock_->Now()}}));
    }
    Status st = TickTrigger(as_trigger);
    if (!st.ok()) EPOXY_LOG(kWarning, "the schedule of crawler {}: {}", name, st.message());
  }
  // Workflow runs asked for by `epoxy workflow start`.
  EPOXY_ASSIGN_OR_RETURN(auto requests, store_->ListObjects(kWorkflowRequestKind, ""));
  for (const auto& [key, request] : requests) {
    auto started = StartWorkflowRun(request.value("Workflow", ""), request.value("RunProperties", Json::object()),
                                    DerivedId("wr_", "request/" + key));
    if (!started.ok() && started.status().code() != StatusCode::kAlreadyExists) {
      EPOXY_LOG(kWarning, "workflow run asked for at {}: {}", key, started.status().message());
      if (started.status().message().rfind("ConcurrentRunsExceededException", 0) == 0) continue;  // later
    }
    EPOXY_RETURN_NOT_OK(store_->DeleteObject(kWorkflowRequestKind, key));
  }
  EPOXY_ASSIGN_OR_RETURN(auto active, store_->ListObjects(kActiveWorkflowRunKind, ""));
  for (const auto& [key, marker] : active) {
    auto run = ObjectOr(store_, kWorkflowRunKind, key, Json());
    if (!run.ok()) return run.status();
    const std::string status = run->is_null() ? "" : run->value("Status", "");
    if (status != "RUNNING" && status != "STOPPING") {  // deleted, or a start that crashed half-way
      EPOXY_RETURN_NOT_OK(store_->DeleteObject(kActiveWorkflowRunKind, key));
      continue;
    }
    Status st = TickWorkflowRun(std::move(*run));
    if (!st.ok()) EPOXY_LOG(kWarning, "workflow run {}: {}", key, st.message());
  }
  return Status::OK();
}

Status TriggerEngine::TickTrigger(const Json& trigger) {
  const std::string name = trigger.value("Name", ""), type = trigger.value("Type", "");
  const std::string workflow = trigger.value("WorkflowName", "");
  const double now = clock_->Now();
  EPOXY_ASSIGN_OR_RETURN(Json state, ObjectOr(store_, kTriggerStateKind, name, Json::object()));
  if (type == "ON_DEMAND") {
    // Each request (StartTrigger) fires once; the count is recorded after the actions start,
    // whose ids come from it, so a crash in between repeats nothing.
    while (workflow.empty() && state.value("Fired", 0) < state.value("Requested", 0)) {
      const int64_t n = state.value("Fired", 0) + 1;
      EPOXY_RETURN_NOT_OK(FireActions(trigger, fmt::format("{}!{}", name, n), Json()));
      CrashPoint("trigger-fired");
      state["Fired"] = n;
      state["LastFire"] = {{"FiredAt", now}};
      EPOXY_RETURN_NOT_OK(store_->PutObject(kTriggerStateKind, name, state));
    }
    return Status::OK();
  }
  if (trigger.value("State", "") != "ACTIVATED") return Status::OK();
  if (type == "SCHEDULED") {
    EPOXY_ASSIGN_OR_RETURN(CronSchedule cron, CronSchedule::Parse(trigger.value("Schedule", "")));
    if (!state.contains("NextFire")) {
      auto next = cron.NextAfter(static_cast<int64_t>(state.value("ActivatedAt", now)));
      state["NextFire"] = next ? Json(*next) : Json();
      EPOXY_RETURN_NOT_OK(store_->PutObject(kTriggerStateKind, name, state));
    }
    if (state["NextFire"].is_null() || now < state["NextFire"].get<double>()) return Status::OK();
    const int64_t due = static_cast<int64_t>(state["NextFire"].get<double>());
    const std::string fire_id = fmt::format("{}@{}", name, due);
    if (!workflow.empty()) {
      auto run = StartWorkflowRun(workflow, Json::object(), DerivedId("wr_", fire_id));
      if (!run.ok() && run.status().code() != StatusCode::kAlreadyExists) return run.status();
    } else {
      EPOXY_RETURN_NOT_OK(FireActions(trigger, fire_id, Json()));
    }
    CrashPoint("trigger-fired");  // fired, not yet recorded: a restart must not fire it twice
    const double late = now - static_cast<double>(due);
    // Missed firings while the server was down collapse into this one: the next is after now.
    auto next = cron.NextAfter(static_cast<int64_t>(now));
    state["NextFire"] = next ? Json(*next) : Json();
    state["LastFire"] = {{"ScheduledFor", due}, {"FiredAt", now}, {"LateSeconds", late}};
    state["Fires"] = state.value("Fires", 0) + 1;
    if (late >= 60) {
      EPOXY_LOG(kWarning, "trigger {} fired {:.0f} s late: it was due at {} while no scheduler ran", name, late, due);
    }
    return store_->PutObject(kTriggerStateKind, name, state);
  }
  if (type == "EVENT") return TickEventTrigger(trigger, std::move(state));
  if (type != "CONDITIONAL" || !workflow.empty()) return Status::OK();  // workflow triggers fire per run
  const Json conditions = trigger.value("Predicate", Json::object()).value("Conditions", Json::array());
  const bool all = trigger.value("Predicate", Json::object()).value("Logical", "AND") == "AND";
  if (conditions.empty()) return Status::OK();
  const double since = state.value("ActivatedAt", now);
  Json watermarks = state.value("Watermarks", Json::array());
  while (watermarks.size() < conditions.size()) watermarks.push_back({{"At", since}, {"Id", ""}});
  // Each finished run or crawl is counted once: a condition consumes, in completion order, the
  // first event after its watermark that is in its state.
  for (int guard = 0; guard < 1000; ++guard) {
    std::vector<Json> matches(conditions.size());
    size_t matched = 0;
    for (size_t i = 0; i < conditions.size(); ++i) {
      EPOXY_ASSIGN_OR_RETURN(auto events, Events(conditions[i], since, ""));
      const double at = watermarks[i].value("At", since);
      const std::string id = watermarks[i].value("Id", "");
      const std::string wanted = conditions[i].contains("JobName") ? conditions[i].value("State", "SUCCEEDED")
                                                                    : conditions[i].value("CrawlState", "SUCCEEDED");
      for (const auto& e : events) {
        const double e_at = e["At"].get<double>();
        if (e_at < at || (e_at == at && e["Id"].get<std::string>() <= id)) continue;
        if (e["State"] == wanted) {
          matches[i] = e;
          ++matched;
          break;
        }
      }
    }
    std::vector<size_t> consumed;
    if (all && matched == conditions.size()) {
      for (size_t i = 0; i < conditions.size(); ++i) consumed.push_back(i);
    } else if (!all && matched > 0) {
      size_t first = conditions.size();
      for (size_t i = 0; i < conditions.size(); ++i) {
        if (!matches[i].is_null() && (first == conditions.size() || matches[i]["At"] < matches[first]["At"])) first = i;
      }
      consumed.push_back(first);
    }
    if (consumed.empty()) break;
    std::string fire_id = name + "#";
    for (size_t i : consumed) fire_id += matches[i]["Id"].get<std::string>() + ",";
    EPOXY_RETURN_NOT_OK(FireActions(trigger, fire_id, Json()));
    CrashPoint("trigger-fired");
    for (size_t i : consumed) watermarks[i] = {{"At", matches[i]["At"]}, {"Id", matches[i]["Id"]}};
    state["Watermarks"] = watermarks;
    state["LastFire"] = {{"FiredAt", now}, {"Events", fire_id.substr(name.size() + 1)}};
    state["Fires"] = state.value("Fires", 0) + 1;
    EPOXY_RETURN_NOT_OK(store_->PutObject(kTriggerStateKind, name, state));
  }
  return Status::OK();
}

Status TriggerEngine::TickEventTrigger(const Json& trigger, Json state) {
  const std::string name = trigger.value("Name", ""), workflow = trigger.value("WorkflowName", "");
  const std::string path = state.value("WatchPath", "");
  if (path.empty()) return Status::OK();
  const double now = clock_->Now();
  // Listing costs requests on S3: a prefix there is listed every 10 s, a local folder every second.
  const double every = path.rfind("s3://", 0) == 0 ? 10 : 1;
  const auto wall = std::chrono::steady_clock::now();
  auto last = last_listing_.find(name);
  bool changed = false;
  if (last == last_listing_.end() || wall - last->second >= std::chrono::duration<double>(every)) {
    last_listing_[name] = wall;
    EPOXY_ASSIGN_OR_RETURN(std::vector<std::string> objects, WatchedObjects(path));
    std::set<std::string> seen;
    for (const auto& s : state.value("Seen", Json::array())) seen.insert(s.get<std::string>());
    for (const auto& o : objects) {
      if (seen.count(o)) continue;
      state["Seen"].push_back(o);
      state["Pending"].push_back({{"Path", o}, {"FirstSeen", now}});
      changed = true;
    }
  }
  const Json batching = trigger.value("EventBatchingCondition", Json::object());
  const size_t size = static_cast<size_t>(std::max(1, batching.value("BatchSize", 1)));
  const double window = batching.value("BatchWindow", 900);
  // Full batches first; what is left fires once its oldest object has waited BatchWindow.
  while (!state["Pending"].empty()) {
    Json& pending = state["Pending"];
    const bool full = pending.size() >= size;
    if (!full && now - pending[0].value("FirstSeen", now) < window) break;
    Json batch = Json::array();
    for (size_t i = 0; i < size && i < pending.size(); ++i) batch.push_back(pending[i]["Path"]);
    const int64_t n = state.value("Fires", 0) + 1;
    const std::string fire_id = fmt::format("{}~{}", name, n);
    if (!workflow.empty()) {
      Json properties = {{"EVENT_OBJECTS", batch.dump()}};
      auto run = StartWorkflowRun(workflow, properties, DerivedId("wr_", fire_id));
      if (!run.ok() && run.status().code() != StatusCode::kAlreadyExists) return run.status();
    } else {
      Json with_objects = trigger;
      for (auto& action : with_objects["Actions"]) {
        if (action.contains("JobName")) action["Arguments"]["--EVENT_OBJECTS"] = batch.dump();
      }
      // A job at its MaxConcurrentRuns: the batch waits (and may grow) until the next look.
      bool refused = false;
      EPOXY_RETURN_NOT_OK(FireActions(with_objects, fire_id, Json(), &refused));
      if (refused) break;
    }
    EPOXY_LOG(kInfo, "trigger {} fired on {} object(s){}: {}", name, batch.size(), full ? "" : " (its window ended)",
              batch.dump());
    CrashPoint("trigger-fired");
    pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(batch.size()));
    state["Fires"] = n;
    state["LastFire"] = {{"FiredAt", now}, {"Objects", batch.size()}, {"Reason", full ? "BatchSize" : "BatchWindow"}};
    changed = true;
  }
  return changed ? store_->PutObject(kTriggerStateKind, name, state) : Status::OK();
}

Result<std::vector<Json>> TriggerEngine::Events(const Json& condition, double since,
                                                const std::string& workflow_run_id) {
  std::vector<Json> events;
  if (condition.contains("JobName")) {
    auto runs = jobs_->GetRuns(condition.value("JobName", ""), 1000);
    if (!runs.ok()) return runs.status().code() == StatusCode::kNotFound ? events : Result<std::vector<Json>>(runs.status());
    for (const auto& r : *runs) {
      const std::string state = r.run.value("JobRunState", "");
      const double at = r.run.value("CompletedOn", 0.0);
      if (!jobs::IsFinalState(state) || at < since) continue;
      if (r.run.value("Arguments", Json::object()).value("--WORKFLOW_RUN_ID", "") != workflow_run_id) continue;
      events.push_back({{"Id", r.run.value("Id", "")}, {"At", at}, {"State", state}});
    }
  } else if (condition.contains("CrawlerName")) {
    auto crawls = store_->GetCrawlHistory(condition.value("CrawlerName", ""), 1000);
    if (!crawls.ok()) {
      return crawls.status().code() == StatusCode::kNotFound ? events : Result<std::vector<Json>>(crawls.status());
    }
    for (const auto& c : *crawls) {
      const double at = c.value("EndTime", 0.0);
      if (CrawlState(c) == "RUNNING" || at < since) continue;
      if (c.value("WorkflowRunId", "") != workflow_run_id) continue;
      events.push_back({{"Id", c.value("CrawlId", "")}, {"At", at}, {"State", CrawlState(c)}});
    }
  }
  std::sort(events.begin(), events.end(), [](const Json& a, const Json& b) {
    return a["At"] != b["At"] ? a["At"] < b["At"] : a["Id"] < b["Id"];
  });
  return events;
}

Status TriggerEngine::FireActions(const Json& trigger, const std::string& fire_id, const Json& workflow_run,
                                  bool* refused_for_concurrency) {
  const std::string name = trigger.value("Name", "");
  const Json actions = trigger.value("Actions", Json::array());
  for (size_t i = 0; i < actions.size(); ++i) {
    const Json& action = actions[i];
    const std::string action_id = fmt::format("{}/{}", fire_id, i);
    Status st;
    if (action.contains("JobName")) {
      Json arguments = action.value("Arguments", Json::object());
      if (!workflow_run.is_null()) {
        arguments["--WORKFLOW_NAME"] = workflow_run.value("Name", "");
        arguments["--WORKFLOW_RUN_ID"] = workflow_run.value("WorkflowRunId", "");
      }
      st = launcher_.start_job(action.value("JobName", ""), DerivedId("jr_", action_id), arguments, name);
    } else if (action.contains("CrawlerName")) {
      Json extra = Json::object();
      if (!workflow_run.is_null()) extra["WorkflowRunId"] = workflow_run.value("WorkflowRunId", "");
      st = launcher_.start_crawl(action.value("CrawlerName", ""), DerivedUuid(action_id), extra);
    }
    if (refused_for_concurrency != nullptr && st.message().rfind("ConcurrentRunsExceededException", 0) == 0) {
      *refused_for_concurrency = true;
      continue;
    }
    // Started before a crash, or a crawler that is running already: nothing more to do.
    if (!st.ok() && st.code() != StatusCode::kAlreadyExists) {
      EPOXY_LOG(kWarning, "trigger {} could not start action {}: {}", name, i, st.message());
    }
  }
  EPOXY_LOG(kInfo, "trigger {} fired ({})", name, fire_id);
  return Status::OK();
}

Status TriggerEngine::FireOnDemand(const std::string& name) {
  std::lock_guard lock(mu_);
  EPOXY_RETURN_NOT_OK(RequestFiring(*store_, name));
  EPOXY_ASSIGN_OR_RETURN(Json trigger, store_->GetObject(kTriggerKind, name));
  return TickTrigger(trigger);
}

Result<std::vector<Json>> TriggerEngine::TriggersOf(const std::string& workflow) {
  EPOXY_ASSIGN_OR_RETURN(auto all, store_->ListObjects(kTriggerKind, ""));
  std::vector<Json> out;
  for (auto& [name, t] : all) {
    if (t.value("WorkflowName", "") == workflow) out.push_back(std::move(t));
  }
  return out;
}

Result<std::string> TriggerEngine::StartWorkflowRun(const std::string& workflow, const Json& properties,
                                                    const std::string& given_id) {
  std::lock_guard lock(mu_);
  EPOXY_ASSIGN_OR_RETURN(Json definition, store_->GetObject(kWorkflowKind, workflow));
  const std::string run_id = given_id.empty() ? NewWorkflowRunId(workflow) : given_id;
  if (store_->GetObject(kWorkflowRunKind, workflow + "/" + run_id).ok()) {
    return Status::AlreadyExists("workflow run {} exists", run_id);
  }
  // The runs in progress are the active ones: no need to read every run ever made.
  EPOXY_ASSIGN_OR_RETURN(auto active, store_->ListObjects(kActiveWorkflowRunKind, workflow + "/"));
  const size_t running = active.size();
  if (definition.contains("MaxConcurrentRuns") && definition["MaxConcurrentRuns"].is_number_integer() &&
      running >= definition["MaxConcurrentRuns"].get<size_t>()) {
    return Status::AlreadyExists("ConcurrentRunsExceededException: workflow {} already has {} run(s) running",
                                 workflow, running);
  }
  Json merged = definition.value("DefaultRunProperties", Json::object());
  for (const auto& [k, v] : properties.items()) merged[k] = v;
  Json run = {{"Name", workflow}, {"WorkflowRunId", run_id}, {"WorkflowRunProperties", merged},
              {"StartedOn", clock_->Now()}, {"Status", "RUNNING"}, {"Fired", Json::array()}};
  EPOXY_RETURN_NOT_OK(store_->PutObject(kActiveWorkflowRunKind, workflow + "/" + run_id, Json::object()));
  EPOXY_RETURN_NOT_OK(store_->PutObject(kWorkflowRunKind, workflow + "/" + run_id, run));
  // Its start triggers: those that watch nothing.
  EPOXY_ASSIGN_OR_RETURN(auto triggers, TriggersOf(workflow));
  for (const auto& t : triggers) {
    if (t.value("Type", "") == "CONDITIONAL") continue;
    run["Fired"].push_back(t.value("Name", ""));
    EPOXY_RETURN_NOT_OK(FireActions(t, run_id + "/" + t.value("Name", ""), run));
  }
  EPOXY_RETURN_NOT_OK(store_->PutObject(kWorkflowRunKind, workflow + "/" + run_id, run));
  return run_id;
}

Result<std::string> TriggerEngine::ResumeWorkflowRun(const std::string& workflow, const std::string& previous_id,
                                                     const std::vector<std::string>& node_ids) {
  std::lock_guard lock(mu_);
  EPOXY_ASSIGN_OR_RETURN(Json previous, store_->GetObject(kWorkflowRunKind, workflow + "/" + previous_id));
  const std::string status = previous.value("Status", "");
  if (status == "RUNNING" || status == "STOPPING") {
    return Status::InvalidInput("IllegalWorkflowStateException: workflow run {} is {}; only a finished run resumes",
                                previous_id, status);
  }
  if (node_ids.empty()) return Status::InvalidInput("NodeIds names no node to run again");
  EPOXY_ASSIGN_OR_RETURN(Json graph, Graph(workflow, ""));
  std::vector<Json> nodes;
  for (const auto& id : node_ids) {
    const auto& all = graph["Nodes"];
    auto it = std::find_if(all.begin(), all.end(), [&](const Json& n) { return n.value("UniqueId", "") == id; });
    if (it == all.end() || (*it)["Type"] == "TRIGGER") {
      return Status::InvalidInput("NodeId {} is not a job or crawler node of workflow {}", id, workflow);
    }
    nodes.push_back(*it);
  }
  const std::string run_id = NewWorkflowRunId(workflow);
  // Every start trigger counts as fired: only the chosen nodes and what follows them run.
  Json fired = Json::array();
  EPOXY_ASSIGN_OR_RETURN(auto triggers, TriggersOf(workflow));
  for (const auto& t : triggers) {
    if (t.value("Type", "") != "CONDITIONAL") fired.push_back(t.value("Name", ""));
  }
  Json run = {{"Name", workflow}, {"WorkflowRunId", run_id}, {"PreviousRunId", previous_id},
              {"WorkflowRunProperties", previous.value("WorkflowRunProperties", Json::object())},
              {"StartedOn", clock_->Now()}, {"Status", "RUNNING"}, {"Fired", fired}};
  EPOXY_RETURN_NOT_OK(store_->PutObject(kActiveWorkflowRunKind, workflow + "/" + run_id, Json::object()));
  EPOXY_RETURN_NOT_OK(store_->PutObject(kWorkflowRunKind, workflow + "/" + run_id, run));
  Json actions = Json::array();
  for (const auto& n : nodes) {
    actions.push_back(n["Type"] == "JOB" ? Json{{"JobName", n["Name"]}} : Json{{"CrawlerName", n["Name"]}});
  }
  EPOXY_RETURN_NOT_OK(FireActions(Json{{"Name", "resume"}, {"Actions", actions}}, run_id + "/resume", run));
  return run_id;
}

Status TriggerEngine::TickWorkflowRun(Json run) {
  const std::string workflow = run.value("Name", ""), id = run.value("WorkflowRunId", "");
  EPOXY_ASSIGN_OR_RETURN(auto triggers, TriggersOf(workflow));
  // Every job and crawler of the graph, and what this run started of them.
  std::set<std::string> job_names, crawler_names;
  for (const auto& t : triggers) {
    for (const auto& a : t.value("Actions", Json::array())) {
      if (a.contains("JobName")) job_names.insert(a.value("JobName", ""));
      if (a.contains("CrawlerName")) crawler_names.insert(a.value("CrawlerName", ""));
    }
  }
  Json stats = {{"TotalActions", 0}, {"TimeoutActions", 0}, {"FailedActions", 0}, {"StoppedActions", 0},
                {"SucceededActions", 0}, {"RunningActions", 0}, {"ErroredActions", 0}, {"WaitingActions", 0}};
  int running = 0;
  auto count = [&](const std::string& state) {
    stats["TotalActions"] = stats["TotalActions"].get<int>() + 1;
    const char* key = state == "SUCCEEDED"   ? "SucceededActions"
                      : state == "FAILED"    ? "FailedActions"
                      : state == "STOPPED" || state == "CANCELLED" ? "StoppedActions"
                      : state == "TIMEOUT"   ? "TimeoutActions"
                      : state == "ERROR"     ? "ErroredActions"
                                             : "RunningActions";
    stats[key] = stats[key].get<int>() + 1;
  };
  const bool stopping = run.value("Status", "") == "STOPPING";
  for (const auto& job : job_names) {
    auto runs = jobs_->GetRuns(job, 1000);
    if (!runs.ok()) continue;
    for (const auto& r : *runs) {
      if (r.run.value("Arguments", Json::object()).value("--WORKFLOW_RUN_ID", "") != id) continue;
      const std::string state = r.run.value("JobRunState", "");
      count(state);
      if (!jobs::IsFinalState(state)) {
        ++running;
        if (stopping && state != "STOPPING") (void)jobs::StopRun(*jobs_, r.run.value("Id", ""));
      }
    }
  }
  for (const auto& crawler : crawler_names) {
    auto crawls = store_->GetCrawlHistory(crawler, 1000);
    if (!crawls.ok()) continue;
    for (const auto& c : *crawls) {
      if (c.value("WorkflowRunId", "") != id) continue;
      count(CrawlState(c));
      if (CrawlState(c) == "RUNNING") {
        ++running;
        if (stopping) (void)store_->StopCrawl(crawler);
      }
    }
  }
  bool fired = false;
  if (!stopping) {
    // Conditional triggers fire once per workflow run, on events of this run.
    for (const auto& t : triggers) {
      const std::string name = t.value("Name", "");
      if (t.value("Type", "") != "CONDITIONAL" || t.value("State", "") == "DEACTIVATED") continue;
      const Json fired_list = run.value("Fired", Json::array());
      if (std::find(fired_list.begin(), fired_list.end(), Json(name)) != fired_list.end()) continue;
      const Json predicate = t.value("Predicate", Json::object());
      const Json conditions = predicate.value("Conditions", Json::array());
      if (conditions.empty()) continue;
      size_t matched = 0;
      for (const auto& condition : conditions) {
        EPOXY_ASSIGN_OR_RETURN(auto events, Events(condition, 0, id));
        const std::string wanted = condition.contains("JobName") ? condition.value("State", "SUCCEEDED")
                                                                 : condition.value("CrawlState", "SUCCEEDED");
        matched += std::any_of(events.begin(), events.end(), [&](const Json& e) { return e["State"] == wanted; });
      }
      const bool holds = predicate.value("Logical", "AND") == "AND" ? matched == conditions.size() : matched > 0;
      if (!holds) continue;
      run["Fired"].push_back(name);
      // Recorded before the actions start: their ids come from (run, trigger), so a restart that
      // fires them again finds them started.
      EPOXY_RETURN_NOT_OK(store_->PutObject(kWorkflowRunKind, workflow + "/" + id, run));
      EPOXY_RETURN_NOT_OK(FireActions(t, id + "/" + name, run));
      fired = true;
    }
  }
  run["Statistics"] = stats;
  const bool done = !fired && running == 0;
  if (done) {
    run["Status"] = stopping ? "STOPPED" : "COMPLETED";
    run["CompletedOn"] = clock_->Now();
  }
  EPOXY_RETURN_NOT_OK(store_->PutObject(kWorkflowRunKind, workflow + "/" + id, run));
  return done ? store_->DeleteObject(kActiveWorkflowRunKind, workflow + "/" + id) : Status::OK();
}

Result<Json> TriggerEngine::Graph(const std::string& workflow, const std::string& workflow_run_id) {
  EPOXY_ASSIGN_OR_RETURN(auto triggers, TriggersOf(workflow));
  Json nodes = Json::array(), edges = Json::array();
  std::set<std::string> seen;
  auto node_id = [](const std::string& type, const std::string& name) { return DerivedId("wnode_", type + "/" + name); };
  auto add_node = [&](const std::string& type, const std::string& name) -> Status {
    const std::string uid = node_id(type, name);
    if (!seen.insert(uid).second) return Status::OK();
    Json node = {{"Type", type}, {"Name", name}, {"UniqueId", uid}};
    if (type == "JOB") {
      Json list = Json::array();
      if (!workflow_run_id.empty()) {
        auto runs = jobs_->GetRuns(name, 1000);
        if (runs.ok()) {
          for (const auto& r : *runs) {
            if (r.run.value("Arguments", Json::object()).value("--WORKFLOW_RUN_ID", "") == workflow_run_id) {
              list.push_back(r.run);
            }
          }
        }
      }
      node["JobDetails"] = {{"JobRuns", list}};
    } else if (type == "CRAWLER") {
      Json list = Json::array();
      if (!workflow_run_id.empty()) {
        auto crawls = store_->GetCrawlHistory(name, 1000);
        if (crawls.ok()) {
          for (const auto& c : *crawls) {
            if (c.value("WorkflowRunId", "") != workflow_run_id) continue;
            const std::string s = CrawlState(c);
            Json crawl = {{"State", s == "CANCELLED" ? "CANCELLED" : s}, {"StartedOn", c.value("StartTime", 0.0)}};
            if (c.contains("EndTime")) crawl["CompletedOn"] = c["EndTime"];
            if (c.contains("ErrorMessage")) crawl["ErrorMessage"] = c["ErrorMessage"];
            list.push_back(crawl);
          }
        }
      }
      node["CrawlerDetails"] = {{"Crawls", list}};
    }
    nodes.push_back(std::move(node));
    return Status::OK();
  };
  for (const auto& t : triggers) {
    const std::string name = t.value("Name", "");
    EPOXY_RETURN_NOT_OK(add_node("TRIGGER", name));
    nodes.back()["TriggerDetails"] = {{"Trigger", t}};
    for (const auto& a : t.value("Actions", Json::array())) {
      const std::string type = a.contains("JobName") ? "JOB" : "CRAWLER";
      const std::string target = a.value(a.contains("JobName") ? "JobName" : "CrawlerName", "");
      EPOXY_RETURN_NOT_OK(add_node(type, target));
      edges.push_back({{"SourceId", node_id("TRIGGER", name)}, {"DestinationId", node_id(type, target)}});
    }
    for (const auto& c : t.value("Predicate", Json::object()).value("Conditions", Json::array())) {
      const std::string type = c.contains("JobName") ? "JOB" : "CRAWLER";
      const std::string source = c.value(c.contains("JobName") ? "JobName" : "CrawlerName", "");
      EPOXY_RETURN_NOT_OK(add_node(type, source));
      edges.push_back({{"SourceId", node_id(type, source)}, {"DestinationId", node_id("TRIGGER", name)}});
    }
  }
  return Json{{"Nodes", std::move(nodes)}, {"Edges", std::move(edges)}};
}

}  // namespace epoxy::scheduler
