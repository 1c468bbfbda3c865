// SPDX-License-Identifier: Apache-2.0
// Jobs, runs and bookmarks from the command line, in the shapes of Glue's API responses.
#include "epoxy/cli/job_command.h"

#include <signal.h>

#include <filesystem>
#include <fstream>

#include "epoxy/catalog/job_store.h"
#include "epoxy/cli/read_command.h"
#include "epoxy/cli/read_session.h"
#include "epoxy/jobs/bookmark_entry.h"
#include "epoxy/jobs/job_definition.h"
#include "epoxy/jobs/run_lifecycle.h"
#include "epoxy/jobs/run_process.h"
#include "epoxy/types/value_text.h"

namespace epoxy::cli {

using catalog::Json;

namespace {


/// The job input from the flags, over `base` (the stored job for update, a definition, or {}).
Result<Json> JobInputFromArgs(const JobArgs& a, Json base) {
  base["Name"] = a.name;
  if (!a.role.empty()) base["Role"] = a.role;
  if (!base.contains("Role")) base["Role"] = "epoxy-local";
  if (!a.script.empty() || !a.command_name.empty()) {
    Json command = base.value("Command", Json::object());
    if (!a.script.empty()) {
      std::error_code ec;
      command["ScriptLocation"] = std::filesystem::absolute(a.script, ec).string();
    }
    command["Name"] = a.command_name.empty() ? command.value("Name", "glueetl") : a.command_name;
    base["Command"] = command;
  }
  if (!a.glue_version.empty()) base["GlueVersion"] = a.glue_version;
  if (!a.worker_type.empty()) base["WorkerType"] = a.worker_type;
  if (a.number_of_workers > 0) base["NumberOfWorkers"] = a.number_of_workers;
  if (a.max_concurrent_runs > 0) base["ExecutionProperty"] = {{"MaxConcurrentRuns", a.max_concurrent_runs}};
  if (a.max_retries >= 0) base["MaxRetries"] = a.max_retries;
  if (a.timeout > 0) base["Timeout"] = a.timeout;
  if (!a.default_arguments.empty()) {
    EPOXY_ASSIGN_OR_RETURN(base["DefaultArguments"], ParseJsonArgument(a.default_arguments, "--default-arguments"));
  }
  if (!a.non_overridable_arguments.empty()) {
    EPOXY_ASSIGN_OR_RETURN(base["NonOverridableArguments"],
                           ParseJsonArgument(a.non_overridable_arguments, "--non-overridable-arguments"));
  }
  if (!a.tags.empty()) {
    EPOXY_ASSIGN_OR_RETURN(base["Tags"], ParseJsonArgument(a.tags, "--tags"));
  }
  return base;
}

std::string Time(double seconds) { return FormatTimestamp(static_cast<int64_t>(seconds * 1e6)); }

Status Print(const std::string& text) { return WriteStdout(text); }

}  // namespace

Result<int> RunJobCommand(const JobArgs& a) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::JobStore::Open(""));
  if (a.action == "list") {
    EPOXY_ASSIGN_OR_RETURN(auto jobs, store->GetJobs());
    if (a.json) {
      EPOXY_RETURN_NOT_OK(Print(Json{{"Jobs", jobs}}.dump(2) + "\n"));
      return 0;
    }
    for (const auto& j : jobs) {
      EPOXY_RETURN_NOT_OK(Print(fmt::format("{}  {}  {}\n", j.value("Name", ""), j["Command"].value("Name", ""),
                                            j["Command"].value("ScriptLocation", ""))));
    }
    return 0;
  }
  if (a.name.empty()) return Status::InvalidInput("epoxy job {} needs a job NAME", a.action);
  if (a.action == "create") {
    Json base = Json::object();
    if (!a.definition.empty()) {
      EPOXY_ASSIGN_OR_RETURN(base, ParseJsonArgument(a.definition, "--definition"));
    }
    EPOXY_ASSIGN_OR_RETURN(Json input, JobInputFromArgs(a, base));
    EPOXY_ASSIGN_OR_RETURN(Json job, jobs::JobFromInput(input));
    EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(store->CreateJob(job)));
    EPOXY_RETURN_NOT_OK(Print(Json{{"Name", a.name}}.dump(2) + "\n"));
    return 0;
  }
  auto existing = store->GetJob(a.name);
  if (!existing.ok()) return catalog::WithGlueErrorName(existing.status());
  if (a.action == "show") {
    EPOXY_RETURN_NOT_OK(Print(Json{{"Job", *existing}}.dump(2) + "\n"));
    return 0;
  }
  if (a.action == "update") {
    Json base = *existing;
    if (!a.definition.empty()) {
      EPOXY_ASSIGN_OR_RETURN(Json update, ParseJsonArgument(a.definition, "--definition"));
      base.update(update);
    }
    EPOXY_ASSIGN_OR_RETURN(Json input, JobInputFromArgs(a, base));
    EPOXY_ASSIGN_OR_RETURN(Json job, jobs::JobFromInput(input, &*existing));
    EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(store->ReplaceJob(job)));
    EPOXY_RETURN_NOT_OK(Print(Json{{"JobName", a.name}}.dump(2) + "\n"));
    return 0;
  }
  if (a.action == "delete") {
    EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(store->DeleteJob(a.name)));
    EPOXY_RETURN_NOT_OK(Print(Json{{"JobName", a.name}}.dump(2) + "\n"));
    return 0;
  }
  return Status::InvalidInput("unknown job action '{}' (create, update, show, list, delete, run)", a.action);
}

