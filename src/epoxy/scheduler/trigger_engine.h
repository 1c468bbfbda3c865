// SPDX-License-Identifier: Apache-2.0
// TriggerEngine: Glue's triggers and workflow runs, evaluated by one loop against one Clock.
// Triggers, workflows and workflow runs are catalog objects (kinds "trigger", "workflow",
// "workflow_run"); what the engine has fired and consumed is too ("trigger_state"), so a restart
// neither skips a schedule that fell due while it was down (it fires once, late, and says so)
// nor fires anything twice: each firing has an id, and the runs and crawls it starts have ids
// derived from it, so starting them again after a crash finds them started.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/catalog/job_store.h"
#include "epoxy/scheduler/clock.h"

namespace epoxy::scheduler {

using catalog::Json;

/// What firing an action does, provided by the server (job runs go to worker processes).
struct Launcher {
  /// Starts job `job` as run `run_id` with `arguments` over the job's, naming `trigger`.
  /// kAlreadyExists when run `run_id` exists already.
  std::function<Status(const std::string& job, const std::string& run_id, const Json& arguments,
                       const std::string& trigger)> start_job;
  /// Starts crawler `crawler` as crawl `crawl_id` (whose history entry gets `extra`: the
  /// workflow run). kAlreadyExists when the crawler is running.
  std::function<Status(const std::string& crawler, const std::string& crawl_id, const Json& extra)> start_crawl;
};

class TriggerEngine {
 public:
  TriggerEngine(catalog::CatalogStore* store, catalog::JobStore* jobs, const Clock* clock, Launcher launcher);

  /// Evaluates everything once: due schedules, satisfied predicates, running workflow runs.
  Status Tick();

  /// StartTrigger of an ON_DEMAND trigger outside a workflow: fires its actions now.
  Status FireOnDemand(const std::string& trigger);

  /// StartWorkflowRun: records a RUNNING run of `workflow` with `properties` over its defaults
  /// and fires its start triggers (those without a predicate). Returns the run id.
  Result<std::string> StartWorkflowRun(const std::string& workflow, const Json& properties,
                                       const std::string& run_id = "");

  /// ResumeWorkflowRun: a new run of the workflow (PreviousRunId `run_id`) that starts the job and
  /// crawler nodes `node_ids` again; what is downstream of them follows by its triggers.
  Result<std::string> ResumeWorkflowRun(const std::string& workflow, const std::string& run_id,
                                        const std::vector<std::string>& node_ids);

  /// The workflow's graph: a node per trigger, job and crawler, an edge from each trigger to
  /// its actions and from each watched job or crawler to the trigger; with `workflow_run_id`,
  /// each job and crawler node holds that run's job runs and crawls.
  Result<Json> Graph(const std::string& workflow, const std::string& workflow_run_id);

 private:
  Status TickTrigger(const Json& trigger);
  /// EVENT: lists the watched place, queues objects not seen before, fires full batches and
  /// batches whose window has passed.
  Status TickEventTrigger(const Json& trigger, Json state);
  Status TickWorkflowRun(Json run);
  /// Starts the trigger's actions for firing `fire_id` (in workflow run `workflow_run`, if any).
  /// With `refused_for_concurrency`, a job at its MaxConcurrentRuns is reported there instead of
  /// logged (the caller tries again later; the actions that started are found started then).
  Status FireActions(const Json& trigger, const std::string& fire_id, const Json& workflow_run,
                     bool* refused_for_concurrency = nullptr);
  /// The finished job runs and crawls a condition can match, oldest first, after `since`.
  Result<std::vector<Json>> Events(const Json& condition, double since, const std::string& workflow_run_id);
  Result<std::vector<Json>> TriggersOf(const std::string& workflow);

  catalog::CatalogStore* store_;
  catalog::JobStore* jobs_;
  const Clock* clock_;
  Launcher launcher_;
  std::recursive_mutex mu_;
  std::map<std::string, std::chrono::steady_clock::time_point> last_listing_;  // EVENT triggers' polls  // one evaluation at a time: Tick, StartTrigger and StartWorkflowRun
};

/// The id of something started by firing `fire_id`: "jr_" or "wr_" and 64 hex digits, or a
/// UUID (crawls), all derived from the firing, so starting it twice is noticed.
std::string DerivedId(const std::string& prefix, const std::string& fire_id);
std::string DerivedUuid(const std::string& fire_id);
/// A new random workflow run id ("wr_" and 64 hex digits), for runs not derived from a firing.
std::string NewWorkflowRunId(const std::string& workflow);

}  // namespace epoxy::scheduler
