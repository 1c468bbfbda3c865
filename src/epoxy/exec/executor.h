// SPDX-License-Identifier: Apache-2.0
// Running a logical plan: filters are pushed into scans, the plan becomes an operator tree, and
// its batches go to a sink; the run's metrics come back.
#pragma once

#include <functional>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/exec/dataset_writer.h"
#include "epoxy/exec/run_metrics.h"
#include "epoxy/plan/logical_plan.h"

namespace epoxy::exec {

using BatchSink = std::function<Status(const BatchPtr& batch)>;

struct ExecOptions {
  MemoryPool* memory = nullptr;              // the default pool when null
  catalog::CatalogStore* catalog = nullptr;  // needed for plans that scan catalog tables
  /// Bytes allocated past which hash tables flush and exchanges and sorts spill (0: half the
  /// pool's limit).
  int64_t spill_threshold = 0;
  /// Called between repartition's groups of rows (a writer starts new files there).
  std::function<Status()> on_group_end;
};

/// Optimizes and runs `plan`, handing every non-empty output batch to `sink` in order.
Result<RunMetrics> Execute(const plan::PlanPtr& plan, const BatchSink& sink, const ExecOptions& options = {});

/// Runs `plan` into a dataset: files staged as they are written, published by a commit when the
/// run succeeds, removed when it fails. Repartition groups write their own files. The metrics
/// count the output files and bytes.
Result<std::pair<WriteResult, RunMetrics>> ExecuteIntoDataset(const plan::PlanPtr& plan,
                                                              const DatasetWriteOptions& write,
                                                              ExecOptions options = {});

/// Runs `plan` into a dataset whose files stay staged (a job run's write, published by its
/// commit); a failed run removes them.
Result<std::pair<StagedWrite, RunMetrics>> ExecuteIntoStagedDataset(const plan::PlanPtr& plan,
                                                                    const DatasetWriteOptions& write,
                                                                    ExecOptions options = {});

/// The plan as Execute runs it (after pushdown).
plan::PlanPtr Optimize(const plan::PlanPtr& plan);

}  // namespace epoxy::exec
