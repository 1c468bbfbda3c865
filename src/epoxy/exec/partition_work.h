// SPDX-License-Identifier: Apache-2.0
// The second phase of a partitioned breaker (an aggregation's merge, a window's computation): the
// exchange's partitions processed a few at a time on the pool, their batches handed out as each
// partition completes, so the breaker's output streams instead of being held whole. A task may
// split its partition and queue the pieces.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>

#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/partitioned_buffer.h"

namespace epoxy::exec {

class PartitionWork {
 public:
  struct Item {
    std::shared_ptr<PartitionedBuffer> buffer;
    int partition = 0;
    int depth = 0;  // how many times its rows were split by hash already
  };
  /// Processes one partition, appending its output to `out`; runs on pool threads.
  using Task = std::function<Status(const Item& item, PartitionWork* work, std::vector<BatchPtr>* out)>;

  /// At most `max_in_flight` partitions are processed (and their output held) at once.
  PartitionWork(ThreadPool* pool, int max_in_flight, Task task);
  ~PartitionWork();  // waits for the tasks in flight
  PartitionWork(const PartitionWork&) = delete;
  PartitionWork& operator=(const PartitionWork&) = delete;

  /// Queues every non-empty partition of `buffer` (thread-safe: tasks queue what they split).
  void AddAll(const std::shared_ptr<PartitionedBuffer>& buffer, int depth);
  /// The next output batch, nullptr once every queued partition is done; call from one thread.
  Result<BatchPtr> Next();

 private:
  void Launch();  // REQUIRES: mu_ held

  ThreadPool* pool_;
  int max_in_flight_;
  Task task_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queued_;                         // guarded by mu_
  std::deque<std::vector<BatchPtr>> completed_;     // guarded by mu_
  int in_flight_ = 0;                               // guarded by mu_
  Status error_;                                    // guarded by mu_
  std::vector<BatchPtr> current_;  // the partition being handed out
  size_t next_ = 0;
};

}  // namespace epoxy::exec
