// SPDX-License-Identifier: Apache-2.0
// PartitionWork: one mutex over the queue, the completed outputs and the count in flight; the
// consumer helps run pool tasks while it waits, as every blocking wait on the pool must.
#include "epoxy/exec/partition_work.h"

namespace epoxy::exec {

PartitionWork::PartitionWork(ThreadPool* pool, int max_in_flight, Task task)
    : pool_(pool), max_in_flight_(std::max(1, max_in_flight)), task_(std::move(task)) {}

PartitionWork::~PartitionWork() {
  std::unique_lock lock(mu_);
  queued_.clear();
  lock.unlock();
  HelpUntil(*pool_, mu_, cv_, [this] { return in_flight_ == 0; });
}

void PartitionWork::AddAll(const std::shared_ptr<PartitionedBuffer>& buffer, int depth) {
  std::lock_guard lock(mu_);
  for (int p = 0; p < buffer->num_partitions(); ++p) {
    if (buffer->partition_rows(p) > 0) queued_.push_back({buffer, p, depth});
  }
}

void PartitionWork::Launch() {
  while (in_flight_ < max_in_flight_ && !queued_.empty() && error_.ok()) {
    Item item = std::move(queued_.front());
    queued_.pop_front();
    ++in_flight_;
    pool_->Submit([this, item = std::move(item)] {
      std::vector<BatchPtr> out;
      Status st = task_(item, this, &out);
      std::lock_guard lock(mu_);
      if (!st.ok() && error_.ok()) error_ = std::move(st);
      if (st.ok() && !out.empty()) completed_.push_back(std::move(out));
      --in_flight_;
      cv_.notify_all();
    });
  }
}

Result<BatchPtr> PartitionWork::Next() {
  while (true) {
    while (next_ < current_.size()) {
      BatchPtr batch = std::move(current_[next_++]);
      if (batch != nullptr && batch->num_rows() > 0) return batch;
    }
    current_.clear();
    next_ = 0;
    {
      std::lock_guard lock(mu_);
      Launch();
    }
    HelpUntil(*pool_, mu_, cv_, [this] { return !completed_.empty() || in_flight_ == 0 || !error_.ok(); });
    std::lock_guard lock(mu_);
    if (!error_.ok()) return error_;
    if (!completed_.empty()) {
      current_ = std::move(completed_.front());
      completed_.pop_front();
      Launch();  // keep the pool busy while this partition's batches are handed out
    } else if (queued_.empty()) {
      return BatchPtr();
    }
  }
}

}  // namespace epoxy::exec
