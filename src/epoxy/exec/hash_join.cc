// SPDX-License-Identifier: Apache-2.0
// Hash join: build, probe and the build side's tail. The probe step finds each probe row's
// candidate build rows, filters the pairs by the residual condition, and assembles the output
// for the join type; build rows that must be remembered (right/full outer, semi or anti joins
// built on the left) are flagged as they match.
#include "epoxy/exec/hash_join.h"

#include <atomic>
#include <mutex>

#include "epoxy/exec/hash_table.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/plan/statistics.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

using plan::JoinType;

constexpr double kBroadcastRows = 1e6;

/// What the join keeps, seen from the probe and build sides.
struct JoinShape {
  bool probe_is_left = true;
  bool pairs = true;         // emit matched pairs
  bool probe_outer = false;  // keep unmatched probe rows
  bool build_outer = false;  // keep unmatched build rows (at the end)
  bool probe_semi = false, probe_anti = false;  // keep probe rows with (without) a match
  bool build_semi = false, build_anti = false;  // keep build rows with (without) a match, at the end
  bool track_build() const { return build_outer || build_semi || build_anti; }
};

JoinShape ShapeOf(JoinType type, bool build_left) {
  JoinShape s;
  s.probe_is_left = !build_left;
  const bool left_preserved = type == JoinType::kLeft || type == JoinType::kFull;
  const bool right_preserved = type == JoinType::kRight || type == JoinType::kFull;
  s.probe_outer = s.probe_is_left ? left_preserved : right_preserved;
  s.build_outer = s.probe_is_left ? right_preserved : left_preserved;
  if (type == JoinType::kSemi || type == JoinType::kAnti) {
    s.pairs = false;
    const bool semi = type == JoinType::kSemi;
    if (s.probe_is_left) (semi ? s.probe_semi : s.probe_anti) = true;
    else (semi ? s.build_semi : s.build_anti) = true;
  }
  return s;
}

/// The build side, materialized: its batches and an index of their rows by key.
struct BuildSide {
  std::vector<BatchPtr> batches;
  std::vector<std::vector<ArrayPtr>> columns;  // per column, the array of each batch
  std::vector<RowRef> refs;                    // build row id -> (batch, row)
  std::unique_ptr<KeyEncoder> encoder;
  std::unique_ptr<JoinTable> table;
  std::unique_ptr<std::atomic<uint8_t>[]> matched;
  int64_t num_rows = 0;
};

class JoinProbe {
 public:
  JoinProbe(plan::PlanPtr join, JoinStrategy strategy, ExecContext* context)
      : join_(std::move(join)), strategy_(strategy), shape_(ShapeOf(join_->join_type, strategy.build_left)),
        context_(context) {
    const auto& left = *join_->inputs[0]->schema;
    const auto& right = *join_->inputs[1]->schema;
    std::vector<Field> fields = left.fields();
    for (const auto& f : right.fields()) fields.push_back(f);
    pair_schema_ = Schema::Make(std::move(fields));
    num_left_ = left.num_fields();
    probe_keys_ = strategy.build_left ? join_->right_keys : join_->left_keys;
    build_keys_ = strategy.build_left ? join_->left_keys : join_->right_keys;
    for (size_t k = 0; k < join_->null_safe.size(); ++k) {
      if (join_->null_safe[k]) null_safe_mask_ |= uint32_t{1} << k;
    }
  }

