// SPDX-License-Identifier: Apache-2.0
#include "epoxy/api/glue_server.h"

#include <httplib.h>
#include <openssl/rand.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <condition_variable>
#include <thread>

#include <fmt/format.h>

#include "epoxy/api/access_keys.h"
#include "epoxy/api/api_metrics.h"
#include "epoxy/api/background_work.h"
#include "epoxy/scheduler/clock.h"
#include "epoxy/scheduler/trigger_engine.h"
#include "epoxy/api/operation.h"
#include "epoxy/api/sigv4.h"
#include "epoxy/common/logging.h"

namespace epoxy::api {

struct GlueServer::Impl {
  ServerOptions options;
  std::unique_ptr<catalog::CatalogStore> store;
  std::unique_ptr<catalog::JobStore> jobs;
  std::unique_ptr<BackgroundWork> background;  // after the stores: it is destroyed before them
  std::unique_ptr<scheduler::Clock> clock;
  std::unique_ptr<scheduler::TriggerEngine> engine;
  std::thread scheduler_loop;
  bool scheduler_stop = false;  // under mu
  httplib::Server http;
  std::thread listener;
  int port = 0;
  ApiMetrics metrics;
  std::mutex mu;
  std::condition_variable stopped_cv;
  bool stopped = false;

  void Handle(const httplib::Request& req, httplib::Response& res);
  std::string MetricsText();

  ~Impl() {
    {
      std::lock_guard lock(mu);
      scheduler_stop = true;
    }
    stopped_cv.notify_all();
    if (scheduler_loop.joinable()) scheduler_loop.join();
  }
  std::optional<std::string> SecretOf(const std::string& id);
};

namespace {

constexpr const char* kJson11 = "application/x-amz-json-1.1";

std::string RequestId() {
  unsigned char b[16];
  if (RAND_bytes(b, sizeof b) != 1) std::fill(std::begin(b), std::end(b), 0);
  return fmt::format("{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                     b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

void Answer(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  // Stored text that is not UTF-8 (a file name in a crawl message) is sent with U+FFFD, never a 500.
  res.set_content(body.dump(-1, ' ', false, Json::error_handler_t::replace), kJson11);
}

void Fail(httplib::Response& res, int status, const std::string& type, const std::string& message) {
  Answer(res, status, Json{{"__type", type}, {"message", message}});
}

}  // namespace

bool IsLoopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::optional<std::string> GlueServer::Impl::SecretOf(const std::string& id) {
  if (!options.root_access_key_id.empty() && id == options.root_access_key_id) return options.root_secret_access_key;
  return StoredSecret(*store, id);
}

void GlueServer::Impl::Handle(const httplib::Request& req, httplib::Response& res) {
  const auto started = std::chrono::steady_clock::now();
  const std::string request_id = RequestId();
  res.set_header("x-amzn-RequestId", request_id);
  std::string operation = "unknown", error_type;
  auto finish = [&] {
    metrics.Record(operation, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                   error_type);
  };
  auto fail = [&](int status, const std::string& type, const std::string& message) {
    error_type = type;
    Fail(res, status, type, message);
    finish();
  };

  SignedRequest signed_request;
  signed_request.method = req.method;
  const size_t q = req.target.find('?');
  signed_request.path = req.target.substr(0, q);
  signed_request.query = q == std::string::npos ? "" : req.target.substr(q + 1);
  for (const auto& [name, value] : req.headers) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // httplib adds these itself; they were not on the wire.
    if (lower == "remote_addr" || lower == "remote_port" || lower == "local_addr" || lower == "local_port") continue;
    signed_request.headers.emplace(lower, value);
  }
  signed_request.body = req.body;
  VerifyOptions verify;
  verify.region = options.regions.front();
  verify.other_regions.assign(options.regions.begin() + 1, options.regions.end());
  verify.max_skew_seconds = options.max_clock_skew_seconds;
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch()).count();
  AuthResult auth = VerifySigV4(signed_request, [this](const std::string& id) { return SecretOf(id); }, verify, now);
  if (auth.failure) return fail(auth.failure->type == "IncompleteSignatureException" ? 400 : 403, auth.failure->type,
                                auth.failure->message);

