// SPDX-License-Identifier: Apache-2.0
#include "epoxy/api/background_work.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "epoxy/common/logging.h"
#include "epoxy/jobs/run_lifecycle.h"
#include "epoxy/jobs/run_process.h"

namespace epoxy::api {
namespace {

using catalog::Json;

}  // namespace

BackgroundWork::BackgroundWork(catalog::CatalogStore* store, catalog::JobStore* jobs, std::string catalog_path,
                               std::string epoxy_binary)
    : store_(store), jobs_(jobs), catalog_path_(std::move(catalog_path)), epoxy_binary_(std::move(epoxy_binary)) {
  reaper_ = std::thread([this] { ReapLoop(); });
}

BackgroundWork::~BackgroundWork() {
  stop_crawls_ = true;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (reaper_.joinable()) reaper_.join();
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return active_crawls_ == 0; });
}

BackgroundCounters BackgroundWork::counters() const {
  std::lock_guard lock(mu_);
  return counters_;
}

void BackgroundWork::Crawl(crawler::StartedCrawl started) {
  std::lock_guard lock(mu_);
  ++counters_.crawls_started;
  ++active_crawls_;
  std::thread([this, started = std::move(started)] {
    // A StopCrawler (from any process) shows as STOPPING in the store: looked at once a second.
    auto last_look = std::chrono::steady_clock::now() - std::chrono::seconds(2);
    bool stop = false;
    std::mutex look_mu;
    auto stop_requested = [&] {
      if (stop_crawls_) return true;
      std::lock_guard look(look_mu);
      const auto now = std::chrono::steady_clock::now();
      if (!stop && now - last_look >= std::chrono::seconds(1)) {
        last_look = now;
        auto c = store_->GetCrawler(started.crawler);
        stop = c.ok() && c->value("State", "") == "STOPPING";
      }
      return stop;
    };
    Result<crawler::CrawlSummary> result = [&]() -> Result<crawler::CrawlSummary> {
      try {
        return crawler::CompleteCrawl(*store_, started, nullptr, stop_requested);
      } catch (const std::exception& e) {  // a thread of the server must never take it down
        return Status::Internal("crawler {}: {}", started.crawler, e.what());
      }
    }();
    if (!result.ok() && result.status().code() != StatusCode::kCancelled) {
      EPOXY_LOG(kInfo, "crawler {} failed: {}", started.crawler, result.status().message());
    }
    std::lock_guard done(mu_);
    if (result.ok()) {
      ++counters_.crawls_succeeded;
    } else if (result.status().code() == StatusCode::kCancelled) {
      ++counters_.crawls_cancelled;
    } else {
      ++counters_.crawls_failed;
    }
    --active_crawls_;
    cv_.notify_all();
  }).detach();
}

Status BackgroundWork::StartRunWorker(const std::string& run_id) {
  // Everything the child needs is prepared before fork: between fork and exec only system calls.
  std::vector<std::string> args = {epoxy_binary_, "run-worker", run_id};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "EPOXY_CATALOG=", 14) != 0) env_strings.emplace_back(*e);
  }
  env_strings.push_back("EPOXY_CATALOG=" + catalog_path_);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t server = getpid();
  std::lock_guard lock(mu_);
  const pid_t pid = fork();
  if (pid < 0) return Status::IOError("cannot start the worker of run {}: fork: {}", run_id, std::strerror(errno));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // a worker never outlives its server
    if (getppid() != server) _exit(1);  // the server died before prctl
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, STDIN_FILENO);
      dup2(null, STDOUT_FILENO);  // the run's output goes to its log file
      dup2(null, STDERR_FILENO);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);  // the server blocks SIGTERM for its own waiter
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  workers_[pid] = run_id;
  ++counters_.runs_started;
  return Status::OK();
}

Status BackgroundWork::StartJobRun(const std::string& job_name, const std::string& run_id, const Json& arguments,
                                   const std::string& trigger, const Json& run_patch) {
  if (jobs_->GetRun(run_id).ok()) return Status::AlreadyExists("job run {} exists", run_id);
  EPOXY_ASSIGN_OR_RETURN(Json job, jobs_->GetJob(job_name));
  jobs::RunStart start;
  start.job_name = job_name;
  start.arguments = arguments;
  start.trigger_name = trigger;
  start.run_id = run_id;
  start.log_path = jobs::RunLogFolder(job_name) + "/" + run_id + ".log";
  EPOXY_RETURN_NOT_OK(jobs::StartRun(*jobs_, job, start).status());
  Status started = run_patch.empty() ? Status::OK() : jobs_->UpdateRun(run_id, run_patch, nullptr);
  if (started.ok()) started = StartRunWorker(run_id);
  if (!started.ok()) (void)jobs::FinishRun(*jobs_, run_id, "FAILED", started.message());
  return started;
}

