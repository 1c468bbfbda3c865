// SPDX-License-Identifier: Apache-2.0
// Glue's Job definition: validation, defaults, and how a run's arguments and threads follow
// from it.
#pragma once

#include <string>

#include "epoxy/catalog/job_store.h"

namespace epoxy::jobs {

/// A stored Job document from CreateJob's input (Name, Role, Command{Name, ScriptLocation,
/// PythonVersion}, DefaultArguments, NonOverridableArguments, ExecutionProperty{MaxConcurrentRuns},
/// MaxRetries, Timeout, WorkerType, NumberOfWorkers, GlueVersion, Tags...), checked as Glue
/// checks it and given Glue's defaults. `existing`, when given, is the job an UpdateJob replaces
/// (its CreatedOn is kept).
Result<catalog::Json> JobFromInput(const catalog::Json& input, const catalog::Json* existing = nullptr);

/// The run's arguments: the job's DefaultArguments, overridden by `run_arguments`, with the
/// NonOverridableArguments put back over both (as Glue does).
catalog::Json RunArguments(const catalog::Json& job, const catalog::Json& run_arguments);

int MaxConcurrentRuns(const catalog::Json& job);
/// Timeout in minutes (Glue's default for the job's GlueVersion when unset).
int64_t TimeoutMinutes(const catalog::Json& job);
/// Engine threads for a run: NumberOfWorkers x the WorkerType's vCPUs (G.1X 4, G.2X 8, G.4X 16,
/// G.8X 32, G.025X 2, Standard 4), capped by this machine's cores; 0 (the engine's default)
/// when the job sets none.
int ThreadsFor(const catalog::Json& job);

}  // namespace epoxy::jobs
