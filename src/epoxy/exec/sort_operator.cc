// SPDX-License-Identifier: Apache-2.0
// ORDER BY as an external merge sort: the input's batches (with their keys evaluated in the pool's
// tasks) collect in memory; past the budget they are sorted into a run written to a temporary
// file. At the end the runs (or the one in memory) are merged. With a limit it is a top-n: each
// task keeps its best rows, trimmed to the limit as they grow.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <queue>

#include "epoxy/exec/pipeline.h"
#include "epoxy/exec/sort_keys.h"
#include "epoxy/expr/evaluator.h"

namespace epoxy::exec {
namespace {

constexpr int64_t kOutputRows = 1 << 16;
/// Runs are written in small batches: merging holds one batch of every run at once.
constexpr int64_t kRunBatchRows = 1 << 13;

/// One sorted run on disk, read back a batch at a time.
struct Run {
  std::unique_ptr<SpillFile> file;
  std::unique_ptr<SpillFile::Reader> reader;
  BatchPtr batch;
  int64_t row = 0;
};

/// The k-way merge of sorted runs (of the keyed schema), a batch at a time.
class RunMerger {
 public:
  RunMerger(std::vector<Run> runs, const RowOrder* order) : runs_(std::move(runs)), order_(order) {}

  Status Open(const SchemaPtr& keyed_schema, MemoryPool* memory) {
    for (auto& run : runs_) {
      EPOXY_ASSIGN_OR_RETURN(SpillFile::Reader reader, run.file->Read(keyed_schema, memory));
      run.reader = std::make_unique<SpillFile::Reader>(std::move(reader));
      EPOXY_ASSIGN_OR_RETURN(run.batch, run.reader->Next());
    }
    for (size_t r = 0; r < runs_.size(); ++r) {
      if (runs_[r].batch != nullptr) heap_.push_back(r);
    }
    std::make_heap(heap_.begin(), heap_.end(), Later{this});
    return Status::OK();
  }

  /// Up to `max_rows` next rows, as `schema` (the keyed schema's first columns); nullptr at the end.
  Result<BatchPtr> Next(int64_t max_rows, const SchemaPtr& schema, MemoryPool* memory) {
    if (heap_.empty() || max_rows <= 0) return BatchPtr();
    const Later later{this};
    std::vector<BatchPtr> sources;  // the batches this output batch takes rows from
    std::vector<SortEntry> picked;
    while (!heap_.empty() && static_cast<int64_t>(picked.size()) < max_rows) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      Run& run = runs_[heap_.back()];
      if (sources.empty() || sources.back() != run.batch) sources.push_back(run.batch);
      SortEntry e{};
      e.ref = MakeRowRef(static_cast<uint32_t>(sources.size() - 1), static_cast<uint32_t>(run.row));
      picked.push_back(e);
      if (++run.row >= run.batch->num_rows()) {
        EPOXY_ASSIGN_OR_RETURN(run.batch, run.reader->Next());
        run.row = 0;
      }
      if (run.batch == nullptr) {
        heap_.pop_back();
        run.reader.reset();
        run.file.reset();  // read to its end: the file goes now
      } else {
        std::push_heap(heap_.begin(), heap_.end(), later);
      }
    }
    EPOXY_ASSIGN_OR_RETURN(std::vector<BatchPtr> out, GatherSorted(picked, sources, schema, max_rows, memory));
    return out.empty() ? BatchPtr() : out[0];
  }

 private:
  /// The heap's order: the smallest row on top.
  struct Later {
    const RunMerger* merger;
    bool operator()(size_t a, size_t b) const {
      const Run& x = merger->runs_[a];
      const Run& y = merger->runs_[b];
      return merger->order_->Compare(*x.batch, x.row, *y.batch, y.row) > 0;
    }
  };

  std::vector<Run> runs_;
  const RowOrder* order_;
  std::vector<size_t> heap_;
};

class SortOperator final : public Operator {
 public:
  SortOperator(plan::PlanPtr node, std::unique_ptr<ParallelPipeline> input, int64_t limit, ExecContext* context)
      : node_(std::move(node)), input_(std::move(input)), limit_(limit), context_(context),
        order_(node_->sort_keys, node_->schema->num_fields()) {
    std::vector<Field> fields = node_->schema->fields();
    for (const auto& k : node_->sort_keys) fields.push_back({"sort key", k.expr->type});
    keyed_schema_ = Schema::Make(std::move(fields));
  }

  ~SortOperator() override {
    for (auto& slot : gathers_) HelpUntil(*context_->pool, slot->mu, slot->cv, [&] { return slot->done; });
  }

  Result<BatchPtr> Next() override {
    if (!started_) {
      started_ = true;
      EPOXY_RETURN_NOT_OK(input_->Drain([this](BatchPtr batch) { return Consume(std::move(batch)); }));
      EPOXY_RETURN_NOT_OK(Finish());
    }
    if (merger_ != nullptr) return NextMerged();
    return NextGathered();
  }

