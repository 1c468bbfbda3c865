// SPDX-License-Identifier: Apache-2.0
#include "epoxy/cli/trigger_command.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "epoxy/api/background_work.h"
#include "epoxy/cli/read_session.h"
#include "epoxy/scheduler/clock.h"
#include "epoxy/scheduler/trigger_definition.h"
#include "epoxy/scheduler/trigger_engine.h"
#include "epoxy/types/value_text.h"

namespace epoxy::cli {
namespace {

using catalog::Json;
namespace sch = epoxy::scheduler;

Result<Json> JsonArgument(const std::string& text, const char* what) {
  if (text.empty()) return Json::object();
  return ParseJsonArgument(text, what);
}

Status NeedName(const std::string& name, const char* what, const std::string& action) {
  if (name.empty()) return Status::InvalidInput("epoxy {} {} needs a NAME", what, action);
  return Status::OK();
}

/// A scheduler with a launcher: used by `epoxy scheduler` (and to draw graphs, which start nothing).
struct SchedulerParts {
  std::unique_ptr<catalog::JobStore> jobs;
  std::unique_ptr<api::BackgroundWork> background;
  sch::SystemClock clock;
  std::unique_ptr<sch::TriggerEngine> engine;
};

Result<std::unique_ptr<SchedulerParts>> MakeScheduler(bool with_workers) {
  auto parts = std::make_unique<SchedulerParts>();
  EPOXY_ASSIGN_OR_RETURN(parts->jobs, catalog::JobStore::Open(""));
  sch::Launcher launcher;
  if (with_workers) {
    EPOXY_ASSIGN_OR_RETURN(std::string path, catalog::CatalogFilePath(""));
    std::error_code ec;
    const std::string binary = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec) return Status::IOError("cannot find the epoxy binary: {}", ec.message());
    parts->background = std::make_unique<api::BackgroundWork>(&parts->jobs->catalog(), parts->jobs.get(), path, binary);
    auto* background = parts->background.get();
    launcher.start_job = [background](const std::string& job, const std::string& run_id, const Json& arguments,
                                      const std::string& trigger) {
      return background->StartJobRun(job, run_id, arguments, trigger);
    };
    launcher.start_crawl = [background](const std::string& crawler, const std::string& crawl_id, const Json& extra) {
      return background->StartCrawl(crawler, crawl_id, extra);
    };
  }
  parts->engine = std::make_unique<sch::TriggerEngine>(&parts->jobs->catalog(), parts->jobs.get(), &parts->clock,
                                                       std::move(launcher));
  return parts;
}

std::string TriggerLine(const Json& t) {
  std::string what;
  if (t.value("Type", "") == "SCHEDULED") what = t.value("Schedule", "");
  if (t.value("Type", "") == "CONDITIONAL") {
    const Json p = t.value("Predicate", Json::object());
    for (const auto& c : p.value("Conditions", Json::array())) {
      what += (what.empty() ? "" : " " + p.value("Logical", "AND") + " ") +
              (c.contains("JobName") ? "job " + c.value("JobName", "") + " " + c.value("State", "")
                                     : "crawler " + c.value("CrawlerName", "") + " " + c.value("CrawlState", ""));
    }
  }
  std::string actions;
  for (const auto& a : t.value("Actions", Json::array())) {
    actions += (actions.empty() ? "" : ", ") +
               (a.contains("JobName") ? "job " + a.value("JobName", "") : "crawler " + a.value("CrawlerName", ""));
  }
  return fmt::format("{}  {}  {}{}  -> {}{}\n", t.value("Name", ""), t.value("Type", ""), t.value("State", ""),
                     what.empty() ? "" : "  " + what, actions,
                     t.value("WorkflowName", "").empty() ? "" : "  (workflow " + t.value("WorkflowName", "") + ")");
}

}  // namespace

