// SPDX-License-Identifier: Apache-2.0
// `epoxy run`.
#include "epoxy/cli/run_command.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <csignal>
#include <optional>

#include <fmt/format.h>

#include "epoxy/catalog/job_store.h"
#include "epoxy/jobs/job_definition.h"
#include "epoxy/jobs/run_lifecycle.h"
#include "epoxy/jobs/run_process.h"
#include "epoxy/storage/file_system.h"

namespace epoxy::cli {
namespace {

namespace fs = std::filesystem;

/// Consumes a runtime option at argv[*i] (`--threads N`, `--threads=N`, same for --memory-limit).
Result<bool> TakeRuntimeOption(int argc, char** argv, int* i, RunArgs* args) {
  std::string_view arg = argv[*i];
  for (std::string_view name : {"--threads", "--memory-limit"}) {
    std::string value;
    if (arg == name) {
      if (*i + 1 >= argc) return Status::InvalidInput("{} needs a value", name);
      value = argv[++*i];
    } else if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
      value = std::string(arg.substr(name.size() + 1));
    } else {
      continue;
    }
    if (name == "--threads") {
      char* end = nullptr;
      long n = std::strtol(value.c_str(), &end, 10);
      if (*end != '\0' || n <= 0 || n > INT_MAX) return Status::InvalidInput("--threads must be a positive number, got '{}'", value);
      args->threads = static_cast<int>(n);
    } else {
      args->memory_limit = value;
    }
    return true;
  }
  return false;
}

}  // namespace

/// The folder holding `_epoxy_native` and the packages: beside a build's binary, or the install's.
Result<std::string> PythonPackagesDir() {
  if (const char* dir = std::getenv("EPOXY_PYTHON_DIR")) return std::string(dir);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return Status::IOError("cannot find the epoxy binary: {}", ec.message());
  for (const fs::path& candidate : {exe.parent_path() / "python", exe.parent_path().parent_path() / "lib" / "epoxy" / "python"}) {
    if (fs::exists(candidate / "awsglue", ec)) return candidate.string();
  }
  return Status::NotFound("epoxy's Python packages are not beside {} (build the _epoxy_native target, or make install)",
                          exe.string());
}

namespace {

void WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;  // the terminal or log went away; the run goes on
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
}

}  // namespace

Result<bool> ParseRunArgs(int argc, char** argv, RunArgs* args) {
  int i = 1;
  while (i < argc) {
    EPOXY_ASSIGN_OR_RETURN(bool taken, TakeRuntimeOption(argc, argv, &i, args));
    if (!taken) break;
    ++i;
  }
  if (i + 1 < argc && std::string_view(argv[i]) == "job" && std::string_view(argv[i + 1]) == "run") {
    // `epoxy job run NAME [--KEY VALUE]...`: a stored job's script.
    if (i + 2 >= argc) return Status::InvalidInput("usage: epoxy job run NAME [--KEY VALUE]...");
    args->job = argv[i + 2];
    for (i += 3; i < argc; ++i) args->script_args.emplace_back(argv[i]);
    return true;
  }
  if (i >= argc || std::string_view(argv[i]) != "run") return false;
  for (++i; i < argc; ++i) {
    EPOXY_ASSIGN_OR_RETURN(bool taken, TakeRuntimeOption(argc, argv, &i, args));
    if (!taken) break;
  }
  if (i >= argc) return Status::InvalidInput("usage: epoxy run SCRIPT.py [--JOB_NAME NAME] [--KEY VALUE]...");
  args->script = argv[i++];
  for (; i < argc; ++i) args->script_args.emplace_back(argv[i]);
  return true;
}

