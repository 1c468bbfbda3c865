// SPDX-License-Identifier: Apache-2.0
// FileBookmark: the job bookmark of one file source (one transformation_ctx). It chooses, folder
// by folder as the scan lists them, the files the run reads: those the bookmark has not seen, and
// those whose identity changed since; and it collects what the commit will remember.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "epoxy/catalog/job_store.h"
#include "epoxy/jobs/file_identities.h"
#include "epoxy/plan/logical_plan.h"

namespace epoxy::jobs {

/// Which commits' state the bookmark compares with: those in (after_seq, up_to_seq]. With
/// `replay` (job-bookmark-pause with --job-bookmark-from/-to) the run reads exactly the files those
/// commits read instead of skipping them.
struct BookmarkWindow {
  int64_t after_seq = 0;
  int64_t up_to_seq = 0;
  bool replay = false;
};

class FileBookmark final : public plan::FileSelector {
 public:
  using Log = std::function<void(const std::string&)>;
  /// `max_files` > 0 bounds the new files one run reads (maxFilesPerRun); the rest wait.
  FileBookmark(catalog::JobStore& store, std::string job, std::string ctx, BookmarkWindow window, int64_t max_files,
               Log log);

  Result<std::vector<FileInfo>> Select(const std::string& folder, std::vector<FileInfo> files) override;
  bool ordered() const override { return max_files_ > 0; }

  const std::string& ctx() const { return ctx_; }
  /// What the commit stores: the files read below each folder, with their identities.
  std::vector<catalog::FilesDelta> Deltas() const;
  /// Files listed, read, skipped, reprocessed and deferred, and bytes read.
  catalog::Json Report() const;

 private:
  struct Folder {
    std::vector<FileInfo> chosen;  // the answer, the same however often the folder is asked
    FileIdentities read;           // what the commit remembers
  };
  Status LoadState(const std::string& folder, FileIdentities* state);

  catalog::JobStore& store_;
  const std::string job_, ctx_;
  const BookmarkWindow window_;
  const int64_t max_files_;
  Log log_;
  mutable std::mutex mu_;
  std::map<std::string, Folder> folders_;
  int64_t listed_ = 0, read_ = 0, skipped_ = 0, reprocessed_ = 0, deferred_ = 0, bytes_read_ = 0;
};

}  // namespace epoxy::jobs
