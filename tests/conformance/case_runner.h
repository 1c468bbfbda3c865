// SPDX-License-Identifier: Apache-2.0
// Running one conformance case: its SQL through the `epoxy sql` session (cli::SqlSession), rows
// printed as `epoxy sql --output spark` prints them; optionally in a child process so that a crash
// or a hang is that case's failure and the suite goes on.
#pragma once

#include <string>
#include <vector>

namespace epoxy::conformance {

struct RunnerOptions {
  std::string time_zone = "America/Los_Angeles";  // spark.sql.session.timeZone
  std::string catalog_uri;                        // for queries that name tables ("": none)
  int timeout_seconds = 60;                       // a child still running then is killed
};

/// What a case's statements gave.
struct CaseOutput {
  bool ok = false;
  std::string error;                      // !ok: the error, the crash or the timeout
  std::vector<std::string> rows;          // every statement's rows, in turn
  std::vector<std::string> column_names;  // the last statement's output schema
  std::vector<std::string> column_types;  // its types as type strings ("int", "array<string>")
};

/// Runs the `;`-separated statements of `script` in this process.
CaseOutput RunScript(const std::string& script, const RunnerOptions& options);

/// Runs RunScript in a forked child (its address space limited to 8 GiB) and reads its output
/// back through a pipe. A child that dies by a signal or outlives the timeout gives a failed
/// output saying so.
/// REQUIRES: this process has started no threads (the child would inherit held locks).
CaseOutput RunScriptIsolated(const std::string& script, const RunnerOptions& options);

}  // namespace epoxy::conformance
