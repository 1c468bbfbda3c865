// SPDX-License-Identifier: Apache-2.0
// Jobs, job runs and job bookmarks. StartJobRun records the run (MaxConcurrentRuns checked) and
// answers; the run executes in a worker process of the server's (background_work.h), which takes
// the script from a local path, a file:// URI or s3://.
#include "epoxy/api/background_work.h"
#include "epoxy/api/operation.h"
#include "epoxy/jobs/bookmark_entry.h"
#include "epoxy/jobs/job_definition.h"
#include "epoxy/jobs/run_lifecycle.h"
#include "epoxy/jobs/run_process.h"

namespace epoxy::api {
namespace {

Json JobOut(Json job) {
  job.erase("Tags");  // tags are the resource's, read with GetTags
  return job;
}

Result<Json> CreateJob(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json job, jobs::JobFromInput(request));
  job.erase("Tags");
  EPOXY_RETURN_NOT_OK(context.jobs->CreateJob(job));
  EPOXY_RETURN_NOT_OK(StoreTags(request, context.Arn("job", name), context));
  return Json{{"Name", name}};
}

Result<Json> UpdateJob(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  if (!request.contains("JobUpdate") || !request["JobUpdate"].is_object()) {
    return RequiredString(request, "JobUpdate").status();
  }
  EPOXY_ASSIGN_OR_RETURN(Json existing, context.jobs->GetJob(name));
  // Glue's UpdateJob replaces the whole definition: members not given return to their defaults.
  Json input = request["JobUpdate"];
  input["Name"] = name;
  EPOXY_ASSIGN_OR_RETURN(Json job, jobs::JobFromInput(input, &existing));
  EPOXY_RETURN_NOT_OK(context.jobs->ReplaceJob(job));
  return Json{{"JobName", name}};
}

Result<Json> GetJob(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  EPOXY_ASSIGN_OR_RETURN(Json job, context.jobs->GetJob(name));
  return Json{{"Job", JobOut(std::move(job))}};
}

Result<Json> GetJobs(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> all, context.jobs->GetJobs());
  NamedPage page = PageByName(std::move(all), OptionalString(request, "NextToken"), max);
  Json list = Json::array();
  for (auto& j : page.items) list.push_back(JobOut(std::move(j)));
  return WithNextToken(Json{{"Jobs", std::move(list)}}, page.next_token);
}

Result<Json> ListJobs(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> all, context.jobs->GetJobs());
  EPOXY_ASSIGN_OR_RETURN(all, FilterByTags(std::move(all), "job", request, context));
  NamedPage page = PageByName(std::move(all), OptionalString(request, "NextToken"), max);
  Json names = Json::array();
  for (const auto& j : page.items) names.push_back(j.value("Name", ""));
  return WithNextToken(Json{{"JobNames", std::move(names)}}, page.next_token);
}

Result<Json> BatchGetJobs(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(FoundAndMissing got, GetEach(request, "JobNames", [&](const std::string& name) -> Result<Json> {
    EPOXY_ASSIGN_OR_RETURN(Json job, context.jobs->GetJob(name));
    return JobOut(std::move(job));
  }));
  return Json{{"Jobs", std::move(got.found)}, {"JobsNotFound", std::move(got.missing)}};
}

Result<Json> DeleteJob(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  // Glue answers a job that does not exist as deleted.
  Status st = context.jobs->DeleteJob(name);
  if (!st.ok() && st.code() != StatusCode::kNotFound) return st;
  Status untag = context.store->DeleteObject("tags", context.Arn("job", name));
  if (!untag.ok() && untag.code() != StatusCode::kNotFound) return untag;
  return Json{{"JobName", name}};
}

/// StartJobRun's members that override the job's for this run.
constexpr const char* kRunOverrides[] = {"Timeout", "WorkerType", "NumberOfWorkers", "MaxCapacity",
                                         "SecurityConfiguration", "NotificationProperty", "ExecutionClass"};

Result<Json> StartJobRun(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  EPOXY_RETURN_NOT_OK(context.jobs->GetJob(name).status());
  const Json arguments = request.value("Arguments", Json::object());
  if (!arguments.is_object()) return Status::InvalidInput("Arguments must be a map of strings");
  for (const auto& [key, value] : arguments.items()) {
    if (!value.is_string()) return Status::InvalidInput("argument {} must be a string", key);
  }
  if (request.contains("Timeout") &&
      (!request["Timeout"].is_number_integer() || request["Timeout"].get<int64_t>() < 1)) {
    return Status::InvalidInput("Timeout must be a positive number of minutes");
  }
  Json overrides = Json::object();
  for (const char* member : kRunOverrides) {
    if (request.contains(member)) overrides[member] = request[member];
  }
  // A JobRunId names an earlier run this one retries.
  if (const std::string retried = OptionalString(request, "JobRunId"); !retried.empty()) {
    EPOXY_ASSIGN_OR_RETURN(catalog::StoredRun previous, context.jobs->GetRun(retried));
    if (previous.run.value("JobName", "") != name) return Status::NotFound("job run {} not found", retried);
    overrides["PreviousRunId"] = retried;
  }
  const std::string run_id = jobs::NewRunId();
  EPOXY_RETURN_NOT_OK(context.background->StartJobRun(name, run_id, arguments, "", overrides));
  return Json{{"JobRunId", run_id}};
}