namespace {

/// Glue's job arguments (`--KEY VALUE`, or `--KEY` alone) as a map, in the order given.
catalog::Json ArgumentMap(const std::vector<std::string>& args) {
  catalog::Json map = catalog::Json::object();
  for (size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (a.rfind("--", 0) != 0) continue;  // a stray value: Glue scripts never see one
    if (size_t eq = a.find('='); eq != std::string::npos) {
      map[a.substr(0, eq)] = a.substr(eq + 1);
    } else if (k + 1 < args.size() && args[k + 1].rfind("--", 0) != 0) {
      map[a] = args[++k];
    } else {
      map[a] = "";
    }
  }
  return map;
}

/// The last line of a traceback ("ValueError: ..."), for the run's ErrorMessage.
std::string LastErrorLine(const std::string& tail) {
  size_t end = tail.find_last_not_of("\n ");
  if (end == std::string::npos) return "";
  size_t begin = tail.rfind('\n', end);
  return tail.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

struct AttemptOutcome {
  int exit_code = 0;
  std::string state;  // SUCCEEDED, FAILED, STOPPED, TIMEOUT
  std::string error;
};

/// Runs one attempt's process: tees its output to the terminal and the log, beats the run's
/// heartbeat, stops it when the run is asked to stop (epoxy run-stop) or times out.
Result<AttemptOutcome> RunAttempt(catalog::JobStore& store, const std::string& run_id, const std::vector<std::string>& argv,
                                  const std::string& python_dir, const std::string& job_name, const std::string& log_path,
                                  int threads, const std::string& memory_limit, int64_t timeout_minutes) {
  int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) return Status::IOError("cannot create the run log {}: {}", log_path, std::strerror(errno));
  // The log starts with what the run was given (a trigger's --EVENT_OBJECTS among them).
  std::string header = fmt::format("epoxy: run {} of job {}:", run_id, job_name);
  for (size_t i = 1; i < argv.size(); ++i) header += " " + argv[i];
  header += "\n";
  WriteAll(log, header.data(), header.size());
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(log);
    return Status::IOError("pipe: {}", std::strerror(errno));
  }
  std::string path_env = python_dir;
  if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') path_env += std::string(":") + old;
  const pid_t runner = getpid();

