// SPDX-License-Identifier: Apache-2.0
// Hash join: build, probe and the build side's tail. The probe finds each probe row's candidate
// build rows, filters the pairs by the residual condition, and assembles the output for the join
// type; build rows that must be remembered (right/full outer, semi or anti joins built on the
// left) are flagged as they match.
//
// Past the memory budget the join is a hybrid hash join: the build side's batches go into a
// hash-partitioned exchange that spills, the probe side's rows are scattered into the same
// partitions, and each partition pair is joined at the end (split again by the next bits of the
// hash when a build partition is still too large).
#include "epoxy/exec/hash_join.h"

#include <atomic>
#include <mutex>

#include "epoxy/exec/hash_table.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/plan/statistics.h"
#include "epoxy/vector/builder.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

using plan::JoinType;

constexpr double kBroadcastRows = 1e6;
constexpr int kPartitionBits = 5;
constexpr int kMaxDepth = 3;
constexpr uint32_t kNoRow = UINT32_MAX;

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

/// A build side (the whole of one, or one partition) held in memory and indexed by key.
struct BuildSide {
  std::vector<BatchPtr> batches;
  std::vector<std::vector<ArrayPtr>> columns;  // per column, the array of each batch
  std::vector<RowRef> refs;                    // build row id -> (batch, row)
  std::unique_ptr<JoinTable> table;
  std::unique_ptr<std::atomic<uint8_t>[]> matched;
  int64_t num_rows = 0;

  void Add(BatchPtr batch) {
    const uint32_t b = static_cast<uint32_t>(batches.size());
    for (int64_t r = 0; r < batch->num_rows(); ++r) refs.push_back(MakeRowRef(b, static_cast<uint32_t>(r)));
    if (columns.empty()) columns.resize(static_cast<size_t>(batch->num_columns()));
    for (int c = 0; c < batch->num_columns(); ++c) columns[static_cast<size_t>(c)].push_back(batch->column(c));
    num_rows += batch->num_rows();
    batches.push_back(std::move(batch));
  }

  /// Where build row g is.
  RowRef RefOf(uint32_t g) const { return flat ? MakeRowRef(0, g) : refs[g]; }

  /// Each column as one array, so gathering build rows indexes it directly (no lookup of where a
  /// row is). Skipped when it would not fit: the chunks stay.
  void Flatten(MemoryPool* pool) {
    if (batches.size() <= 1 || num_rows >= INT32_MAX) return;
    std::vector<ArrayPtr> whole;
    for (const auto& chunks : columns) {
      auto one = Concatenate(chunks, pool);
      if (!one.ok()) return;
      whole.push_back(std::move(*one));
    }
    for (size_t c = 0; c < columns.size(); ++c) columns[c] = {std::move(whole[c])};
    refs = {};
    batches.clear();  // the chunks go: the arrays hold the rows once
    flat = true;
  }
  bool flat = false;  // columns hold one array each; refs is empty
};

class JoinProbe {
 public:
  JoinProbe(plan::PlanPtr join, JoinStrategy strategy, ExecContext* context, std::vector<bool> needed)
      : join_(std::move(join)), needed_(std::move(needed)), strategy_(strategy),
        shape_(ShapeOf(join_->join_type, strategy.build_left)), context_(context) {
    const auto& left = *join_->inputs[0]->schema;
    const auto& right = *join_->inputs[1]->schema;
    std::vector<Field> fields = left.fields();
    for (const auto& f : right.fields()) fields.push_back(f);
    pair_schema_ = Schema::Make(std::move(fields));
    num_left_ = left.num_fields();
    build_schema_ = strategy.build_left ? join_->inputs[0]->schema : join_->inputs[1]->schema;
    probe_schema_ = strategy.build_left ? join_->inputs[1]->schema : join_->inputs[0]->schema;
    probe_keys_ = strategy.build_left ? join_->right_keys : join_->left_keys;
    build_keys_ = strategy.build_left ? join_->left_keys : join_->right_keys;
    for (size_t k = 0; k < join_->null_safe.size(); ++k) {
      if (join_->null_safe[k]) null_safe_mask_ |= uint32_t{1} << k;
    }
    std::vector<TypePtr> types;
    for (const auto& k : build_keys_) types.push_back(k->type);
    encoder_ = std::make_unique<KeyEncoder>(types, null_safe_mask_ != 0);
  }

