// SPDX-License-Identifier: Apache-2.0
// Operators: each pulls batches from its input and hands out whole batches (never single rows).
#pragma once

#include <functional>
#include <memory>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/exec/run_metrics.h"
#include "epoxy/plan/logical_plan.h"
#include "epoxy/vector/array.h"

namespace epoxy::exec {

/// What operators of one run share.
struct ExecContext {
  MemoryPool* memory = nullptr;
  catalog::CatalogStore* catalog = nullptr;  // for scans of catalog tables
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

/// The operator tree for `plan`.
Result<std::unique_ptr<Operator>> MakeOperator(const plan::PlanPtr& plan, ExecContext* context);

Result<std::unique_ptr<BatchSource>> MakeScan(const plan::PlanPtr& scan, ExecContext* context);
/// A global aggregate over `input`. With `arguments_ready`, `input` yields what
/// AggregateArgumentsStep makes (the calls' arguments, evaluated by a parallel pipeline).
Result<std::unique_ptr<Operator>> MakeAggregate(const plan::PlanPtr& node, std::unique_ptr<Operator> input,
                                                ExecContext* context, bool arguments_ready);
BatchTransform AggregateArgumentsStep(const plan::PlanPtr& aggregate, ExecContext* context);

}  // namespace epoxy::exec
