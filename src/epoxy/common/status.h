// SPDX-License-Identifier: Apache-2.0
// Status: the outcome of a fallible call, an OK or a code plus a message.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace epoxy {

/// What went wrong. Front ends map these in one table each: the CLI to exit codes, the API server
/// to AWS error shapes, Python to exception classes.
enum class StatusCode : int {
  kOk = 0,
  kInvalidInput,     // bad user input: options, expressions, type strings (InvalidInputException)
  kInvalidData,      // malformed or corrupt data in a file
  kNotFound,         // a file, object or entity is missing (EntityNotFoundException)
  kAlreadyExists,    // (AlreadyExistsException)
  kIOError,          // the OS or network failed
  kOutOfMemory,      // an allocation would exceed the memory limit
  kNotSupported,     // valid input that epoxy does not handle (yet), named in the message
  kCancelled,
  kInternal,         // a bug in epoxy
};

/// Short stable name of a code ("InvalidInput", ...).
std::string_view StatusCodeName(StatusCode code);

/// An OK status is a null pointer, so passing it around costs nothing (as in LevelDB).
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message);

  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }

  template <typename... Args>
  static Status InvalidInput(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kInvalidInput, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status InvalidData(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kInvalidData, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status NotFound(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kNotFound, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status AlreadyExists(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kAlreadyExists, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status IOError(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kIOError, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status OutOfMemory(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kOutOfMemory, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status NotSupported(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kNotSupported, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status Cancelled(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kCancelled, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status Internal(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kInternal, fmt::format(f, std::forward<Args>(args)...));
  }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  /// The message alone; empty for OK.
  const std::string& message() const;
  /// "InvalidData: message", or "OK".
  std::string ToString() const;

  /// Returns a copy whose message is "context: message"; OK stays OK.
  Status WithContext(std::string_view context) const;

 private:
  struct State {
    StatusCode code;
    std::string message;
  };
  std::unique_ptr<State> state_;
};

}  // namespace epoxy

/// Returns from the calling function when `expr` yields a failed Status.
#define EPOXY_RETURN_NOT_OK(expr)                 \
  do {                                            \
    ::epoxy::Status _epoxy_status = (expr);       \
    if (!_epoxy_status.ok()) return _epoxy_status; \
  } while (false)
