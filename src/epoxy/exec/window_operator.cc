// SPDX-License-Identifier: Apache-2.0
// Windows: rows with their PARTITION BY keys, ORDER BY keys and call arguments evaluated in the
// pool's tasks, hash-partitioned by the PARTITION BY keys into an exchange (spilled past the
// budget); each partition is then sorted and its window values computed, a few partitions at a
// time, their rows streamed out as each completes. A partition too large is split again.
#include "epoxy/exec/hash_table.h"
#include "epoxy/exec/partition_work.h"
#include "epoxy/exec/pipeline.h"
#include "epoxy/vector/compare.h"
#include "epoxy/exec/sort_keys.h"
#include "epoxy/exec/window_functions.h"
#include "epoxy/expr/evaluator.h"

namespace epoxy::exec {
namespace {

constexpr int kPartitionBits = 5;
constexpr int kMaxDepth = 3;  // 32^4 partitions in all
constexpr int64_t kOutputRows = 1 << 16;

/// Arguments that are values (lag's offset and the nth position are constants, read from the call).
std::vector<size_t> ValueArguments(const expr::Expr& call) {
  if (call.op == "lag" || call.op == "lead") return call.args.size() >= 3 ? std::vector<size_t>{0, 2} : std::vector<size_t>{0};
  if (call.op == "ntile" || call.args.empty()) return {};
  return {0};
}

bool SameRow(const std::vector<const Array*>& columns, int64_t a, int64_t b) {
  for (const Array* c : columns) {
    const bool na = c->IsNull(a), nb = c->IsNull(b);
    if (na != nb) return false;
    if (!na && CompareValues(*c, a, *c, b) != 0) return false;
  }
  return true;
}

class WindowOperator final : public Operator {
 public:
  WindowOperator(plan::PlanPtr node, std::unique_ptr<ParallelPipeline> input, ExecContext* context)
      : node_(std::move(node)), input_(std::move(input)), context_(context) {
    const Schema& in = *node_->inputs[0]->schema;
    width_ = in.num_fields();
    std::vector<Field> fields = in.fields();
    std::vector<plan::SortKey> order;
    for (const auto& k : node_->keys) {
      fields.push_back({"partition key", k->type});
      order.push_back({k, true, true});
    }
    for (const auto& k : node_->sort_keys) {
      fields.push_back({"order key", k.expr->type});
      order.push_back(k);
    }
    for (const auto& c : node_->window_calls) {
      first_arg_.push_back(fields.size());
      for (size_t a : ValueArguments(*c)) fields.push_back({"argument", c->args[a]->type});
    }
    keyed_ = Schema::Make(std::move(fields));
    order_ = std::make_unique<RowOrder>(std::move(order), width_);
    std::vector<TypePtr> key_types;
    for (const auto& k : node_->keys) key_types.push_back(k->type);
    encoder_ = std::make_unique<KeyEncoder>(key_types, true);
  }

  Result<BatchPtr> Next() override {
    if (!done_) {
      done_ = true;
      EPOXY_RETURN_NOT_OK(Run());
    }
    return partitions_->Next();
  }
  void Report(RunMetrics* m) const override { input_->Report(m); }

 private:
  Status Run() {
    const int partitions = node_->keys.empty() ? 1 : 1 << kPartitionBits;
    auto exchange = std::make_shared<PartitionedBuffer>(keyed_, partitions, &context_->spill);
    EPOXY_RETURN_NOT_OK(input_->Drain([&](BatchPtr batch) -> Status {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr keyed, WithKeys(batch));
      EPOXY_RETURN_NOT_OK(Scatter(keyed, 0, exchange.get()));
      if (context_->spill.OverBudget()) EPOXY_RETURN_NOT_OK(exchange->SpillAll());
      return Status::OK();
    }));
    context_->spilled_bytes += exchange->spilled_bytes();
    partitions_ = std::make_unique<PartitionWork>(
        context_->pool, context_->pool->num_threads(),
        [this](const PartitionWork::Item& item, PartitionWork* work, std::vector<BatchPtr>* out) {
          return ComputePartition(item, work, out);
        });
    partitions_->AddAll(exchange, 0);
    return Status::OK();
  }

