// SPDX-License-Identifier: Apache-2.0
// RecordError and ErrorSink.
#include "epoxy/format/record_error.h"

#include <fmt/format.h>

namespace epoxy {

std::string RecordError::ToString() const {
  if (line > 0) return fmt::format("{}:{}: {}", path, line, reason);
  return fmt::format("{} (byte {}): {}", path, byte_offset, reason);
}

void ErrorSink::Add(RecordError error) {
  std::lock_guard lock(mu_);
  ++count_;
  if (errors_.size() < max_kept_) errors_.push_back(std::move(error));
}

void ErrorSink::AddAll(std::vector<RecordError> errors) {
  std::lock_guard lock(mu_);
  for (auto& e : errors) {
    ++count_;
    if (errors_.size() < max_kept_) errors_.push_back(std::move(e));
  }
}

int64_t ErrorSink::count() const {
  std::lock_guard lock(mu_);
  return count_;
}

std::vector<RecordError> ErrorSink::errors() const {
  std::lock_guard lock(mu_);
  return errors_;
}

}  // namespace epoxy
