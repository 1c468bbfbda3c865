// SPDX-License-Identifier: Apache-2.0
// ThreadPool and TaskGroup.
#include "epoxy/common/thread_pool.h"

#include <atomic>
#include <cstdlib>
#include <string>

namespace epoxy {
namespace {
std::atomic<int> g_thread_count{0};
}  // namespace

ThreadPool::ThreadPool(int num_threads) {
  if (num_threads < 1) num_threads = 1;
  workers_.reserve(num_threads);
  for (int i = 0; i < num_threads; ++i) {
    workers_.emplace_back([this](std::stop_token stop) { WorkerLoop(stop); });
  }
}

ThreadPool::~ThreadPool() {
  for (auto& w : workers_) w.request_stop();
  cv_.notify_all();
  workers_.clear();  // joins
}

ThreadPool& ThreadPool::Default() {
  static ThreadPool pool(DefaultThreadCount());
  return pool;
}

void ThreadPool::Submit(std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

bool ThreadPool::RunOneQueued() {
  std::function<void()> task;
  {
    std::lock_guard lock(mu_);
    if (queue_.empty()) return false;
    task = std::move(queue_.front());
    queue_.pop_front();
  }
  task();
  return true;
}

void ThreadPool::WorkerLoop(std::stop_token stop) {
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, stop, [this] { return !queue_.empty(); });
      if (queue_.empty()) return;  // stop requested
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

TaskGroup::~TaskGroup() { (void)Wait(); }

void TaskGroup::Spawn(std::function<Status()> task) {
  {
    std::lock_guard lock(mu_);
    ++pending_;
  }
  pool_.Submit([this, task = std::move(task)] {
    Status st = failed() ? Status::OK() : task();
    std::lock_guard lock(mu_);
    if (!st.ok() && first_error_.ok()) first_error_ = std::move(st);
    if (--pending_ == 0) cv_.notify_all();
  });
}

Status TaskGroup::Wait() {
  while (true) {
    {
      std::unique_lock lock(mu_);
      if (pending_ == 0) return first_error_;
    }
    // Help with queued work instead of sleeping: our own tasks may be behind others in the queue.
    if (!pool_.RunOneQueued()) {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return pending_ == 0; });
      return first_error_;
    }
  }
}

bool TaskGroup::failed() const {
  std::lock_guard lock(mu_);
  return !first_error_.ok();
}

void HelpUntil(ThreadPool& pool, std::mutex& mu, std::condition_variable& cv,
               const std::function<bool()>& done) {
  while (true) {
    {
      std::lock_guard lock(mu);
      if (done()) return;
    }
    if (!pool.RunOneQueued()) {
      std::unique_lock lock(mu);
      cv.wait(lock, done);
      return;
    }
  }
}

int DefaultThreadCount() {
  int n = g_thread_count.load();
  if (n > 0) return n;
  if (const char* env = std::getenv("EPOXY_THREADS")) {
    n = std::atoi(env);
    if (n > 0) return n;
  }
  n = static_cast<int>(std::thread::hardware_concurrency());
  return n > 0 ? n : 1;
}

void SetDefaultThreadCount(int n) { g_thread_count.store(n); }

}  // namespace epoxy
