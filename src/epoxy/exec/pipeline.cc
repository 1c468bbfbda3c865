// SPDX-License-Identifier: Apache-2.0
// ParallelPipeline: a window of pool tasks (two per thread, plus one) over the source's batches,
// emitted in order; at the end of the input each step's finish() adds its batches in turn.
#include "epoxy/exec/pipeline.h"

namespace epoxy::exec {
namespace {

const SchemaPtr& BoundarySchema() {
  static const SchemaPtr schema = Schema::Make({});
  return schema;
}

}  // namespace

BatchPtr GroupBoundary() { return Batch::Make(BoundarySchema(), {}, 0); }
bool IsGroupBoundary(const BatchPtr& batch) { return batch != nullptr && batch->schema() == BoundarySchema(); }

ParallelPipeline::ParallelPipeline(std::unique_ptr<Operator> source, std::vector<PipelineStep> steps, ThreadPool* pool)
    : source_(std::move(source)), batch_source_(dynamic_cast<BatchSource*>(source_.get())), steps_(std::move(steps)),
      pool_(pool ? pool : &ThreadPool::Default()),
      window_(static_cast<size_t>(InFlight(2 * pool_->num_threads() + 1, 8 << 20))) {}

ParallelPipeline::~ParallelPipeline() {
  for (auto& slot : slots_) Wait(*slot);
}

void ParallelPipeline::Wait(Slot& slot) { HelpUntil(*pool_, slot.mu, slot.cv, [&] { return slot.done; }); }

Result<BatchPtr> ParallelPipeline::RunSteps(BatchPtr batch, size_t first_step, bool raw) const {
  if (IsGroupBoundary(batch)) return batch;
  Result<BatchPtr> out = std::move(batch);
  if (raw) out = batch_source_->Complete(std::move(*out));
  for (size_t k = first_step; k < steps_.size() && out.ok() && *out != nullptr; ++k) {
    out = steps_[k].apply(std::move(*out));
    if (out.ok() && steps_[k].rows_out && *out) *steps_[k].rows_out += (*out)->num_rows();
  }
  return out;
}

Status ParallelPipeline::Fill() {
  while (slots_.size() < window_) {
    Pending item;
    if (tail_) {
      EPOXY_ASSIGN_OR_RETURN(BatchPtr extra, tail_());
      if (extra == nullptr) {
        tail_ = nullptr;
        return Status::OK();  // the next finish() waits until these batches are through
      }
      item = {std::move(extra), tail_first_step_, false};
    } else if (!input_done_) {
      Result<BatchPtr> raw = batch_source_ ? batch_source_->NextRaw() : source_->Next();
      EPOXY_RETURN_NOT_OK(raw.status());
      if (*raw == nullptr) {
        input_done_ = true;
        continue;
      }
      item = {std::move(*raw), 0, batch_source_ != nullptr};
    } else {
      return Status::OK();
    }
    auto slot = std::make_shared<Slot>();
    slots_.push_back(slot);
    pool_->Submit([this, slot, item = std::move(item)]() mutable {
      Result<BatchPtr> out = RunSteps(std::move(item.batch), item.first_step, item.raw);
      std::lock_guard lock(slot->mu);
      slot->result = std::move(out);
      slot->done = true;
      slot->cv.notify_all();
    });
  }
  return Status::OK();
}

Result<BatchPtr> ParallelPipeline::Next() {
  while (true) {
    EPOXY_RETURN_NOT_OK(Fill());
    if (!slots_.empty()) {
      std::shared_ptr<Slot> slot = slots_.front();
      slots_.pop_front();
      Wait(*slot);
      std::lock_guard lock(slot->mu);
      if (!slot->result.ok()) return slot->result.status();
      BatchPtr batch = std::move(*slot->result);
      if (batch != nullptr) return batch;
      continue;  // a step consumed it (a sink)
    }
    if (tail_) continue;  // a finish() generator still has batches
    // Every batch so far went through every step: the next finish() may add more.
    while (next_finish_ < steps_.size() && !tail_) {
      const PipelineStep& step = steps_[next_finish_++];
      if (!step.finish) continue;
      EPOXY_ASSIGN_OR_RETURN(tail_, step.finish());
      tail_first_step_ = next_finish_;
    }
    if (!tail_) return BatchPtr();
  }
}

Status ParallelPipeline::Drain(const std::function<Status(BatchPtr)>& sink) {
  PipelineStep step;
  step.name = "sink";
  step.apply = [&sink](BatchPtr batch) -> Result<BatchPtr> {
    if (batch != nullptr && batch->num_rows() > 0) EPOXY_RETURN_NOT_OK(sink(std::move(batch)));
    return BatchPtr();
  };
  steps_.push_back(std::move(step));
  while (true) {
    Result<BatchPtr> batch = Next();
    if (!batch.ok()) {
      // The sink belongs to the caller: no task may reach it once Drain has returned.
      for (auto& slot : slots_) Wait(*slot);
      slots_.clear();
      return batch.status();
    }
    if (*batch == nullptr) return Status::OK();
  }
}

void ParallelPipeline::Report(RunMetrics* m) const {
  source_->Report(m);
  for (const auto& s : steps_) {
    if (s.report) s.report(m);
    if (s.rows_out) m->operator_rows.push_back({s.name, s.rows_out->load()});
  }
}

}  // namespace epoxy::exec