  Status Build(std::unique_ptr<ParallelPipeline> input) {
    std::mutex mu;
    auto whole = std::make_unique<BuildSide>();
    int64_t whole_bytes = 0;
    EPOXY_RETURN_NOT_OK(input->Drain([&](BatchPtr batch) -> Status {
      std::lock_guard lock(mu);
      build_rows_ += batch->num_rows();
      if (spilled_) {
        EPOXY_RETURN_NOT_OK(Scatter(batch, build_parts_.get(), build_keys_));
        return context_->spill.OverBudget() ? build_parts_->SpillAll() : Status::OK();
      }
      whole_bytes += batch->buffer_bytes();
      whole->Add(std::move(batch));
      if (!strategy_.nested_loop && IndexPassesBudget(whole_bytes)) {
        // Too large for memory: from here on the build side is partitioned and spilled.
        ++context_->spilled_partitions;
        spilled_ = true;
        build_parts_ = std::make_unique<PartitionedBuffer>(build_schema_, 1 << kPartitionBits, &context_->spill);
        probe_parts_ = std::make_unique<PartitionedBuffer>(probe_schema_, 1 << kPartitionBits, &context_->spill);
        // Each held batch is released once scattered, so memory does not hold the side twice.
        std::vector<BatchPtr> held = std::move(whole->batches);
        whole = std::make_unique<BuildSide>();
        for (auto& b : held) {
          EPOXY_RETURN_NOT_OK(Scatter(b, build_parts_.get(), build_keys_));
          b.reset();
          if (context_->spill.OverBudget()) EPOXY_RETURN_NOT_OK(build_parts_->SpillAll());
        }
        return build_parts_->SpillAll();
      }
      return Status::OK();
    }));
    input->Report(&build_metrics_);
    if (spilled_) return build_parts_->SpillAll();
    EPOXY_RETURN_NOT_OK(Index(whole.get()));
    build_ = std::move(whole);
    return Status::OK();
  }

  Result<BatchPtr> Probe(BatchPtr batch) const {
    if (spilled_) {
      EPOXY_RETURN_NOT_OK(Scatter(batch, probe_parts_.get(), probe_keys_));
      if (context_->spill.OverBudget()) EPOXY_RETURN_NOT_OK(probe_parts_->SpillAll());
      return BatchPtr();  // joined partition by partition at the end
    }
    return ProbeWith(*build_, std::move(batch));
  }

  /// What follows the last probe batch: a spilled join's partitions, joined in turn, one probe
  /// batch per call; then the build rows an outer, semi or anti join keeps.
  BatchGenerator Finish() {
    return [this]() -> Result<BatchPtr> {
      while (true) {
        if (!pending_.empty()) {
          BatchPtr out = std::move(pending_.front());
          pending_.erase(pending_.begin());
          return out;
        }
        if (!spilled_) {
          if (tail_done_) return BatchPtr();
          tail_done_ = true;
          EPOXY_RETURN_NOT_OK(Tail(*build_, &pending_));
          continue;
        }
        if (current_ != nullptr) {
          // The partition being joined: its next probe batch, then its tail.
          EPOXY_ASSIGN_OR_RETURN(BatchPtr probe, current_probe_->Next());
          if (probe != nullptr) {
            EPOXY_ASSIGN_OR_RETURN(BatchPtr joined, ProbeWith(*current_, std::move(probe)));
            if (joined != nullptr && joined->num_rows() > 0) return joined;
            continue;
          }
          EPOXY_RETURN_NOT_OK(Tail(*current_, &pending_));
          current_.reset();
          current_probe_.reset();
          continue;
        }
        if (!work_ready_) {
          work_ready_ = true;
          context_->spilled_bytes += build_parts_->spilled_bytes() + probe_parts_->spilled_bytes();
          for (int p = 0; p < build_parts_->num_partitions(); ++p) work_.push_back({build_parts_.get(), probe_parts_.get(), p, 0});
        }
        if (work_.empty()) return BatchPtr();
        Work w = work_.front();
        work_.erase(work_.begin());
        EPOXY_RETURN_NOT_OK(StartPartition(w));
      }
    };
  }

  void Report(RunMetrics* m) const { m->Add(build_metrics_); }

