// SPDX-License-Identifier: Apache-2.0
// Execute: optimize, build operators, drain into the sink, measure.
#include "epoxy/exec/executor.h"

#include <sys/resource.h>

#include <chrono>

#include "epoxy/exec/operator.h"
#include "epoxy/exec/pipeline.h"
#include "epoxy/plan/optimizer.h"

namespace epoxy::exec {
namespace {

double CpuSeconds() {
  struct rusage usage;
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

plan::PlanPtr Optimize(const plan::PlanPtr& plan) { return plan::Optimize(plan); }

Result<RunMetrics> Execute(const plan::PlanPtr& plan, const BatchSink& sink, const ExecOptions& options) {
  auto start = std::chrono::steady_clock::now();
  double cpu_start = CpuSeconds();
  RunMetrics metrics;
  ExecContext context;
  context.memory = options.memory ? options.memory : &MemoryPool::Default();
  context.catalog = options.catalog;
  context.pool = &ThreadPool::Default();
  context.spill.pool = context.memory;
  context.spill.soft_limit = options.spill_threshold;
  context.spill.space = &SpillSpace::Default();
  context.spill.num_threads = context.pool->num_threads();
  const int64_t files_before = context.spill.space->files_created();
  EPOXY_ASSIGN_OR_RETURN(auto root, MakeOperator(plan::Optimize(plan), &context));
  while (true) {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, root->Next());
    if (batch == nullptr) break;
    if (IsGroupBoundary(batch)) {
      if (options.on_group_end) EPOXY_RETURN_NOT_OK(options.on_group_end());
      continue;
    }
    if (batch->num_rows() == 0) continue;
    metrics.rows_out += batch->num_rows();
    EPOXY_RETURN_NOT_OK(sink(batch));
  }
  root->Report(&metrics);
  metrics.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  metrics.cpu_seconds = CpuSeconds() - cpu_start;
  metrics.peak_memory = context.memory->peak_bytes();
  metrics.spilled_bytes = context.spilled_bytes.load();
  metrics.spill_files = context.spill.space->files_created() - files_before;
  return metrics;
}

namespace {

/// Runs `plan` into `writer`, aborting it when the run fails.
Result<RunMetrics> RunIntoWriter(const plan::PlanPtr& plan, DatasetWriter& writer, ExecOptions options) {
  options.on_group_end = [&writer] { return writer.EndGroup(); };
  auto metrics = Execute(plan, [&](const BatchPtr& batch) { return writer.Write(batch); }, options);
  if (!metrics.ok()) (void)writer.Abort();
  return metrics;
}

}  // namespace

Result<std::pair<WriteResult, RunMetrics>> ExecuteIntoDataset(const plan::PlanPtr& plan,
                                                              const DatasetWriteOptions& write, ExecOptions options) {
  EPOXY_ASSIGN_OR_RETURN(auto writer, DatasetWriter::Open(write, plan->schema));
  EPOXY_ASSIGN_OR_RETURN(RunMetrics metrics, RunIntoWriter(plan, *writer, std::move(options)));
  auto result = writer->Commit();
  if (!result.ok()) {
    (void)writer->Abort();
    return result.status();
  }
  metrics.output_files = static_cast<int64_t>(result->files.size());
  metrics.output_bytes = result->bytes;
  return std::make_pair(std::move(*result), std::move(metrics));
}

Result<std::pair<StagedWrite, RunMetrics>> ExecuteIntoStagedDataset(const plan::PlanPtr& plan,
                                                                    const DatasetWriteOptions& write,
                                                                    ExecOptions options) {
  DatasetWriteOptions deferred = write;
  deferred.defer_publish = true;
  EPOXY_ASSIGN_OR_RETURN(auto writer, DatasetWriter::Open(deferred, plan->schema));
  EPOXY_ASSIGN_OR_RETURN(RunMetrics metrics, RunIntoWriter(plan, *writer, std::move(options)));
  auto staged = writer->Stage();
  if (!staged.ok()) {
    (void)writer->Abort();
    return staged.status();
  }
  metrics.output_files = static_cast<int64_t>(staged->files.size());
  return std::make_pair(std::move(*staged), std::move(metrics));
}

}  // namespace epoxy::exec
