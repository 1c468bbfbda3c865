// SPDX-License-Identifier: Apache-2.0
// ParallelBlockReader.
#include "epoxy/format/parallel_block_reader.h"

#include <condition_variable>
#include <mutex>

namespace epoxy {
namespace {
constexpr int64_t kWholeFileBlock = INT64_MAX / 4;
}  // namespace

/// The result of one parse task.
struct ParallelBlockReader::Slot {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;                     // guarded by mu
  bool first_in_file = false;            // set before the task runs
  std::string path;                      // set before the task runs
  int64_t num_newlines = 0;              // guarded by mu
  Status status;                         // guarded by mu
  BatchPtr batch;                        // guarded by mu
  std::vector<RecordError> errors;       // guarded by mu
};

ParallelBlockReader::ParallelBlockReader(std::unique_ptr<BlockFormat> format,
                                         std::vector<FileInfo> files, const ReadOptions& options)
    : format_(std::move(format)),
      files_(std::move(files)),
      options_(options),
      pool_(options.pool ? options.pool : &ThreadPool::Default()),
      window_(static_cast<size_t>(pool_->num_threads()) * 2 + 1) {}

ParallelBlockReader::~ParallelBlockReader() {
  // Tasks hold their slot and block; wait so that none outlives the format they call.
  for (auto& slot : slots_) WaitFor(*slot);
}

void ParallelBlockReader::WaitFor(Slot& slot) {
  HelpUntil(*pool_, slot.mu, slot.cv, [&] { return slot.done; });
}

Result<std::optional<Block>> ParallelBlockReader::NextBlock() {
  while (true) {
    if (current_ != nullptr) {
      auto block = current_->Next();
      if (!block.ok()) {
        // A corrupt file (a truncated gzip stream, ...) is reported by name; the read goes on
        // with the next file and keeps every record read before the damage.
        if (block.status().code() != StatusCode::kInvalidData) return block.status();
        options_.errors->Add({current_->path(), 0, 0, block.status().message()});
        current_.reset();
        continue;
      }
      if (block->has_value()) return block;
      current_.reset();
    }
    if (next_file_ >= files_.size()) return std::optional<Block>();
    const FileInfo& file = files_[next_file_++];
    EPOXY_ASSIGN_OR_RETURN(current_,
                           BlockReader::Open(file, options_.block_size, format_->Boundary()));
    if (options_.counters) {
      ++options_.counters->files_opened;
      options_.counters->bytes_read += file.size;
    }
    auto first = current_->Next();
    if (!first.ok()) {
      if (first.status().code() != StatusCode::kInvalidData) return first.status();
      options_.errors->Add({file.path, 0, 0, first.status().message()});
      current_.reset();
      continue;
    }
    auto context = format_->StartFile(file.path, first->has_value() ? &**first : nullptr);
    if (!context.ok()) {
      if (context.status().code() != StatusCode::kInvalidData) return context.status();
      options_.errors->Add({file.path, 0, 0, context.status().message()});
      current_.reset();
      continue;
    }
    context_ = *context;
    if (context_->whole_file() && first->has_value()) {
      // Start again with one block for the whole file.
      EPOXY_ASSIGN_OR_RETURN(current_,
                             BlockReader::Open(file, kWholeFileBlock, format_->Boundary()));
      first = current_->Next();
      if (!first.ok()) {
        if (first.status().code() != StatusCode::kInvalidData) return first.status();
        options_.errors->Add({file.path, 0, 0, first.status().message()});
        current_.reset();
        continue;
      }
    }
    if (first->has_value()) return first;
    current_.reset();
  }
}

Status ParallelBlockReader::FillWindow() {
  while (!input_done_ && slots_.size() < window_) {
    EPOXY_ASSIGN_OR_RETURN(std::optional<Block> block, NextBlock());
    if (!block.has_value()) {
      input_done_ = true;
      break;
    }
    auto slot = std::make_shared<Slot>();
    slot->first_in_file = block->first_in_file;
    slot->path = current_ ? current_->path() : std::string();
    slots_.push_back(slot);
    pool_->Submit([slot, block = std::move(*block), context = context_, format = format_.get()] {
      std::vector<RecordError> errors;
      int64_t newlines = 0;
      auto batch = format->ParseBlock(slot->path, block, *context, &errors, &newlines);
      std::lock_guard lock(slot->mu);
      slot->num_newlines = newlines;
      if (batch.ok()) {
        slot->batch = *batch;
      } else {
        slot->status = batch.status();
      }
      slot->errors = std::move(errors);
      slot->done = true;
      slot->cv.notify_all();
    });
  }
  return Status::OK();
}

Result<BatchPtr> ParallelBlockReader::Next() {
  while (true) {
    EPOXY_RETURN_NOT_OK(FillWindow());
    if (slots_.empty()) return BatchPtr();
    std::shared_ptr<Slot> slot = slots_.front();
    slots_.pop_front();
    WaitFor(*slot);
    std::lock_guard lock(slot->mu);
    if (slot->first_in_file || slot->path != delivered_path_) {
      delivered_path_ = slot->path;
      delivered_lines_ = 0;
    }
    for (auto& e : slot->errors) {
      if (e.line > 0) e.line += delivered_lines_;
    }
    delivered_lines_ += slot->num_newlines;
    options_.errors->AddAll(std::move(slot->errors));
    EPOXY_RETURN_NOT_OK(slot->status);
    // Empty batches with columns still carry a schema (a CSV file of only a header).
    if (slot->batch != nullptr && (slot->batch->num_rows() > 0 || slot->batch->num_columns() > 0)) {
      return slot->batch;
    }
  }
}

}  // namespace epoxy
