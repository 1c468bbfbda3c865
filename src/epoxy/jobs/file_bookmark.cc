// SPDX-License-Identifier: Apache-2.0
#include "epoxy/jobs/file_bookmark.h"

#include "epoxy/common/crash_point.h"

namespace epoxy::jobs {
namespace {

std::string RelativeName(const std::string& path, const std::string& folder) {
  if (path.size() > folder.size() + 1 && path.compare(0, folder.size(), folder) == 0 && path[folder.size()] == '/') {
    return path.substr(folder.size() + 1);
  }
  return path;
}

}  // namespace

FileBookmark::FileBookmark(catalog::JobStore& store, std::string job, std::string ctx, BookmarkWindow window,
                           int64_t max_files, Log log)
    : store_(store), job_(std::move(job)), ctx_(std::move(ctx)), window_(window), max_files_(max_files),
      log_(std::move(log)) {}

Status FileBookmark::LoadState(const std::string& folder, FileIdentities* state) {
  EPOXY_ASSIGN_OR_RETURN(auto encoded, store_.FileStates(job_, ctx_, folder, window_.after_seq, window_.up_to_seq));
  for (const auto& e : encoded) {
    EPOXY_RETURN_NOT_OK(DecodeIdentities(e, fmt::format("{} (job {}, transformation_ctx {})", folder, job_, ctx_), state));
  }
  KeepLatest(state);
  return Status::OK();
}

Result<std::vector<FileInfo>> FileBookmark::Select(const std::string& folder, std::vector<FileInfo> files) {
  CrashPoint("list");
  std::lock_guard lock(mu_);
  if (auto it = folders_.find(folder); it != folders_.end()) return it->second.chosen;
  FileIdentities state;
  EPOXY_RETURN_NOT_OK(LoadState(folder, &state));
  Folder answer;
  for (auto& f : files) {
    ++listed_;
    std::string name = RelativeName(f.path, folder);
    const uint64_t* known = FindIdentity(state, name);
    const uint64_t identity = IdentityOf(f);
    if (window_.replay) {
      if (known == nullptr) {  // not read by the replayed runs
        ++skipped_;
        continue;
      }
    } else if (known != nullptr && *known == identity) {
      ++skipped_;
      continue;
    } else {
      if (max_files_ > 0 && read_ >= max_files_) {
        ++deferred_;
        continue;
      }
      if (known != nullptr) {
        ++reprocessed_;
        log_(fmt::format("bookmark {}: {} changed since it was processed (size {} bytes, modified {} ns, etag {}); "
                         "reading it again", ctx_, f.path, f.size, f.mtime_ns, f.etag));
      }
      answer.read.emplace_back(name, identity);
    }
    ++read_;
    bytes_read_ += f.size;
    answer.chosen.push_back(std::move(f));
  }
  std::sort(answer.read.begin(), answer.read.end());
  auto [it, added] = folders_.emplace(folder, std::move(answer));
  return it->second.chosen;
}

std::vector<catalog::FilesDelta> FileBookmark::Deltas() const {
  std::lock_guard lock(mu_);
  std::vector<catalog::FilesDelta> out;
  for (const auto& [folder, f] : folders_) {
    if (f.read.empty()) continue;
    out.push_back({ctx_, folder, static_cast<int64_t>(f.read.size()), EncodeIdentities(f.read)});
  }
  return out;
}

catalog::Json FileBookmark::Report() const {
  std::lock_guard lock(mu_);
  return {{"Folders", folders_.size()}, {"FilesListed", listed_}, {"FilesRead", read_}, {"FilesSkipped", skipped_},
          {"FilesReprocessed", reprocessed_}, {"FilesDeferred", deferred_}, {"BytesRead", bytes_read_}};
}

}  // namespace epoxy::jobs
