// SPDX-License-Identifier: Apache-2.0
// The physical plan of an optimized logical plan, as the operator builder runs it: pipelines cut
// into stages at exchanges (hash partitioning between partial and final aggregation and before a
// window, broadcast of a join's build side, gather before a sort's merge). What `--explain` prints;
// the same cuts are where a multi-machine driver would exchange data.
#pragma once

#include <string>

#include "epoxy/plan/logical_plan.h"

namespace epoxy::exec {

/// The physical plan as indented text, stage by stage.
std::string ExplainPhysical(const plan::PlanPtr& optimized);

}  // namespace epoxy::exec
