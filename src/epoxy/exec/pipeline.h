// SPDX-License-Identifier: Apache-2.0
// Pipelines: batches pulled from a source in order on the calling thread, then run through a
// chain of steps (filter, project, a join's probe, an aggregate's partial update) as pool tasks,
// several at a time (morsel-driven). Results come out in input order, or are handed to a sink.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <condition_variable>

#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/operator.h"

namespace epoxy::exec {

/// Batches produced one at a time (nullptr at the end), on the pipeline's calling thread.
using BatchGenerator = std::function<Result<BatchPtr>()>;

/// One step of a pipeline. `apply` runs on any thread, for many batches at once. `finish`, when
/// set, is called once after every batch went through `apply` and returns a generator of more
/// batches (an outer join's unmatched build rows, a spilled join's partitions) that go through the
/// steps that follow.
struct PipelineStep {
  std::string name;
  BatchTransform apply;
  std::function<Result<BatchGenerator>()> finish;
  /// Rows the step let through, for --profile (named `name`).
  std::shared_ptr<std::atomic<int64_t>> rows_out;
  /// Adds what the step's own inputs did (a join's build side) to the run's metrics.
  std::function<void(RunMetrics*)> report;
};

/// Marks the end of a group of rows (repartition's groups): an empty batch passed through every
/// step unchanged, so a writer above can start new files.
BatchPtr GroupBoundary();
bool IsGroupBoundary(const BatchPtr& batch);

class ParallelPipeline final : public Operator {
 public:
  /// `source` is read on the calling thread; a BatchSource completes its batches in the tasks.
  ParallelPipeline(std::unique_ptr<Operator> source, std::vector<PipelineStep> steps, ThreadPool* pool);
  ~ParallelPipeline() override;

  Result<BatchPtr> Next() override;
  void Report(RunMetrics* metrics) const override;

  /// Runs every batch through the steps and then `sink` (thread-safe, called on pool threads),
  /// until the input ends.
  Status Drain(const std::function<Status(BatchPtr)>& sink);

  /// Adds a step at the end (before Next or Drain is first called).
  void AddStep(PipelineStep step) { steps_.push_back(std::move(step)); }

 private:
  struct Slot {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Result<BatchPtr> result = BatchPtr();
  };
  struct Pending {
    BatchPtr batch;
    size_t first_step;  // steps [first_step, end) still to run
    bool raw;           // needs the source's Complete()
  };

  Status Fill();
  void Wait(Slot& slot);
  Result<BatchPtr> RunSteps(BatchPtr batch, size_t first_step, bool raw) const;

  std::unique_ptr<Operator> source_;
  BatchSource* batch_source_;  // source_ when it is one
  std::vector<PipelineStep> steps_;
  ThreadPool* pool_;
  size_t window_;
  std::deque<std::shared_ptr<Slot>> slots_;
  BatchGenerator tail_;     // the batches of a step's finish(), while it has more
  size_t tail_first_step_ = 0;  // where they enter the steps
  bool input_done_ = false;
  size_t next_finish_ = 0;  // steps whose finish() already ran
};

}  // namespace epoxy::exec
