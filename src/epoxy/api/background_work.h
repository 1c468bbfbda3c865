// SPDX-License-Identifier: Apache-2.0
// What `epoxy serve` does after it has answered: crawls, each on a thread of its own, and job
// runs, each in a worker process (`epoxy run-worker RUN_ID`) that dies with the server. At start
// it settles what a server that died left behind: crawls and runs marked RUNNING whose process is
// gone are marked FAILED, and failed runs are retried as their job's MaxRetries allows.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/catalog/job_store.h"
#include "epoxy/crawler/crawler.h"

namespace epoxy::api {

/// Counters for GET /metrics.
struct BackgroundCounters {
  long long crawls_started = 0, crawls_succeeded = 0, crawls_failed = 0, crawls_cancelled = 0;
  long long runs_started = 0, run_workers_exited = 0, runs_recovered = 0, runs_retried = 0;
};

class BackgroundWork {
 public:
  /// `store` and `jobs` are the server's; `catalog_path` is handed to worker processes, which
  /// `epoxy_binary` runs.
  BackgroundWork(catalog::CatalogStore* store, catalog::JobStore* jobs, std::string catalog_path,
                 std::string epoxy_binary);
  /// Asks running crawls to stop and waits for them; stops reaping workers (they die with the
  /// server process and are settled by the next start).
  ~BackgroundWork();

  /// Crawls `started` (already RUNNING) on a thread; a StopCrawler is noticed through the store.
  void Crawl(crawler::StartedCrawl started);

  /// Starts the worker process of run `run_id` (recorded RUNNING by the caller).
  Status StartRunWorker(const std::string& run_id);

  /// Records run `run_id` of `job` (its arguments over the job's, started by `trigger`, with
  /// `run_patch` over its JobRun: StartJobRun's Timeout, WorkerType...) and starts its worker.
  /// kAlreadyExists when the run exists already.
  Status StartJobRun(const std::string& job, const std::string& run_id, const catalog::Json& arguments,
                     const std::string& trigger, const catalog::Json& run_patch = catalog::Json::object());
  /// Begins crawl `crawl_id` of `crawler` (its history entry gets `extra`) and crawls it on a
  /// thread. kAlreadyExists when that crawl was begun already, or the crawler is running.
  Status StartCrawl(const std::string& crawler, const std::string& crawl_id, const catalog::Json& extra);

  /// Settles dead crawls and runs, and retries failed runs per MaxRetries (at server start, and
  /// whenever a worker process exits).
  Status Recover();

  BackgroundCounters counters() const;

 private:
  void ReapLoop();
  Status RecoverJob(const std::string& job);
  Status RetryFailedRun(const std::string& failed_run_id);

  catalog::CatalogStore* store_;
  catalog::JobStore* jobs_;
  std::string catalog_path_, epoxy_binary_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::atomic<bool> stop_crawls_{false};
  int active_crawls_ = 0;
  std::map<int, std::string> workers_;  // pid -> run id
  std::thread reaper_;
  BackgroundCounters counters_;
};

}  // namespace epoxy::api
