// SPDX-License-Identifier: Apache-2.0
// EPOXY_CHECK / EPOXY_DCHECK: invariants whose failure is a bug; they print and abort.
#pragma once

#include <sstream>
#include <string>

namespace epoxy::internal {

/// Collects a failure message and aborts in its destructor.
class CheckFailure {
 public:
  CheckFailure(const char* file, int line, const char* condition);
  ~CheckFailure();  // aborts
  CheckFailure(const CheckFailure&) = delete;
  CheckFailure& operator=(const CheckFailure&) = delete;

  template <typename T>
  CheckFailure& operator<<(const T& value) {
    stream_ << value;
    return *this;
  }

 private:
  std::ostringstream stream_;
};

/// Lets the macros below be used as statements that accept `<< message`.
struct Voidify {
  void operator&(const CheckFailure&) {}
};

}  // namespace epoxy::internal

#define EPOXY_CHECK(condition)                                  \
  (condition) ? (void)0                                         \
              : ::epoxy::internal::Voidify() &                  \
                    ::epoxy::internal::CheckFailure(__FILE__, __LINE__, #condition)

#define EPOXY_CHECK_OP(a, op, b)                                                          \
  ((a)op(b)) ? (void)0                                                                    \
             : ::epoxy::internal::Voidify() &                                             \
                   ::epoxy::internal::CheckFailure(__FILE__, __LINE__, #a " " #op " " #b) \
                       << "(" << (a) << " vs " << (b) << ") "

#define EPOXY_CHECK_EQ(a, b) EPOXY_CHECK_OP(a, ==, b)
#define EPOXY_CHECK_LE(a, b) EPOXY_CHECK_OP(a, <=, b)
#define EPOXY_CHECK_LT(a, b) EPOXY_CHECK_OP(a, <, b)
#define EPOXY_CHECK_GE(a, b) EPOXY_CHECK_OP(a, >=, b)

#ifdef EPOXY_DEBUG
#define EPOXY_DCHECK(condition) EPOXY_CHECK(condition)
#define EPOXY_DCHECK_EQ(a, b) EPOXY_CHECK_EQ(a, b)
#define EPOXY_DCHECK_LE(a, b) EPOXY_CHECK_LE(a, b)
#define EPOXY_DCHECK_LT(a, b) EPOXY_CHECK_LT(a, b)
#else
#define EPOXY_DCHECK(condition) \
  while (false) EPOXY_CHECK(condition)
#define EPOXY_DCHECK_EQ(a, b) \
  while (false) EPOXY_CHECK_EQ(a, b)
#define EPOXY_DCHECK_LE(a, b) \
  while (false) EPOXY_CHECK_LE(a, b)
#define EPOXY_DCHECK_LT(a, b) \
  while (false) EPOXY_CHECK_LT(a, b)
#endif
