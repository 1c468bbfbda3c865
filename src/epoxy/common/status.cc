// SPDX-License-Identifier: Apache-2.0
// Status implementation.
#include "epoxy/common/status.h"

namespace epoxy {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidInput: return "InvalidInput";
    case StatusCode::kInvalidData: return "InvalidData";
    case StatusCode::kNotFound: return "NotFound";
    case StatusCode::kAlreadyExists: return "AlreadyExists";
    case StatusCode::kIOError: return "IOError";
    case StatusCode::kOutOfMemory: return "OutOfMemory";
    case StatusCode::kNotSupported: return "NotSupported";
    case StatusCode::kCancelled: return "Cancelled";
    case StatusCode::kInternal: return "Internal";
  }
  return "Unknown";
}

Status::Status(StatusCode code, std::string message)
    : state_(code == StatusCode::kOk ? nullptr
                                     : std::make_unique<State>(State{code, std::move(message)})) {}

Status::Status(const Status& other)
    : state_(other.state_ ? std::make_unique<State>(*other.state_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) state_ = other.state_ ? std::make_unique<State>(*other.state_) : nullptr;
  return *this;
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return state_ ? state_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return fmt::format("{}: {}", StatusCodeName(state_->code), state_->message);
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return Status();
  return Status(state_->code, fmt::format("{}: {}", context, state_->message));
}

}  // namespace epoxy