Status BackgroundWork::StartCrawl(const std::string& crawler_name, const std::string& crawl_id, const Json& extra) {
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> history, store_->GetCrawlHistory(crawler_name, 1000));
  for (const auto& h : history) {
    if (h.value("CrawlId", "") == crawl_id) return Status::AlreadyExists("crawl {} exists", crawl_id);
  }
  EPOXY_ASSIGN_OR_RETURN(crawler::StartedCrawl started, crawler::BeginCrawl(*store_, crawler_name, crawl_id, &extra));
  Crawl(std::move(started));
  return Status::OK();
}

void BackgroundWork::ReapLoop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    cv_.wait_for(lock, std::chrono::milliseconds(200));
    std::vector<std::string> exited;
    for (auto it = workers_.begin(); it != workers_.end();) {
      int status = 0;
      if (waitpid(it->first, &status, WNOHANG) == it->first) {
        exited.push_back(it->second);
        it = workers_.erase(it);
        ++counters_.run_workers_exited;
      } else {
        ++it;
      }
    }
    if (exited.empty()) continue;
    lock.unlock();
    // A worker that ended without finishing its run (killed, crashed) leaves it RUNNING: settle it.
    for (const auto& run_id : exited) {
      auto run = jobs_->GetRun(run_id);
      if (!run.ok()) continue;
      if (!jobs::IsFinalState(run->run.value("JobRunState", "")) && run->internal.value("Pid", int64_t{0}) == getpid()) {
        // The worker ended before it took the run over (it could not start): nothing ran.
        const double now = jobs::NowSeconds();
        (void)jobs_->UpdateRun(run_id, {{"JobRunState", "FAILED"}, {"CompletedOn", now}, {"LastModifiedOn", now},
                                        {"ErrorMessage", "the run's worker process could not start"}},
                               {{"Settled", true}}, {"STARTING", "RUNNING", "STOPPING"});
        continue;
      }
      Status st = RecoverJob(run->run.value("JobName", ""));
      if (!st.ok()) EPOXY_LOG(kWarning, "settling the runs of job {}: {}", run->run.value("JobName", ""), st.message());
    }
    lock.lock();
  }
}

Status BackgroundWork::Recover() {
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> jobs, jobs_->GetJobs());
  for (const auto& job : jobs) EPOXY_RETURN_NOT_OK(RecoverJob(job.value("Name", "")));
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> crawlers, store_->GetCrawlers());
  for (const auto& c : crawlers) {
    if (c.value("State", "READY") == "READY") continue;
    EPOXY_ASSIGN_OR_RETURN(bool settled, crawler::SettleDeadCrawl(*store_, c.value("Name", "")));
    if (settled) EPOXY_LOG(kInfo, "crawler {}: its crawl died with the server; marked FAILED", c.value("Name", ""));
  }
  return Status::OK();
}

Status BackgroundWork::RecoverJob(const std::string& job) {
  std::vector<std::string> failed;
  EPOXY_RETURN_NOT_OK(jobs::SettleRuns(*jobs_, job, &failed).status());
  for (const auto& id : failed) {
    {
      std::lock_guard lock(mu_);
      ++counters_.runs_recovered;
    }
    EPOXY_LOG(kInfo, "run {} of job {}: its process died; marked FAILED", id, job);
    EPOXY_RETURN_NOT_OK(RetryFailedRun(id));
  }
  return Status::OK();
}

Status BackgroundWork::RetryFailedRun(const std::string& failed_run_id) {
  EPOXY_ASSIGN_OR_RETURN(catalog::StoredRun failed, jobs_->GetRun(failed_run_id));
  const std::string job_name = failed.run.value("JobName", "");
  EPOXY_ASSIGN_OR_RETURN(Json job, jobs_->GetJob(job_name));
  const int attempt = failed.run.value("Attempt", 0);
  if (attempt >= job.value("MaxRetries", 0)) return Status::OK();
  jobs::RunStart start;
  start.job_name = job_name;
  start.arguments = failed.run.value("Arguments", Json::object());
  start.attempt = attempt + 1;
  start.previous_run_id = failed_run_id;
  start.trigger_name = failed.run.value("TriggerName", "");
  std::string first = failed_run_id.substr(0, failed_run_id.find("_attempt_"));
  start.run_id = fmt::format("{}_attempt_{}", first, attempt + 1);
  start.log_path = failed.internal.value("LogPath", "");
  if (const size_t slash = start.log_path.rfind('/'); slash != std::string::npos) {
    start.log_path = start.log_path.substr(0, slash + 1) + start.run_id + ".log";
  }
  auto run = jobs::StartRun(*jobs_, job, start);
  if (!run.ok()) return run.status();
  {
    std::lock_guard lock(mu_);
    ++counters_.runs_retried;
  }
  return StartRunWorker(start.run_id);
}

}  // namespace epoxy::api
