// SPDX-License-Identifier: Apache-2.0
#include "epoxy/jobs/run_process.h"

#include <chrono>

namespace epoxy::jobs {

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

catalog::Json ProcessFields(const ProcessIdentity& process) {
  return {{"Pid", process.pid}, {"StartTicks", process.start_ticks}, {"Host", process.host}, {"Heartbeat", NowSeconds()}};
}

bool RunProcessIsGone(const catalog::StoredRun& run) {
  const catalog::Json& in = run.internal;
  if (in.value("Host", "") != HostName()) {
    return NowSeconds() - in.value("Heartbeat", 0.0) > kHeartbeatTimeoutSeconds;
  }
  return LocalProcessIsGone({in.value("Pid", int64_t{0}), in.value("StartTicks", int64_t{0}), HostName()});
}

}  // namespace epoxy::jobs
