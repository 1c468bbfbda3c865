// SPDX-License-Identifier: Apache-2.0
// Which process owns a piece of work (a job run, a crawl), recorded so that another process can
// tell later whether the owner is gone (killed, or its machine lost power) and the work is dead.
#pragma once

#include <cstdint>
#include <string>

namespace epoxy {

/// A process as work records it: pid, its start time (so a reused pid is not mistaken for it)
/// and the host.
struct ProcessIdentity {
  int64_t pid = 0;
  int64_t start_ticks = 0;
  std::string host;
};

ProcessIdentity ThisProcess();
std::string HostName();

/// Whether `process`, which ran on this host, has ended: its pid is not alive or now belongs to
/// another process. A process of another host is never taken as gone here (callers use its
/// heartbeat instead).
bool LocalProcessIsGone(const ProcessIdentity& process);

}  // namespace epoxy
