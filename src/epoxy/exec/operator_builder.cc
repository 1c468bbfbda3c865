// SPDX-License-Identifier: Apache-2.0
// Building operators from an optimized plan. Each chain of streaming nodes (filters, projections,
// expansions, a join's probe side) above a source becomes one ParallelPipeline; breakers
// (aggregates, sorts, windows, repartitions) drain their input pipeline with a sink of their own;
// a join's build side is drained and indexed when its pipeline is made.
#include "epoxy/exec/hash_join.h"
#include "epoxy/exec/pipeline.h"
#include "epoxy/expr/binder.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/vector/builder.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

using plan::PlanKind;
using plan::PlanPtr;

std::shared_ptr<std::atomic<int64_t>> Counter() { return std::make_shared<std::atomic<int64_t>>(0); }

PipelineStep FilterStep(expr::ExprPtr predicate, ExecContext* context) {
  PipelineStep step;
  step.name = "filter rows out";
  step.rows_out = Counter();
  step.apply = [predicate = std::move(predicate), context](BatchPtr batch) -> Result<BatchPtr> {
    EPOXY_ASSIGN_OR_RETURN(expr::Datum keep, expr::Evaluate(*predicate, *batch, context->memory));
    EPOXY_ASSIGN_OR_RETURN(std::vector<int32_t> rows, expr::SelectTrue(keep, batch->num_rows()));
    return TakeBatch(batch, rows, context->memory);
  };
  return step;
}

PipelineStep ProjectStep(PlanPtr node, ExecContext* context) {
  PipelineStep step;
  step.name = "project";
  step.apply = [node = std::move(node), context](BatchPtr batch) -> Result<BatchPtr> {
    std::vector<ArrayPtr> columns;
    columns.reserve(node->exprs.size());
    for (const auto& e : node->exprs) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, expr::EvaluateToArray(*e, *batch, context->memory));
      columns.push_back(std::move(column));
    }
    return Batch::Make(node->schema, std::move(columns), batch->num_rows());
  };
  return step;
}

/// GROUPING SETS: the batch once per set, concatenated.
PipelineStep ExpandStep(PlanPtr node, ExecContext* context) {
  PipelineStep step;
  step.name = "expand";
  step.apply = [node = std::move(node), context](BatchPtr batch) -> Result<BatchPtr> {
    const int width = node->schema->num_fields();
    std::vector<std::vector<ArrayPtr>> parts(static_cast<size_t>(width));
    for (const auto& projection : node->projections) {
      for (int c = 0; c < width; ++c) {
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, expr::EvaluateToArray(*projection[static_cast<size_t>(c)], *batch, context->memory));
        parts[static_cast<size_t>(c)].push_back(std::move(column));
      }
    }
    std::vector<ArrayPtr> columns;
    for (int c = 0; c < width; ++c) {
      std::vector<RowRef> refs;
      for (size_t s = 0; s < node->projections.size(); ++s) {
        for (int64_t r = 0; r < batch->num_rows(); ++r) refs.push_back(MakeRowRef(static_cast<uint32_t>(s), static_cast<uint32_t>(r)));
      }
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, TakeFrom(parts[static_cast<size_t>(c)], refs, node->schema->field(c).type, context->memory));
      columns.push_back(std::move(column));
    }
    return Batch::Make(node->schema, std::move(columns), batch->num_rows() * static_cast<int64_t>(node->projections.size()));
  };
  return step;
}

/// INTERSECT ALL / EXCEPT ALL: each row as many times as its last column says.
PipelineStep ReplicateStep(PlanPtr node, ExecContext* context) {
  PipelineStep step;
  step.name = "replicate";
  step.apply = [node = std::move(node), context](BatchPtr batch) -> Result<BatchPtr> {
    const Array& copies = *batch->column(batch->num_columns() - 1);
    std::vector<int32_t> rows;
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      const int64_t k = copies.IsNull(i) ? 0 : copies.values<int64_t>()[i];
      for (int64_t j = 0; j < k; ++j) rows.push_back(static_cast<int32_t>(i));
    }
    std::vector<ArrayPtr> columns;
    for (int c = 0; c + 1 < batch->num_columns(); ++c) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, Take(*batch->column(c), rows, context->memory));
      columns.push_back(std::move(column));
    }
    return Batch::Make(node->schema, std::move(columns), static_cast<int64_t>(rows.size()));
  };
  return step;
}

