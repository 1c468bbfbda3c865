// SPDX-License-Identifier: Apache-2.0
// repartition(n[, keys]) and coalesce(n): rows spread over n groups (by a hash of the keys, row by
// row round robin without keys, whole batches for coalesce), held in an exchange that spills,
// then emitted group after group with a GroupBoundary between, so a writer starts new files.
#include <atomic>

#include "epoxy/exec/hash_table.h"
#include "epoxy/exec/pipeline.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

class RepartitionOperator final : public Operator {
 public:
  RepartitionOperator(plan::PlanPtr node, std::unique_ptr<ParallelPipeline> input, ExecContext* context)
      : node_(std::move(node)), input_(std::move(input)), context_(context),
        groups_(node_->schema, static_cast<int>(node_->num_partitions), &context_->spill) {
    std::vector<TypePtr> types;
    for (const auto& k : node_->keys) types.push_back(k->type);
    encoder_ = std::make_unique<KeyEncoder>(types, true);
  }

  Result<BatchPtr> Next() override {
    if (!drained_) {
      drained_ = true;
      EPOXY_RETURN_NOT_OK(input_->Drain([this](BatchPtr batch) { return Consume(std::move(batch)); }));
      context_->spilled_bytes += groups_.spilled_bytes();
    }
    while (group_ < groups_.num_partitions()) {
      if (!reader_) {
        EPOXY_ASSIGN_OR_RETURN(PartitionedBuffer::Reader r, groups_.Read(group_));
        reader_ = std::make_unique<PartitionedBuffer::Reader>(std::move(r));
      }
      EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, reader_->Next());
      if (batch != nullptr) return batch;
      reader_.reset();
      ++group_;
      if (group_ < groups_.num_partitions()) return GroupBoundary();
    }
    return BatchPtr();
  }
  void Report(RunMetrics* m) const override { input_->Report(m); }

 private:
  Status Consume(BatchPtr batch) {
    const int n = groups_.num_partitions();
    if (node_->coalesce) return groups_.Append(static_cast<int>(next_batch_++ % n), std::move(batch));
    std::vector<std::vector<int32_t>> rows(static_cast<size_t>(n));
    if (node_->keys.empty()) {
      const int64_t start = next_row_.fetch_add(batch->num_rows());
      for (int64_t i = 0; i < batch->num_rows(); ++i) rows[static_cast<size_t>((start + i) % n)].push_back(static_cast<int32_t>(i));
    } else {
      std::vector<ArrayPtr> keys;
      for (const auto& k : node_->keys) {
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr key, expr::EvaluateToArray(*k, *batch, context_->memory));
        keys.push_back(std::move(key));
      }
      EncodedKeys encoded;
      EPOXY_RETURN_NOT_OK(encoder_->Encode(keys, batch->num_rows(), &encoded));
      for (int64_t i = 0; i < batch->num_rows(); ++i) {
        rows[static_cast<size_t>(encoded.hashes[static_cast<size_t>(i)] % static_cast<uint64_t>(n))].push_back(static_cast<int32_t>(i));
      }
    }
    for (int g = 0; g < n; ++g) {
      if (rows[static_cast<size_t>(g)].empty()) continue;
      EPOXY_ASSIGN_OR_RETURN(BatchPtr part, TakeBatch(batch, rows[static_cast<size_t>(g)], context_->memory));
      EPOXY_RETURN_NOT_OK(groups_.Append(g, std::move(part)));
    }
    if (context_->spill.OverBudget()) return groups_.SpillAll();
    return Status::OK();
  }

  plan::PlanPtr node_;
  std::unique_ptr<ParallelPipeline> input_;
  ExecContext* context_;
  PartitionedBuffer groups_;
  std::unique_ptr<KeyEncoder> encoder_;
  std::atomic<int64_t> next_row_{0};
  std::atomic<int64_t> next_batch_{0};
  bool drained_ = false;
  int group_ = 0;
  std::unique_ptr<PartitionedBuffer::Reader> reader_;
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeRepartition(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                                  ExecContext* context) {
  return std::unique_ptr<Operator>(new RepartitionOperator(node, std::move(input), context));
}

}  // namespace epoxy::exec
