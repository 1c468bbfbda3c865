// SPDX-License-Identifier: Apache-2.0
// Operators: each pulls batches from its input and hands out whole batches (never single rows).
#pragma once

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
  RunMetrics* metrics = nullptr;
};

class Operator {
 public:
  virtual ~Operator() = default;
  /// The next batch, or nullptr at the end. Batches may be empty.
  virtual Result<BatchPtr> Next() = 0;
  /// Adds this operator's counters to the run's metrics (called once, at the end).
  virtual void Report(RunMetrics* metrics) const { (void)metrics; }
};

/// The operator tree for `plan`.
Result<std::unique_ptr<Operator>> MakeOperator(const plan::PlanPtr& plan, ExecContext* context);

Result<std::unique_ptr<Operator>> MakeScan(const plan::PlanPtr& scan, ExecContext* context);
Result<std::unique_ptr<Operator>> MakeAggregate(const plan::PlanPtr& node, std::unique_ptr<Operator> input,
                                                ExecContext* context);

}  // namespace epoxy::exec
