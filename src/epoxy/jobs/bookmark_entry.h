// SPDX-License-Identifier: Apache-2.0
// A job's bookmark as Glue's API shows it (GetJobBookmark's JobBookmarkEntry), and resetting or
// rewinding it (ResetJobBookmark), shared by `epoxy bookmark` and `epoxy serve`.
#pragma once

#include <string>
#include <vector>

#include "epoxy/catalog/job_store.h"

namespace epoxy::jobs {

/// {"JobBookmarkEntry": {JobName, Version, Run, Attempt, PreviousRunId, RunId, JobBookmark}},
/// JobBookmark being a JSON string keyed by transformation_ctx.
Result<catalog::Json> BookmarkEntry(catalog::JobStore& store, const std::string& job);

/// Resets the bookmark (`run_id` empty) or rewinds it to its state after run `run_id` committed
/// (kNotFound when that run advanced nothing). With `retract_outputs`, the outputs of the runs it
/// forgets are removed too. Returns the forgotten commits, newest first.
Result<std::vector<catalog::Json>> ResetBookmark(catalog::JobStore& store, const std::string& job,
                                                 const std::string& run_id, bool retract_outputs);

}  // namespace epoxy::jobs
