// SPDX-License-Identifier: Apache-2.0
// ORDER BY as an external merge sort: the input's batches (with their keys evaluated in the pool's
// tasks) collect in memory; past the budget they are sorted into a run written to a temporary
// file. At the end the runs (or the one in memory) are merged. With a limit it is a top-n: each
// task keeps its best rows, trimmed to the limit as they grow.
#include <mutex>
#include <queue>

#include "epoxy/exec/pipeline.h"
#include "epoxy/exec/sort_keys.h"
#include "epoxy/expr/evaluator.h"

namespace epoxy::exec {
namespace {

constexpr int64_t kOutputRows = 1 << 16;

/// One sorted run on disk, read back a batch at a time.
struct Run {
  std::unique_ptr<SpillFile> file;
  std::unique_ptr<SpillFile::Reader> reader;
  BatchPtr batch;
  int64_t row = 0;
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

  Result<BatchPtr> Next() override {
    if (!started_) {
      started_ = true;
      EPOXY_RETURN_NOT_OK(input_->Drain([this](BatchPtr batch) { return Consume(std::move(batch)); }));
      EPOXY_RETURN_NOT_OK(Finish());
    }
    if (!runs_.empty()) return NextMerged();
    if (next_ < output_.size()) return std::move(output_[next_++]);
    return BatchPtr();
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
    std::lock_guard lock(mu_);
    rows_ += keyed->num_rows();
    batches_.push_back(std::move(keyed));
    if (limit_ >= 0) {
      // Top-n: once the held rows pass the limit by far, keep only the best `limit`.
      if (rows_ > std::max<int64_t>(4 * limit_, kOutputRows)) return Trim();
      return Status::OK();
    }
    if (context_->spill.OverBudget()) return SpillRun();
    return Status::OK();
  }

  /// The held batches sorted (and cut to the limit) into batches of the keyed schema.
  Result<std::vector<BatchPtr>> SortHeld() {
    std::vector<SortEntry> entries;
    entries.reserve(static_cast<size_t>(rows_));
    for (size_t b = 0; b < batches_.size(); ++b) order_.AddEntries(*batches_[b], static_cast<uint32_t>(b), &entries);
    if (limit_ >= 0 && static_cast<int64_t>(entries.size()) > limit_) {
      auto less = [&](const SortEntry& a, const SortEntry& b) { return order_.Less(a, b, batches_); };
      std::partial_sort(entries.begin(), entries.begin() + limit_, entries.end(), less);
      entries.resize(static_cast<size_t>(limit_));
    } else {
      order_.Sort(&entries, batches_, context_->pool);
    }
    return GatherSorted(entries, batches_, keyed_schema_, kOutputRows, context_->memory);
  }

  Status Trim() {
    EPOXY_ASSIGN_OR_RETURN(std::vector<BatchPtr> kept, SortHeld());
    batches_ = std::move(kept);
    rows_ = 0;
    for (const auto& b : batches_) rows_ += b->num_rows();
    return Status::OK();
  }

  /// Writes the held rows as one sorted run (REQUIRES: mu_ held).
  Status SpillRun() {
    if (batches_.empty()) return Status::OK();
    EPOXY_ASSIGN_OR_RETURN(std::vector<BatchPtr> sorted, SortHeld());
    batches_.clear();
    rows_ = 0;
    Run run;
    EPOXY_ASSIGN_OR_RETURN(run.file, SpillFile::Create(context_->spill.space));
    for (const auto& b : sorted) EPOXY_RETURN_NOT_OK(run.file->Append(*b));
    context_->spilled_bytes += run.file->size_bytes();
    runs_.push_back(std::move(run));
    return Status::OK();
  }

  Status Finish() {
    if (runs_.empty()) {
      EPOXY_ASSIGN_OR_RETURN(std::vector<BatchPtr> sorted, SortHeld());
      batches_.clear();
      for (auto& b : sorted) output_.push_back(Strip(b));
      return Status::OK();
    }
    EPOXY_RETURN_NOT_OK(SpillRun());
    for (auto& run : runs_) {
      EPOXY_ASSIGN_OR_RETURN(SpillFile::Reader reader, run.file->Read(keyed_schema_, context_->memory));
      run.reader = std::make_unique<SpillFile::Reader>(std::move(reader));
      EPOXY_ASSIGN_OR_RETURN(run.batch, run.reader->Next());
    }
    return Status::OK();
  }

  /// The keyed batch without its key columns.
  BatchPtr Strip(const BatchPtr& keyed) const {
    std::vector<ArrayPtr> columns(keyed->columns().begin(), keyed->columns().begin() + node_->schema->num_fields());
    return Batch::Make(node_->schema, std::move(columns), keyed->num_rows());
  }

  /// The next batch of the k-way merge of the runs.
  Result<BatchPtr> NextMerged() {
    auto later = [this](size_t a, size_t b) {  // the heap's order: the smallest row on top
      const Run& x = runs_[a];
      const Run& y = runs_[b];
      return order_.Compare(*x.batch, x.row, *y.batch, y.row) > 0;
    };
    if (!heap_ready_) {
      heap_ready_ = true;
      for (size_t r = 0; r < runs_.size(); ++r) {
        if (runs_[r].batch != nullptr) heap_.push_back(r);
      }
      std::make_heap(heap_.begin(), heap_.end(), later);
    }
    if (heap_.empty() || (limit_ >= 0 && emitted_ >= limit_)) return BatchPtr();
    std::vector<BatchPtr> sources;  // the batches this output batch takes rows from
    std::vector<SortEntry> picked;
    while (!heap_.empty() && static_cast<int64_t>(picked.size()) < kOutputRows && (limit_ < 0 || emitted_ < limit_)) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      Run& run = runs_[heap_.back()];
      if (sources.empty() || sources.back() != run.batch) sources.push_back(run.batch);
      picked.push_back({0, MakeRowRef(static_cast<uint32_t>(sources.size() - 1), static_cast<uint32_t>(run.row)), false});
      ++emitted_;
      if (++run.row >= run.batch->num_rows()) {
        EPOXY_ASSIGN_OR_RETURN(run.batch, run.reader->Next());
        run.row = 0;
      }
      if (run.batch == nullptr) {
        heap_.pop_back();
      } else {
        std::push_heap(heap_.begin(), heap_.end(), later);
      }
    }
    EPOXY_ASSIGN_OR_RETURN(std::vector<BatchPtr> out, GatherSorted(picked, sources, node_->schema, kOutputRows, context_->memory));
    return out.empty() ? BatchPtr() : out[0];
  }

  plan::PlanPtr node_;
  std::unique_ptr<ParallelPipeline> input_;
  int64_t limit_;
  ExecContext* context_;
  RowOrder order_;
  SchemaPtr keyed_schema_;
  std::mutex mu_;
  std::vector<BatchPtr> batches_;  // guarded by mu_ while draining
  int64_t rows_ = 0;
  std::vector<Run> runs_;
  bool started_ = false;
  std::vector<BatchPtr> output_;
  size_t next_ = 0;
  std::vector<size_t> heap_;
  bool heap_ready_ = false;
  int64_t emitted_ = 0;
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeSort(const plan::PlanPtr& node, std::unique_ptr<ParallelPipeline> input,
                                           int64_t limit, ExecContext* context) {
  return std::unique_ptr<Operator>(new SortOperator(node, std::move(input), limit, context));
}

}  // namespace epoxy::exec