  Status Build(std::unique_ptr<ParallelPipeline> input) {
    std::vector<TypePtr> types;
    for (const auto& k : build_keys_) types.push_back(k->type);
    build_.encoder = std::make_unique<KeyEncoder>(types, null_safe_mask_ != 0);
    std::mutex mu;
    std::vector<std::pair<BatchPtr, EncodedKeys>> collected;
    EPOXY_RETURN_NOT_OK(input->Drain([&](BatchPtr batch) -> Status {
      EncodedKeys keys;
      if (!strategy_.nested_loop) {
        std::vector<ArrayPtr> key_columns;
        for (const auto& k : build_keys_) {
          EPOXY_ASSIGN_OR_RETURN(ArrayPtr key, expr::EvaluateToArray(*k, *batch, context_->memory));
          key_columns.push_back(std::move(key));
        }
        EPOXY_RETURN_NOT_OK(build_.encoder->Encode(key_columns, batch->num_rows(), &keys));
      }
      std::lock_guard lock(mu);
      collected.emplace_back(std::move(batch), std::move(keys));
      return Status::OK();
    }));
    input->Report(&build_metrics_);
    std::vector<EncodedKeys> encoded;
    const int width = (strategy_.build_left ? join_->inputs[0] : join_->inputs[1])->schema->num_fields();
    build_.columns.resize(static_cast<size_t>(width));
    for (auto& [batch, keys] : collected) {
      const uint32_t b = static_cast<uint32_t>(build_.batches.size());
      for (int64_t r = 0; r < batch->num_rows(); ++r) build_.refs.push_back(MakeRowRef(b, static_cast<uint32_t>(r)));
      for (int c = 0; c < width; ++c) build_.columns[static_cast<size_t>(c)].push_back(batch->column(c));
      build_.num_rows += batch->num_rows();
      build_.batches.push_back(std::move(batch));
      encoded.push_back(std::move(keys));
    }
    collected.clear();
    if (!strategy_.nested_loop) {
      EPOXY_ASSIGN_OR_RETURN(build_.table, JoinTable::Build(build_.encoder.get(), std::move(encoded), null_safe_mask_,
                                                            context_->pool, context_->memory));
    }
    if (shape_.track_build()) {
      build_.matched.reset(new std::atomic<uint8_t>[static_cast<size_t>(build_.num_rows)]);
      for (int64_t i = 0; i < build_.num_rows; ++i) build_.matched[i].store(0, std::memory_order_relaxed);
    }
    return Status::OK();
  }

  Result<BatchPtr> Probe(BatchPtr batch) const {
    const int64_t n = batch->num_rows();
    std::vector<int32_t> probe_rows;
    std::vector<uint32_t> build_ids;
    std::vector<uint32_t> null_keys;  // the probe rows' null keys (NOT IN needs them)
    if (strategy_.nested_loop) {
      NestedLoopPairs(n, &probe_rows, &build_ids);
    } else {
      EPOXY_RETURN_NOT_OK(HashPairs(batch, &probe_rows, &build_ids, &null_keys));
    }
    // Pairs that pass the residual condition.
    BatchPtr pairs;
    if (join_->predicate && !probe_rows.empty()) {
      EPOXY_ASSIGN_OR_RETURN(pairs, Assemble(*batch, probe_rows, build_ids, pair_schema_));
      EPOXY_ASSIGN_OR_RETURN(expr::Datum keep, expr::Evaluate(*join_->predicate, *pairs, context_->memory));
      EPOXY_ASSIGN_OR_RETURN(std::vector<int32_t> kept, expr::SelectTrue(keep, pairs->num_rows()));
      if (kept.size() != probe_rows.size()) {
        std::vector<int32_t> p;
        std::vector<uint32_t> b;
        for (int32_t k : kept) {
          p.push_back(probe_rows[static_cast<size_t>(k)]);
          b.push_back(build_ids[static_cast<size_t>(k)]);
        }
        probe_rows.swap(p);
        build_ids.swap(b);
        EPOXY_ASSIGN_OR_RETURN(pairs, TakeBatch(pairs, kept, context_->memory));
      }
    }
    if (join_->single_match) {
      for (size_t i = 1; i < probe_rows.size(); ++i) {
        if (probe_rows[i] == probe_rows[i - 1]) {
          return Status::InvalidInput("more than one row returned by a subquery used as an expression");
        }
      }
    }
    if (shape_.track_build()) {
      for (uint32_t g : build_ids) build_.matched[g].store(1, std::memory_order_relaxed);
    }
    if (shape_.probe_semi || shape_.probe_anti) return KeepProbeRows(batch, probe_rows, null_keys);
    if (!shape_.pairs) return BatchPtr();  // a semi or anti join built on the left: rows come at the end
    if (shape_.probe_outer) {
      std::vector<uint8_t> hit(static_cast<size_t>(n), 0);
      for (int32_t p : probe_rows) hit[static_cast<size_t>(p)] = 1;
      for (int64_t i = 0; i < n; ++i) {
        if (!hit[static_cast<size_t>(i)]) {
          probe_rows.push_back(static_cast<int32_t>(i));
          build_ids.push_back(kNoRow);
        }
      }
      return Assemble(*batch, probe_rows, build_ids, join_->schema);
    }
    if (pairs != nullptr) return Batch::Make(join_->schema, pairs->columns(), pairs->num_rows());
    return Assemble(*batch, probe_rows, build_ids, join_->schema);
  }

