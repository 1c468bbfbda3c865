// SPDX-License-Identifier: Apache-2.0
// Hash aggregation in two phases. Partial: each pool task leases a table, folds its batch in
// (keys and arguments evaluated in the task), and a table that grows past a bound, or meets memory
// pressure, is flushed as partial states split by hash into the exchange's partitions (which spill
// past the budget). Final: each partition's states are merged into one table and finalized, the
// partitions in parallel; a partition too large for memory is split again by the next hash bits.
// One table never flushed is finalized directly.
#include <mutex>

#include "epoxy/exec/aggregate_functions.h"
#include "epoxy/exec/hash_table.h"
#include "epoxy/exec/partition_work.h"
#include "epoxy/exec/pipeline.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/vector/builder.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

using expr::Expr;

constexpr int kPartitionBits = 5;  // 32 partitions
constexpr int kNumPartitions = 1 << kPartitionBits;
constexpr int64_t kMaxPartialGroups = 1 << 17;
constexpr int kMaxDepth = 3;  // 32^4 partitions in all

/// Arguments that are values (first(x, true)'s flag and approx_count_distinct's rsd are not).
size_t ValueArguments(const Expr& call) {
  if (call.op == "count" || call.op == "covar_pop" || call.op == "covar_samp" || call.op == "corr") return call.args.size();
  return call.args.empty() ? 0 : 1;
}

/// What every table of one aggregation shares.
struct AggregateLayout {
  plan::PlanPtr node;
  std::vector<TypePtr> key_types;
  std::unique_ptr<KeyEncoder> encoder;
  std::vector<size_t> first_state;  // column of each call's first state in intermediate batches
  SchemaPtr intermediate;           // hash, keys..., states...
  bool global = false;

  static Result<std::unique_ptr<AggregateLayout>> Make(const plan::PlanPtr& node) {
    auto layout = std::make_unique<AggregateLayout>();
    layout->node = node;
    layout->global = node->keys.empty();
    std::vector<Field> fields = {{"hash", DataType::BigInt()}};
    for (const auto& k : node->keys) {
      layout->key_types.push_back(k->type);
      fields.push_back({"key", k->type});
    }
    layout->encoder = std::make_unique<KeyEncoder>(layout->key_types, false);
    for (const auto& c : node->exprs) {
      layout->first_state.push_back(fields.size());
      EPOXY_ASSIGN_OR_RETURN(std::vector<TypePtr> types, AccumulatorStateTypes(*c));
      for (auto& t : types) fields.push_back({"state", t});
    }
    layout->intermediate = Schema::Make(std::move(fields));
    return layout;
  }
  size_t num_keys() const { return key_types.size(); }
};

/// Groups with their accumulators and key values.
class AggregateTable {
 public:
  AggregateTable(const AggregateLayout* layout, MemoryPool* pool)
      : layout_(layout), pool_(pool), groups_(layout->encoder.get(), pool), key_chunks_(layout->num_keys()) {}

  Status Init() {
    for (const auto& c : layout_->node->exprs) {
      EPOXY_ASSIGN_OR_RETURN(auto acc, MakeAccumulator(*c, pool_));
      accumulators_.push_back(std::move(acc));
    }
    if (layout_->global) return Resize(1);  // one group, even without input
    return Status::OK();
  }

  /// Input rows: their keys and each call's arguments.
  Status AddInput(const std::vector<ArrayPtr>& keys, const std::vector<std::vector<ArrayPtr>>& args, int64_t n) {
    EPOXY_RETURN_NOT_OK(Insert(keys, n, nullptr));
    for (size_t k = 0; k < accumulators_.size(); ++k) EPOXY_RETURN_NOT_OK(accumulators_[k]->Update(ids_.data(), args[k], n));
    return Status::OK();
  }

  /// Partial states (an intermediate batch).
  Status AddStates(const Batch& batch) {
    const int64_t n = batch.num_rows();
    std::vector<ArrayPtr> keys;
    for (size_t k = 0; k < layout_->num_keys(); ++k) keys.push_back(batch.column(static_cast<int>(1 + k)));
    EPOXY_RETURN_NOT_OK(Insert(keys, n, batch.column(0)->values<uint64_t>()));
    const auto& calls = layout_->node->exprs;
    for (size_t c = 0; c < accumulators_.size(); ++c) {
      const size_t first = layout_->first_state[c];
      const size_t last = c + 1 < calls.size() ? layout_->first_state[c + 1] : static_cast<size_t>(batch.num_columns());
      std::vector<ArrayPtr> states(batch.columns().begin() + static_cast<long>(first), batch.columns().begin() + static_cast<long>(last));
      EPOXY_RETURN_NOT_OK(accumulators_[c]->Merge(ids_.data(), states, n));
    }
    return Status::OK();
  }

