// SPDX-License-Identifier: Apache-2.0
// Filter, project, union, limit and distinct, and building the operator tree.
#include "epoxy/exec/operator.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/group_index.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

/// Counts the rows a step lets through, for the run's metrics.
struct StepCounter {
  std::string name;
  std::shared_ptr<std::atomic<int64_t>> rows = std::make_shared<std::atomic<int64_t>>(0);
};

BatchTransform FilterStep(expr::ExprPtr predicate, ExecContext* context, StepCounter counter) {
  return [predicate = std::move(predicate), context, counter](BatchPtr batch) -> Result<BatchPtr> {
    EPOXY_ASSIGN_OR_RETURN(expr::Datum keep, expr::Evaluate(*predicate, *batch, context->memory));
    EPOXY_ASSIGN_OR_RETURN(std::vector<int32_t> rows, expr::SelectTrue(keep, batch->num_rows()));
    *counter.rows += static_cast<int64_t>(rows.size());
    return TakeBatch(batch, rows, context->memory);
  };
}

BatchTransform ProjectStep(plan::PlanPtr node, ExecContext* context) {
  return [node = std::move(node), context](BatchPtr batch) -> Result<BatchPtr> {
    std::vector<ArrayPtr> columns;
    for (const auto& e : node->exprs) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, expr::EvaluateToArray(*e, *batch, context->memory));
      columns.push_back(std::move(column));
    }
    return Batch::Make(node->schema, std::move(columns), batch->num_rows());
  };
}

/// One step over another operator's batches, one at a time.
class TransformOperator final : public Operator {
 public:
  TransformOperator(std::unique_ptr<Operator> input, BatchTransform step, std::vector<StepCounter> counters)
      : input_(std::move(input)), step_(std::move(step)), counters_(std::move(counters)) {}

  Result<BatchPtr> Next() override {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, input_->Next());
    if (batch == nullptr) return batch;
    return step_(std::move(batch));
  }
  void Report(RunMetrics* m) const override {
    input_->Report(m);
    for (const auto& c : counters_) m->operator_rows.push_back({c.name, c.rows->load()});
  }

 private:
  std::unique_ptr<Operator> input_;
  BatchTransform step_;
  std::vector<StepCounter> counters_;
};

/// Reads batches in order and runs each through the steps as a pool task, keeping a window of
/// them in flight (about two per thread); results come out in input order.
class ParallelPipeline final : public Operator {
 public:
  ParallelPipeline(std::unique_ptr<BatchSource> source, std::vector<BatchTransform> steps, ThreadPool* pool,
                   std::vector<StepCounter> counters)
      : source_(std::move(source)), steps_(std::move(steps)), pool_(pool ? pool : &ThreadPool::Default()),
        window_(static_cast<size_t>(2 * pool_->num_threads() + 1)), counters_(std::move(counters)) {}

  ~ParallelPipeline() override {
    for (auto& slot : slots_) Wait(*slot);
  }

  Result<BatchPtr> Next() override {
    EPOXY_RETURN_NOT_OK(Fill());
    if (slots_.empty()) return BatchPtr();
    std::shared_ptr<Slot> slot = slots_.front();
    slots_.pop_front();
    Wait(*slot);
    std::lock_guard lock(slot->mu);
    return std::move(slot->result);
  }

  void Report(RunMetrics* m) const override {
    source_->Report(m);
    for (const auto& c : counters_) m->operator_rows.push_back({c.name, c.rows->load()});
  }

 private:
  struct Slot {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Result<BatchPtr> result = BatchPtr();
  };

  void Wait(Slot& slot) { HelpUntil(*pool_, slot.mu, slot.cv, [&] { return slot.done; }); }

  Status Fill() {
    while (!input_done_ && slots_.size() < window_) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr raw, source_->NextRaw());
      if (raw == nullptr) {
        input_done_ = true;
        break;
      }
      auto slot = std::make_shared<Slot>();
      slots_.push_back(slot);
      pool_->Submit([this, slot, raw = std::move(raw)]() mutable {
        Result<BatchPtr> out = source_->Complete(std::move(raw));
        for (const auto& step : steps_) {
          if (!out.ok()) break;
          out = step(std::move(*out));
        }
        std::lock_guard lock(slot->mu);
        slot->result = std::move(out);
        slot->done = true;
        slot->cv.notify_all();
      });
    }
    return Status::OK();
  }

  std::unique_ptr<BatchSource> source_;
  std::vector<BatchTransform> steps_;
  ThreadPool* pool_;
  size_t window_;
  std::vector<StepCounter> counters_;
  std::deque<std::shared_ptr<Slot>> slots_;
  bool input_done_ = false;
};

class UnionOperator final : public Operator {
 public:
  UnionOperator(SchemaPtr schema, std::vector<std::unique_ptr<Operator>> inputs)
      : schema_(std::move(schema)), inputs_(std::move(inputs)) {}

