// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/partition_reader.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "epoxy/database/column_decoder.h"

namespace epoxy::database {
namespace {

class PartitionReader final : public RecordReader {
 public:
  explicit PartitionReader(PartitionReadSpec spec) : spec_(std::move(spec)) {}

  ~PartitionReader() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    changed_.notify_all();
    for (auto& t : threads_) t.join();
  }

  Status Start() {
    const size_t n = spec_.queries.size();
    if (n == 1) {  // one partition: read on the scan's own thread
      EPOXY_ASSIGN_OR_RETURN(cursor_, spec_.clients[0]->Stream(spec_.queries[0].sql, spec_.queries[0].params, spec_.fetch_size));
      return Status::OK();
    }
    running_ = n;
    for (size_t i = 0; i < n; ++i) threads_.emplace_back([this, i] { ReadPartition(i); });
    return Status::OK();
  }

  Result<BatchPtr> Next() override {
    if (threads_.empty()) {
      while (cursor_ != nullptr) {
        EPOXY_ASSIGN_OR_RETURN(auto block, cursor_->Fetch());
        if (block == nullptr) {
          cursor_.reset();
          break;
        }
        EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, ToBatch(*block));
        if (batch->num_rows() > 0) return batch;
      }
      return BatchPtr();
    }
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return !queue_.empty() || !error_.ok() || running_ == 0; });
    if (!error_.ok()) return error_;
    if (queue_.empty()) return BatchPtr();
    BatchPtr batch = std::move(queue_.front());
    queue_.pop_front();
    changed_.notify_all();
    return batch;
  }

 private:
  void ReadPartition(size_t i) {
    Status st = [&]() -> Status {
      EPOXY_ASSIGN_OR_RETURN(auto cursor, spec_.clients[i]->Stream(spec_.queries[i].sql, spec_.queries[i].params, spec_.fetch_size));
      while (true) {
        {
          std::lock_guard lock(mu_);
          if (stop_ || !error_.ok()) return Status::OK();
        }
        EPOXY_ASSIGN_OR_RETURN(auto block, cursor->Fetch());
        if (block == nullptr) return Status::OK();
        EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, ToBatch(*block));
        std::unique_lock lock(mu_);
        changed_.wait(lock, [&] { return stop_ || queue_.size() < 2 * spec_.queries.size(); });
        if (stop_) return Status::OK();
        queue_.push_back(std::move(batch));
        changed_.notify_all();
      }
    }();
    std::lock_guard lock(mu_);
    if (!st.ok() && error_.ok()) error_ = st;
    --running_;
    changed_.notify_all();
  }

  /// The block's output columns, without the rows an earlier run read.
  Result<BatchPtr> ToBatch(const RowBlock& block) {
    std::vector<int32_t> kept;
    const std::vector<int32_t>* rows = nullptr;
    const int out = static_cast<int>(spec_.columns.size());
    if (spec_.skip != nullptr && !spec_.skip->empty()) {
      for (int64_t r = 0; r < block.num_rows(); ++r) {
        if (spec_.skip->count(RowIdentity(block, r, out, spec_.identity_count)) == 0) kept.push_back(static_cast<int32_t>(r));
      }
      rows = &kept;
    }
    const int64_t n = rows ? static_cast<int64_t>(rows->size()) : block.num_rows();
    std::vector<ArrayPtr> columns;
    for (int c = 0; c < out; ++c) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, DecodeColumn(block, c, rows, spec_.columns[static_cast<size_t>(c)], spec_.memory));
      columns.push_back(std::move(column));
    }
    if (spec_.bookmark != nullptr) spec_.bookmark->AddRowsRead(n);
    return Batch::Make(spec_.schema, std::move(columns), n);
  }

  PartitionReadSpec spec_;
  std::unique_ptr<Cursor> cursor_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<BatchPtr> queue_;
  Status error_;
  size_t running_ = 0;
  bool stop_ = false;
};

}  // namespace

Result<std::unique_ptr<RecordReader>> MakePartitionReader(PartitionReadSpec spec) {
  auto reader = std::make_unique<PartitionReader>(std::move(spec));
  EPOXY_RETURN_NOT_OK(reader->Start());
  return std::unique_ptr<RecordReader>(std::move(reader));
}

}  // namespace epoxy::database
