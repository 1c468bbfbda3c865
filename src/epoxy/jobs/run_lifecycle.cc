// SPDX-License-Identifier: Apache-2.0
#include "epoxy/jobs/run_lifecycle.h"

#include <csignal>
#include <cstdlib>

#include <random>

#include "epoxy/common/crash_point.h"
#include "epoxy/jobs/job_definition.h"
#include "epoxy/jobs/run_process.h"

namespace epoxy::jobs {

using catalog::Json;
using catalog::StoredRun;

std::string NewRunId() {
  std::random_device device;
  std::string id = "jr_";
  for (int i = 0; i < 4; ++i) {
    uint64_t r = (static_cast<uint64_t>(device()) << 32) ^ device();
    id += fmt::format("{:016x}", r);
  }
  return id;
}

bool IsFinalState(const std::string& state) {
  return state == "SUCCEEDED" || state == "FAILED" || state == "STOPPED" || state == "TIMEOUT" || state == "ERROR" ||
         state == "EXPIRED";
}

Json StagedToJson(const exec::StagedWrite& s) {
  Json files = Json::array();
  for (const auto& [staged, final_path] : s.files) files.push_back({staged, final_path});
  return {{"Path", s.path}, {"WriteId", s.write_id}, {"Staging", s.staging}, {"Files", files}, {"Replace", s.replace},
          {"ReplaceDirs", s.replace_dirs}, {"Rows", s.rows}};
}

Result<exec::StagedWrite> StagedFromJson(const Json& j) {
  if (!j.is_object() || !j.contains("Path") || !j.contains("Staging")) {
    return Status::InvalidData("a run's output manifest entry is malformed: {}", j.dump());
  }
  exec::StagedWrite s;
  s.path = j.value("Path", "");
  s.write_id = j.value("WriteId", "");
  s.staging = j.value("Staging", "");
  s.replace = j.value("Replace", false);
  s.rows = j.value("Rows", int64_t{0});
  for (const auto& d : j.value("ReplaceDirs", Json::array())) s.replace_dirs.push_back(d.get<std::string>());
  for (const auto& f : j.value("Files", Json::array())) s.files.emplace_back(f.at(0).get<std::string>(), f.at(1).get<std::string>());
  return s;
}

namespace {

/// Publishes a committed run's outputs (again, harmlessly, after a crash cut it short).
Status PublishOutputs(const Json& outputs) {
  for (const auto& entry : outputs) {
    EPOXY_ASSIGN_OR_RETURN(exec::StagedWrite staged, StagedFromJson(entry));
    EPOXY_RETURN_NOT_OK(exec::PublishStaged(staged).status());
  }
  return Status::OK();
}

/// Removes what a run staged (and, for retracted runs, published).
Status RemoveOutputs(const StoredRun& run, const Json& outputs) {
  for (const auto& entry : outputs) {
    EPOXY_ASSIGN_OR_RETURN(exec::StagedWrite staged, StagedFromJson(entry));
    EPOXY_RETURN_NOT_OK(exec::RemoveStaged(staged));
    CrashPoint("cleanup");
  }
  // Writes that died before staging: their folders only.
  for (const auto& entry : run.internal.value("Staging", Json::array())) {
    exec::StagedWrite partial;
    partial.path = entry.value("Path", "");
    partial.staging = entry.value("Staging", "");
    if (!partial.path.empty()) EPOXY_RETURN_NOT_OK(exec::RemoveStaged(partial));
  }
  return Status::OK();
}

/// Why a run whose process is gone ended: a run asked to stop was stopped; any other failed.
std::string DeadRunMessage(const StoredRun& run, bool stopping) {
  if (stopping) return "the run was stopped (epoxy run-stop)";
  return fmt::format("the run's process died (pid {} on {}){}", run.internal.value("Pid", int64_t{0}),
                     run.internal.value("Host", "?"),
                     run.internal.value("Committed", false)
                         ? " after its commit; its outputs are published"
                         : "; nothing it wrote is published, and its input is read again by the next run");
}

/// Publishes or removes a finished run's outputs, as its outcome says, and marks it settled.
Status SettleFinished(catalog::JobStore& store, const StoredRun& run) {
  const std::string id = run.run.value("Id", "");
  Json patch = {{"Settled", true}};
  if (run.internal.value("RetractPending", false)) {
    EPOXY_RETURN_NOT_OK(RemoveOutputs(run, run.internal.value("Outputs", Json::array())));
    patch["RetractPending"] = false;
    patch["Retracted"] = true;
  } else if (run.internal.value("Committed", false)) {
    if (!run.internal.value("Published", false)) EPOXY_RETURN_NOT_OK(PublishOutputs(run.internal.value("Outputs", Json::array())));
    patch["Published"] = true;
  } else {
    EPOXY_RETURN_NOT_OK(RemoveOutputs(run, run.internal.value("Staged", Json::array())));
  }
  return store.UpdateRun(id, nullptr, patch);
}

}  // namespace

Result<StoredRun> StartRun(catalog::JobStore& store, const Json& job, const RunStart& start) {
  EPOXY_RETURN_NOT_OK(SettleRuns(store, start.job_name).status());
  StoredRun run;
  const double now = NowSeconds();
  run.run = {{"Id", start.run_id.empty() ? NewRunId() : start.run_id},
             {"Attempt", start.attempt},
             {"JobName", start.job_name},
             {"StartedOn", now},
             {"LastModifiedOn", now},
             {"JobRunState", "RUNNING"},
             {"Arguments", RunArguments(job, start.arguments)},
             {"PredecessorRuns", Json::array()},
             {"ExecutionTime", 0},
             {"Timeout", TimeoutMinutes(job)},
             {"GlueVersion", job.value("GlueVersion", "5.0")}};
  if (!start.previous_run_id.empty()) run.run["PreviousRunId"] = start.previous_run_id;
  if (!start.trigger_name.empty()) run.run["TriggerName"] = start.trigger_name;
  for (const char* field : {"WorkerType", "NumberOfWorkers", "MaxCapacity"}) {
    if (job.contains(field)) run.run[field] = job[field];
  }
  if (!start.log_path.empty()) run.run["LogGroupName"] = start.log_path;
  run.internal = ProcessFields(ThisProcess());
  run.internal["Settled"] = false;
  run.internal["LogPath"] = start.log_path;
  EPOXY_RETURN_NOT_OK(store.InsertRun(run, MaxConcurrentRuns(job), RunProcessIsGone));
  return run;
}

Status FinishRun(catalog::JobStore& store, const std::string& run_id, const std::string& state,
                 const std::string& error_message) {
  EPOXY_ASSIGN_OR_RETURN(StoredRun run, store.GetRun(run_id));
  std::string final_state = state;
  std::string message = error_message;
  if (state == "SUCCEEDED" && !run.internal.value("Committed", false)) {
    catalog::RunCommit commit;
    commit.run_id = run_id;
    commit.job = run.run.value("JobName", "");
    commit.outputs = run.internal.value("Staged", Json::array());
    for (const auto& p : run.internal.value("PendingPartitions", Json::array())) {
      commit.partitions.push_back({p.value("DatabaseName", ""), p.value("TableName", ""), p.value("PartitionInput", Json::object())});
    }
    Status committed = store.CommitRun(commit);
    if (!committed.ok()) {
      final_state = "FAILED";
      message = committed.message();
    }
    EPOXY_ASSIGN_OR_RETURN(run, store.GetRun(run_id));
  }
  const double now = NowSeconds();
  Json patch = {{"JobRunState", final_state}, {"CompletedOn", now}, {"LastModifiedOn", now},
                {"ExecutionTime", static_cast<int64_t>(now - run.run.value("StartedOn", now) + 0.5)}};
  if (!message.empty()) patch["ErrorMessage"] = message;
  EPOXY_RETURN_NOT_OK(store.UpdateRun(run_id, patch, nullptr));
  run.run.update(patch);
  return SettleFinished(store, run);
}

Result<int> SettleRuns(catalog::JobStore& store, const std::string& job, std::vector<std::string>* failed_dead) {
  EPOXY_ASSIGN_OR_RETURN(auto runs, store.UnsettledRuns(job));
  int settled = 0;
  for (auto& run : runs) {
    const std::string id = run.run.value("Id", "");
    if (!IsFinalState(run.run.value("JobRunState", ""))) {
      if (!RunProcessIsGone(run)) continue;  // still running
      const double now = NowSeconds();
      const bool stopping = run.run.value("JobRunState", "") == "STOPPING";
      Json patch = {{"JobRunState", stopping ? "STOPPED" : "FAILED"}, {"CompletedOn", now}, {"LastModifiedOn", now},
                    {"ErrorMessage", DeadRunMessage(run, stopping)}};
      Status st = store.UpdateRun(id, patch, nullptr, {"STARTING", "RUNNING", "STOPPING", "WAITING"});
      if (!st.ok()) continue;  // it finished meanwhile
      run.run.update(patch);
      if (failed_dead != nullptr && !stopping) failed_dead->push_back(id);
    }
    EPOXY_RETURN_NOT_OK(SettleFinished(store, run));
    ++settled;
  }
  return settled;
}

std::string RunLogFolder(const std::string& job) {
  std::string home;
  if (const char* env = std::getenv("EPOXY_HOME"); env != nullptr && *env != '\0') {
    home = env;
  } else {
    const char* user = std::getenv("HOME");
    home = std::string(user ? user : ".") + "/.epoxy";
  }
  return home + "/logs/" + job;
}

Status StopRun(catalog::JobStore& store, const std::string& run_id) {
  EPOXY_ASSIGN_OR_RETURN(StoredRun run, store.GetRun(run_id));
  const std::string state = run.run.value("JobRunState", "");
  if (IsFinalState(state)) return Status::InvalidInput("job run {} has already finished ({})", run_id, state);
  EPOXY_RETURN_NOT_OK(store.UpdateRun(run_id, {{"JobRunState", "STOPPING"}, {"LastModifiedOn", NowSeconds()}},
                                      nullptr, {"STARTING", "RUNNING", "WAITING"}));
  // A runner (`epoxy run`, a server's worker) sees STOPPING within a second and stops its script;
  // a script run by plain python3 (no run log, no runner) is told directly.
  const bool has_runner = !run.internal.value("LogPath", "").empty();
  if (!has_runner && run.internal.value("Host", "") == ThisProcess().host && !RunProcessIsGone(run)) {
    const auto pid = static_cast<pid_t>(run.internal.value("Pid", int64_t{0}));
    if (pid > 1) kill(pid, SIGTERM);
  }
  return SettleRuns(store, run.run.value("JobName", "")).status();
}

}  // namespace epoxy::jobs