  const std::string target = req.get_header_value("X-Amz-Target");
  constexpr std::string_view kPrefix = "AWSGlue.";
  const Handler* handler = target.rfind(kPrefix, 0) == 0 ? AllOperations().Find(target.substr(kPrefix.size())) : nullptr;
  if (handler == nullptr) {
    return fail(400, "UnknownOperationException",
                target.empty() ? "the request has no X-Amz-Target header" : "epoxy does not implement " + target);
  }
  operation = target.substr(kPrefix.size());
  Json request = Json::object();
  if (!req.body.empty()) {
    request = Json::parse(req.body, nullptr, false);
    if (request.is_discarded() || !request.is_object()) {
      return fail(400, "SerializationException", "the request body is not a JSON object");
    }
  }
  ApiContext context;
  context.store = store.get();
  context.jobs = jobs.get();
  context.background = background.get();
  context.engine = engine.get();
  context.clock = clock.get();
  context.account_id = options.account_id;
  context.region = options.regions.front();
  Result<Json> answer = [&]() -> Result<Json> {
    try {
      return (*handler)(request, context);
    } catch (const std::exception& e) {  // nlohmann's type errors on ill-typed members
      return Status::InvalidInput("{}: a member has the wrong type ({})", operation, e.what());
    }
  }();
  if (!answer.ok()) {
    const std::string type(catalog::GlueErrorName(answer.status()));
    if (type == "InternalServiceException") {
      EPOXY_LOG(kError, "request {} ({}): {}", request_id, operation, answer.status().message());
    }
    return fail(type == "InternalServiceException" ? 500 : 400, type, GlueMessage(answer.status()));
  }
  Answer(res, 200, *answer);
  finish();
}

std::string GlueServer::Impl::MetricsText() {
  std::string out = metrics.Text();
  const BackgroundCounters c = background->counters();
  out += "# HELP epoxy_crawls_total Crawls by outcome.\n# TYPE epoxy_crawls_total counter\n";
  out += fmt::format("epoxy_crawls_total{{outcome=\"started\"}} {}\n", c.crawls_started);
  out += fmt::format("epoxy_crawls_total{{outcome=\"succeeded\"}} {}\n", c.crawls_succeeded);
  out += fmt::format("epoxy_crawls_total{{outcome=\"failed\"}} {}\n", c.crawls_failed);
  out += fmt::format("epoxy_crawls_total{{outcome=\"cancelled\"}} {}\n", c.crawls_cancelled);
  out += "# HELP epoxy_run_workers_total Job run worker processes started, and runs recovered or retried after a "
         "worker died.\n# TYPE epoxy_run_workers_total counter\n";
  out += fmt::format("epoxy_run_workers_total{{event=\"started\"}} {}\n", c.runs_started);
  out += fmt::format("epoxy_run_workers_total{{event=\"exited\"}} {}\n", c.run_workers_exited);
  out += fmt::format("epoxy_run_workers_total{{event=\"recovered\"}} {}\n", c.runs_recovered);
  out += fmt::format("epoxy_run_workers_total{{event=\"retried\"}} {}\n", c.runs_retried);
  // Runs by state, their durations and what they processed, from the catalog (all processes' runs).
  std::map<std::string, long long> states;
  long long finished = 0;
  double seconds = 0, rows_read = 0, rows_out = 0, bytes_read = 0, bytes_written = 0;
  auto all_jobs = jobs->GetJobs();
  if (all_jobs.ok()) {
    for (const auto& job : *all_jobs) {
      auto runs = jobs->GetRuns(job.value("Name", ""), 1000);
      if (!runs.ok()) continue;
      for (const auto& r : *runs) {
        const std::string state = r.run.value("JobRunState", "");
        ++states[state];
        if (r.run.contains("CompletedOn")) {
          ++finished;
          seconds += r.run.value("CompletedOn", 0.0) - r.run.value("StartedOn", 0.0);
        }
        const Json m = r.internal.value("Metrics", Json::object());
        rows_read += m.value("rows read", 0.0);
        rows_out += m.value("rows out", 0.0);
        bytes_read += m.value("bytes read", 0.0);
        bytes_written += m.value("output bytes", 0.0);
      }
    }
  }
  out += "# HELP epoxy_job_runs Job runs by state (the newest 1,000 of each job).\n# TYPE epoxy_job_runs gauge\n";
  for (const auto& [state, n] : states) out += fmt::format("epoxy_job_runs{{state=\"{}\"}} {}\n", state, n);
  out += "# HELP epoxy_job_run_seconds Durations of finished job runs.\n# TYPE epoxy_job_run_seconds summary\n";
  out += fmt::format("epoxy_job_run_seconds_sum {:.3f}\nepoxy_job_run_seconds_count {}\n", seconds, finished);
  out += "# HELP epoxy_job_rows Rows job runs read and produced.\n# TYPE epoxy_job_rows gauge\n";
  out += fmt::format("epoxy_job_rows{{kind=\"read\"}} {:.0f}\nepoxy_job_rows{{kind=\"out\"}} {:.0f}\n", rows_read, rows_out);
  out += "# HELP epoxy_job_bytes Bytes job runs read and wrote.\n# TYPE epoxy_job_bytes gauge\n";
  out += fmt::format("epoxy_job_bytes{{kind=\"read\"}} {:.0f}\nepoxy_job_bytes{{kind=\"written\"}} {:.0f}\n", bytes_read,
                     bytes_written);
  return out;
}

Result<std::unique_ptr<GlueServer>> GlueServer::Start(ServerOptions options) {
  if (options.regions.empty()) options.regions = {"us-east-1"};
  if (options.allow_reset && !IsLoopback(options.host)) {
    return Status::InvalidInput("--allow-reset empties the catalog on an unauthenticated request: it is refused unless "
                                "the server binds a loopback address (not {})", options.host);
  }
  auto impl = std::make_unique<Impl>();
  EPOXY_ASSIGN_OR_RETURN(impl->store, catalog::CatalogStore::Open(options.catalog_uri));
  if (!IsLoopback(options.host) && options.root_access_key_id.empty()) {
    EPOXY_ASSIGN_OR_RETURN(auto keys, ListAccessKeys(*impl->store));
    if (keys.empty()) {
      return Status::InvalidInput("refusing to serve on {} with no access key: create one (epoxy access-key create) or "
                                  "set EPOXY_ACCESS_KEY_ID and EPOXY_SECRET_ACCESS_KEY", options.host);
    }
  }
  EPOXY_ASSIGN_OR_RETURN(impl->jobs, catalog::JobStore::Open(options.catalog_uri));
  EPOXY_ASSIGN_OR_RETURN(std::string catalog_path, catalog::CatalogFilePath(options.catalog_uri));
  std::error_code ec;
  const std::string binary = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return Status::IOError("cannot find the epoxy binary to run job workers: {}", ec.message());
  impl->background = std::make_unique<BackgroundWork>(impl->store.get(), impl->jobs.get(), catalog_path, binary);
  // What a server that died left RUNNING is settled (and failed runs retried) before serving.
  if (Status recovered = impl->background->Recover(); !recovered.ok()) {
    EPOXY_LOG(kError, "settling the runs and crawls of a previous server: {}", recovered.message());
  }
  impl->options = options;
  Impl* self = impl.get();
  if (options.test_clock) {
    impl->clock = std::make_unique<scheduler::ManualClock>();
  } else {
    impl->clock = std::make_unique<scheduler::SystemClock>();
  }
  scheduler::Launcher launcher;
  launcher.start_job = [self](const std::string& job, const std::string& run_id, const Json& arguments,
                              const std::string& trigger) {
    return self->background->StartJobRun(job, run_id, arguments, trigger);
  };
  launcher.start_crawl = [self](const std::string& crawler, const std::string& crawl_id, const Json& extra) {
    return self->background->StartCrawl(crawler, crawl_id, extra);
  };
  impl->engine = std::make_unique<scheduler::TriggerEngine>(impl->store.get(), impl->jobs.get(), impl->clock.get(),
                                                            std::move(launcher));
  // The scheduler looks at every trigger and workflow run once a second.
  impl->scheduler_loop = std::thread([self] {
    std::unique_lock lock(self->mu);
    while (!self->scheduler_stop) {
      lock.unlock();
      if (Status st = self->engine->Tick(); !st.ok()) EPOXY_LOG(kWarning, "scheduler: {}", st.message());
      lock.lock();
      self->stopped_cv.wait_for(lock, std::chrono::seconds(1), [self] { return self->scheduler_stop; });
    }
  });
  const int threads = std::max(2, options.threads);
  impl->http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  impl->http.set_payload_max_length(64 << 20);
  impl->http.set_read_timeout(60);
  impl->http.Post("/", [self](const httplib::Request& req, httplib::Response& res) { self->Handle(req, res); });
  impl->http.Get("/health", [self](const httplib::Request&, httplib::Response& res) {
    auto probe = self->store->GetDatabases("", 1);
    res.status = probe.ok() ? 200 : 503;
    res.set_content(probe.ok() ? "ok\n" : "catalog unreachable: " + probe.status().message() + "\n", "text/plain");
  });
  impl->http.Get("/metrics", [self](const httplib::Request&, httplib::Response& res) {
    res.set_content(self->MetricsText(), "text/plain; version=0.0.4");
  });
  if (options.allow_reset && options.test_clock) {
    // Tests move the scheduler's time forward and see what it fired at once.
    impl->http.Post("/epoxy-test/clock", [self](const httplib::Request& req, httplib::Response& res) {
      const Json body = Json::parse(req.body, nullptr, false);
      if (!body.is_object() || !body.contains("AdvanceSeconds") || !body["AdvanceSeconds"].is_number()) {
        res.status = 400;
        res.set_content(Json{{"message", "give {\"AdvanceSeconds\": N}"}}.dump(), "application/json");
        return;
      }
      static_cast<scheduler::ManualClock*>(self->clock.get())->Advance(body["AdvanceSeconds"].get<double>());
      Status st = self->engine->Tick();
      res.status = st.ok() ? 200 : 500;
      res.set_content(Json{{"Now", self->clock->Now()}, {"Tick", st.ok() ? "ok" : st.message()}}.dump(),
                      "application/json");
    });
  }
  if (options.allow_reset) {
    impl->http.Post("/moto-api/reset", [self](const httplib::Request&, httplib::Response& res) {
      Status st = self->store->ResetAll({"access_key"});
      res.status = st.ok() ? 200 : 500;
      res.set_content(st.ok() ? "{\"status\": \"ok\"}" : Json{{"message", st.message()}}.dump(), "application/json");
    });
  }
  if (options.port == 0) {
    impl->port = impl->http.bind_to_any_port(options.host);
    if (impl->port <= 0) return Status::IOError("cannot bind {}", options.host);
  } else {
    if (!impl->http.bind_to_port(options.host, options.port)) {
      return Status::IOError("cannot bind {}:{} (in use?)", options.host, options.port);
    }
    impl->port = options.port;
  }
  impl->listener = std::thread([self] {
    self->http.listen_after_bind();
    std::lock_guard lock(self->mu);
    self->stopped = true;
    self->stopped_cv.notify_all();
  });
  while (!impl->http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return std::unique_ptr<GlueServer>(new GlueServer(std::move(impl)));
}

GlueServer::GlueServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

GlueServer::~GlueServer() {
  Stop();
  if (impl_->listener.joinable()) impl_->listener.join();
}

int GlueServer::port() const { return impl_->port; }

void GlueServer::Wait() {
  std::unique_lock lock(impl_->mu);
  impl_->stopped_cv.wait(lock, [&] { return impl_->stopped; });
}

void GlueServer::Stop() { impl_->http.stop(); }

}  // namespace epoxy::api