  /// Forgets every group (after a flush).
  Status Reset() {
    EPOXY_RETURN_NOT_OK(groups_.Clear());
    for (auto& chunks : key_chunks_) chunks.clear();
    key_bytes_ = 0;
    accumulators_.clear();
    num_groups_ = 0;
    return Init();
  }

  int64_t num_groups() const { return num_groups_; }
  int64_t memory_bytes() const {
    int64_t bytes = groups_.memory_bytes() + key_bytes_;
    for (const auto& a : accumulators_) bytes += a->memory_bytes();
    return bytes;
  }

  /// The groups as an intermediate batch: hash, keys, states.
  Result<BatchPtr> EmitStates() {
    std::vector<ArrayPtr> columns;
    Int64Builder hashes(DataType::BigInt(), pool_);
    EPOXY_RETURN_NOT_OK(hashes.Reserve(num_groups_));
    for (int64_t g = 0; g < num_groups_; ++g) {
      EPOXY_RETURN_NOT_OK(hashes.Append(layout_->global ? 0 : static_cast<int64_t>(groups_.hash(static_cast<uint32_t>(g)))));
    }
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr h, hashes.Finish());
    columns.push_back(std::move(h));
    EPOXY_RETURN_NOT_OK(AppendKeys(&columns));
    for (auto& a : accumulators_) {
      EPOXY_ASSIGN_OR_RETURN(std::vector<ArrayPtr> states, a->States());
      for (auto& s : states) columns.push_back(std::move(s));
    }
    return Batch::Make(layout_->intermediate, std::move(columns), num_groups_);
  }

  /// The groups' final values: keys, then each call's result.
  Result<BatchPtr> EmitResults() {
    std::vector<ArrayPtr> columns;
    EPOXY_RETURN_NOT_OK(AppendKeys(&columns));
    for (auto& a : accumulators_) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr r, a->Finalize());
      columns.push_back(std::move(r));
    }
    return Batch::Make(layout_->node->schema, std::move(columns), num_groups_);
  }

 private:
  Status Resize(int64_t groups) {
    num_groups_ = groups;
    for (auto& a : accumulators_) EPOXY_RETURN_NOT_OK(a->Resize(groups));
    return Status::OK();
  }

  Status Insert(const std::vector<ArrayPtr>& keys, int64_t n, const uint64_t* hashes) {
    if (layout_->global) {
      ids_.assign(static_cast<size_t>(n), 0);
      return Status::OK();
    }
    EPOXY_RETURN_NOT_OK(layout_->encoder->Encode(keys, n, &encoded_, hashes));
    EPOXY_RETURN_NOT_OK(groups_.Insert(encoded_, &ids_, &new_rows_));
    if (!new_rows_.empty()) {
      // The key values of new groups, kept in group order.
      for (size_t k = 0; k < keys.size(); ++k) {
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr taken, Take(*keys[k], new_rows_, pool_));
        key_bytes_ += taken->buffer_bytes();
        key_chunks_[k].push_back(std::move(taken));
      }
      EPOXY_RETURN_NOT_OK(Resize(groups_.num_groups()));
    }
    return Status::OK();
  }

  Status AppendKeys(std::vector<ArrayPtr>* columns) {
    for (size_t k = 0; k < layout_->num_keys(); ++k) {
      std::vector<RowRef> refs;
      refs.reserve(static_cast<size_t>(num_groups_));
      for (size_t c = 0; c < key_chunks_[k].size(); ++c) {
        for (int64_t r = 0; r < key_chunks_[k][c]->length(); ++r) refs.push_back(MakeRowRef(static_cast<uint32_t>(c), static_cast<uint32_t>(r)));
      }
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr keys, TakeFrom(key_chunks_[k], refs, layout_->key_types[k], pool_));
      columns->push_back(std::move(keys));
    }
    return Status::OK();
  }

  const AggregateLayout* layout_;
  MemoryPool* pool_;
  GroupTable groups_;
  std::vector<std::unique_ptr<Accumulator>> accumulators_;
  std::vector<std::vector<ArrayPtr>> key_chunks_;
  int64_t key_bytes_ = 0;  // of key_chunks_
  int64_t num_groups_ = 0;
  EncodedKeys encoded_;
  std::vector<uint32_t> ids_;
  std::vector<int32_t> new_rows_;
};

