// SPDX-License-Identifier: Apache-2.0
// PartitionedBuffer: per-partition locks, so threads appending to different partitions never wait
// on each other; spilling writes a partition's batches to its own file and drops them.
#include "epoxy/exec/partitioned_buffer.h"

namespace epoxy::exec {

int64_t SpillPolicy::limit() const {
  if (soft_limit > 0) return soft_limit;
  const int64_t hard = pool->limit();
  return hard > 0 ? hard / 4 : INT64_MAX;
}

bool SpillPolicy::OverBudget() const { return pool->bytes_allocated() > limit(); }

PartitionedBuffer::PartitionedBuffer(SchemaPtr schema, int num_partitions, const SpillPolicy* policy)
    : schema_(std::move(schema)), policy_(policy) {
  for (int i = 0; i < num_partitions; ++i) partitions_.push_back(std::make_unique<Partition>());
}

Status PartitionedBuffer::Append(int partition, BatchPtr batch) {
  if (batch == nullptr || batch->num_rows() == 0) return Status::OK();
  Partition& p = *partitions_[static_cast<size_t>(partition)];
  std::lock_guard lock(p.mu);
  p.memory_bytes += batch->buffer_bytes();
  p.rows += batch->num_rows();
  p.batches.push_back(std::move(batch));
  // Once a partition went to disk, the rest of its batches follow there in large writes; under
  // memory pressure every partition goes.
  if ((p.file != nullptr && p.memory_bytes > (4 << 20)) || policy_->OverBudget()) return SpillLocked(p);
  return Status::OK();
}

Status PartitionedBuffer::SpillLocked(Partition& p) {
  if (p.batches.empty()) return Status::OK();
  if (p.file == nullptr) {
    EPOXY_ASSIGN_OR_RETURN(p.file, SpillFile::Create(policy_->space));
  }
  const int64_t before = p.file->size_bytes();
  for (const auto& b : p.batches) EPOXY_RETURN_NOT_OK(p.file->Append(*b));
  p.batches.clear();
  p.memory_bytes = 0;
  p.file_bytes = p.file->size_bytes();
  spilled_bytes_ += p.file_bytes - before;
  return Status::OK();
}

Status PartitionedBuffer::SpillAll() {
  for (auto& p : partitions_) {
    std::lock_guard lock(p->mu);
    EPOXY_RETURN_NOT_OK(SpillLocked(*p));
  }
  return Status::OK();
}

int64_t PartitionedBuffer::partition_rows(int i) const {
  const Partition& p = *partitions_[static_cast<size_t>(i)];
  std::lock_guard lock(p.mu);
  return p.rows;
}

int64_t PartitionedBuffer::partition_bytes(int i) const {
  const Partition& p = *partitions_[static_cast<size_t>(i)];
  std::lock_guard lock(p.mu);
  return p.memory_bytes + p.file_bytes;
}

PartitionedBuffer::Reader::Reader(std::vector<BatchPtr> memory, std::unique_ptr<SpillFile> file)
    : memory_(std::move(memory)), file_(std::move(file)) {}

Result<PartitionedBuffer::Reader> PartitionedBuffer::Read(int i) {
  Partition& p = *partitions_[static_cast<size_t>(i)];
  std::lock_guard lock(p.mu);
  Reader reader(std::move(p.batches), std::move(p.file));
  p.batches.clear();
  p.memory_bytes = 0;
  p.file_bytes = 0;
  p.rows = 0;
  if (reader.file_ != nullptr) {
    EPOXY_ASSIGN_OR_RETURN(SpillFile::Reader r, reader.file_->Read(schema_, policy_->pool));
    reader.reader_ = std::make_unique<SpillFile::Reader>(std::move(r));
  }
  return reader;
}

Result<BatchPtr> PartitionedBuffer::Reader::Next() {
  if (reader_ != nullptr) {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, reader_->Next());
    if (batch != nullptr) return batch;
    reader_.reset();
    file_.reset();  // the file is gone once read
  }
  if (next_ < memory_.size()) return std::move(memory_[next_++]);
  return BatchPtr();
}

}  // namespace epoxy::exec
