// SPDX-License-Identifier: Apache-2.0
#include "epoxy/common/process_identity.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

namespace epoxy {
namespace {

/// Fields 3 (the state: R, S, D, Z...) and 22 (the start time in clock ticks since boot) of
/// /proc/<pid>/stat; state '?' and 0 ticks when unknown.
std::pair<char, int64_t> StateAndStartTicks(int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos || close + 2 >= text.size()) return {'?', 0};
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  char state = '?';
  for (int i = 3; i <= 22 && fields >> field; ++i) {
    if (i == 3) state = field[0];
    if (i == 22) return {state, std::atoll(field.c_str())};
  }
  return {state, 0};
}

}  // namespace

std::string HostName() {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

ProcessIdentity ThisProcess() {
  ProcessIdentity p;
  p.pid = ::getpid();
  p.start_ticks = StateAndStartTicks(p.pid).second;
  p.host = HostName();
  return p;
}

bool LocalProcessIsGone(const ProcessIdentity& process) {
  if (process.host != HostName()) return false;
  if (process.pid <= 0) return true;
  if (::kill(static_cast<pid_t>(process.pid), 0) != 0 && errno == ESRCH) return true;
  const auto [state, ticks] = StateAndStartTicks(process.pid);
  // A zombie has ended: nobody reaped it yet (in a container, PID 1 may never do so).
  if (state == 'Z' || state == 'X') return true;
  return process.start_ticks != 0 && ticks != process.start_ticks;  // the pid was reused
}

}  // namespace epoxy
