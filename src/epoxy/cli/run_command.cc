// SPDX-License-Identifier: Apache-2.0
// `epoxy run`.
#include "epoxy/cli/run_command.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include <fmt/format.h>

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

std::string EpoxyHome() {
  if (const char* home = std::getenv("EPOXY_HOME"); home != nullptr && *home != '\0') return home;
  const char* user = std::getenv("HOME");
  return std::string(user ? user : ".") + "/.epoxy";
}

std::string NewRunId() {
  std::random_device device;
  std::mt19937_64 random(device());
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return fmt::format("jr_{:x}{:016x}", std::chrono::duration_cast<std::chrono::milliseconds>(now).count(), random());
}

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

Result<int> RunScript(const RunArgs& args) {
  std::error_code ec;
  if (!fs::is_regular_file(args.script, ec)) return Status::NotFound("no script at {}", args.script);
  EPOXY_ASSIGN_OR_RETURN(std::string python_dir, PythonPackagesDir());
  std::string interpreter = EPOXY_PYTHON_EXECUTABLE;
  if (const char* p = std::getenv("EPOXY_PYTHON"); p != nullptr && *p != '\0') interpreter = p;

  std::vector<std::string> argv = {interpreter, args.script};
  bool has_job_name = false;
  for (const auto& a : args.script_args) {
    if (a == "--JOB_NAME" || a.rfind("--JOB_NAME=", 0) == 0) has_job_name = true;
    argv.push_back(a);
  }
  std::string job_name = fs::path(args.script).stem().string();
  for (size_t k = 0; k + 1 < args.script_args.size(); ++k) {
    if (args.script_args[k] == "--JOB_NAME") job_name = args.script_args[k + 1];
  }
  if (!has_job_name) {  // an ad-hoc run is named after its script, as Glue requires a name
    argv.push_back("--JOB_NAME");
    argv.push_back(job_name);
  }

  const std::string run_id = NewRunId();
  fs::path log_dir = fs::path(EpoxyHome()) / "logs" / job_name;
  fs::create_directories(log_dir, ec);
  if (ec) return Status::IOError("cannot create the log folder {}: {}", log_dir.string(), ec.message());
  const std::string log_path = (log_dir / (run_id + ".log")).string();
  int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) return Status::IOError("cannot create the run log {}: {}", log_path, std::strerror(errno));

  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(log);
    return Status::IOError("pipe: {}", std::strerror(errno));
  }
  std::string path_env = python_dir;
  if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') path_env += std::string(":") + old;

  pid_t pid = fork();
  if (pid < 0) return Status::IOError("fork: {}", std::strerror(errno));
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    setenv("PYTHONPATH", path_env.c_str(), 1);
    setenv("PYTHONUNBUFFERED", "1", 1);  // the script's prints and the engine's messages stay in order
    setenv("EPOXY_RUN_ID", run_id.c_str(), 1);
    setenv("EPOXY_JOB_NAME", job_name.c_str(), 1);
    setenv("EPOXY_RUN_LOG", log_path.c_str(), 1);
    if (args.threads > 0) setenv("EPOXY_THREADS", std::to_string(args.threads).c_str(), 1);
    if (!args.memory_limit.empty()) setenv("EPOXY_MEMORY_LIMIT", args.memory_limit.c_str(), 1);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execvp(cargv[0], cargv.data());
    std::fprintf(stderr, "epoxy: error: cannot start %s: %s\n", cargv[0], std::strerror(errno));
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Tee both streams to the terminal and the log, as they come.
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  const int targets[2] = {STDOUT_FILENO, STDERR_FILENO};
  int open_streams = 2;
  char buffer[65536];
  while (open_streams > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < 2; ++k) {
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
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  std::string summary = fmt::format("epoxy: run {} of {} {} (exit {}); log: {}\n", run_id, job_name,
                                    code == 0 ? "succeeded" : "failed", code, log_path);
  WriteAll(log, summary.data(), summary.size());
  close(log);
  if (code != 0) WriteAll(STDERR_FILENO, summary.data(), summary.size());
  return code;
}

}  // namespace epoxy::cli