namespace {

/// One line of `epoxy runs`: state, times, what the bookmark read and skipped, rows, flags.
std::string RunLine(const catalog::StoredRun& r) {
  const Json& run = r.run;
  int64_t read = 0, skipped = 0, listed = 0;
  const Json sources = r.internal.value("Bookmark", r.internal.value("Sources", Json::object()));
  for (const auto& [ctx, s] : sources.items()) {
    read += s.value("FilesRead", int64_t{0});
    skipped += s.value("FilesSkipped", int64_t{0});
    listed += s.value("FilesListed", int64_t{0});
  }
  int64_t rows_out = 0;
  for (const auto& s : r.internal.value("Sinks", Json::array())) rows_out += s.value("RowsWritten", int64_t{0});
  const Json metrics = r.internal.value("Metrics", Json::object());
  std::string line = fmt::format("{}  {:<9}  attempt {}  {}  {:>5} s  files read {} skipped {}  rows in {} out {}",
                                 run.value("Id", ""), run.value("JobRunState", ""), run.value("Attempt", 0),
                                 Time(run.value("StartedOn", 0.0)), run.value("ExecutionTime", 0), read, skipped,
                                 metrics.value("rows read", int64_t{0}), rows_out);
  for (const auto& f : r.internal.value("Flags", Json::array())) line += "  [" + f.get<std::string>().substr(0, f.get<std::string>().find(':')) + "]";
  return line + "\n";
}

}  // namespace

Result<int> RunRunsCommand(const RunsArgs& a) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::JobStore::Open(""));
  if (a.action == "runs") {
    auto job = store->GetJob(a.target);
    if (!job.ok()) return catalog::WithGlueErrorName(job.status());
    EPOXY_RETURN_NOT_OK(jobs::SettleRuns(*store, a.target).status());  // a dead run shows as FAILED
    EPOXY_ASSIGN_OR_RETURN(auto runs, store->GetRuns(a.target, a.max_results));
    if (a.json) {
      Json list = Json::array();
      for (const auto& r : runs) list.push_back(r.run);
      EPOXY_RETURN_NOT_OK(Print(Json{{"JobRuns", list}}.dump(2) + "\n"));
      return 0;
    }
    for (const auto& r : runs) EPOXY_RETURN_NOT_OK(Print(RunLine(r)));
    return 0;
  }
  auto run = store->GetRun(a.target);
  if (!run.ok()) return catalog::WithGlueErrorName(run.status());
  if (a.action == "show") {
    Json details = {{"Metrics", run->internal.value("Metrics", Json::object())},
                    {"Sources", run->internal.value("Bookmark", run->internal.value("Sources", Json::object()))},
                    {"Sinks", run->internal.value("Sinks", Json::array())},
                    {"Flags", run->internal.value("Flags", Json::array())},
                    {"Commit", run->internal.value("Commit", Json::object())},
                    {"Committed", run->internal.value("Committed", false)},
                    {"Published", run->internal.value("Published", false)},
                    {"Retracted", run->internal.value("Retracted", false)},
                    {"Process", {{"Pid", run->internal.value("Pid", 0)}, {"Host", run->internal.value("Host", "")},
                                 {"Heartbeat", run->internal.value("Heartbeat", 0.0)}}},
                    {"LogPath", run->internal.value("LogPath", "")}};
    if (run->internal.contains("Outputs")) {
      Json files = Json::array();
      for (const auto& w : run->internal["Outputs"]) {
        for (const auto& f : w.value("Files", Json::array())) files.push_back(f.at(1));
      }
      details["OutputFiles"] = files;
    }
    EPOXY_RETURN_NOT_OK(Print(Json{{"JobRun", run->run}, {"Epoxy", details}}.dump(2) + "\n"));
    return 0;
  }
  if (a.action == "stop") {
    EPOXY_RETURN_NOT_OK(jobs::StopRun(*store, a.target));
    EPOXY_RETURN_NOT_OK(Print(Json{{"SuccessfulSubmissions", {{{"JobName", run->run.value("JobName", "")},
                                                               {"JobRunId", a.target}}}},
                                   {"Errors", Json::array()}}.dump(2) + "\n"));
    return 0;
  }
  return Status::InvalidInput("unknown runs action '{}'", a.action);
}

