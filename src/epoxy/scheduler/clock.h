// SPDX-License-Identifier: Apache-2.0
// The scheduler's one source of time, so that tests move time forward instead of waiting for it.
#pragma once

#include <atomic>
#include <chrono>

namespace epoxy::scheduler {

class Clock {
 public:
  virtual ~Clock() = default;
  /// Seconds since the epoch (UTC).
  virtual double Now() const = 0;
};

class SystemClock final : public Clock {
 public:
  double Now() const override {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  }
};

/// Starts at the system's time and moves only when advanced (epoxy serve --test-clock).
class ManualClock final : public Clock {
 public:
  ManualClock() : now_(SystemClock().Now()) {}
  double Now() const override { return now_.load(); }
  void Advance(double seconds) { now_.store(now_.load() + seconds); }
  void Set(double seconds) { now_.store(seconds); }

 private:
  std::atomic<double> now_;
};

}  // namespace epoxy::scheduler
