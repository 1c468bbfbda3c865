// SPDX-License-Identifier: Apache-2.0
// Failure path of EPOXY_CHECK.
#include "epoxy/common/check.h"

#include <cstdio>
#include <cstdlib>

namespace epoxy::internal {

CheckFailure::CheckFailure(const char* file, int line, const char* condition) {
  stream_ << file << ":" << line << ": check failed: " << condition << " ";
}

CheckFailure::~CheckFailure() {
  std::fprintf(stderr, "epoxy: %s\n", stream_.str().c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace epoxy::internal