 private:
  /// One partition pair still to join (the exchanges it comes from stay alive in `splits_`).
  struct Work {
    PartitionedBuffer* build;
    PartitionedBuffer* probe;
    int partition;
    int depth;
  };

  /// `batch` split by the hash of `keys` into `parts` (a null key's row goes to partition 0: it
  /// meets no row, wherever it is).
  Status Scatter(const BatchPtr& batch, PartitionedBuffer* parts, const std::vector<expr::ExprPtr>& keys, int depth = 0) const {
    std::vector<ArrayPtr> columns;
    for (const auto& k : keys) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr key, expr::EvaluateToArray(*k, *batch, context_->memory));
      columns.push_back(std::move(key));
    }
    EncodedKeys encoded;
    EPOXY_RETURN_NOT_OK(encoder_->Encode(columns, batch->num_rows(), &encoded));
    std::vector<std::vector<int32_t>> rows(static_cast<size_t>(parts->num_partitions()));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      const bool excluded = (encoded.NullKeys(i) & ~null_safe_mask_) != 0;
      const int p = excluded ? 0 : PartitionOf(encoded.hashes[static_cast<size_t>(i)], kPartitionBits, depth);
      rows[static_cast<size_t>(p)].push_back(static_cast<int32_t>(i));
    }
    for (size_t p = 0; p < rows.size(); ++p) {
      if (rows[p].empty()) continue;
      EPOXY_ASSIGN_OR_RETURN(BatchPtr part, TakeBatch(batch, rows[p], context_->memory));
      EPOXY_RETURN_NOT_OK(parts->Append(static_cast<int>(p), std::move(part)));
    }
    return Status::OK();
  }

  /// Whether indexing `held` bytes of build rows would take the pool past the spill budget: the
  /// index (encoded keys, hashes, chains, row references) costs about as much as the rows again.
  bool IndexPassesBudget(int64_t held) const {
    return context_->spill.pool->bytes_allocated() + held > context_->spill.limit();
  }

  static int64_t build_bytes(const BuildSide& build) {
    int64_t bytes = 0;
    for (const auto& b : build.batches) bytes += b->buffer_bytes();
    return bytes;
  }

  /// The table over a build side's rows (and its match flags).
  Status Index(BuildSide* build) const {
    if (!strategy_.nested_loop) {
      std::vector<EncodedKeys> encoded(build->batches.size());
      TaskGroup tasks(*context_->pool);
      for (size_t b = 0; b < build->batches.size(); ++b) {
        tasks.Spawn([&, b]() -> Status {
          std::vector<ArrayPtr> keys;
          for (const auto& k : build_keys_) {
            EPOXY_ASSIGN_OR_RETURN(ArrayPtr key, expr::EvaluateToArray(*k, *build->batches[b], context_->memory));
            keys.push_back(std::move(key));
          }
          return encoder_->Encode(keys, build->batches[b]->num_rows(), &encoded[b]);
        });
      }
      EPOXY_RETURN_NOT_OK(tasks.Wait());
      EPOXY_ASSIGN_OR_RETURN(build->table, JoinTable::Build(encoder_.get(), std::move(encoded), null_safe_mask_,
                                                            context_->pool, context_->memory));
      if (build->table->has_null_key()) build_has_null_key_ = true;
    }
    // Gathering from one array per column is cheaper than from chunks, when the copy fits.
    if (build->num_rows > 0 && build_bytes(*build) <= context_->spill.task_budget()) build->Flatten(context_->memory);
    if (shape_.track_build()) {
      build->matched.reset(new std::atomic<uint8_t>[static_cast<size_t>(build->num_rows)]);
      for (int64_t i = 0; i < build->num_rows; ++i) build->matched[i].store(0, std::memory_order_relaxed);
    }
    return Status::OK();
  }

  /// Loads one partition pair: its build rows indexed and its probe rows ready to be read; a
  /// build partition still too large is split again (both sides) into more work.
  Status StartPartition(const Work& w) {
    if (w.build->partition_rows(w.partition) == 0 && !shape_.probe_outer && !shape_.probe_anti) return Status::OK();
    EPOXY_ASSIGN_OR_RETURN(PartitionedBuffer::Reader build_reader, w.build->Read(w.partition));
    auto build = std::make_unique<BuildSide>();
    int64_t held_bytes = 0;
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr b, build_reader.Next());
      if (b == nullptr) break;
      build->Add(std::move(b));
      held_bytes += build->batches.back()->buffer_bytes();
      if (w.depth < kMaxDepth && held_bytes > context_->spill.task_budget() && IndexPassesBudget(held_bytes)) {
        return Split(w, std::move(build), &build_reader);
      }
    }
    EPOXY_RETURN_NOT_OK(Index(build.get()));
    EPOXY_ASSIGN_OR_RETURN(PartitionedBuffer::Reader probe_reader, w.probe->Read(w.partition));
    current_probe_ = std::make_unique<PartitionedBuffer::Reader>(std::move(probe_reader));
    current_ = std::move(build);
    return Status::OK();
  }

  /// Splits a partition pair by the next bits of the hash, both sides, into more work.
  Status Split(const Work& w, std::unique_ptr<BuildSide> held, PartitionedBuffer::Reader* build_reader) {
    auto build_split = std::make_unique<PartitionedBuffer>(build_schema_, 1 << kPartitionBits, &context_->spill);
    auto probe_split = std::make_unique<PartitionedBuffer>(probe_schema_, 1 << kPartitionBits, &context_->spill);
    for (const auto& b : held->batches) EPOXY_RETURN_NOT_OK(Scatter(b, build_split.get(), build_keys_, w.depth + 1));
    held.reset();
    EPOXY_RETURN_NOT_OK(build_split->SpillAll());
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr rest, build_reader->Next());
      if (rest == nullptr) break;
      EPOXY_RETURN_NOT_OK(Scatter(rest, build_split.get(), build_keys_, w.depth + 1));
      EPOXY_RETURN_NOT_OK(build_split->SpillAll());
    }
    EPOXY_ASSIGN_OR_RETURN(PartitionedBuffer::Reader probe_reader, w.probe->Read(w.partition));
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr p, probe_reader.Next());
      if (p == nullptr) break;
      EPOXY_RETURN_NOT_OK(Scatter(p, probe_split.get(), probe_keys_, w.depth + 1));
      EPOXY_RETURN_NOT_OK(probe_split->SpillAll());
    }
    context_->spilled_bytes += build_split->spilled_bytes() + probe_split->spilled_bytes();
    ++context_->spilled_partitions;
    for (int p = build_split->num_partitions(); p-- > 0;) {
      work_.insert(work_.begin(), {build_split.get(), probe_split.get(), p, w.depth + 1});
    }
    splits_.push_back(std::move(build_split));
    splits_.push_back(std::move(probe_split));
    return Status::OK();
  }

  Result<BatchPtr> ProbeWith(const BuildSide& build, BatchPtr batch) const {
    const int64_t n = batch->num_rows();
    std::vector<int32_t> probe_rows;
    std::vector<uint32_t> build_ids;
    std::vector<uint32_t> null_keys;  // the probe rows' null keys (NOT IN needs them)
    if (strategy_.nested_loop) {
      NestedLoopPairs(build, n, &probe_rows, &build_ids);
    } else {
      EPOXY_RETURN_NOT_OK(HashPairs(build, batch, &probe_rows, &build_ids, &null_keys));
    }
    // Pairs that pass the residual condition.
    BatchPtr pairs;
    if (join_->predicate && !probe_rows.empty()) {
      EPOXY_ASSIGN_OR_RETURN(pairs, Assemble(build, *batch, probe_rows, build_ids, pair_schema_));
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
      for (uint32_t g : build_ids) build.matched[g].store(1, std::memory_order_relaxed);
    }
    if (shape_.probe_semi || shape_.probe_anti) return KeepProbeRows(build, batch, probe_rows, null_keys);
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
      return Assemble(build, *batch, probe_rows, build_ids, join_->schema);
    }
    if (pairs != nullptr) return Batch::Make(join_->schema, pairs->columns(), pairs->num_rows());
    return Assemble(build, *batch, probe_rows, build_ids, join_->schema);
  }

  /// The build rows an outer, semi or anti join keeps once every probe row has been seen.
  Status Tail(const BuildSide& build, std::vector<BatchPtr>* out) const {
    if (!shape_.track_build()) return Status::OK();
    const bool want_matched = shape_.build_semi;
    const bool left_only = shape_.build_semi || shape_.build_anti;  // the output is the (built) left side
    std::vector<RowRef> refs;
    for (int64_t g = 0; g < build.num_rows; ++g) {
      const bool matched = build.matched[g].load(std::memory_order_relaxed) != 0;
      if (matched == want_matched) refs.push_back(build.RefOf(static_cast<uint32_t>(g)));
      if (refs.size() < (1 << 16) && !(g + 1 == build.num_rows && !refs.empty())) continue;
      std::vector<ArrayPtr> columns;
      for (int c = 0; c < join_->schema->num_fields(); ++c) {
        const bool is_build = left_only || (strategy_.build_left ? c < num_left_ : c >= num_left_);
        const TypePtr& type = join_->schema->field(c).type;
        const int column = strategy_.build_left ? c : c - num_left_;
        std::vector<RowRef> nulls;
        if (!is_build) nulls.assign(refs.size(), kNullRow);
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr a, is_build ? TakeFrom(build.columns[static_cast<size_t>(column)], refs, type, context_->memory)
                                                    : TakeFrom({}, nulls, type, context_->memory));
        columns.push_back(std::move(a));
      }
      out->push_back(Batch::Make(join_->schema, std::move(columns), static_cast<int64_t>(refs.size())));
      refs.clear();
    }
    return Status::OK();
  }

  Status HashPairs(const BuildSide& build, const BatchPtr& batch, std::vector<int32_t>* probe_rows,
                   std::vector<uint32_t>* build_ids, std::vector<uint32_t>* null_keys) const {
    const int64_t n = batch->num_rows();
    std::vector<ArrayPtr> keys;
    for (const auto& k : probe_keys_) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr key, expr::EvaluateToArray(*k, *batch, context_->memory));
      keys.push_back(std::move(key));
    }
    EncodedKeys encoded;
    EPOXY_RETURN_NOT_OK(encoder_->Encode(keys, n, &encoded));
    probe_rows->reserve(static_cast<size_t>(n));
    build_ids->reserve(static_cast<size_t>(n));
    if (build.table != nullptr) {
      for (int64_t i = 0; i < n; ++i) {
        if ((encoded.NullKeys(i) & ~null_safe_mask_) != 0) continue;  // a null key matches nothing
        build.table->ForEachMatch(encoded, i, [&](uint32_t g) {
          probe_rows->push_back(static_cast<int32_t>(i));
          build_ids->push_back(g);
        });
      }
    }
    *null_keys = std::move(encoded.null_keys);
    return Status::OK();
  }

  /// Every (probe row, build row) pair, in probe order.
  static void NestedLoopPairs(const BuildSide& build, int64_t n, std::vector<int32_t>* probe_rows,
                              std::vector<uint32_t>* build_ids) {
    probe_rows->reserve(static_cast<size_t>(n * build.num_rows));
    build_ids->reserve(static_cast<size_t>(n * build.num_rows));
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t g = 0; g < build.num_rows; ++g) {
        probe_rows->push_back(static_cast<int32_t>(i));
        build_ids->push_back(static_cast<uint32_t>(g));
      }
    }
  }

  /// Probe rows of a semi join with a match, or of an anti join without one (NOT IN's nulls too:
  /// the build side's emptiness and null keys are those of the whole side, not of a partition).
  Result<BatchPtr> KeepProbeRows(const BuildSide& build, const BatchPtr& batch, const std::vector<int32_t>& matched,
                                 const std::vector<uint32_t>& null_keys) const {
    (void)build;
    const int64_t n = batch->num_rows();
    std::vector<uint8_t> hit(static_cast<size_t>(n), 0);
    for (int32_t p : matched) hit[static_cast<size_t>(p)] = 1;
    std::vector<int32_t> keep;
    const bool null_aware = join_->null_aware && shape_.probe_anti;
    const bool build_empty = build_rows_ == 0;
    if (null_aware && !build_empty && build_has_null_key_) {
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
  Result<BatchPtr> Assemble(const BuildSide& build, const Batch& batch, const std::vector<int32_t>& probe_rows,
                            const std::vector<uint32_t>& build_ids, const SchemaPtr& schema) const {
    const int64_t n = static_cast<int64_t>(probe_rows.size());
    // Probe rows in increasing order, each once (a join on a unique build key), are a selection of
    // the batch: taken directly, or the batch's own columns when every row is there.
    bool increasing = true;
    for (size_t i = 1; i < probe_rows.size() && increasing; ++i) increasing = probe_rows[i] > probe_rows[i - 1];
    const bool whole = increasing && n == batch.num_rows();
    std::vector<RowRef> probe_refs, build_refs(build_ids.size());
    if (!increasing) {
      probe_refs.resize(probe_rows.size());
      for (size_t i = 0; i < probe_rows.size(); ++i) probe_refs[i] = MakeRowRef(0, static_cast<uint32_t>(probe_rows[i]));
    }
    bool every_build_row = true;  // no probe row without its build row (an outer join's)
    for (size_t i = 0; i < build_ids.size(); ++i) {
      every_build_row = every_build_row && build_ids[i] != kNoRow;
      build_refs[i] = build_ids[i] == kNoRow ? kNullRow : build.RefOf(build_ids[i]);
    }
    std::vector<int32_t> build_rows;
    if (build.flat && every_build_row) build_rows.assign(build_ids.begin(), build_ids.end());
    const bool all_needed = needed_.empty() || schema != join_->schema;
    std::vector<ArrayPtr> columns;
    for (int c = 0; c < schema->num_fields(); ++c) {
      const bool left = c < num_left_;
      const int column = left ? c : c - num_left_;
      const TypePtr& type = schema->field(c).type;
      if (!all_needed && !needed_[static_cast<size_t>(c)]) {
        columns.push_back(Array::MakeNull(n));  // dropped by the projection above
        continue;
      }
      Result<ArrayPtr> a = ArrayPtr();
      if (left == shape_.probe_is_left) {
        a = whole ? Result<ArrayPtr>(batch.column(column))
            : increasing ? Take(*batch.column(column), probe_rows, context_->memory)
                         : TakeFrom({batch.column(column)}, probe_refs, type, context_->memory);
      } else {
        a = build.columns.empty()
                ? TakeFrom({}, std::vector<RowRef>(build_refs.size(), kNullRow), type, context_->memory)
            : !build_rows.empty() || (build.flat && n == 0)
                ? Take(*build.columns[static_cast<size_t>(column)][0], build_rows, context_->memory)
                : TakeFrom(build.columns[static_cast<size_t>(column)], build_refs, type, context_->memory);
      }
      EPOXY_RETURN_NOT_OK(a.status());
      columns.push_back(std::move(*a));
    }
    return Batch::Make(schema, std::move(columns), n);
  }

  plan::PlanPtr join_;
  std::vector<bool> needed_;  // of join_->schema's columns; empty: all
  JoinStrategy strategy_;
  JoinShape shape_;
  ExecContext* context_;
  SchemaPtr pair_schema_, build_schema_, probe_schema_;
  int num_left_ = 0;
  std::vector<expr::ExprPtr> probe_keys_, build_keys_;
  uint32_t null_safe_mask_ = 0;
  std::unique_ptr<KeyEncoder> encoder_;
  std::unique_ptr<BuildSide> build_;  // in memory (not spilled)
  int64_t build_rows_ = 0;
  mutable std::atomic<bool> build_has_null_key_{false};
  RunMetrics build_metrics_;
  // Spilled: both sides by partition, then joined pair by pair.
  bool spilled_ = false;
  std::unique_ptr<PartitionedBuffer> build_parts_, probe_parts_;
  std::vector<std::unique_ptr<PartitionedBuffer>> splits_;
  std::vector<Work> work_;
  std::unique_ptr<BuildSide> current_;  // the partition being joined
  std::unique_ptr<PartitionedBuffer::Reader> current_probe_;
  bool work_ready_ = false;
  bool tail_done_ = false;
  std::vector<BatchPtr> pending_;
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
                                   std::unique_ptr<ParallelPipeline> build, ExecContext* context,
                                   std::vector<bool> needed) {
  auto probe = std::make_shared<JoinProbe>(join, strategy, context, std::move(needed));
  EPOXY_RETURN_NOT_OK(probe->Build(std::move(build)));
  PipelineStep step;
  step.name = fmt::format("{} join rows out", plan::JoinTypeName(join->join_type));
  step.rows_out = std::make_shared<std::atomic<int64_t>>(0);
  step.apply = [probe](BatchPtr batch) -> Result<BatchPtr> { return probe->Probe(std::move(batch)); };
  step.finish = [probe]() -> Result<BatchGenerator> { return probe->Finish(); };
  step.report = [probe](RunMetrics* m) { probe->Report(m); };
  return step;
}

}  // namespace epoxy::exec
