// SPDX-License-Identifier: Apache-2.0
// Filter, project, union and limit, and building the operator tree.
#include "epoxy/exec/operator.h"

#include "epoxy/expr/evaluator.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

class FilterOperator final : public Operator {
 public:
  FilterOperator(expr::ExprPtr predicate, std::unique_ptr<Operator> input, ExecContext* context)
      : predicate_(std::move(predicate)), input_(std::move(input)), context_(context) {}

  Result<BatchPtr> Next() override {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, input_->Next());
    if (batch == nullptr) return batch;
    EPOXY_ASSIGN_OR_RETURN(expr::Datum keep, expr::Evaluate(*predicate_, *batch, context_->memory));
    EPOXY_ASSIGN_OR_RETURN(std::vector<int32_t> rows, expr::SelectTrue(keep, batch->num_rows()));
    rows_out_ += static_cast<int64_t>(rows.size());
    return TakeBatch(batch, rows, context_->memory);
  }
  void Report(RunMetrics* m) const override { m->operator_rows.push_back({"filter rows out", rows_out_}); }

 private:
  expr::ExprPtr predicate_;
  std::unique_ptr<Operator> input_;
  ExecContext* context_;
  int64_t rows_out_ = 0;
};

class ProjectOperator final : public Operator {
 public:
  ProjectOperator(const plan::PlanPtr& node, std::unique_ptr<Operator> input, ExecContext* context)
      : node_(node), input_(std::move(input)), context_(context) {}

  Result<BatchPtr> Next() override {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, input_->Next());
    if (batch == nullptr) return batch;
    std::vector<ArrayPtr> columns;
    for (const auto& e : node_->exprs) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, expr::EvaluateToArray(*e, *batch, context_->memory));
      columns.push_back(std::move(column));
    }
    return Batch::Make(node_->schema, std::move(columns), batch->num_rows());
  }

 private:
  plan::PlanPtr node_;
  std::unique_ptr<Operator> input_;
  ExecContext* context_;
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

 private:
  int64_t remaining_;
  std::unique_ptr<Operator> input_;
};

/// Reports the whole subtree's counters: wraps an operator so Report reaches its inputs.
class Reporting final : public Operator {
 public:
  Reporting(std::unique_ptr<Operator> self, std::vector<const Operator*> inputs)
      : self_(std::move(self)), inputs_(std::move(inputs)) {}
  Result<BatchPtr> Next() override { return self_->Next(); }
  void Report(RunMetrics* m) const override {
    for (const auto* in : inputs_) in->Report(m);
    self_->Report(m);
  }

 private:
  std::unique_ptr<Operator> self_;
  std::vector<const Operator*> inputs_;
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeOperator(const plan::PlanPtr& plan, ExecContext* context) {
  using plan::PlanKind;
  if (plan->kind == PlanKind::kScan) return MakeScan(plan, context);
  std::vector<std::unique_ptr<Operator>> inputs;
  for (const auto& in : plan->inputs) {
    EPOXY_ASSIGN_OR_RETURN(auto op, MakeOperator(in, context));
    inputs.push_back(std::move(op));
  }
  if (plan->kind == PlanKind::kUnion) return std::unique_ptr<Operator>(new UnionOperator(plan->schema, std::move(inputs)));
  const Operator* input = inputs[0].get();
  std::unique_ptr<Operator> self;
  switch (plan->kind) {
    case PlanKind::kFilter: self.reset(new FilterOperator(plan->predicate, std::move(inputs[0]), context)); break;
    case PlanKind::kProject: self.reset(new ProjectOperator(plan, std::move(inputs[0]), context)); break;
    case PlanKind::kLimit: self.reset(new LimitOperator(plan->limit, std::move(inputs[0]))); break;
    case PlanKind::kAggregate: {
      EPOXY_ASSIGN_OR_RETURN(self, MakeAggregate(plan, std::move(inputs[0]), context));
      break;
    }
    default: return Status::Internal("no operator for a plan node");
  }
  return std::unique_ptr<Operator>(new Reporting(std::move(self), {input}));
}

}  // namespace epoxy::exec
