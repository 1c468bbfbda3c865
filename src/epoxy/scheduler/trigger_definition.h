// SPDX-License-Identifier: Apache-2.0
// Glue's Trigger and Workflow definitions as catalog objects: checked as Glue checks them, and
// the state a trigger is put in when it is created, started or stopped.
#pragma once

#include <string>
#include <vector>

#include "epoxy/catalog/job_store.h"

namespace epoxy::scheduler {

using catalog::Json;

inline constexpr const char* kTriggerKind = "trigger";
inline constexpr const char* kTriggerStateKind = "trigger_state";
inline constexpr const char* kWorkflowKind = "workflow";
inline constexpr const char* kWorkflowRunKind = "workflow_run";
/// One empty object per RUNNING or STOPPING workflow run (same key), so that the scheduler's
/// look each second reads the runs in progress, not every run ever made.
inline constexpr const char* kActiveWorkflowRunKind = "workflow_run_active";

/// A Trigger from CreateTrigger's request (or, with `existing`, an UpdateTrigger's TriggerUpdate
/// over it): Type SCHEDULED needs a valid Schedule, CONDITIONAL a Predicate whose conditions
/// name jobs or crawlers with a state, every action exactly one existing job or crawler;
/// WorkflowName must name a workflow. Errors are InvalidInput or NotFound naming the member.
Result<Json> TriggerFromInput(const Json& input, const Json* existing, catalog::JobStore& jobs);

/// The tag that names what an EVENT trigger watches (a folder or an s3:// prefix): epoxy has no
/// EventBridge, so the trigger carries the place its new objects arrive in.
inline constexpr const char* kWatchPathTag = "epoxy:watch-path";

/// Makes `trigger` ACTIVATED (SCHEDULED, CONDITIONAL, EVENT) at `now`: from then on its schedule
/// counts, only runs that finish after `now` satisfy its predicate, and only objects that appear
/// under `watch_path` (EVENT) after now fire it: those there already are listed as seen.
Status ActivateTrigger(catalog::CatalogStore& store, Json trigger, double now, const std::string& watch_path = "");

/// Removes a trigger and what the scheduler keeps of it; a missing one is no error.
Status DeleteTrigger(catalog::CatalogStore& store, const std::string& name);

/// A Workflow from CreateWorkflow's members (or UpdateWorkflow's over `existing`): Description,
/// DefaultRunProperties (a map of strings), MaxConcurrentRuns (positive), with its times at `now`.
Result<Json> WorkflowFromInput(const std::string& name, const Json& input, const Json* existing, double now);
/// Removes a workflow with its triggers and runs (its jobs and crawlers stay); a missing one is no error.
Status DeleteWorkflow(catalog::CatalogStore& store, const std::string& name);
/// Asks a RUNNING workflow run to stop: the scheduler stops its jobs and crawls, then it is
/// STOPPED. kNotFound when missing; IllegalWorkflowStateException when it is not running.
Status StopWorkflowRun(catalog::CatalogStore& store, const std::string& workflow, const std::string& run_id);

/// Asks for one firing of ON_DEMAND trigger `name` (outside a workflow); the scheduler fires each
/// request once (`epoxy trigger start` with the scheduler in another process).
Status RequestFiring(catalog::CatalogStore& store, const std::string& name);

/// Asks for a run of `workflow` with `properties`; the scheduler starts it (`epoxy workflow start`).
Status RequestWorkflowRun(catalog::CatalogStore& store, const std::string& workflow, const Json& properties,
                          double now);
inline constexpr const char* kWorkflowRequestKind = "workflow_request";

/// The files under `path` that an EVENT trigger counts (hidden names, `_`-names and staging
/// folders left out), sorted.
Result<std::vector<std::string>> WatchedObjects(const std::string& path);
/// DEACTIVATED: it fires no more until started again.
Status DeactivateTrigger(catalog::CatalogStore& store, Json trigger);

}  // namespace epoxy::scheduler
