// SPDX-License-Identifier: Apache-2.0
// ThreadPool: a fixed set of worker threads running tasks; TaskGroup waits for a batch of them.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "epoxy/common/status.h"

namespace epoxy {

/// Runs submitted closures on `num_threads` workers. Thread-safe. Tasks must not block waiting on
/// other tasks of the same pool unless they help run them (TaskGroup::Wait does).
class ThreadPool {
 public:
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// The process pool, sized by SetDefaultThreadCount() / EPOXY_THREADS / the core count.
  static ThreadPool& Default();

  int num_threads() const { return static_cast<int>(workers_.size()); }
  void Submit(std::function<void()> task);
  /// Runs one queued task on the calling thread, if any; returns whether it ran one.
  bool RunOneQueued();

 private:
  void WorkerLoop(std::stop_token stop);

  std::mutex mu_;
  std::condition_variable_any cv_;
  std::deque<std::function<void()>> queue_;  // guarded by mu_
  std::vector<std::jthread> workers_;
};

/// Tracks a batch of tasks on a pool and keeps the first failed Status. Wait() helps run queued
/// tasks, so a TaskGroup may be used from inside a pool task without deadlock.
class TaskGroup {
 public:
  explicit TaskGroup(ThreadPool& pool) : pool_(pool) {}
  ~TaskGroup();  // waits
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  void Spawn(std::function<Status()> task);
  /// Blocks until every spawned task finished; returns the first failure.
  Status Wait();
  /// True once a task failed; long tasks may poll it to stop early.
  bool failed() const;

 private:
  ThreadPool& pool_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int pending_ = 0;   // guarded by mu_
  Status first_error_;  // guarded by mu_
};

/// Blocks until `done()` holds (read under `mu`; whoever makes it true notifies `cv`), running
/// queued pool tasks meanwhile: the task being waited for may be queued behind others, and the
/// caller may itself be a pool thread.
void HelpUntil(ThreadPool& pool, std::mutex& mu, std::condition_variable& cv,
               const std::function<bool()>& done);

/// Thread count for the default pool: SetDefaultThreadCount() if called, else EPOXY_THREADS, else
/// the number of cores.
int DefaultThreadCount();
/// Sets the default pool's size. REQUIRES: called before the first ThreadPool::Default().
void SetDefaultThreadCount(int n);

}  // namespace epoxy