Result<int> RunBookmarkCommand(const BookmarkArgs& a) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::JobStore::Open(""));
  auto job = store->GetJob(a.job);
  if (!job.ok()) return catalog::WithGlueErrorName(job.status());
  if (a.action == "show") {
    EPOXY_ASSIGN_OR_RETURN(catalog::BookmarkHead head, store->GetBookmarkHead(a.job));
    if (head.version == 0) {  // as GetJobBookmark answers for a job that never committed one
      if (a.json) return Status::NotFound("EntityNotFoundException: job {} has no bookmark yet", a.job);
      EPOXY_RETURN_NOT_OK(Print(fmt::format("job {}: no bookmark yet (no run has committed one)\n", a.job)));
      return 0;
    }
    EPOXY_ASSIGN_OR_RETURN(Json entry, jobs::BookmarkEntry(*store, a.job));
    if (a.json) {
      EPOXY_RETURN_NOT_OK(Print(entry.dump(2) + "\n"));
      return 0;
    }
    const Json& e = entry["JobBookmarkEntry"];
    EPOXY_ASSIGN_OR_RETURN(auto commits, store->Commits(a.job));
    std::string text = fmt::format("job {}: version {}, {} committed run(s), last run {}\n", a.job, e["Version"].get<int64_t>(),
                                   e["Run"].get<int64_t>(), e["RunId"].get<std::string>().empty() ? "-" : e["RunId"].get<std::string>());
    const Json state = Json::parse(e["JobBookmark"].get<std::string>());
    for (const auto& [ctx, s] : state.items()) {
      text += fmt::format("  transformation_ctx {}: {} file version(s) in {} folder(s), {} bytes of state\n", ctx,
                          s["FileVersions"].get<int64_t>(), s["Folders"].get<int64_t>(), s["StateBytes"].get<int64_t>());
    }
    for (const auto& c : commits) {
      int64_t read = 0;
      std::string rows;  // database sources: the rows read and the mark stored
      const Json sources = c.value("Bookmark", Json::object());
      for (const auto& [ctx, s] : sources.items()) {
        read += s.value("FilesRead", int64_t{0});
        if (s.value("Kind", "") != "keys") continue;
        std::vector<std::string> mark;
        for (const auto& v : s.value("To", s.value("From", Json::array()))) mark.push_back(v.is_null() ? "NULL" : v.get<std::string>());
        rows += fmt::format(", {} read {} row(s), mark [{}]", ctx, s.value("RowsRead", int64_t{0}), fmt::join(mark, ", "));
      }
      text += fmt::format("  commit {}: run {} read {} file(s){}\n", c["Seq"].get<int64_t>(), c["RunId"].get<std::string>(),
                          read, rows);
    }
    EPOXY_RETURN_NOT_OK(Print(text));
    return 0;
  }
  if (a.action == "reset") {
    auto removed = jobs::ResetBookmark(*store, a.job, a.run_id, a.retract_outputs);
    if (!removed.ok()) return catalog::WithGlueErrorName(removed.status());
    EPOXY_ASSIGN_OR_RETURN(Json entry, jobs::BookmarkEntry(*store, a.job));
    EPOXY_RETURN_NOT_OK(Print(entry.dump(2) + "\n"));
    std::fprintf(stderr, "epoxy: the bookmark of %s forgot %zu run(s)%s\n", a.job.c_str(), removed->size(),
                 a.retract_outputs ? " and removed their outputs" : "; their outputs stay (--retract-outputs removes them)");
    return 0;
  }
  return Status::InvalidInput("unknown bookmark action '{}' (show, reset)", a.action);
}

}  // namespace epoxy::cli
