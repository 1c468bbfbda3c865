// SPDX-License-Identifier: Apache-2.0
// RecordError: a malformed record, reported instead of stopping the read (a DynamicFrame error
// record); ErrorSink collects them.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace epoxy {

struct RecordError {
  std::string path;
  int64_t line = 0;         // 1-based; 0 when unknown
  int64_t byte_offset = 0;  // in the (decompressed) file
  std::string reason;

  /// "path:line: reason".
  std::string ToString() const;
};

/// Collects errors from reader threads. Thread-safe. Keeps the first `max_kept` in full and counts
/// the rest, so a file of garbage cannot exhaust memory through its errors.
class ErrorSink {
 public:
  explicit ErrorSink(size_t max_kept = 10000) : max_kept_(max_kept) {}
  void Add(RecordError error);
  void AddAll(std::vector<RecordError> errors);
  int64_t count() const;
  /// The kept errors, in the order they arrived.
  std::vector<RecordError> errors() const;

 private:
  size_t max_kept_;
  mutable std::mutex mu_;
  std::vector<RecordError> errors_;  // guarded by mu_
  int64_t count_ = 0;                // guarded by mu_
};

}  // namespace epoxy
