// SPDX-License-Identifier: Apache-2.0
#include "epoxy/api/api_metrics.h"

#include <fmt/format.h>

namespace epoxy::api {
namespace {
constexpr double kBounds[8] = {0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5};
}

void ApiMetrics::Record(const std::string& operation, double seconds, const std::string& error_type) {
  std::lock_guard lock(mu_);
  PerOperation& op = operations_[operation];
  ++op.count;
  op.seconds += seconds;
  for (int i = 0; i < 8; ++i) {
    if (seconds <= kBounds[i]) ++op.buckets[i];
  }
  if (!error_type.empty()) ++errors_[error_type];
}

std::string ApiMetrics::Text() const {
  std::lock_guard lock(mu_);
  std::string out;
  out += "# HELP epoxy_api_requests_total Glue API requests by operation.\n# TYPE epoxy_api_requests_total counter\n";
  for (const auto& [name, op] : operations_) out += fmt::format("epoxy_api_requests_total{{operation=\"{}\"}} {}\n", name, op.count);
  out += "# HELP epoxy_api_request_seconds Glue API latency by operation.\n# TYPE epoxy_api_request_seconds histogram\n";
  for (const auto& [name, op] : operations_) {
    for (int i = 0; i < 8; ++i) {
      out += fmt::format("epoxy_api_request_seconds_bucket{{operation=\"{}\",le=\"{}\"}} {}\n", name, kBounds[i], op.buckets[i]);
    }
    out += fmt::format("epoxy_api_request_seconds_bucket{{operation=\"{}\",le=\"+Inf\"}} {}\n", name, op.count);
    out += fmt::format("epoxy_api_request_seconds_sum{{operation=\"{}\"}} {:.6f}\n", name, op.seconds);
    out += fmt::format("epoxy_api_request_seconds_count{{operation=\"{}\"}} {}\n", name, op.count);
  }
  out += "# HELP epoxy_api_errors_total Glue API errors by exception.\n# TYPE epoxy_api_errors_total counter\n";
  for (const auto& [type, n] : errors_) out += fmt::format("epoxy_api_errors_total{{type=\"{}\"}} {}\n", type, n);
  return out;
}

}  // namespace epoxy::api
