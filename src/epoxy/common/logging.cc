// SPDX-License-Identifier: Apache-2.0
// Logging through spdlog's stderr sink.
#include "epoxy/common/logging.h"

#include <atomic>
#include <cstdlib>
#include <string>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace epoxy {
namespace {

LogLevel LevelFromEnvironment() {
  const char* value = std::getenv("EPOXY_LOG_LEVEL");
  if (value == nullptr) return LogLevel::kWarning;
  std::string_view v(value);
  if (v == "debug") return LogLevel::kDebug;
  if (v == "info") return LogLevel::kInfo;
  if (v == "error") return LogLevel::kError;
  return LogLevel::kWarning;
}

std::atomic<int> g_level{static_cast<int>(LevelFromEnvironment())};

spdlog::logger& Logger() {
  static auto logger = [] {
    auto l = spdlog::stderr_logger_mt("epoxy");
    l->set_pattern("epoxy: %l: %v");
    l->set_level(spdlog::level::trace);
    return l;
  }();
  return *logger;
}

}  // namespace

void SetLogLevel(LogLevel level) { g_level.store(static_cast<int>(level)); }

bool LogEnabled(LogLevel level) { return static_cast<int>(level) >= g_level.load(); }

void LogMessage(LogLevel level, std::string_view message) {
  switch (level) {
    case LogLevel::kDebug: Logger().debug("{}", message); break;
    case LogLevel::kInfo: Logger().info("{}", message); break;
    case LogLevel::kWarning: Logger().warn("{}", message); break;
    case LogLevel::kError: Logger().error("{}", message); break;
  }
}

}  // namespace epoxy