/// The run `id` of job `name`; EntityNotFoundException when it is another job's.
Result<catalog::StoredRun> RunOfJob(const std::string& name, const std::string& id, ApiContext& context) {
  auto run = context.jobs->GetRun(id);
  if (!run.ok() || run->run.value("JobName", "") != name) {
    if (run.ok() || run.status().code() == StatusCode::kNotFound) {
      return Status::NotFound("EntityNotFoundException: Job Run {} of job {} not found", id, name);
    }
  }
  return run;
}

Result<Json> GetJobRun(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  EPOXY_ASSIGN_OR_RETURN(std::string id, RequiredString(request, "RunId"));
  EPOXY_ASSIGN_OR_RETURN(catalog::StoredRun run, RunOfJob(name, id, context));
  return Json{{"JobRun", std::move(run.run)}};
}

Result<Json> GetJobRuns(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 200));
  EPOXY_RETURN_NOT_OK(context.jobs->GetJob(name).status());
  EPOXY_ASSIGN_OR_RETURN(std::vector<catalog::StoredRun> runs, context.jobs->GetRuns(name, 100000));
  std::vector<Json> list;
  for (auto& r : runs) list.push_back(std::move(r.run));
  // Newest first; NextToken is the Id of the last run of the previous page.
  NamedPage page = PageAfter(std::move(list), OptionalString(request, "NextToken"), max, "Id");
  return WithNextToken(Json{{"JobRuns", std::move(page.items)}}, page.next_token);
}

Result<Json> BatchStopJobRun(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  Json stopped = Json::array(), errors = Json::array();
  for (const auto& id : request.value("JobRunIds", Json::array())) {
    if (!id.is_string()) return Status::InvalidInput("JobRunIds must be a list of strings");
    Status st = RunOfJob(name, id.get<std::string>(), context).status();
    if (st.ok()) st = jobs::StopRun(*context.jobs, id.get<std::string>());
    if (st.ok()) {
      stopped.push_back({{"JobName", name}, {"JobRunId", id}});
    } else {
      errors.push_back({{"JobName", name}, {"JobRunId", id}, {"ErrorDetail", ErrorDetail(st)}});
    }
  }
  return Json{{"SuccessfulSubmissions", std::move(stopped)}, {"Errors", std::move(errors)}};
}

Result<Json> GetJobBookmark(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  EPOXY_RETURN_NOT_OK(context.jobs->GetJob(name).status());
  EPOXY_ASSIGN_OR_RETURN(catalog::BookmarkHead head, context.jobs->GetBookmarkHead(name));
  // As Glue: a job that never committed a bookmark has none.
  if (head.version == 0) return Status::NotFound("EntityNotFoundException: Continuation for job {} not found", name);
  return jobs::BookmarkEntry(*context.jobs, name);
}

Result<Json> ResetJobBookmark(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "JobName"));
  EPOXY_RETURN_NOT_OK(context.jobs->GetJob(name).status());
  auto removed = jobs::ResetBookmark(*context.jobs, name, OptionalString(request, "RunId"), false);
  if (!removed.ok() && removed.status().code() == StatusCode::kNotFound) {
    return Status::NotFound("EntityNotFoundException: run {} of job {} advanced no bookmark",
                            OptionalString(request, "RunId"), name);
  }
  EPOXY_RETURN_NOT_OK(removed.status());
  return jobs::BookmarkEntry(*context.jobs, name);
}

}  // namespace

void AddJobOperations(Operations* ops) {
  ops->Add("CreateJob", CreateJob);
  ops->Add("UpdateJob", UpdateJob);
  ops->Add("GetJob", GetJob);
  ops->Add("GetJobs", GetJobs);
  ops->Add("ListJobs", ListJobs);
  ops->Add("BatchGetJobs", BatchGetJobs);
  ops->Add("DeleteJob", DeleteJob);
  ops->Add("StartJobRun", StartJobRun);
  ops->Add("GetJobRun", GetJobRun);
  ops->Add("GetJobRuns", GetJobRuns);
  ops->Add("BatchStopJobRun", BatchStopJobRun);
  ops->Add("GetJobBookmark", GetJobBookmark);
  ops->Add("ResetJobBookmark", ResetJobBookmark);
}

}  // namespace epoxy::api