/// explode and its kin: each input row once per element of its array (or map entry), followed by
/// [the position and] the element; the outer forms keep rows without elements, with nulls.
PipelineStep GenerateStep(PlanPtr node, ExecContext* context) {
  PipelineStep step;
  step.name = "generate";
  step.rows_out = Counter();
  step.apply = [node = std::move(node), context](BatchPtr batch) -> Result<BatchPtr> {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr values, expr::EvaluateToArray(*node->exprs[0], *batch, context->memory));
    const bool is_map = values->type_id() == TypeId::kMap;
    const int32_t* o = values->offsets();
    std::vector<int32_t> rows;
    std::vector<RowRef> elements;
    Int32Builder positions(DataType::Int(), context->memory);
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      const int32_t begin = values->IsNull(i) ? 0 : o[i], end = values->IsNull(i) ? 0 : o[i + 1];
      if (begin == end && node->generate_outer) {
        rows.push_back(static_cast<int32_t>(i));
        elements.push_back(kNullRow);
        if (node->generate_position) EPOXY_RETURN_NOT_OK(positions.AppendNull());
      }
      for (int32_t e = begin; e < end; ++e) {
        rows.push_back(static_cast<int32_t>(i));
        elements.push_back(MakeRowRef(0, static_cast<uint32_t>(e)));
        if (node->generate_position) EPOXY_RETURN_NOT_OK(positions.Append(e - begin));
      }
    }
    std::vector<ArrayPtr> columns;
    for (int c = 0; c < batch->num_columns(); ++c) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, Take(*batch->column(c), rows, context->memory));
      columns.push_back(std::move(column));
    }
    if (node->generate_position) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr pos, positions.Finish());
      columns.push_back(std::move(pos));
    }
    const ArrayPtr& entries = values->child(0);
    std::vector<ArrayPtr> parts = is_map ? std::vector<ArrayPtr>{entries->child(0), entries->child(1)}
                                         : std::vector<ArrayPtr>{entries};
    for (const auto& part : parts) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, TakeFrom({part}, elements, part->type(), context->memory));
      columns.push_back(std::move(column));
    }
    return Batch::Make(node->schema, std::move(columns), static_cast<int64_t>(rows.size()));
  };
  return step;
}

class UnionOperator final : public Operator {
 public:
  UnionOperator(SchemaPtr schema, std::vector<std::unique_ptr<Operator>> inputs)
      : schema_(std::move(schema)), inputs_(std::move(inputs)) {}

  Result<BatchPtr> Next() override {
    while (current_ < inputs_.size()) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, inputs_[current_]->Next());
      // Every input's rows carry the union's column names.
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

/// LIMIT n OFFSET m: skips m rows, then passes n (all when n is -1).
class LimitOperator final : public Operator {
 public:
  LimitOperator(int64_t limit, int64_t offset, std::unique_ptr<Operator> input)
      : remaining_(limit < 0 ? INT64_MAX : limit), skip_(offset), input_(std::move(input)) {}

  Result<BatchPtr> Next() override {
    while (true) {
      if (remaining_ <= 0) return BatchPtr();  // stops pulling: the scan reads no further
      EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, input_->Next());
      if (batch == nullptr || IsGroupBoundary(batch)) return batch;
      if (skip_ > 0) {
        if (batch->num_rows() <= skip_) {
          skip_ -= batch->num_rows();
          continue;
        }
        batch = batch->Slice(skip_, batch->num_rows() - skip_);
        skip_ = 0;
      }
      if (batch->num_rows() > remaining_) batch = batch->Slice(0, remaining_);
      remaining_ -= batch->num_rows();
      return batch;
    }
  }
  void Report(RunMetrics* m) const override { input_->Report(m); }