/// Splits an intermediate batch by hash into `out`'s partitions (at recursion `depth`).
Status Scatter(const BatchPtr& states, int depth, PartitionedBuffer* out, MemoryPool* pool) {
  if (out->num_partitions() == 1) return out->Append(0, states);
  const uint64_t* hashes = states->column(0)->values<uint64_t>();
  std::vector<std::vector<int32_t>> rows(static_cast<size_t>(out->num_partitions()));
  for (int64_t i = 0; i < states->num_rows(); ++i) {
    rows[static_cast<size_t>(PartitionOf(hashes[i], kPartitionBits, depth))].push_back(static_cast<int32_t>(i));
  }
  for (size_t p = 0; p < rows.size(); ++p) {
    if (rows[p].empty()) continue;
    EPOXY_ASSIGN_OR_RETURN(BatchPtr part, TakeBatch(states, rows[p], pool));
    EPOXY_RETURN_NOT_OK(out->Append(static_cast<int>(p), std::move(part)));
  }
  return Status::OK();
}

class HashAggregateOperator final : public Operator {
 public:
  HashAggregateOperator(std::unique_ptr<AggregateLayout> layout, std::unique_ptr<ParallelPipeline> input, ExecContext* context)
      : layout_(std::move(layout)), input_(std::move(input)), context_(context) {}

  Result<BatchPtr> Next() override {
    if (!done_) {
      done_ = true;
      EPOXY_RETURN_NOT_OK(Run());
    }
    if (single_ != nullptr) {
      BatchPtr out = std::move(single_);
      return out;
    }
    if (merges_ == nullptr) return BatchPtr();
    EPOXY_ASSIGN_OR_RETURN(BatchPtr out, merges_->Next());
    if (out != nullptr) rows_out_ += out->num_rows();
    return out;
  }

  void Report(RunMetrics* m) const override {
    input_->Report(m);
    m->operator_rows.push_back({"aggregate groups out", rows_out_});
  }

 private:
  Status Run() {
    exchange_ = std::make_shared<PartitionedBuffer>(layout_->intermediate, layout_->global ? 1 : kNumPartitions, &context_->spill);
    EPOXY_RETURN_NOT_OK(input_->Drain([this](BatchPtr batch) { return Consume(std::move(batch)); }));
    if (tables_.size() == 1 && !flushed_) {
      // One table saw everything: its groups are final.
      EPOXY_ASSIGN_OR_RETURN(single_, tables_[0]->EmitResults());
      rows_out_ += single_->num_rows();
      return Status::OK();
    }
    for (auto& t : tables_) EPOXY_RETURN_NOT_OK(Flush(t.get()));
    tables_.clear();
    free_.clear();
    if (layout_->global && exchange_->partition_rows(0) == 0) {
      AggregateTable empty(layout_.get(), context_->memory);  // no input: one row of empty aggregates
      EPOXY_RETURN_NOT_OK(empty.Init());
      EPOXY_ASSIGN_OR_RETURN(single_, empty.EmitResults());
      rows_out_ += single_->num_rows();
      return Status::OK();
    }
    // Final phase: partitions merged a few at a time, their groups streamed out as each completes.
    context_->spilled_bytes += exchange_->spilled_bytes();
    merges_ = std::make_unique<PartitionWork>(
        context_->pool, context_->pool->num_threads(),
        [this](const PartitionWork::Item& item, PartitionWork* work, std::vector<BatchPtr>* out) {
          return MergePartition(item, work, out);
        });
    merges_->AddAll(exchange_, 0);
    exchange_.reset();  // the work holds the partitions still to merge
    return Status::OK();
  }