  /// The build rows an outer, semi or anti join keeps, after the last probe batch.
  Result<std::vector<BatchPtr>> Finish() const {
    std::vector<BatchPtr> out;
    if (!shape_.track_build()) return out;
    const bool want_matched = shape_.build_semi;
    const bool left_only = shape_.build_semi || shape_.build_anti;  // the output is the (built) left side
    std::vector<RowRef> refs;
    for (int64_t g = 0; g < build_.num_rows; ++g) {
      const bool matched = build_.matched[g].load(std::memory_order_relaxed) != 0;
      if (matched == want_matched) refs.push_back(build_.refs[static_cast<size_t>(g)]);
      if (refs.size() < (1 << 16) && !(g + 1 == build_.num_rows && !refs.empty())) continue;
      std::vector<ArrayPtr> columns;
      for (int c = 0; c < join_->schema->num_fields(); ++c) {
        const bool is_build = left_only || (strategy_.build_left ? c < num_left_ : c >= num_left_);
        const TypePtr& type = join_->schema->field(c).type;
        const int column = strategy_.build_left ? c : c - num_left_;
        std::vector<RowRef> nulls;
        if (!is_build) nulls.assign(refs.size(), kNullRow);
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr a, is_build ? TakeFrom(build_.columns[static_cast<size_t>(column)], refs, type, context_->memory)
                                                    : TakeFrom({}, nulls, type, context_->memory));
        columns.push_back(std::move(a));
      }
      out.push_back(Batch::Make(join_->schema, std::move(columns), static_cast<int64_t>(refs.size())));
      refs.clear();
    }
    return out;
  }

  void Report(RunMetrics* m) const { m->Add(build_metrics_); }

 private:
  static constexpr uint32_t kNoRow = UINT32_MAX;

  Status HashPairs(const BatchPtr& batch, std::vector<int32_t>* probe_rows, std::vector<uint32_t>* build_ids,
                   std::vector<uint32_t>* null_keys) const {
    const int64_t n = batch->num_rows();
    std::vector<ArrayPtr> keys;
    for (const auto& k : probe_keys_) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr key, expr::EvaluateToArray(*k, *batch, context_->memory));
      keys.push_back(std::move(key));
    }
    EncodedKeys encoded;
    EPOXY_RETURN_NOT_OK(build_.encoder->Encode(keys, n, &encoded));
    probe_rows->reserve(static_cast<size_t>(n));
    build_ids->reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      if ((encoded.NullKeys(i) & ~null_safe_mask_) != 0) continue;  // a null key matches nothing
      build_.table->ForEachMatch(encoded, i, [&](uint32_t g) {
        probe_rows->push_back(static_cast<int32_t>(i));
        build_ids->push_back(g);
      });
    }
    *null_keys = std::move(encoded.null_keys);
    return Status::OK();
  }

  /// Every (probe row, build row) pair, in probe order.
  void NestedLoopPairs(int64_t n, std::vector<int32_t>* probe_rows, std::vector<uint32_t>* build_ids) const {
    probe_rows->reserve(static_cast<size_t>(n * build_.num_rows));
    build_ids->reserve(static_cast<size_t>(n * build_.num_rows));
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t g = 0; g < build_.num_rows; ++g) {
        probe_rows->push_back(static_cast<int32_t>(i));
        build_ids->push_back(static_cast<uint32_t>(g));
      }
    }
  }

  /// Probe rows of a semi join with a match, or of an anti join without one (NOT IN's nulls too).
  Result<BatchPtr> KeepProbeRows(const BatchPtr& batch, const std::vector<int32_t>& matched,
                                 const std::vector<uint32_t>& null_keys) const {
    const int64_t n = batch->num_rows();
    std::vector<uint8_t> hit(static_cast<size_t>(n), 0);
    for (int32_t p : matched) hit[static_cast<size_t>(p)] = 1;
    std::vector<int32_t> keep;
    const bool null_aware = join_->null_aware && shape_.probe_anti;
    const bool build_empty = build_.num_rows == 0;
    if (null_aware && !build_empty && build_.table && build_.table->has_null_key()) {
      return TakeBatch(batch, keep, context_->memory);  // x NOT IN (..., NULL, ...) is never true
    }
    for (int64_t i = 0; i < n; ++i) {
      bool take = shape_.probe_semi ? hit[static_cast<size_t>(i)] != 0 : hit[static_cast<size_t>(i)] == 0;
      if (take && null_aware && !build_empty && !null_keys.empty() && null_keys[static_cast<size_t>(i)] != 0) take = false;
      if (take) keep.push_back(static_cast<int32_t>(i));
    }
    return TakeBatch(batch, keep, context_->memory);
  }

  /// The columns of `schema` (both inputs' columns, or the join's output) for the pairs: the probe
  /// side's from `batch`, the build side's from the build batches (kNoRow: nulls).
  Result<BatchPtr> Assemble(const Batch& batch, const std::vector<int32_t>& probe_rows, const std::vector<uint32_t>& build_ids,
                            const SchemaPtr& schema) const {
    std::vector<RowRef> probe_refs(probe_rows.size()), build_refs(build_ids.size());
    for (size_t i = 0; i < probe_rows.size(); ++i) probe_refs[i] = MakeRowRef(0, static_cast<uint32_t>(probe_rows[i]));
    for (size_t i = 0; i < build_ids.size(); ++i) {
      build_refs[i] = build_ids[i] == kNoRow ? kNullRow : build_.refs[build_ids[i]];
    }
    std::vector<ArrayPtr> columns;
    for (int c = 0; c < schema->num_fields(); ++c) {
      const bool left = c < num_left_;
      const int column = left ? c : c - num_left_;
      const TypePtr& type = schema->field(c).type;
      Result<ArrayPtr> a = left == shape_.probe_is_left
                               ? TakeFrom({batch.column(column)}, probe_refs, type, context_->memory)
                               : TakeFrom(build_.columns[static_cast<size_t>(column)], build_refs, type, context_->memory);
      EPOXY_RETURN_NOT_OK(a.status());
      columns.push_back(std::move(*a));
    }
    return Batch::Make(schema, std::move(columns), static_cast<int64_t>(probe_rows.size()));
  }

  plan::PlanPtr join_;
  JoinStrategy strategy_;
  JoinShape shape_;
  ExecContext* context_;
  SchemaPtr pair_schema_;
  int num_left_ = 0;
  std::vector<expr::ExprPtr> probe_keys_, build_keys_;
  uint32_t null_safe_mask_ = 0;
  BuildSide build_;
  RunMetrics build_metrics_;
};

}  // namespace