 private:
  int64_t remaining_;
  int64_t skip_;
  std::unique_ptr<Operator> input_;
};

/// One row of no columns.
/// Rows held in the plan (in-memory DataFrames, SELECT without FROM), batch by batch.
class ValuesOperator final : public Operator {
 public:
  explicit ValuesOperator(std::vector<BatchPtr> rows) : rows_(std::move(rows)) {}
  Result<BatchPtr> Next() override {
    if (next_ == rows_.size()) return BatchPtr();
    return rows_[next_++];
  }

 private:
  std::vector<BatchPtr> rows_;
  size_t next_ = 0;
};

/// DISTINCT as an aggregate grouped by every column.
PlanPtr DistinctAsAggregate(const PlanPtr& distinct) {
  auto node = std::make_shared<plan::PlanNode>();
  node->kind = PlanKind::kAggregate;
  node->inputs = distinct->inputs;
  node->schema = distinct->schema;
  for (int c = 0; c < distinct->schema->num_fields(); ++c) node->keys.push_back(plan::ColumnRef(*distinct->schema, c));
  return node;
}

/// `plan` with `limit` handed to its table source's scan (a database), when only projections lie
/// between the limit and the scan (a database sends it as LIMIT when the whole filter went into its
/// SQL too); null otherwise.
PlanPtr WithSourceLimit(const PlanPtr& plan, int64_t limit) {
  if (plan->kind == PlanKind::kScan) {
    if (plan->source.table_source == nullptr) return nullptr;
    auto limited = std::make_shared<plan::PlanNode>(*plan);
    limited->scan_limit = limit;
    return limited;
  }
  if (plan->kind != PlanKind::kProject) return nullptr;
  PlanPtr input = WithSourceLimit(plan->inputs[0], limit);
  if (input == nullptr) return nullptr;
  auto project = std::make_shared<plan::PlanNode>(*plan);
  project->inputs = {input};
  return project;
}

/// The operator that produces `node`'s batches when it is not a streaming step.
Result<std::unique_ptr<Operator>> MakeSource(const PlanPtr& node, ExecContext* context, std::vector<bool> needed) {
  switch (node->kind) {
    case PlanKind::kScan: {
      EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<BatchSource> scan, MakeScan(node, context, std::move(needed)));
      return std::unique_ptr<Operator>(std::move(scan));
    }
    case PlanKind::kAggregate: {
      EPOXY_ASSIGN_OR_RETURN(auto input, MakePipeline(node->inputs[0], context));
      return MakeHashAggregate(node, std::move(input), context);
    }
    case PlanKind::kDistinct: {
      EPOXY_ASSIGN_OR_RETURN(auto input, MakePipeline(node->inputs[0], context));
      return MakeHashAggregate(DistinctAsAggregate(node), std::move(input), context);
    }
    case PlanKind::kSort: {
      EPOXY_ASSIGN_OR_RETURN(auto input, MakePipeline(node->inputs[0], context));
      return MakeSort(node, std::move(input), -1, context);
    }
    case PlanKind::kLimit: {
      // ORDER BY ... LIMIT n: a top-n instead of a full sort.
      const PlanPtr& below = node->inputs[0];
      std::unique_ptr<Operator> input;
      if (UsesTopN(*node)) {
        EPOXY_ASSIGN_OR_RETURN(auto sorted_input, MakePipeline(below->inputs[0], context));
        EPOXY_ASSIGN_OR_RETURN(input, MakeSort(below, std::move(sorted_input), node->limit + node->offset, context));
      } else if (PlanPtr limited = WithSourceLimit(below, node->limit + node->offset); limited && node->limit >= 0) {
        EPOXY_ASSIGN_OR_RETURN(input, MakeOperator(limited, context));
      } else {
        EPOXY_ASSIGN_OR_RETURN(input, MakeOperator(below, context));
      }
      return std::unique_ptr<Operator>(new LimitOperator(node->limit, node->offset, std::move(input)));
    }
    case PlanKind::kWindow: {
      EPOXY_ASSIGN_OR_RETURN(auto input, MakePipeline(node->inputs[0], context));
      return MakeWindow(node, std::move(input), context);
    }
    case PlanKind::kRepartition: {
      EPOXY_ASSIGN_OR_RETURN(auto input, MakePipeline(node->inputs[0], context));
      return MakeRepartition(node, std::move(input), context);
    }
    case PlanKind::kUnion: {
      std::vector<std::unique_ptr<Operator>> inputs;
      for (const auto& in : node->inputs) {
        EPOXY_ASSIGN_OR_RETURN(auto op, MakeOperator(in, context));
        inputs.push_back(std::move(op));
      }
      return std::unique_ptr<Operator>(new UnionOperator(node->schema, std::move(inputs)));
    }
    case PlanKind::kValues: return std::unique_ptr<Operator>(new ValuesOperator(node->rows));
    default: return Status::Internal("no operator for a plan node");
  }
}

}  // namespace