  /// Splits keyed rows by the hash of their PARTITION BY keys (bits for recursion `depth`).
  Status Scatter(const BatchPtr& keyed, int depth, PartitionedBuffer* out) const {
    if (out->num_partitions() == 1) return out->Append(0, keyed);
    std::vector<ArrayPtr> keys(keyed->columns().begin() + width_,
                               keyed->columns().begin() + width_ + static_cast<long>(node_->keys.size()));
    EncodedKeys encoded;
    EPOXY_RETURN_NOT_OK(encoder_->Encode(keys, keyed->num_rows(), &encoded));
    std::vector<std::vector<int32_t>> rows(static_cast<size_t>(out->num_partitions()));
    for (int64_t i = 0; i < keyed->num_rows(); ++i) {
      rows[static_cast<size_t>(PartitionOf(encoded.hashes[static_cast<size_t>(i)], kPartitionBits, depth))].push_back(static_cast<int32_t>(i));
    }
    for (size_t p = 0; p < rows.size(); ++p) {
      if (rows[p].empty()) continue;
      EPOXY_ASSIGN_OR_RETURN(BatchPtr part, TakeBatch(keyed, rows[p], context_->memory));
      EPOXY_RETURN_NOT_OK(out->Append(static_cast<int>(p), std::move(part)));
    }
    return Status::OK();
  }