  /// Partial phase, on a pool thread.
  Status Consume(BatchPtr batch) {
    const plan::PlanNode& node = *layout_->node;
    std::vector<ArrayPtr> keys;
    for (const auto& k : node.keys) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr key, expr::EvaluateToArray(*k, *batch, context_->memory));
      keys.push_back(std::move(key));
    }
    std::vector<std::vector<ArrayPtr>> args(node.exprs.size());
    for (size_t c = 0; c < node.exprs.size(); ++c) {
      const Expr& call = *node.exprs[c];
      for (size_t a = 0; a < ValueArguments(call); ++a) {
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr arg, expr::EvaluateToArray(*call.args[a], *batch, context_->memory));
        args[c].push_back(std::move(arg));
      }
    }
    EPOXY_ASSIGN_OR_RETURN(AggregateTable* table, Lease());
    Status st = table->AddInput(keys, args, batch->num_rows());
    if (st.ok() && !layout_->global &&
        (table->num_groups() > kMaxPartialGroups || table->memory_bytes() > context_->spill.task_budget() ||
         context_->spill.OverBudget())) {
      st = Flush(table);
      if (st.ok() && context_->spill.OverBudget()) st = exchange_->SpillAll();
    }
    Return(table);
    return st;
  }

  Result<AggregateTable*> Lease() {
    {
      std::lock_guard lock(mu_);
      if (!free_.empty()) {
        AggregateTable* t = free_.back();
        free_.pop_back();
        return t;
      }
    }
    auto table = std::make_unique<AggregateTable>(layout_.get(), context_->memory);
    EPOXY_RETURN_NOT_OK(table->Init());
    std::lock_guard lock(mu_);
    tables_.push_back(std::move(table));
    return tables_.back().get();
  }

  void Return(AggregateTable* table) {
    std::lock_guard lock(mu_);
    free_.push_back(table);
  }

  /// Moves a table's groups into the exchange and empties it.
  Status Flush(AggregateTable* table) {
    if (table->num_groups() == 0) return Status::OK();
    flushed_ = true;
    EPOXY_ASSIGN_OR_RETURN(BatchPtr states, table->EmitStates());
    EPOXY_RETURN_NOT_OK(table->Reset());  // before the states are copied again
    return Scatter(states, 0, exchange_.get(), context_->memory);
  }

  /// Final phase: one partition's states merged into one table and finalized. A partition too
  /// large for memory is split again by the next bits of the hash and its pieces queued.
  Status MergePartition(const PartitionWork::Item& item, PartitionWork* work, std::vector<BatchPtr>* out) {
    EPOXY_ASSIGN_OR_RETURN(PartitionedBuffer::Reader reader, item.buffer->Read(item.partition));
    AggregateTable table(layout_.get(), context_->memory);
    EPOXY_RETURN_NOT_OK(table.Init());
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, reader.Next());
      if (batch == nullptr) break;
      EPOXY_RETURN_NOT_OK(table.AddStates(*batch));
      if (item.depth < kMaxDepth && !layout_->global && table.memory_bytes() > context_->spill.task_budget() &&
          context_->spill.OverBudget()) {
        ++context_->spilled_partitions;
        auto split = std::make_shared<PartitionedBuffer>(layout_->intermediate, kNumPartitions, &context_->spill);
        EPOXY_ASSIGN_OR_RETURN(BatchPtr merged, table.EmitStates());
        EPOXY_RETURN_NOT_OK(table.Reset());
        EPOXY_RETURN_NOT_OK(Scatter(merged, item.depth + 1, split.get(), context_->memory));
        merged.reset();
        EPOXY_RETURN_NOT_OK(split->SpillAll());
        while (true) {
          EPOXY_ASSIGN_OR_RETURN(BatchPtr rest, reader.Next());
          if (rest == nullptr) break;
          EPOXY_RETURN_NOT_OK(Scatter(rest, item.depth + 1, split.get(), context_->memory));
          EPOXY_RETURN_NOT_OK(split->SpillAll());
        }
        context_->spilled_bytes += split->spilled_bytes();
        work->AddAll(split, item.depth + 1);
        return Status::OK();
      }
    }
    EPOXY_ASSIGN_OR_RETURN(BatchPtr result, table.EmitResults());
    out->push_back(std::move(result));
    return Status::OK();
  }

  std::unique_ptr<AggregateLayout> layout_;
  std::unique_ptr<ParallelPipeline> input_;
  ExecContext* context_;
  std::shared_ptr<PartitionedBuffer> exchange_;  // of the partial phase
  std::mutex mu_;
  std::vector<std::unique_ptr<AggregateTable>> tables_;  // guarded by mu_
  std::vector<AggregateTable*> free_;                    // guarded by mu_
  std::atomic<bool> flushed_{false};
  bool done_ = false;
  BatchPtr single_;                        // the whole result, when one table saw every row
  std::unique_ptr<PartitionWork> merges_;  // the final phase, streaming
  int64_t rows_out_ = 0;
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeHashAggregate(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                                    ExecContext* context) {
  EPOXY_ASSIGN_OR_RETURN(auto layout, AggregateLayout::Make(node));
  return std::unique_ptr<Operator>(new HashAggregateOperator(std::move(layout), std::move(input), context));
}

}  // namespace epoxy::exec
