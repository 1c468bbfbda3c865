// SPDX-License-Identifier: Apache-2.0
// `epoxy trigger ...`, `epoxy workflow ...` and `epoxy scheduler`: Glue's triggers and workflows
// from the command line, on the catalog; the scheduler (inside `epoxy serve`, or `epoxy
// scheduler` alone) fires them.
#pragma once

#include <string>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct TriggerArgs {
  std::string action;      // create | show | list | start | stop | delete
  std::string name;
  std::string definition;  // a CreateTrigger JSON document (or @file)
  bool json = false;
};
Result<int> RunTriggerCommand(const TriggerArgs& args);

struct WorkflowArgs {
  std::string action;      // create | show | list | start | stop | delete
  std::string name;
  std::string run_id;      // stop
  std::string definition;  // create: a CreateWorkflow JSON document (or @file); start: RunProperties
  bool json = false;
};
Result<int> RunWorkflowCommand(const WorkflowArgs& args);

/// Runs the scheduler alone (for a machine without `epoxy serve`) until SIGINT or SIGTERM.
Result<int> RunScheduler();

}  // namespace epoxy::cli
