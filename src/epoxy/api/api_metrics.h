// SPDX-License-Identifier: Apache-2.0
// ApiMetrics: what GET /metrics reports, in Prometheus' text format: requests and their latency
// by operation, and errors by type.
#pragma once

#include <map>
#include <mutex>
#include <string>

namespace epoxy::api {

class ApiMetrics {
 public:
  void Record(const std::string& operation, double seconds, const std::string& error_type);
  std::string Text() const;

 private:
  struct PerOperation {
    long long count = 0;
    double seconds = 0;
    long long buckets[8] = {};  // <= 1 ms, 5 ms, 10 ms, 50 ms, 100 ms, 500 ms, 1 s, 5 s
  };
  mutable std::mutex mu_;
  std::map<std::string, PerOperation> operations_;
  std::map<std::string, long long> errors_;
};

}  // namespace epoxy::api