Result<int> RunTriggerCommand(const TriggerArgs& a) {
  EPOXY_ASSIGN_OR_RETURN(auto jobs, catalog::JobStore::Open(""));
  catalog::CatalogStore& store = jobs->catalog();
  if (a.action == "list") {
    EPOXY_ASSIGN_OR_RETURN(auto all, store.ListObjects(sch::kTriggerKind, ""));
    Json list = Json::array();
    for (const auto& [name, t] : all) list.push_back(t);
    if (a.json) return WriteStdout(Json{{"Triggers", list}}.dump(2) + "\n").ok() ? 0 : 1;
    for (const auto& t : list) EPOXY_RETURN_NOT_OK(WriteStdout(TriggerLine(t)));
    return 0;
  }
  EPOXY_RETURN_NOT_OK(NeedName(a.name, "trigger", a.action));
  auto existing = store.GetObject(sch::kTriggerKind, a.name);
  if (a.action == "create") {
    if (existing.ok()) return Status::AlreadyExists("AlreadyExistsException: trigger {} exists", a.name);
    EPOXY_ASSIGN_OR_RETURN(Json input, JsonArgument(a.definition, "--definition"));
    input["Name"] = a.name;
    EPOXY_ASSIGN_OR_RETURN(Json trigger, sch::TriggerFromInput(input, nullptr, *jobs));
    const std::string watch = input.value("Tags", Json::object()).value(sch::kWatchPathTag, "");
    if (trigger.value("Type", "") == "EVENT" && watch.empty()) {
      return Status::InvalidInput("an EVENT trigger needs Tags {{\"{}\": PATH}} in its definition", sch::kWatchPathTag);
    }
    EPOXY_RETURN_NOT_OK(store.PutObject(sch::kTriggerKind, a.name, trigger));
    if (input.value("StartOnCreation", false)) {
      EPOXY_RETURN_NOT_OK(sch::ActivateTrigger(store, trigger, sch::SystemClock().Now(), watch));
    }
    if (!watch.empty()) {
      // Kept with the trigger's state too, so `start` finds it without the API's tags.
      auto state = store.GetObject(sch::kTriggerStateKind, a.name);
      Json doc = state.ok() ? *state : Json::object();
      doc["WatchPath"] = watch;
      EPOXY_RETURN_NOT_OK(store.PutObject(sch::kTriggerStateKind, a.name, doc));
    }
    const bool active = input.value("StartOnCreation", false);
    return WriteStdout(fmt::format("trigger {} created ({})\n", a.name, active ? "ACTIVATED" : "CREATED")).ok() ? 0 : 1;
  }
  if (!existing.ok()) {
    if (a.action == "delete" && existing.status().code() == StatusCode::kNotFound) return 0;
    return catalog::WithGlueErrorName(existing.status());
  }
  Json trigger = *existing;
  if (a.action == "show") {
    auto state = store.GetObject(sch::kTriggerStateKind, a.name);
    Json out = {{"Trigger", trigger}};
    if (state.ok()) {
      Json s = *state;
      s.erase("Seen");  // every object an EVENT trigger has seen: long, and not news
      out["Scheduler"] = s;
    }
    return WriteStdout(a.json ? out.dump(2) + "\n" : TriggerLine(trigger) + (out.contains("Scheduler") ?
                           "  " + out["Scheduler"].dump() + "\n" : "")).ok() ? 0 : 1;
  }
  if (a.action == "start") {
    if (trigger.value("Type", "") == "ON_DEMAND") {
      EPOXY_RETURN_NOT_OK(sch::RequestFiring(store, a.name));
      return WriteStdout(fmt::format("trigger {}: a firing is asked for; the scheduler (epoxy serve or epoxy "
                                     "scheduler) fires it within a second\n", a.name)).ok() ? 0 : 1;
    }
    auto state = store.GetObject(sch::kTriggerStateKind, a.name);
    const std::string watch = state.ok() ? state->value("WatchPath", "") : "";
    EPOXY_RETURN_NOT_OK(sch::ActivateTrigger(store, trigger, sch::SystemClock().Now(), watch));
    return WriteStdout(fmt::format("trigger {} ACTIVATED\n", a.name)).ok() ? 0 : 1;
  }
  if (a.action == "stop") {
    EPOXY_RETURN_NOT_OK(sch::DeactivateTrigger(store, trigger));
    return WriteStdout(fmt::format("trigger {} DEACTIVATED\n", a.name)).ok() ? 0 : 1;
  }
  if (a.action == "delete") {
    EPOXY_RETURN_NOT_OK(sch::DeleteTrigger(store, a.name));
    return 0;
  }
  return Status::InvalidInput("unknown trigger action '{}' (create, show, list, start, stop, delete)", a.action);
}

namespace {

/// The last state of a graph node: its newest job run's or crawl's.
std::string NodeState(const Json& node) {
  if (node.value("Type", "") == "JOB") {
    const Json runs = node.value("JobDetails", Json::object()).value("JobRuns", Json::array());
    return runs.empty() ? "not run" : runs.front().value("JobRunState", "");
  }
  if (node.value("Type", "") == "CRAWLER") {
    const Json crawls = node.value("CrawlerDetails", Json::object()).value("Crawls", Json::array());
    return crawls.empty() ? "not run" : crawls.front().value("State", "");
  }
  const Json t = node.value("TriggerDetails", Json::object()).value("Trigger", Json::object());
  return t.value("Type", "") + (t.value("Type", "") == "SCHEDULED" ? " " + t.value("Schedule", "") : "");
}

/// The graph as a tree on a terminal: from each node nothing points to, down its edges.
std::string DrawGraph(const Json& graph) {
  std::map<std::string, Json> nodes;
  std::map<std::string, std::vector<std::string>> out;
  std::set<std::string> pointed;
  for (const auto& n : graph.value("Nodes", Json::array())) nodes[n.value("UniqueId", "")] = n;
  for (const auto& e : graph.value("Edges", Json::array())) {
    out[e.value("SourceId", "")].push_back(e.value("DestinationId", ""));
    pointed.insert(e.value("DestinationId", ""));
  }
  std::string text;
  std::set<std::string> drawn;
  std::function<void(const std::string&, int)> draw = [&](const std::string& id, int depth) {
    const Json& n = nodes[id];
    const std::string type = n.value("Type", "");
    const char* kind = type == "TRIGGER" ? "trigger" : type == "JOB" ? "job" : "crawler";
    text += fmt::format("{}{}[{} {}] {}{}\n", std::string(static_cast<size_t>(depth) * 4, ' '), depth ? "-> " : "",
                        kind, n.value("Name", ""), NodeState(n), drawn.count(id) ? " (above)" : "");
    if (!drawn.insert(id).second) return;
    for (const auto& next : out[id]) draw(next, depth + 1);
  };
  for (const auto& [id, n] : nodes) {
    if (!pointed.count(id)) draw(id, 0);
  }
  return text;
}

}  // namespace

