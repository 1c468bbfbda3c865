// SPDX-License-Identifier: Apache-2.0
#include "epoxy/jobs/bookmark_entry.h"

#include "epoxy/jobs/run_lifecycle.h"

namespace epoxy::jobs {

using catalog::Json;

Result<Json> BookmarkEntry(catalog::JobStore& store, const std::string& job) {
  EPOXY_ASSIGN_OR_RETURN(catalog::BookmarkHead head, store.GetBookmarkHead(job));
  EPOXY_ASSIGN_OR_RETURN(Json sizes, store.StateSize(job));
  Json state = Json::object();
  for (const auto& [ctx, size] : sizes.items()) {
    state[ctx] = {{"jsonClass", "EpoxyFileBookmarkState"}, {"Folders", size["Folders"]},
                  {"FileVersions", size["FileVersions"]}, {"StateBytes", size["StateBytes"]}};
  }
  return Json{{"JobBookmarkEntry", {{"JobName", job}, {"Version", head.version}, {"Run", head.run}, {"Attempt", 0},
                                    {"PreviousRunId", head.previous_run_id}, {"RunId", head.run_id},
                                    {"JobBookmark", state.dump()}}}};
}

Result<std::vector<Json>> ResetBookmark(catalog::JobStore& store, const std::string& job, const std::string& run_id,
                                        bool retract_outputs) {
  int64_t seq = 0;
  if (!run_id.empty()) {
    EPOXY_ASSIGN_OR_RETURN(seq, store.CommitSeqOfRun(job, run_id));
  }
  EPOXY_RETURN_NOT_OK(SettleRuns(store, job).status());
  EPOXY_ASSIGN_OR_RETURN(auto removed, store.Rewind(job, seq, retract_outputs));
  EPOXY_RETURN_NOT_OK(SettleRuns(store, job).status());  // removes the retracted outputs
  return removed;
}

}  // namespace epoxy::jobs
