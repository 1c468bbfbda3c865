// SPDX-License-Identifier: Apache-2.0
#include "epoxy/jobs/run_process.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>

namespace epoxy::jobs {
namespace {

/// Field 22 of /proc/<pid>/stat: the process's start time in clock ticks since boot (0: unknown).
int64_t StartTicks(int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
    if (i == 22) return std::atoll(field.c_str());
  }
  return 0;
}

std::string HostName() {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

}  // namespace

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

ProcessIdentity ThisProcess() {
  ProcessIdentity p;
  p.pid = ::getpid();
  p.start_ticks = StartTicks(p.pid);
  p.host = HostName();
  return p;
}

catalog::Json ProcessFields(const ProcessIdentity& process) {
  return {{"Pid", process.pid}, {"StartTicks", process.start_ticks}, {"Host", process.host}, {"Heartbeat", NowSeconds()}};
}

bool RunProcessIsGone(const catalog::StoredRun& run) {
  const catalog::Json& in = run.internal;
  const int64_t pid = in.value("Pid", int64_t{0});
  if (in.value("Host", "") != HostName()) {
    return NowSeconds() - in.value("Heartbeat", 0.0) > kHeartbeatTimeoutSeconds;
  }
  if (pid <= 0) return true;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return true;
  const int64_t recorded = in.value("StartTicks", int64_t{0});
  return recorded != 0 && StartTicks(pid) != recorded;  // the pid was reused
}

}  // namespace epoxy::jobs
