// SPDX-License-Identifier: Apache-2.0
// Global aggregation (no GROUP BY): count, sum, avg, min, max, first, last and count(DISTINCT),
// updated a batch at a time, then the select list evaluated over the results.
#include <optional>
#include <set>

#include "epoxy/exec/operator.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/type_visit.h"

namespace epoxy::exec {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;
using expr::Scalar;

/// Spark's ordering of two non-null scalars of one type.
bool Less(const Scalar& a, const Scalar& b) {
  return std::visit([&](const auto& x) -> bool {
    using V = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<V, std::monostate>) {
      return false;
    } else {
      return x < std::get<V>(b.value);
    }
  }, a.value);
}

/// The running state of one aggregate call.
struct AggregateState {
  const Expr* call = nullptr;
  int64_t count = 0;  // rows (count) or non-null values (the others)
  int64_t int_sum = 0;
  double double_sum = 0;
  __int128 decimal_sum = 0;
  Scalar best;  // min, max, first, last
  bool has_best = false;
  std::set<std::string> distinct;

  Status Update(const expr::Datum* value, int64_t rows) {
    const std::string& op = call->op;
    if (op == "count" && call->args.empty()) {
      count += rows;
      return Status::OK();
    }
    const Array& a = *value->array;
    if (call->distinct) {
      for (int64_t i = 0; i < rows; ++i) {
        if (!value->IsNull(i)) distinct.insert(expr::ScalarAt(a, value->Row(i)).ToSql());
      }
      return Status::OK();
    }
    if (op == "count") {
      count += value->constant ? (a.IsNull(0) ? 0 : rows) : rows - a.null_count();
      return Status::OK();
    }
    if (op == "sum" || op == "avg" || op == "mean") {
      TypeId id = a.type_id();
      if (!value->constant && a.null_count() == 0 && (id == TypeId::kBigInt || id == TypeId::kDouble)) {
        count += rows;  // no nulls: one tight loop
        if (id == TypeId::kBigInt) {
          const int64_t* v = a.values<int64_t>();
          uint64_t total = static_cast<uint64_t>(int_sum);
          for (int64_t i = 0; i < rows; ++i) total += static_cast<uint64_t>(v[i]);
          int_sum = static_cast<int64_t>(total);
        } else {
          const double* v = a.values<double>();
          for (int64_t i = 0; i < rows; ++i) double_sum += v[i];
        }
        return Status::OK();
      }
      for (int64_t i = 0; i < rows; ++i) {
        if (value->IsNull(i)) continue;
        int64_t r = value->Row(i);
        ++count;
        if (id == TypeId::kBigInt) int_sum = static_cast<int64_t>(static_cast<uint64_t>(int_sum) + static_cast<uint64_t>(a.values<int64_t>()[r]));
        else if (id == TypeId::kDouble) double_sum += a.values<double>()[r];
        else if (id == TypeId::kDecimal) decimal_sum += a.values<__int128>()[r];
      }
      return Status::OK();
    }
    if ((op == "min" || op == "max") && !value->constant) {
      // Numbers and strings: the batch's extreme in one typed loop, then one comparison with the
      // best so far (strings compare views; only the extreme is copied).
      const bool is_min = op == "min";
      const bool nulls = a.null_count() > 0;
      auto extreme_of = [&](auto value_at) {
        using V = decltype(value_at(int64_t{0}));
        std::optional<V> extreme;
        for (int64_t i = 0; i < rows; ++i) {
          if (nulls && a.IsNull(i)) continue;
          V v = value_at(i);
          if (!extreme || (is_min ? v < *extreme : *extreme < v)) extreme = v;
        }
        return extreme;
      };
      auto offer = [&](Scalar candidate) {
        if (!has_best || (is_min ? Less(candidate, best) : Less(best, candidate))) {
          best = std::move(candidate);
          has_best = true;
        }
      };
      bool handled = false;
      expr::VisitComparable(a.type_id(), [&]<typename T>() {
        if constexpr (!std::is_same_v<T, __int128>) {
          const T* v = a.values<T>();
          handled = true;
          std::optional<T> extreme = extreme_of([v](int64_t i) { return v[i]; });
          if (!extreme) return;
          offer(std::is_floating_point_v<T> ? Scalar{a.type(), static_cast<double>(*extreme)}
                                            : Scalar{a.type(), static_cast<int64_t>(*extreme)});
        }
      });
      if (handled) return Status::OK();
      if (a.type_id() == TypeId::kString) {
        auto extreme = extreme_of([&a](int64_t i) { return a.GetView(i); });
        if (extreme) offer(Scalar{a.type(), std::string(*extreme)});
        return Status::OK();
      }
    }
    // min, max, first, last
    for (int64_t i = 0; i < rows; ++i) {
      if (value->IsNull(i)) {
        if (op == "last" || (op == "first" && !has_best && count == 0)) {
          if (op == "first") ++count;  // first() keeps a leading null, as Spark's does
          if (op == "last") {
            best = Scalar::Null(call->type);
            has_best = true;
          }
        }
        continue;
      }
      Scalar v = expr::ScalarAt(a, value->Row(i));
      if (op == "first") {
        if (count == 0 && !has_best) {
          best = std::move(v);
          has_best = true;
        }
        ++count;
        continue;
      }
      if (!has_best || op == "last" || (op == "min" && Less(v, best)) || (op == "max" && Less(best, v))) {
        best = std::move(v);
        has_best = true;
      }
    }
    return Status::OK();
  }

