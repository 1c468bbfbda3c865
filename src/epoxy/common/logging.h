// SPDX-License-Identifier: Apache-2.0
// EPOXY_LOG: a small facade over spdlog. Library code rarely logs; it returns a Status.
#pragma once

#include <string_view>

#include <fmt/format.h>

namespace epoxy {

enum class LogLevel { kDebug, kInfo, kWarning, kError };

/// Writes one line to the process logger (stderr text by default). Thread-safe.
void LogMessage(LogLevel level, std::string_view message);
/// Lines below `level` are dropped. Default kWarning; EPOXY_LOG_LEVEL=debug|info|warning|error.
void SetLogLevel(LogLevel level);
bool LogEnabled(LogLevel level);

}  // namespace epoxy

#define EPOXY_LOG(level, ...)                                                   \
  do {                                                                          \
    if (::epoxy::LogEnabled(::epoxy::LogLevel::level)) {                        \
      ::epoxy::LogMessage(::epoxy::LogLevel::level, fmt::format(__VA_ARGS__)); \
    }                                                                           \
  } while (false)