  pid_t pid = fork();
  if (pid < 0) return Status::IOError("fork: {}", std::strerror(errno));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // the script never outlives its runner
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    setenv("PYTHONPATH", path_env.c_str(), 1);
    setenv("PYTHONUNBUFFERED", "1", 1);  // the script's prints and the engine's messages stay in order
    setenv("EPOXY_RUN_ID", run_id.c_str(), 1);
    setenv("EPOXY_JOB_NAME", job_name.c_str(), 1);
    setenv("EPOXY_RUN_LOG", log_path.c_str(), 1);
    setenv("EPOXY_RUNNER_PID", std::to_string(runner).c_str(), 1);
    if (threads > 0) setenv("EPOXY_THREADS", std::to_string(threads).c_str(), 1);
    if (!memory_limit.empty()) setenv("EPOXY_MEMORY_LIMIT", memory_limit.c_str(), 1);
    std::vector<std::string> copy = argv;
    std::vector<char*> cargv;
    for (auto& a : copy) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execvp(cargv[0], cargv.data());
    std::fprintf(stderr, "epoxy: error: cannot start %s: %s\n", cargv[0], std::strerror(errno));
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  const int targets[2] = {STDOUT_FILENO, STDERR_FILENO};
  int open_streams = 2;
  char buffer[65536];
  std::string err_tail;
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  // EPOXY_TIMEOUT_SCALE (a test switch) shortens every minute of Timeout by that factor.
  const char* scale_env = std::getenv("EPOXY_TIMEOUT_SCALE");
  const double scale = scale_env != nullptr && std::atof(scale_env) > 0 ? std::atof(scale_env) : 1.0;
  const auto timeout = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(static_cast<double>(timeout_minutes) * 60.0 * scale));
  auto last_beat = started;
  Clock::time_point term_sent{};
  std::string stop_reason;  // STOPPED or TIMEOUT once we asked the script to end
  while (open_streams > 0) {
    int ready = poll(fds, 2, 1000);
    if (ready < 0 && errno != EINTR) break;
    for (int k = 0; ready > 0 && k < 2; ++k) {
      if (fds[k].fd < 0 || (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      ssize_t n = read(fds[k].fd, buffer, sizeof buffer);
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        close(fds[k].fd);
        fds[k].fd = -1;
        --open_streams;
        continue;
      }
      WriteAll(targets[k], buffer, static_cast<size_t>(n));
      WriteAll(log, buffer, static_cast<size_t>(n));
      if (k == 1) {
        err_tail.append(buffer, static_cast<size_t>(n));
        if (err_tail.size() > 8192) err_tail.erase(0, err_tail.size() - 4096);
      }
    }
    const auto now = Clock::now();
    if (now - last_beat >= std::chrono::seconds(1)) {
      last_beat = now;
      (void)store.UpdateRun(run_id, nullptr, {{"Heartbeat", jobs::NowSeconds()}});
      if (stop_reason.empty()) {
        auto run = store.GetRun(run_id);
        if (run.ok() && run->run.value("JobRunState", "") == "STOPPING") stop_reason = "STOPPED";
        if (timeout_minutes > 0 && now - started >= timeout) stop_reason = "TIMEOUT";
        if (!stop_reason.empty()) {
          kill(pid, SIGTERM);
          term_sent = now;
        }
      } else if (now - term_sent >= std::chrono::seconds(10)) {
        kill(pid, SIGKILL);  // it ignored SIGTERM
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  close(log);
  if (stop_reason.empty()) {  // asked to stop after the last look
    auto run = store.GetRun(run_id);
    if (run.ok() && run->run.value("JobRunState", "") == "STOPPING") stop_reason = "STOPPED";
  }
  AttemptOutcome outcome;
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  if (!stop_reason.empty()) {
    outcome.state = stop_reason;
    outcome.error = stop_reason == "TIMEOUT" ? fmt::format("the run exceeded its Timeout of {} minutes", timeout_minutes)
                                             : "the run was stopped (epoxy run-stop)";
  } else if (outcome.exit_code == 0) {
    outcome.state = "SUCCEEDED";
  } else {
    outcome.state = "FAILED";
    outcome.error = LastErrorLine(err_tail);
    if (outcome.error.empty()) outcome.error = fmt::format("the script exited with code {}", outcome.exit_code);
  }
  return outcome;
}

/// The stored job a run belongs to: the named one, or an ad-hoc job for a script run by path.
Result<catalog::Json> JobForRun(catalog::JobStore& store, const RunArgs& args, std::string* job_name) {
  if (!args.job.empty()) {
    *job_name = args.job;
    return store.GetJob(args.job);
  }
  auto job = store.GetJob(*job_name);
  if (job.ok() || job.status().code() != StatusCode::kNotFound) return job;
  std::error_code ec;
  std::string script = fs::absolute(args.script, ec).string();
  EPOXY_ASSIGN_OR_RETURN(catalog::Json created,
                         jobs::JobFromInput({{"Name", *job_name}, {"Role", "epoxy-local"},
                                             {"Command", {{"Name", "glueetl"}, {"ScriptLocation", script}}},
                                             {"Description", "created by epoxy run for " + script}}));
  Status st = store.CreateJob(created);
  if (!st.ok() && st.code() != StatusCode::kAlreadyExists) return st;
  return store.GetJob(*job_name);
}

}  // namespace

namespace {

/// The script of `location` (a local path, file:// or s3://) as a local file: objects in S3 are
/// copied into the run's log folder first.
Result<std::string> LocalScript(const std::string& location, const std::string& log_dir, const std::string& run_id) {
  std::string path = location;
  if (path.rfind("file://", 0) == 0) path = path.substr(7);
  if (path.rfind("s3://", 0) != 0) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return Status::NotFound("no script at {}", location);
    return path;
  }
  EPOXY_ASSIGN_OR_RETURN(auto files, FileSystemFor(path));
  EPOXY_ASSIGN_OR_RETURN(auto in, files->OpenForRead(path));
  const int64_t size = in->size();
  if (size > (64 << 20)) return Status::InvalidInput("the script {} is {} bytes; at most 64 MiB", location, size);
  EPOXY_ASSIGN_OR_RETURN(BufferPtr bytes, in->ReadAt(0, size));
  const std::string local = log_dir + "/" + run_id + ".script.py";
  std::FILE* out = std::fopen(local.c_str(), "wb");
  if (out == nullptr) return Status::IOError("cannot write {}: {}", local, std::strerror(errno));
  const bool written = std::fwrite(bytes->data(), 1, static_cast<size_t>(bytes->size()), out) ==
                       static_cast<size_t>(bytes->size());
  if (std::fclose(out) != 0 || !written) return Status::IOError("cannot write {}", local);
  return local;
}

/// What every attempt of a run shares.
struct RunPlan {
  catalog::Json job;
  std::string job_name, interpreter, python_dir, log_dir, memory_limit;
  catalog::Json run_arguments = catalog::Json::object();
  int threads = 0;
};

/// Runs attempts until one does not fail or MaxRetries is spent. `adopted`, when given, is the
/// first attempt's run, recorded by a server, which this process takes over.
Result<int> RunAttempts(catalog::JobStore& store, const RunPlan& plan, std::optional<catalog::StoredRun> adopted) {
  const int max_retries = plan.job.value("MaxRetries", 0);
  std::string first_id, previous_id;
  int code = 0;
  for (int attempt = adopted ? adopted->run.value("Attempt", 0) : 0; attempt <= max_retries; ++attempt) {
    jobs::RunStart start;
    catalog::StoredRun run;
    if (adopted) {
      run = std::move(*adopted);
      adopted.reset();
      start.run_id = run.run.value("Id", "");
      start.log_path = run.internal.value("LogPath", "");
      if (start.log_path.empty()) start.log_path = plan.log_dir + "/" + start.run_id + ".log";
      // A run asked to stop before it started is taken over too: its attempt sees STOPPING and ends.
      EPOXY_RETURN_NOT_OK(store.UpdateRun(start.run_id, nullptr, jobs::ProcessFields(jobs::ThisProcess()),
                                          {"STARTING", "RUNNING", "STOPPING"}));
      first_id = start.run_id.substr(0, start.run_id.find("_attempt_"));
    } else {
      start.job_name = plan.job_name;
      start.arguments = plan.run_arguments;
      start.attempt = attempt;
      start.previous_run_id = previous_id;
      start.run_id = attempt > 0 ? fmt::format("{}_attempt_{}", first_id, attempt) : jobs::NewRunId();
      start.log_path = plan.log_dir + "/" + start.run_id + ".log";
      EPOXY_ASSIGN_OR_RETURN(run, jobs::StartRun(store, plan.job, start));
      if (first_id.empty()) first_id = start.run_id;
    }
    const std::string run_id = start.run_id;
    // The script sees the run's arguments (the job's defaults with these over them), as in Glue.
    AttemptOutcome outcome;
    auto script = LocalScript(plan.job["Command"].value("ScriptLocation", ""), plan.log_dir, run_id);
    if (!script.ok()) {
      outcome.state = "FAILED";
      outcome.exit_code = 1;
      outcome.error = fmt::format("job {}: {}", plan.job_name, script.status().message());
    } else {
      std::vector<std::string> argv = {plan.interpreter, *script, "--JOB_NAME", plan.job_name, "--JOB_RUN_ID", run_id};
      for (const auto& [key, value] : run.run["Arguments"].items()) {
        if (key == "--JOB_NAME" || key == "--JOB_RUN_ID") continue;
        argv.push_back(key);
        argv.push_back(value.get<std::string>());
      }
      EPOXY_ASSIGN_OR_RETURN(outcome, RunAttempt(store, run_id, argv, plan.python_dir, plan.job_name, start.log_path,
                                                 plan.threads, plan.memory_limit, run.run.value("Timeout", int64_t{0})));
    }
    Status finished = jobs::FinishRun(store, run_id, outcome.state, outcome.error);
    auto final_run = store.GetRun(run_id);
    std::string state = final_run.ok() ? final_run->run.value("JobRunState", outcome.state) : outcome.state;
    code = outcome.exit_code != 0 ? outcome.exit_code : (state == "SUCCEEDED" ? 0 : 1);
    std::string summary = fmt::format("epoxy: run {} of {} {}{} (exit {}); log: {}\n", run_id, plan.job_name, state,
                                      attempt > 0 ? fmt::format(" (attempt {})", attempt) : "", code, start.log_path);
    if (!finished.ok()) summary += fmt::format("epoxy: error: finishing the run: {}\n", finished.message());
    if (final_run.ok() && state != "SUCCEEDED") {
      summary += fmt::format("epoxy: {}\n", final_run->run.value("ErrorMessage", ""));
    }
    int log = open(start.log_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (log >= 0) {
      WriteAll(log, summary.data(), summary.size());
      close(log);
    }
    if (state != "SUCCEEDED") WriteAll(STDERR_FILENO, summary.data(), summary.size());
    if (!finished.ok()) return finished;
    if (state != "FAILED") break;  // stopped and timed-out runs are not retried
    previous_id = run_id;
  }
  return code;
}

Result<RunPlan> PlanFor(catalog::Json job, const std::string& job_name, int threads, const std::string& memory_limit) {
  RunPlan plan;
  EPOXY_ASSIGN_OR_RETURN(plan.python_dir, PythonPackagesDir());
  plan.interpreter = EPOXY_PYTHON_EXECUTABLE;
  if (const char* p = std::getenv("EPOXY_PYTHON"); p != nullptr && *p != '\0') plan.interpreter = p;
  plan.threads = threads > 0 ? threads : jobs::ThreadsFor(job);
  plan.memory_limit = memory_limit;
  plan.job_name = job_name;
  plan.job = std::move(job);
  plan.log_dir = jobs::RunLogFolder(job_name);
  std::error_code ec;
  fs::create_directories(plan.log_dir, ec);
  if (ec) return Status::IOError("cannot create the log folder {}: {}", plan.log_dir, ec.message());
  return plan;
}

}  // namespace

Result<int> RunScript(const RunArgs& args) {
  catalog::Json run_arguments = ArgumentMap(args.script_args);
  std::string job_name = args.script.empty() ? args.job : fs::path(args.script).stem().string();
  if (run_arguments.contains("--JOB_NAME") && args.job.empty()) job_name = run_arguments["--JOB_NAME"].get<std::string>();

  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::JobStore::Open(""));
  EPOXY_ASSIGN_OR_RETURN(catalog::Json job, JobForRun(*store, args, &job_name));
  if (!args.script.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(args.script, ec)) return Status::NotFound("no script at {} (job {})", args.script, job_name);
    job["Command"]["ScriptLocation"] = fs::absolute(args.script, ec).string();
  } else {
    // A stored job's script must exist before a run is recorded.
    const std::string location = job["Command"].value("ScriptLocation", "");
    const std::string local = location.rfind("file://", 0) == 0 ? location.substr(7) : location;
    std::error_code ec;
    if (local.rfind("s3://", 0) != 0 && !fs::is_regular_file(local, ec)) {
      return Status::NotFound("no script at {} (job {})", location, job_name);
    }
  }
  run_arguments.erase("--JOB_NAME");
  EPOXY_ASSIGN_OR_RETURN(RunPlan plan, PlanFor(std::move(job), job_name, args.threads, args.memory_limit));
  plan.run_arguments = std::move(run_arguments);
  return RunAttempts(*store, plan, std::nullopt);
}

Result<int> RunWorker(const std::string& run_id) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::JobStore::Open(""));
  EPOXY_ASSIGN_OR_RETURN(catalog::StoredRun run, store->GetRun(run_id));
  const std::string job_name = run.run.value("JobName", "");
  EPOXY_ASSIGN_OR_RETURN(catalog::Json job, store->GetJob(job_name));
  EPOXY_ASSIGN_OR_RETURN(RunPlan plan, PlanFor(std::move(job), job_name, 0, ""));
  plan.run_arguments = run.run.value("Arguments", catalog::Json::object());
  return RunAttempts(*store, plan, std::move(run));
}

}  // namespace epoxy::cli