  Scalar Result() const {
    const std::string& op = call->op;
    if (op == "count") return Scalar::Integer(DataType::BigInt(), call->distinct ? static_cast<int64_t>(distinct.size()) : count);
    if (op == "sum") {
      if (count == 0) return Scalar::Null(call->type);
      if (call->type->id() == TypeId::kBigInt) return Scalar::Integer(call->type, int_sum);
      if (call->type->id() == TypeId::kDecimal) return Scalar{call->type, decimal_sum};
      return Scalar{call->type, double_sum};
    }
    if (op == "avg" || op == "mean") {
      if (count == 0) return Scalar::Null(call->type);
      return Scalar::Double(double_sum / static_cast<double>(count));
    }
    if (!has_best) return Scalar::Null(call->type);
    Scalar out = best;
    out.type = call->type;
    return out;
  }
};

void CollectAggregates(const ExprPtr& e, std::vector<const Expr*>* out) {
  if (e->kind == ExprKind::kCall && expr::IsAggregateFunction(e->op)) {
    out->push_back(e.get());
    return;
  }
  for (const auto& a : e->args) CollectAggregates(a, out);
}

/// `e` with each aggregate call replaced by its result.
ExprPtr Substitute(const ExprPtr& e, const std::vector<AggregateState>& states) {
  for (const auto& s : states) {
    if (s.call == e.get()) {
      auto literal = std::make_shared<Expr>(*Expr::Literal(s.Result()));
      literal->type = e->type;
      return literal;
    }
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (auto& a : copy->args) a = Substitute(a, states);
  return copy;
}

/// The argument of each aggregate call, evaluated over one batch: column k feeds call k (a count(*)
/// gets an empty placeholder).
Result<BatchPtr> EvaluateArguments(const std::vector<const Expr*>& calls, const BatchPtr& batch, MemoryPool* pool) {
  std::vector<ArrayPtr> columns;
  std::vector<Field> fields;
  for (size_t k = 0; k < calls.size(); ++k) {
    if (calls[k]->args.empty()) {
      columns.push_back(Array::MakeNull(batch->num_rows()));
    } else {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr value, expr::EvaluateToArray(*calls[k]->args[0], *batch, pool));
      columns.push_back(std::move(value));
    }
    fields.push_back({"arg" + std::to_string(k), columns.back()->type()});
  }
  return Batch::Make(Schema::Make(std::move(fields)), std::move(columns), batch->num_rows());
}

std::vector<const Expr*> AggregateCalls(const plan::PlanNode& node) {
  std::vector<const Expr*> calls;
  for (const auto& e : node.exprs) CollectAggregates(e, &calls);
  return calls;
}

class AggregateOperator final : public Operator {
 public:
  /// With `arguments_ready`, input batches already hold the calls' arguments (EvaluateArguments,
  /// run by a parallel pipeline); otherwise they are evaluated here.
  AggregateOperator(plan::PlanPtr node, std::unique_ptr<Operator> input, ExecContext* context, bool arguments_ready)
      : node_(std::move(node)), input_(std::move(input)), context_(context), arguments_ready_(arguments_ready) {
    calls_ = AggregateCalls(*node_);
    for (const Expr* c : calls_) {
      AggregateState s;
      s.call = c;
      states_.push_back(std::move(s));
    }
  }

  Result<BatchPtr> Next() override {
    if (done_) return BatchPtr();
    done_ = true;
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, input_->Next());
      if (batch == nullptr) break;
      if (batch->num_rows() == 0) continue;
      if (!arguments_ready_) {
        EPOXY_ASSIGN_OR_RETURN(batch, EvaluateArguments(calls_, batch, context_->memory));
      }
      for (size_t k = 0; k < states_.size(); ++k) {
        if (states_[k].call->args.empty()) {
          EPOXY_RETURN_NOT_OK(states_[k].Update(nullptr, batch->num_rows()));
          continue;
        }
        expr::Datum value{batch->column(static_cast<int>(k)), false};
        EPOXY_RETURN_NOT_OK(states_[k].Update(&value, batch->num_rows()));
      }
    }
    static const BatchPtr kOneRow = Batch::Make(Schema::Make({}), {}, 1);
    std::vector<ArrayPtr> columns;
    for (const auto& e : node_->exprs) {
      ExprPtr final_expr = Substitute(e, states_);
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr value, expr::EvaluateToArray(*final_expr, *kOneRow, context_->memory));
      columns.push_back(std::move(value));
    }
    return Batch::Make(node_->schema, std::move(columns), 1);
  }
  void Report(RunMetrics* m) const override { input_->Report(m); }

 private:
  plan::PlanPtr node_;
  std::unique_ptr<Operator> input_;
  ExecContext* context_;
  bool arguments_ready_;
  std::vector<const Expr*> calls_;
  std::vector<AggregateState> states_;
  bool done_ = false;
};

}  // namespace

BatchTransform AggregateArgumentsStep(const plan::PlanPtr& aggregate, ExecContext* context) {
  // The plan node rides along: `calls` point into its expressions.
  return [node = aggregate, calls = AggregateCalls(*aggregate), context](BatchPtr batch) -> Result<BatchPtr> {
    return EvaluateArguments(calls, batch, context->memory);
  };
}

Result<std::unique_ptr<Operator>> MakeAggregate(const plan::PlanPtr& node, std::unique_ptr<Operator> input,
                                                ExecContext* context, bool arguments_ready) {
  return std::unique_ptr<Operator>(new AggregateOperator(node, std::move(input), context, arguments_ready));
}

}  // namespace epoxy::exec
