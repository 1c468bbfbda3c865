// SPDX-License-Identifier: Apache-2.0
// One case, in this process or in a forked child.
#include "case_runner.h"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "epoxy/cli/sql_script.h"
#include "epoxy/cli/sql_session.h"

namespace epoxy::conformance {
namespace {

// The child's answer on the pipe: ok as one byte, then the error, the rows, the names and the
// types, each a count or a length as 4 bytes followed by the bytes (rows may hold any byte).
void PutNumber(uint32_t n, std::string* out) { out->append(reinterpret_cast<const char*>(&n), 4); }

void PutString(const std::string& s, std::string* out) {
  PutNumber(static_cast<uint32_t>(s.size()), out);
  out->append(s);
}

void PutStrings(const std::vector<std::string>& list, std::string* out) {
  PutNumber(static_cast<uint32_t>(list.size()), out);
  for (const auto& s : list) PutString(s, out);
}

std::string Serialize(const CaseOutput& output) {
  std::string out(1, output.ok ? '1' : '0');
  PutString(output.error, &out);
  PutStrings(output.rows, &out);
  PutStrings(output.column_names, &out);
  PutStrings(output.column_types, &out);
  return out;
}

class Reader {
 public:
  explicit Reader(const std::string& data) : data_(data) {}
  bool Number(uint32_t* n) {
    if (data_.size() - pos_ < 4) return false;
    std::memcpy(n, data_.data() + pos_, 4);
    pos_ += 4;
    return true;
  }
  bool String(std::string* s) {
    uint32_t n;
    if (!Number(&n) || data_.size() - pos_ < n) return false;
    s->assign(data_, pos_, n);
    pos_ += n;
    return true;
  }
  bool Strings(std::vector<std::string>* list) {
    uint32_t n;
    if (!Number(&n)) return false;
    list->resize(n);
    for (auto& s : *list) {
      if (!String(&s)) return false;
    }
    return true;
  }

 private:
  const std::string& data_;
  size_t pos_ = 1;
};

bool Deserialize(const std::string& data, CaseOutput* output) {
  if (data.empty()) return false;
  output->ok = data[0] == '1';
  Reader reader(data);
  return reader.String(&output->error) && reader.Strings(&output->rows) &&
         reader.Strings(&output->column_names) && reader.Strings(&output->column_types);
}

CaseOutput Failed(std::string error) {
  CaseOutput output;
  output.error = std::move(error);
  return output;
}

void WriteAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

/// Bounds what a child may allocate, so that a case allocating without bound fails alone instead
/// of taking the machine (shared by several engineers) with it. Not under sanitizers, which
/// reserve terabytes of address space for their shadow memory.
void LimitAddressSpace() {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  constexpr rlim_t kLimit = rlim_t{8} << 30;
  rlimit limit{kLimit, kLimit};
  setrlimit(RLIMIT_AS, &limit);
#endif
}

}  // namespace

CaseOutput RunScript(const std::string& script, const RunnerOptions& options) {
  cli::SqlSessionOptions session_options;
  session_options.catalog = options.catalog_uri;
  session_options.conf.Set("spark.sql.session.timeZone", options.time_zone);
  cli::SqlSession session(std::move(session_options));
  CaseOutput output;
  std::vector<cli::ScriptStatement> statements = cli::SplitSqlScript(script);
  if (statements.empty()) return Failed("no statement");
  const SparkTextOptions text_options = session.spark_text_options();
  for (const cli::ScriptStatement& statement : statements) {
    auto planned = session.Plan(statement.text);
    if (!planned.ok()) return Failed(planned.status().ToString());
    output.column_names.clear();
    output.column_types.clear();
    for (const Field& field : planned->plan->schema->fields()) {
      output.column_names.push_back(field.name);
      output.column_types.push_back(field.type->ToString());
    }
    auto run = session.Execute(*planned, [&](const BatchPtr& batch) {
      for (int64_t r = 0; r < batch->num_rows(); ++r) {
        std::string row;
        AppendSparkRow(*batch, r, text_options, &row);
        output.rows.push_back(std::move(row));
      }
      return Status::OK();
    });
    if (!run.ok()) return Failed(run.status().ToString());
  }
  output.ok = true;
  return output;
}

CaseOutput RunScriptIsolated(const std::string& script, const RunnerOptions& options) {
  int fds[2];
  if (pipe(fds) != 0) return Failed(fmt::format("pipe: {}", std::strerror(errno)));
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Failed(fmt::format("fork: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    close(fds[0]);
    LimitAddressSpace();
    WriteAll(fds[1], Serialize(RunScript(script, options)));
    close(fds[1]);
    _exit(0);  // no atexit handlers or static destructors of the parent's state
  }
  close(fds[1]);
  std::string data;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_seconds);
  bool timed_out = false;
  char buf[65536];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return Failed(fmt::format("timed out after {} s", options.timeout_seconds));
  if (WIFSIGNALED(wstatus)) {
    int sig = WTERMSIG(wstatus);
    return Failed(fmt::format("crashed: signal {} ({})", sig, strsignal(sig)));
  }
  CaseOutput output;
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0 || !Deserialize(data, &output)) {
    return Failed(fmt::format("the child ended without an answer (exit status {})",
                              WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1));
  }
  return output;
}

}  // namespace epoxy::conformance