  Result<BatchPtr> Next() override {
    while (current_ < inputs_.size()) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, inputs_[current_]->Next());
      // Every input's rows carry the first input's column names.
      if (batch != nullptr) return Batch::Make(schema_, batch->columns(), batch->num_rows());
      ++current_;
    }
    return BatchPtr();
  }
  void Report(RunMetrics* m) const override {
    for (const auto& in : inputs_) in->Report(m);
  }

 private:
  SchemaPtr schema_;
  std::vector<std::unique_ptr<Operator>> inputs_;
  size_t current_ = 0;
};

class LimitOperator final : public Operator {
 public:
  LimitOperator(int64_t limit, std::unique_ptr<Operator> input) : remaining_(limit), input_(std::move(input)) {}

  Result<BatchPtr> Next() override {
    if (remaining_ <= 0) return BatchPtr();  // stops pulling: the scan reads no further
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, input_->Next());
    if (batch == nullptr) return batch;
    if (batch->num_rows() > remaining_) batch = batch->Slice(0, remaining_);
    remaining_ -= batch->num_rows();
    return batch;
  }
  void Report(RunMetrics* m) const override { input_->Report(m); }

 private:
  int64_t remaining_;
  std::unique_ptr<Operator> input_;
};

/// Each row's first occurrence, in input order: a streaming hash of the rows seen so far.
class DistinctOperator final : public Operator {
 public:
  DistinctOperator(std::unique_ptr<Operator> input, MemoryPool* pool)
      : input_(std::move(input)), pool_(pool), seen_(pool) {}

  Result<BatchPtr> Next() override {
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, input_->Next());
      if (batch == nullptr) return batch;
      EPOXY_RETURN_NOT_OK(seen_.Add(batch->columns(), batch->num_rows(), &fresh_));
      if (fresh_.size() == static_cast<size_t>(batch->num_rows())) return batch;
      if (fresh_.empty()) continue;
      return TakeBatch(batch, fresh_, pool_);
    }
  }
  void Report(RunMetrics* m) const override { input_->Report(m); }

 private:
  std::unique_ptr<Operator> input_;
  MemoryPool* pool_;
  GroupIndex seen_;
  std::vector<int32_t> fresh_;
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeOperator(const plan::PlanPtr& plan, ExecContext* context) {
  using plan::PlanKind;
  // Filters and projections straight over a scan run as one parallel pipeline.
  // An aggregate over such a chain evaluates its arguments in the pipeline too.
  const bool aggregate = plan->kind == PlanKind::kAggregate;
  std::vector<plan::PlanPtr> chain;
  plan::PlanPtr node = aggregate ? plan->inputs[0] : plan;
  while (node->kind == PlanKind::kFilter || node->kind == PlanKind::kProject) {
    chain.push_back(node);
    node = node->inputs[0];
  }
  if (node->kind == PlanKind::kScan) {
    EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<BatchSource> scan, MakeScan(node, context));
    std::vector<BatchTransform> steps;
    std::vector<StepCounter> counters;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if ((*it)->kind == PlanKind::kFilter) {
        counters.push_back({"filter rows out"});
        steps.push_back(FilterStep((*it)->predicate, context, counters.back()));
      } else {
        steps.push_back(ProjectStep(*it, context));
      }
    }
    if (aggregate) steps.push_back(AggregateArgumentsStep(plan, context));
    auto pipeline = std::unique_ptr<Operator>(new ParallelPipeline(std::move(scan), std::move(steps), nullptr, std::move(counters)));
    if (aggregate) return MakeAggregate(plan, std::move(pipeline), context, true);
    return pipeline;
  }
  std::vector<std::unique_ptr<Operator>> inputs;
  for (const auto& in : plan->inputs) {
    EPOXY_ASSIGN_OR_RETURN(auto op, MakeOperator(in, context));
    inputs.push_back(std::move(op));
  }
  switch (plan->kind) {
    case PlanKind::kUnion: return std::unique_ptr<Operator>(new UnionOperator(plan->schema, std::move(inputs)));
    case PlanKind::kFilter: {
      StepCounter counter{"filter rows out"};
      return std::unique_ptr<Operator>(
          new TransformOperator(std::move(inputs[0]), FilterStep(plan->predicate, context, counter), {counter}));
    }
    case PlanKind::kProject:
      return std::unique_ptr<Operator>(new TransformOperator(std::move(inputs[0]), ProjectStep(plan, context), {}));
    case PlanKind::kLimit: return std::unique_ptr<Operator>(new LimitOperator(plan->limit, std::move(inputs[0])));
    case PlanKind::kDistinct:
      return std::unique_ptr<Operator>(new DistinctOperator(std::move(inputs[0]), context->memory));
    case PlanKind::kAggregate: {
      return MakeAggregate(plan, std::move(inputs[0]), context, false);
    }
    default: return Status::Internal("no operator for a plan node");
  }
}

}  // namespace epoxy::exec