JoinStrategy ChooseJoinStrategy(const plan::PlanNode& join) {
  JoinStrategy s;
  s.nested_loop = join.left_keys.empty();
  const double left = plan::EstimateRows(*join.inputs[0]);
  const double right = plan::EstimateRows(*join.inputs[1]);
  // The left side may be built when the type keeps it whole or only tests it: every type but a
  // NOT IN (null-aware) or scalar subquery join, whose checks need the right side built.
  const bool can_build_left = !join.null_aware && !join.single_match;
  if (join.hint == plan::JoinHint::kBroadcastLeft && can_build_left) {
    s.build_left = true;
  } else if (join.hint == plan::JoinHint::kBroadcastRight) {
    s.build_left = false;
  } else {
    // Semi and anti joins probe with the left side unless it is much the smaller.
    const bool semi_like = join.join_type == plan::JoinType::kSemi || join.join_type == plan::JoinType::kAnti;
    s.build_left = can_build_left && (semi_like ? left * 4 < right : left < right);
  }
  s.build_rows = s.build_left ? left : right;
  s.probe_rows = s.build_left ? right : left;
  s.broadcast = join.hint != plan::JoinHint::kNone || s.build_rows <= kBroadcastRows;
  return s;
}

Result<PipelineStep> MakeJoinProbe(const plan::PlanPtr& join, const JoinStrategy& strategy,
                                   std::unique_ptr<ParallelPipeline> build, ExecContext* context) {
  auto probe = std::make_shared<JoinProbe>(join, strategy, context);
  EPOXY_RETURN_NOT_OK(probe->Build(std::move(build)));
  PipelineStep step;
  step.name = fmt::format("{} join rows out", plan::JoinTypeName(join->join_type));
  step.rows_out = std::make_shared<std::atomic<int64_t>>(0);
  step.apply = [probe](BatchPtr batch) -> Result<BatchPtr> { return probe->Probe(std::move(batch)); };
  step.finish = [probe]() { return probe->Finish(); };
  step.report = [probe](RunMetrics* m) { probe->Report(m); };
  return step;
}

}  // namespace epoxy::exec
