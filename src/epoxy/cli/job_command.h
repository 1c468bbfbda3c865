// SPDX-License-Identifier: Apache-2.0
// `epoxy job ...`, `epoxy runs`, `epoxy run-show`, `epoxy run-stop` and `epoxy bookmark ...`.
#pragma once

#include <string>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct JobArgs {
  std::string action;  // create | update | show | list | delete
  std::string name;
  std::string definition;  // a CreateJob JSON document (or @file)
  std::string script, role, command_name, glue_version, worker_type;
  std::string default_arguments, non_overridable_arguments, tags;  // JSON maps
  int max_concurrent_runs = 0, max_retries = -1, number_of_workers = 0;
  int64_t timeout = 0;
  bool json = false;
};
Result<int> RunJobCommand(const JobArgs& args);

struct RunsArgs {
  std::string action;  // runs | show | stop
  std::string target;  // the job (runs) or the run id
  int max_results = 0;
  bool json = false;
};
Result<int> RunRunsCommand(const RunsArgs& args);

struct BookmarkArgs {
  std::string action;  // show | reset
  std::string job;
  std::string run_id;  // reset: rewind to the state after this run
  bool retract_outputs = false;
  bool json = false;
};
Result<int> RunBookmarkCommand(const BookmarkArgs& args);

}  // namespace epoxy::cli