Result<int> RunWorkflowCommand(const WorkflowArgs& a) {
  EPOXY_ASSIGN_OR_RETURN(auto parts, MakeScheduler(false));
  catalog::CatalogStore& store = parts->jobs->catalog();
  if (a.action == "list") {
    EPOXY_ASSIGN_OR_RETURN(auto all, store.ListObjects(sch::kWorkflowKind, ""));
    for (const auto& [name, w] : all) EPOXY_RETURN_NOT_OK(WriteStdout(name + "\n"));
    return 0;
  }
  EPOXY_RETURN_NOT_OK(NeedName(a.name, "workflow", a.action));
  auto existing = store.GetObject(sch::kWorkflowKind, a.name);
  const double now = parts->clock.Now();
  if (a.action == "create") {
    if (existing.ok()) return Status::AlreadyExists("AlreadyExistsException: workflow {} exists", a.name);
    EPOXY_ASSIGN_OR_RETURN(Json input, JsonArgument(a.definition, "--definition"));
    EPOXY_ASSIGN_OR_RETURN(Json workflow, sch::WorkflowFromInput(a.name, input, nullptr, now));
    EPOXY_RETURN_NOT_OK(store.PutObject(sch::kWorkflowKind, a.name, workflow));
    return 0;
  }
  if (!existing.ok()) {
    if (a.action == "delete" && existing.status().code() == StatusCode::kNotFound) return 0;
    return catalog::WithGlueErrorName(existing.status());
  }
  if (a.action == "show") {
    EPOXY_ASSIGN_OR_RETURN(auto runs, store.ListObjects(sch::kWorkflowRunKind, a.name + "/"));
    Json last;
    for (const auto& [key, r] : runs) {
      if (last.is_null() || r.value("StartedOn", 0.0) > last.value("StartedOn", 0.0)) last = r;
    }
    EPOXY_ASSIGN_OR_RETURN(Json graph, parts->engine->Graph(a.name, last.is_null() ? "" : last.value("WorkflowRunId", "")));
    if (a.json) return WriteStdout(Json{{"Workflow", *existing}, {"LastRun", last}, {"Graph", graph}}.dump(2) + "\n").ok() ? 0 : 1;
    std::string head = fmt::format("workflow {}", a.name);
    if (!last.is_null()) {
      head += fmt::format(" (last run {} {}, started {})", last.value("WorkflowRunId", ""), last.value("Status", ""),
                          FormatTimestamp(static_cast<int64_t>(last.value("StartedOn", 0.0) * 1e6)));
    }
    return WriteStdout(head + "\n" + DrawGraph(graph)).ok() ? 0 : 1;
  }
  if (a.action == "start") {
    EPOXY_ASSIGN_OR_RETURN(Json properties, JsonArgument(a.definition, "--definition"));
    EPOXY_RETURN_NOT_OK(sch::RequestWorkflowRun(store, a.name, properties, now));
    return WriteStdout(fmt::format("workflow {}: a run is asked for; the scheduler (epoxy serve or epoxy scheduler) "
                                   "starts it within a second\n", a.name)).ok() ? 0 : 1;
  }
  if (a.action == "stop") {
    if (a.run_id.empty()) return Status::InvalidInput("epoxy workflow stop NAME RUN_ID");
    EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(sch::StopWorkflowRun(store, a.name, a.run_id)));
    return 0;
  }
  if (a.action == "delete") {
    EPOXY_RETURN_NOT_OK(sch::DeleteWorkflow(store, a.name));
    return 0;
  }
  return Status::InvalidInput("unknown workflow action '{}' (create, show, list, start, stop, delete)", a.action);
}

Result<int> RunScheduler() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  EPOXY_ASSIGN_OR_RETURN(auto parts, MakeScheduler(true));
  EPOXY_RETURN_NOT_OK(parts->background->Recover());
  std::printf("epoxy scheduler: running (SIGINT or SIGTERM stops it)\n");
  std::fflush(stdout);
  while (true) {
    if (Status st = parts->engine->Tick(); !st.ok()) std::fprintf(stderr, "epoxy scheduler: %s\n", st.message().c_str());
    timespec second{1, 0};
    if (sigtimedwait(&signals, nullptr, &second) > 0) break;
  }
  return 0;
}

}  // namespace epoxy::cli
