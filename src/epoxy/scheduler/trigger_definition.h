// SPDX-License-Identifier: Apache-2.0
// Glue's Trigger and Workflow definitions as catalog objects: checked as Glue checks them, and
// the state a trigger is put in when it is created, started or stopped.
#pragma once

#include <string>

#include "epoxy/catalog/job_store.h"

namespace epoxy::scheduler {

using catalog::Json;

inline constexpr const char* kTriggerKind = "trigger";
inline constexpr const char* kTriggerStateKind = "trigger_state";
inline constexpr const char* kWorkflowKind = "workflow";
inline constexpr const char* kWorkflowRunKind = "workflow_run";

/// A Trigger from CreateTrigger's request (or, with `existing`, an UpdateTrigger's TriggerUpdate
/// over it): Type SCHEDULED needs a valid Schedule, CONDITIONAL a Predicate whose conditions
/// name jobs or crawlers with a state, every action exactly one existing job or crawler;
/// WorkflowName must name a workflow. Errors are InvalidInput or NotFound naming the member.
Result<Json> TriggerFromInput(const Json& input, const Json* existing, catalog::JobStore& jobs);

/// The Trigger as the API shows it.
Json TriggerOut(const Json& trigger);

/// Makes `trigger` ACTIVATED (SCHEDULED, CONDITIONAL, EVENT) at `now`: from then on its schedule
/// counts, and only runs that finish after `now` satisfy its predicate.
Status ActivateTrigger(catalog::CatalogStore& store, Json trigger, double now);
/// DEACTIVATED: it fires no more until started again.
Status DeactivateTrigger(catalog::CatalogStore& store, Json trigger);

}  // namespace epoxy::scheduler
