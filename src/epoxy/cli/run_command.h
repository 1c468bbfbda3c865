// SPDX-License-Identifier: Apache-2.0
// `epoxy run SCRIPT.py [--JOB_NAME NAME] [--KEY VALUE]...` and `epoxy job run NAME [--KEY VALUE]...`:
// a job run, recorded in the catalog (state, attempts, heartbeat), of a Glue script run by Python
// with epoxy's awsglue and pyspark packages importable, its output teed into a per-run log file.
#pragma once

#include <string>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct RunArgs {
  std::string script;  // or:
  std::string job;     // a stored job (`epoxy job run NAME`), whose ScriptLocation runs
  std::vector<std::string> script_args;  // passed to the script as Glue passes them (sys.argv[1:])
  int threads = 0;
  std::string memory_limit;
};

/// Parses `epoxy [runtime options] run [runtime options] SCRIPT args...` when argv names `run`;
/// nothing otherwise. Arguments after SCRIPT belong to the script and are never parsed here.
Result<bool> ParseRunArgs(int argc, char** argv, RunArgs* args);

/// Runs the job (with MaxRetries further attempts after a failure); returns the script's exit
/// code (128 + signal when it was killed; 1 when the run failed after the script exited 0).
Result<int> RunScript(const RunArgs& args);

/// `epoxy run-worker RUN_ID`: the worker process `epoxy serve` starts for a run it recorded
/// (StartJobRun). It takes the run over, runs it and its retries, and ends.
Result<int> RunWorker(const std::string& run_id);

/// The folder to put on PYTHONPATH to run job scripts with plain `python3` (`epoxy python-path`).
Result<std::string> PythonPackagesDir();

}  // namespace epoxy::cli
