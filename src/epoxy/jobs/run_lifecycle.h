// SPDX-License-Identifier: Apache-2.0
// A run's life outside the script: starting it (concurrency checked, dead runs cleared first),
// finishing it (publishing or removing what it staged), and settling runs that a crash left
// unfinished, so that nothing a failed run wrote is ever visible and nothing a committed run
// wrote is ever lost.
#pragma once

#include <string>
#include <vector>

#include "epoxy/catalog/job_store.h"
#include "epoxy/exec/dataset_writer.h"

namespace epoxy::jobs {

/// A new run id, `jr_` and 64 hex digits, as Glue's.
std::string NewRunId();

struct RunStart {
  std::string job_name;
  catalog::Json arguments = catalog::Json::object();  // the run's own (merged with the job's)
  std::string trigger_name;
  int attempt = 0;
  std::string previous_run_id;
  std::string log_path;
  std::string run_id;  // empty: a new one
};

/// Settles the job's unfinished runs, then records a RUNNING run owned by this process, unless
/// MaxConcurrentRuns runs are active (kAlreadyExists "ConcurrentRunsExceededException: ...").
Result<catalog::StoredRun> StartRun(catalog::JobStore& store, const catalog::Json& job, const RunStart& start);

/// Ends a run: a SUCCEEDED run that never committed publishes its outputs now (without advancing
/// any bookmark, as a Glue script without job.commit()); a run that did not succeed has its staged
/// outputs removed, unless it had committed (its commit stands and is published).
Status FinishRun(catalog::JobStore& store, const std::string& run_id, const std::string& state,
                 const std::string& error_message);

/// Finishes what crashed runs of `job` left: marks FAILED the active runs whose process is gone,
/// removes the staged outputs of runs that never committed, publishes those of runs that committed,
/// and removes the outputs of runs a rewind retracted. Returns how many runs it settled; the ids of
/// the runs it marked FAILED (their process died) go to `failed_dead` when given.
Result<int> SettleRuns(catalog::JobStore& store, const std::string& job,
                       std::vector<std::string>* failed_dead = nullptr);

catalog::Json StagedToJson(const exec::StagedWrite& staged);
Result<exec::StagedWrite> StagedFromJson(const catalog::Json& json);

/// Asks an unfinished run to stop (STOPPING; its runner ends it STOPPED). InvalidInput when it
/// has finished already.
Status StopRun(catalog::JobStore& store, const std::string& run_id);

/// The folder of job `job`'s run logs: $EPOXY_HOME/logs/JOB (EPOXY_HOME defaults to ~/.epoxy).
std::string RunLogFolder(const std::string& job);

/// Whether a JobRunState is final.
bool IsFinalState(const std::string& state);

}  // namespace epoxy::jobs
