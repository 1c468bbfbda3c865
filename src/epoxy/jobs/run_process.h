// SPDX-License-Identifier: Apache-2.0
// Which process a run belongs to, and whether that process is gone (killed, or its machine lost
// power): a dead run must never block the next one.
#pragma once

#include <cstdint>
#include <string>

#include "epoxy/catalog/job_store.h"

namespace epoxy::jobs {

/// A process as a run records it: pid, its start time (so a reused pid is not mistaken for it)
/// and the host.
struct ProcessIdentity {
  int64_t pid = 0;
  int64_t start_ticks = 0;
  std::string host;
};

ProcessIdentity ThisProcess();
/// The fields a run's `internal` document records about the process that owns it.
catalog::Json ProcessFields(const ProcessIdentity& process);

/// A run on another host is taken as dead once its heartbeat is this old.
constexpr double kHeartbeatTimeoutSeconds = 120;

/// Whether the process that owns `run` (an unfinished run) is gone: on this host, its pid is not
/// alive or belongs to another process; elsewhere, its heartbeat stopped.
bool RunProcessIsGone(const catalog::StoredRun& run);

double NowSeconds();

}  // namespace epoxy::jobs
