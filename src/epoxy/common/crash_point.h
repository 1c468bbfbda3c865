// SPDX-License-Identifier: Apache-2.0
// Crash injection for the fault tests of the job commit protocol: a documented debug switch.
#pragma once

namespace epoxy {

/// With EPOXY_CRASH_AT=<point>[:<n>] in the environment, the n-th time (default the first) this
/// process reaches `point` it dies by SIGKILL, together with the `epoxy run` that started it
/// (EPOXY_RUNNER_PID), as a power loss would. Without the variable it does nothing.
void CrashPoint(const char* point);

}  // namespace epoxy
