// SPDX-License-Identifier: Apache-2.0
#include "epoxy/common/process_identity.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace epoxy {
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

}  // namespace

std::string HostName() {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

ProcessIdentity ThisProcess() {
  ProcessIdentity p;
  p.pid = ::getpid();
  p.start_ticks = StartTicks(p.pid);
  p.host = HostName();
  return p;
}

bool LocalProcessIsGone(const ProcessIdentity& process) {
  if (process.host != HostName()) return false;
  if (process.pid <= 0) return true;
  if (::kill(static_cast<pid_t>(process.pid), 0) != 0 && errno == ESRCH) return true;
  return process.start_ticks != 0 && StartTicks(process.pid) != process.start_ticks;  // the pid was reused
}

}  // namespace epoxy