  /// A partition too large to sort in one task's memory is split by the next bits of the hash,
  /// unless every row has the same PARTITION BY values (then it cannot be split: it must fit).
  Result<bool> SplitIfLarge(const PartitionWork::Item& item, PartitionWork* work) {
    if (node_->keys.empty() || item.depth >= kMaxDepth ||
        item.buffer->partition_bytes(item.partition) <= context_->spill.task_budget()) {
      return false;
    }
    EPOXY_ASSIGN_OR_RETURN(PartitionedBuffer::Reader reader, item.buffer->Read(item.partition));
    auto split = std::make_shared<PartitionedBuffer>(keyed_, 1 << kPartitionBits, &context_->spill);
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr b, reader.Next());
      if (b == nullptr) break;
      EPOXY_RETURN_NOT_OK(Scatter(b, item.depth + 1, split.get()));
      EPOXY_RETURN_NOT_OK(split->SpillAll());
    }
    ++context_->spilled_partitions;
    context_->spilled_bytes += split->spilled_bytes();
    work->AddAll(split, item.depth + 1);
    return true;
  }

  Result<BatchPtr> WithKeys(const BatchPtr& batch) const {
    std::vector<ArrayPtr> columns = batch->columns();
    auto add = [&](const expr::Expr& e) -> Status {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr value, expr::EvaluateToArray(e, *batch, context_->memory));
      columns.push_back(std::move(value));
      return Status::OK();
    };
    for (const auto& k : node_->keys) EPOXY_RETURN_NOT_OK(add(*k));
    for (const auto& k : node_->sort_keys) EPOXY_RETURN_NOT_OK(add(*k.expr));
    for (const auto& c : node_->window_calls) {
      for (size_t a : ValueArguments(*c)) EPOXY_RETURN_NOT_OK(add(*c->args[a]));
    }
    return Batch::Make(keyed_, std::move(columns), batch->num_rows());
  }

  Status ComputePartition(const PartitionWork::Item& item, PartitionWork* work, std::vector<BatchPtr>* out) {
    EPOXY_ASSIGN_OR_RETURN(bool split, SplitIfLarge(item, work));
    if (split) return Status::OK();
    EPOXY_ASSIGN_OR_RETURN(PartitionedBuffer::Reader reader, item.buffer->Read(item.partition));
    std::vector<BatchPtr> batches;
    int64_t rows = 0;
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr b, reader.Next());
      if (b == nullptr) break;
      rows += b->num_rows();
      batches.push_back(std::move(b));
    }
    if (rows > static_cast<int64_t>(UINT32_MAX)) return Status::OutOfMemory("a window partition of more than 4 billion rows");
    std::vector<SortEntry> entries;
    entries.reserve(static_cast<size_t>(rows));
    for (size_t b = 0; b < batches.size(); ++b) order_->AddEntries(*batches[b], static_cast<uint32_t>(b), &entries);
    order_->Sort(&entries, batches, nullptr);
    EPOXY_ASSIGN_OR_RETURN(std::vector<BatchPtr> sorted, GatherSorted(entries, batches, keyed_, rows, context_->memory));
    batches.clear();
    entries = {};
    const Batch& all = *sorted[0];
    const size_t num_keys = node_->keys.size(), num_order = node_->sort_keys.size();
    std::vector<const Array*> partition_columns, peer_columns;
    for (size_t k = 0; k < num_keys; ++k) partition_columns.push_back(all.column(width_ + static_cast<int>(k)).get());
    peer_columns = partition_columns;
    for (size_t k = 0; k < num_order; ++k) peer_columns.push_back(all.column(width_ + static_cast<int>(num_keys + k)).get());
    WindowRows window;
    window.num_rows = rows;
    window.segment_start.resize(static_cast<size_t>(rows));
    window.segment_end.resize(static_cast<size_t>(rows));
    window.peer_start.resize(static_cast<size_t>(rows));
    window.peer_end.resize(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) {
      const bool new_segment = i == 0 || !SameRow(partition_columns, i, i - 1);
      const bool new_peers = new_segment || !SameRow(peer_columns, i, i - 1);
      window.segment_start[static_cast<size_t>(i)] = new_segment ? i : window.segment_start[static_cast<size_t>(i - 1)];
      window.peer_start[static_cast<size_t>(i)] = new_peers ? i : window.peer_start[static_cast<size_t>(i - 1)];
    }
    for (int64_t i = rows - 1; i >= 0; --i) {
      const bool last_of_segment = i == rows - 1 || window.segment_start[static_cast<size_t>(i + 1)] != window.segment_start[static_cast<size_t>(i)];
      const bool last_of_peers = i == rows - 1 || window.peer_start[static_cast<size_t>(i + 1)] != window.peer_start[static_cast<size_t>(i)];
      window.segment_end[static_cast<size_t>(i)] = last_of_segment ? i + 1 : window.segment_end[static_cast<size_t>(i + 1)];
      window.peer_end[static_cast<size_t>(i)] = last_of_peers ? i + 1 : window.peer_end[static_cast<size_t>(i + 1)];
    }
    if (num_order == 1) {
      window.order_key = all.column(width_ + static_cast<int>(num_keys)).get();
      window.order_ascending = node_->sort_keys[0].ascending;
    }
    std::vector<ArrayPtr> columns(all.columns().begin(), all.columns().begin() + width_);
    for (size_t c = 0; c < node_->window_calls.size(); ++c) {
      const expr::Expr& call = *node_->window_calls[c];
      std::vector<ArrayPtr> args;
      size_t at = first_arg_[c];
      for (size_t a : ValueArguments(call)) {
        (void)a;
        args.push_back(all.column(static_cast<int>(at++)));
      }
      // lag(x, n, default): the default sits third, as the call's own argument list has it.
      if ((call.op == "lag" || call.op == "lead") && args.size() == 2) args.insert(args.begin() + 1, nullptr);
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr value, ComputeWindowFunction(call, args, window, context_->memory));
      columns.push_back(std::move(value));
    }
    BatchPtr result = Batch::Make(node_->schema, std::move(columns), rows);
    for (int64_t start = 0; start < rows; start += kOutputRows) {
      out->push_back(start == 0 && rows <= kOutputRows ? result : result->Slice(start, std::min(kOutputRows, rows - start)));
    }
    return Status::OK();
  }

  plan::PlanPtr node_;
  std::unique_ptr<ParallelPipeline> input_;
  ExecContext* context_;
  int width_ = 0;
  SchemaPtr keyed_;
  std::vector<size_t> first_arg_;
  std::unique_ptr<RowOrder> order_;
  std::unique_ptr<KeyEncoder> encoder_;
  bool done_ = false;
  std::unique_ptr<PartitionWork> partitions_;  // the second phase, streaming
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeWindow(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                             ExecContext* context) {
  return std::unique_ptr<Operator>(new WindowOperator(node, std::move(input), context));
}

}  // namespace epoxy::exec
