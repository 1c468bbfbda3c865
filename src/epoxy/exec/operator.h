// SPDX-License-Identifier: Apache-2.0
// Operators: each pulls batches from its input and hands out whole batches (never single rows).
#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/partitioned_buffer.h"
#include "epoxy/exec/run_metrics.h"
#include "epoxy/plan/logical_plan.h"
#include "epoxy/vector/array.h"

namespace epoxy::exec {

/// What the operators of one run share.
struct ExecContext {
  MemoryPool* memory = nullptr;
  catalog::CatalogStore* catalog = nullptr;  // for scans of catalog tables
  ThreadPool* pool = nullptr;
  SpillPolicy spill;  // when tables flush and exchanges spill, and where
  /// What breakers spilled, for --profile.
  std::atomic<int64_t> spilled_bytes{0};
  std::atomic<int64_t> spilled_partitions{0};
};

class Operator {
 public:
  virtual ~Operator() = default;
  /// The next batch, or nullptr at the end. Batches may be empty.
  virtual Result<BatchPtr> Next() = 0;
  /// Adds this operator's counters to the run's metrics (called once, at the end).
  virtual void Report(RunMetrics* metrics) const { (void)metrics; }
};

/// An operator whose batches come in two steps: NextRaw() in order on the calling thread (reading),
/// then Complete() on any thread (fitting, filtering), so pipelines can complete batches in parallel.
class BatchSource : public Operator {
 public:
  virtual Result<BatchPtr> NextRaw() = 0;
  /// Thread-safe.
  virtual Result<BatchPtr> Complete(BatchPtr raw) const = 0;
  Result<BatchPtr> Next() override {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr raw, NextRaw());
    if (raw == nullptr) return raw;
    return Complete(std::move(raw));
  }
};

/// A step applied to each batch on its own (filter, project): stateless, so thread-safe.
using BatchTransform = std::function<Result<BatchPtr>(BatchPtr)>;

class ParallelPipeline;

/// The operator tree for `plan` (optimized already).
Result<std::unique_ptr<Operator>> MakeOperator(const plan::PlanPtr& plan, ExecContext* context);
/// The same as a pipeline, so a breaker can drain it with its own sink on the pool's threads.
Result<std::unique_ptr<ParallelPipeline>> MakePipeline(const plan::PlanPtr& plan, ExecContext* context);

/// `needed`: the output columns the steps above read (empty: all); the others of a filtered
/// batch are not copied, only stood in for.
Result<std::unique_ptr<BatchSource>> MakeScan(const plan::PlanPtr& scan, ExecContext* context,
                                              std::vector<bool> needed = {});
/// GROUP BY, DISTINCT and global aggregates: partial tables per thread, partitioned by hash (and
/// spilled past the budget), merged partition by partition in parallel.
Result<std::unique_ptr<Operator>> MakeHashAggregate(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                                    ExecContext* context);
/// Whether a LIMIT over a sort runs as a top-n (which holds a few times its rows in memory) rather
/// than as a full, spillable sort that the limit cuts.
bool UsesTopN(const plan::PlanNode& limit);

/// ORDER BY: sorted runs per thread (spilled past the budget), merged; with `limit` >= 0 a top-n.
Result<std::unique_ptr<Operator>> MakeSort(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                           int64_t limit, ExecContext* context);
/// Window functions: rows partitioned by the PARTITION BY keys, each partition sorted and computed.
Result<std::unique_ptr<Operator>> MakeWindow(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                             ExecContext* context);
/// repartition/coalesce: rows grouped, one group after another, with a GroupBoundary between.
Result<std::unique_ptr<Operator>> MakeRepartition(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                                  ExecContext* context);

}  // namespace epoxy::exec
