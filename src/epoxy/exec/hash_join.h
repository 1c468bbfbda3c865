// SPDX-License-Identifier: Apache-2.0
// Hash joins: the build side drained (its keys encoded on the pool's threads) and indexed by a
// JoinTable built in parallel, then a probe step in the probe side's pipeline. Every join type:
// inner, left/right/full outer, left semi, left anti (null-aware for NOT IN), cross; residual
// conditions on candidate pairs; without equality keys every pair is tested.
#pragma once

#include "epoxy/exec/pipeline.h"

namespace epoxy::exec {

/// How a join runs (also what --explain shows).
struct JoinStrategy {
  bool build_left = false;  // else the right side is built
  bool broadcast = false;   // the build side is small (or hinted): built whole and shared
  bool nested_loop = false;  // no equality keys: every pair is tested against the condition
  double build_rows = 0, probe_rows = 0;  // the estimates the choice was made from
};

/// Builds the smaller side where the join type allows (honouring broadcast hints).
JoinStrategy ChooseJoinStrategy(const plan::PlanNode& join);

/// Drains `build` into the join's table and returns the step that probes it (with a finish() that
/// emits the build rows an outer, semi or anti join keeps). `needed`, when not empty, says which
/// of the join's output columns the steps above read: the others are not gathered (they are
/// placeholders of no type that the projection above drops).
Result<PipelineStep> MakeJoinProbe(const plan::PlanPtr& join, const JoinStrategy& strategy,
                                   std::unique_ptr<ParallelPipeline> build, ExecContext* context,
                                   std::vector<bool> needed = {});

}  // namespace epoxy::exec