bool UsesTopN(const plan::PlanNode& limit) {
  constexpr int64_t kMaxTopN = 1 << 18;
  return limit.kind == PlanKind::kLimit && limit.inputs[0]->kind == PlanKind::kSort && limit.limit >= 0 &&
         limit.limit + limit.offset <= kMaxTopN;
}

Result<std::unique_ptr<ParallelPipeline>> MakePipeline(const PlanPtr& plan, ExecContext* context) {
  // Streaming nodes from the top down; their steps run bottom up.
  std::vector<PipelineStep> steps;
  PlanPtr node = plan;
  // The columns of `node` the steps above read (empty: all), so a join gathers only those.
  std::vector<bool> needed;
  auto also_read = [&](const expr::Expr& e, const plan::PlanNode& input) {
    std::vector<int> used;
    expr::ReferencedColumns(e, &used);
    needed.resize(static_cast<size_t>(input.schema->num_fields()), false);
    for (int c : used) needed[static_cast<size_t>(c)] = true;
  };
  while (true) {
    if (node->kind == PlanKind::kFilter) {
      steps.push_back(FilterStep(node->predicate, context));
      if (!needed.empty()) also_read(*node->predicate, *node->inputs[0]);  // it passes every column on
    } else if (node->kind == PlanKind::kProject) {
      steps.push_back(ProjectStep(node, context));
      needed.clear();
      for (const auto& e : node->exprs) also_read(*e, *node->inputs[0]);
      if (node->exprs.empty()) needed.assign(static_cast<size_t>(node->inputs[0]->schema->num_fields()), false);
    } else if (node->kind == PlanKind::kExpand) {
      steps.push_back(ExpandStep(node, context));
      needed.clear();
    } else if (node->kind == PlanKind::kReplicate) {
      steps.push_back(ReplicateStep(node, context));
      needed.clear();
    } else if (node->kind == PlanKind::kGenerate) {
      steps.push_back(GenerateStep(node, context));
      needed.clear();
    } else if (node->kind == PlanKind::kJoin) {
      const JoinStrategy strategy = ChooseJoinStrategy(*node);
      EPOXY_ASSIGN_OR_RETURN(auto build, MakePipeline(node->inputs[strategy.build_left ? 0 : 1], context));
      EPOXY_ASSIGN_OR_RETURN(PipelineStep probe, MakeJoinProbe(node, strategy, std::move(build), context, std::move(needed)));
      steps.push_back(std::move(probe));
      needed.clear();
      node = node->inputs[strategy.build_left ? 1 : 0];
      continue;
    } else {
      break;
    }
    node = node->inputs[0];
  }
  EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<Operator> source, MakeSource(node, context, std::move(needed)));
  std::reverse(steps.begin(), steps.end());
  return std::make_unique<ParallelPipeline>(std::move(source), std::move(steps), context->pool);
}

Result<std::unique_ptr<Operator>> MakeOperator(const PlanPtr& plan, ExecContext* context) {
  EPOXY_ASSIGN_OR_RETURN(auto pipeline, MakePipeline(plan, context));
  return std::unique_ptr<Operator>(std::move(pipeline));
}

}  // namespace epoxy::exec
