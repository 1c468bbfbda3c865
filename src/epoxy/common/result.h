// SPDX-License-Identifier: Apache-2.0
// Result<T>: a value or a failed Status.
#pragma once

#include <utility>
#include <variant>

#include "epoxy/common/check.h"
#include "epoxy/common/status.h"

namespace epoxy {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Status status) : storage_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    EPOXY_CHECK(!std::get<Status>(storage_).ok()) << "Result built from an OK status";
  }
  template <typename U>
    requires std::is_convertible_v<U, T> && (!std::is_same_v<std::decay_t<U>, T>) &&
             (!std::is_same_v<std::decay_t<U>, Status>)
  Result(U&& value) : storage_(T(std::forward<U>(value))) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(storage_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(storage_); }

  /// REQUIRES: ok().
  T& ValueOrDie() & {
    EPOXY_CHECK(ok()) << std::get<Status>(storage_).ToString();
    return std::get<T>(storage_);
  }
  const T& ValueOrDie() const& {
    EPOXY_CHECK(ok()) << std::get<Status>(storage_).ToString();
    return std::get<T>(storage_);
  }
  T&& ValueOrDie() && {
    EPOXY_CHECK(ok()) << std::get<Status>(storage_).ToString();
    return std::get<T>(std::move(storage_));
  }
  T& operator*() & { return ValueOrDie(); }
  const T& operator*() const& { return ValueOrDie(); }
  T&& operator*() && { return std::move(*this).ValueOrDie(); }
  T* operator->() { return &ValueOrDie(); }
  const T* operator->() const { return &ValueOrDie(); }

 private:
  std::variant<Status, T> storage_;
};

}  // namespace epoxy

#define EPOXY_CONCAT_INNER(a, b) a##b
#define EPOXY_CONCAT(a, b) EPOXY_CONCAT_INNER(a, b)

#define EPOXY_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).ValueOrDie();

/// `EPOXY_ASSIGN_OR_RETURN(auto x, MakeX());` declares x from a Result or returns its Status.
#define EPOXY_ASSIGN_OR_RETURN(lhs, rexpr) \
  EPOXY_ASSIGN_OR_RETURN_IMPL(EPOXY_CONCAT(_epoxy_result_, __LINE__), lhs, rexpr)
