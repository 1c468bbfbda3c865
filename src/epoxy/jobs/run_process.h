// SPDX-License-Identifier: Apache-2.0
// Which process a run belongs to, and whether that process is gone (killed, or its machine lost
// power): a dead run must never block the next one.
#pragma once

#include <cstdint>
#include <string>

#include "epoxy/catalog/job_store.h"
#include "epoxy/common/process_identity.h"

namespace epoxy::jobs {

using epoxy::ProcessIdentity;
using epoxy::ThisProcess;

/// The fields a run's `internal` document records about the process that owns it.
catalog::Json ProcessFields(const ProcessIdentity& process);

/// A run on another host is taken as dead once its heartbeat is this old.
constexpr double kHeartbeatTimeoutSeconds = 120;

/// Whether the process that owns `run` (an unfinished run) is gone: on this host, its pid is not
/// alive or belongs to another process; elsewhere, its heartbeat stopped.
bool RunProcessIsGone(const catalog::StoredRun& run);

double NowSeconds();

}  // namespace epoxy::jobs