  void Report(RunMetrics* m) const override { input_->Report(m); }

 private:
  /// The batch with its sort keys appended as columns.
  Result<BatchPtr> WithKeys(const BatchPtr& batch) const {
    std::vector<ArrayPtr> columns = batch->columns();
    for (const auto& k : node_->sort_keys) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr key, expr::EvaluateToArray(*k.expr, *batch, context_->memory));
      columns.push_back(std::move(key));
    }
    return Batch::Make(keyed_schema_, std::move(columns), batch->num_rows());
  }

  Status Consume(BatchPtr batch) {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr keyed, WithKeys(batch));
    std::vector<BatchPtr> taken;  // rows this task sorts, outside the lock
    {
      std::lock_guard lock(mu_);
      rows_ += keyed->num_rows();
      batches_.push_back(std::move(keyed));
      // Sorting needs an entry per row and, for the parallel merge, as many again.
      EPOXY_RETURN_NOT_OK(entries_.Set(rows_ * static_cast<int64_t>(sizeof(SortEntry)) * 2, "sort entries"));
      const bool trim = limit_ >= 0 && rows_ > std::max<int64_t>(4 * limit_, kOutputRows);
      if (trim || (limit_ < 0 && context_->spill.OverBudget())) {
        taken.swap(batches_);
        rows_ = 0;
      }
    }
    if (taken.empty()) return Status::OK();
    // No lock is held here: sorting helps the pool, which may run other tasks of this sink.
    if (limit_ >= 0) {
      // Top-n: the best `limit` of these rows go back.
      EPOXY_ASSIGN_OR_RETURN(std::vector<BatchPtr> kept, SortHeld(taken));
      taken.clear();
      std::lock_guard lock(mu_);
      for (auto& b : kept) {
        rows_ += b->num_rows();
        batches_.push_back(std::move(b));
      }
      return Status::OK();
    }
    return SpillRun(std::move(taken));
  }

  /// The order of `batches`' rows (cut to the limit).
  std::vector<SortEntry> SortedEntries(const std::vector<BatchPtr>& batches) const {
    std::vector<SortEntry> entries = order_.EntriesOf(batches, context_->pool);
    if (limit_ >= 0 && static_cast<int64_t>(entries.size()) > limit_) {
      auto less = [&](const SortEntry& x, const SortEntry& y) { return order_.Less(x, y, batches); };
      std::partial_sort(entries.begin(), entries.begin() + limit_, entries.end(), less);
      entries.resize(static_cast<size_t>(limit_));
    } else {
      order_.Sort(&entries, batches, context_->pool);
    }
    return entries;
  }

  /// `batches` sorted (and cut to the limit) into batches of the keyed schema.
  Result<std::vector<BatchPtr>> SortHeld(const std::vector<BatchPtr>& batches) const {
    return GatherSorted(SortedEntries(batches), batches, keyed_schema_, kOutputRows, context_->memory);
  }

  /// Writes `batches` as one sorted run.
  Status SpillRun(std::vector<BatchPtr> batches) {
    if (batches.empty()) return Status::OK();
    std::vector<SortEntry> entries = SortedEntries(batches);
    Run run;
    EPOXY_ASSIGN_OR_RETURN(run.file, SpillFile::Create(context_->spill.space));
    // Gathered and written a chunk at a time: the run never exists twice in memory.
    for (size_t start = 0; start < entries.size(); start += static_cast<size_t>(kRunBatchRows)) {
      const size_t end = std::min(entries.size(), start + static_cast<size_t>(kRunBatchRows));
      std::vector<SortEntry> chunk(entries.begin() + static_cast<long>(start), entries.begin() + static_cast<long>(end));
      EPOXY_ASSIGN_OR_RETURN(std::vector<BatchPtr> sorted, GatherSorted(chunk, batches, keyed_schema_, kRunBatchRows, context_->memory));
      for (const auto& b : sorted) EPOXY_RETURN_NOT_OK(run.file->Append(*b));
    }
    batches.clear();
    context_->spilled_bytes += run.file->size_bytes();
    std::lock_guard lock(mu_);
    runs_.push_back(std::move(run));
    return Status::OK();
  }

  Status Finish() {
    if (runs_.empty()) {
      sorted_ = SortedEntries(batches_);  // gathered as the output is pulled
      return Status::OK();
    }
    EPOXY_RETURN_NOT_OK(SpillRun(std::move(batches_)));
    batches_.clear();
    // A merge holds a batch of each of its runs: past the fan-in the budget allows, groups of runs
    // are merged into longer runs first (each pass rewrites the rows once).
    const size_t fan_in = FanIn();
    std::deque<Run> pending(std::make_move_iterator(runs_.begin()), std::make_move_iterator(runs_.end()));
    runs_.clear();
    while (pending.size() > fan_in) {
      std::vector<Run> group;
      for (size_t i = 0; i < fan_in; ++i) {
        group.push_back(std::move(pending.front()));
        pending.pop_front();
      }
      EPOXY_ASSIGN_OR_RETURN(Run merged, MergeIntoRun(std::move(group)));
      pending.push_back(std::move(merged));
    }
    merger_ = std::make_unique<RunMerger>(std::vector<Run>(std::make_move_iterator(pending.begin()),
                                                           std::make_move_iterator(pending.end())), &order_);
    return merger_->Open(keyed_schema_, context_->memory);
  }

  /// How many runs one merge may read at once: a batch of each within half the spill budget.
  size_t FanIn() const {
    int64_t bytes = 0, batches = 0;
    for (const auto& run : runs_) {
      bytes += run.file->size_bytes();
      batches += run.file->num_batches();
    }
    const int64_t batch_bytes = std::max<int64_t>(1, bytes / std::max<int64_t>(1, batches));
    return static_cast<size_t>(std::clamp<int64_t>(context_->spill.limit() / 2 / batch_bytes, 2, 1024));
  }

  /// The rows of `group` merged into one run.
  Result<Run> MergeIntoRun(std::vector<Run> group) {
    RunMerger merger(std::move(group), &order_);
    EPOXY_RETURN_NOT_OK(merger.Open(keyed_schema_, context_->memory));
    Run run;
    EPOXY_ASSIGN_OR_RETURN(run.file, SpillFile::Create(context_->spill.space));
    while (true) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, merger.Next(kRunBatchRows, keyed_schema_, context_->memory));
      if (batch == nullptr) break;
      EPOXY_RETURN_NOT_OK(run.file->Append(*batch));
    }
    context_->spilled_bytes += run.file->size_bytes();
    return run;
  }

  /// The next batch of the rows sorted in memory: chunks gathered by pool tasks a few ahead.
  Result<BatchPtr> NextGathered() {
    const size_t chunks = (sorted_.size() + kOutputRows - 1) / kOutputRows;
    const size_t window = static_cast<size_t>(context_->pool->num_threads()) + 1;
    while (gathers_.size() < window && next_chunk_ < chunks) {
      auto slot = std::make_shared<GatherSlot>();
      const size_t start = next_chunk_++ * kOutputRows;
      const size_t end = std::min(sorted_.size(), start + kOutputRows);
      gathers_.push_back(slot);
      context_->pool->Submit([this, slot, start, end] {
        std::vector<SortEntry> chunk(sorted_.begin() + static_cast<long>(start), sorted_.begin() + static_cast<long>(end));
        auto out = GatherSorted(chunk, batches_, node_->schema, kOutputRows, context_->memory);
        std::lock_guard lock(slot->mu);
        slot->batch = out.ok() ? (out->empty() ? BatchPtr() : (*out)[0]) : Result<BatchPtr>(out.status());
        slot->done = true;
        slot->cv.notify_all();
      });
    }
    if (gathers_.empty()) {
      sorted_ = {};
      batches_.clear();
      return BatchPtr();
    }
    std::shared_ptr<GatherSlot> slot = gathers_.front();
    gathers_.pop_front();
    HelpUntil(*context_->pool, slot->mu, slot->cv, [&] { return slot->done; });
    std::lock_guard lock(slot->mu);
    return std::move(slot->batch);
  }

  /// The next batch of the k-way merge of the runs (up to the limit).
  Result<BatchPtr> NextMerged() {
    const int64_t rows = limit_ >= 0 ? std::min(kOutputRows, limit_ - emitted_) : kOutputRows;
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, merger_->Next(rows, node_->schema, context_->memory));
    if (batch != nullptr) emitted_ += batch->num_rows();
    return batch;
  }

  plan::PlanPtr node_;
  std::unique_ptr<ParallelPipeline> input_;
  int64_t limit_;
  ExecContext* context_;
  RowOrder order_;
  SchemaPtr keyed_schema_;
  std::mutex mu_;
  std::vector<BatchPtr> batches_;  // guarded by mu_ while draining
  MemoryReservation entries_{context_->memory};  // guarded by mu_
  int64_t rows_ = 0;                             // guarded by mu_
  std::vector<Run> runs_;                        // guarded by mu_ while draining
  bool started_ = false;
  struct GatherSlot {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Result<BatchPtr> batch = BatchPtr();
  };
  std::vector<SortEntry> sorted_;  // the order of batches_' rows, when no run was spilled
  size_t next_chunk_ = 0;
  std::deque<std::shared_ptr<GatherSlot>> gathers_;
  std::unique_ptr<RunMerger> merger_;  // when runs were spilled
  int64_t emitted_ = 0;
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeSort(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                           int64_t limit, ExecContext* context) {
  return std::unique_ptr<Operator>(new SortOperator(node, std::move(input), limit, context));
}

}  // namespace epoxy::exec
