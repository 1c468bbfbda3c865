// SPDX-License-Identifier: Apache-2.0
#include "epoxy/jobs/job_definition.h"

#include <algorithm>
#include <thread>

#include "epoxy/jobs/run_process.h"

namespace epoxy::jobs {

using catalog::Json;

namespace {

Status CheckStringMap(const Json& input, const char* field) {
  if (!input.contains(field)) return Status::OK();
  const Json& map = input[field];
  if (!map.is_object()) return Status::InvalidInput("{} must be a map of strings", field);
  for (const auto& [key, value] : map.items()) {
    if (!value.is_string()) return Status::InvalidInput("{}['{}'] must be a string", field, key);
  }
  return Status::OK();
}

Status CheckInteger(const Json& input, const char* field, int64_t low, int64_t high) {
  if (!input.contains(field)) return Status::OK();
  const Json& v = input[field];
  if (!v.is_number_integer() || v.get<int64_t>() < low || v.get<int64_t>() > high) {
    return Status::InvalidInput("{} must be a whole number from {} to {}", field, low, high);
  }
  return Status::OK();
}

}  // namespace

Result<Json> JobFromInput(const Json& input, const Json* existing) {
  if (!input.is_object()) return Status::InvalidInput("a job definition is a JSON object");
  const std::string name = input.value("Name", "");
  EPOXY_RETURN_NOT_OK(catalog::ValidateName("job", name));
  if (!input.contains("Role") || !input["Role"].is_string()) return Status::InvalidInput("job {} needs a Role", name);
  if (!input.contains("Command") || !input["Command"].is_object()) {
    return Status::InvalidInput("job {} needs a Command (Name glueetl or pythonshell, ScriptLocation)", name);
  }
  const Json& command = input["Command"];
  const std::string kind = command.value("Name", "glueetl");
  if (kind != "glueetl" && kind != "pythonshell") {
    return Status::InvalidInput("Command.Name of job {} must be glueetl or pythonshell (epoxy runs neither "
                                "gluestreaming nor glueray), got '{}'", name, kind);
  }
  if (!command.contains("ScriptLocation") || !command["ScriptLocation"].is_string() ||
      command["ScriptLocation"].get<std::string>().empty()) {
    return Status::InvalidInput("job {} needs Command.ScriptLocation (the script's path)", name);
  }
  EPOXY_RETURN_NOT_OK(CheckStringMap(input, "DefaultArguments"));
  EPOXY_RETURN_NOT_OK(CheckStringMap(input, "NonOverridableArguments"));
  EPOXY_RETURN_NOT_OK(CheckStringMap(input, "Tags"));
  EPOXY_RETURN_NOT_OK(CheckInteger(input, "MaxRetries", 0, 10));
  EPOXY_RETURN_NOT_OK(CheckInteger(input, "Timeout", 1, 10080));
  EPOXY_RETURN_NOT_OK(CheckInteger(input, "NumberOfWorkers", 1, 100000));
  if (input.contains("ExecutionProperty")) {
    if (!input["ExecutionProperty"].is_object()) return Status::InvalidInput("ExecutionProperty must be an object");
    EPOXY_RETURN_NOT_OK(CheckInteger(input["ExecutionProperty"], "MaxConcurrentRuns", 1, 1000));
  }
  if (input.contains("WorkerType")) {
    static const char* kTypes[] = {"Standard", "G.1X", "G.2X", "G.4X", "G.8X", "G.025X", "Z.2X"};
    std::string type = input.value("WorkerType", "");
    if (std::none_of(std::begin(kTypes), std::end(kTypes), [&](const char* t) { return type == t; })) {
      return Status::InvalidInput("WorkerType must be one of Standard, G.1X, G.2X, G.4X, G.8X, G.025X, Z.2X, got '{}'", type);
    }
  }
  Json job = input;
  if (!job["Command"].contains("PythonVersion")) job["Command"]["PythonVersion"] = "3";
  if (!job.contains("GlueVersion")) job["GlueVersion"] = "5.0";
  if (!job.contains("ExecutionProperty")) job["ExecutionProperty"] = {{"MaxConcurrentRuns", 1}};
  if (!job["ExecutionProperty"].contains("MaxConcurrentRuns")) job["ExecutionProperty"]["MaxConcurrentRuns"] = 1;
  if (!job.contains("MaxRetries")) job["MaxRetries"] = 0;
  if (!job.contains("Timeout")) job["Timeout"] = TimeoutMinutes(job);
  if (!job.contains("DefaultArguments")) job["DefaultArguments"] = Json::object();
  const double now = NowSeconds();
  job["CreatedOn"] = existing ? existing->value("CreatedOn", now) : now;
  job["LastModifiedOn"] = now;
  return job;
}

Json RunArguments(const Json& job, const Json& run_arguments) {
  Json args = job.value("DefaultArguments", Json::object());
  if (run_arguments.is_object()) {
    for (const auto& [k, v] : run_arguments.items()) args[k] = v;
  }
  const Json fixed = job.value("NonOverridableArguments", Json::object());
  for (const auto& [k, v] : fixed.items()) args[k] = v;
  return args;
}

int MaxConcurrentRuns(const Json& job) {
  return job.value("ExecutionProperty", Json::object()).value("MaxConcurrentRuns", 1);
}

int64_t TimeoutMinutes(const Json& job) {
  if (job.contains("Timeout") && job["Timeout"].is_number_integer()) return job["Timeout"].get<int64_t>();
  std::string version = job.value("GlueVersion", "5.0");
  return std::atof(version.c_str()) >= 5.0 ? 480 : 2880;  // Glue's defaults
}

int ThreadsFor(const Json& job) {
  if (!job.contains("NumberOfWorkers")) return 0;
  std::string type = job.value("WorkerType", "G.1X");
  int per_worker = type == "G.2X" || type == "Z.2X" ? 8 : type == "G.4X" ? 16 : type == "G.8X" ? 32
                   : type == "G.025X" ? 2 : 4;
  int64_t wanted = job.value("NumberOfWorkers", int64_t{1}) * per_worker;
  int64_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::min(wanted, cores));
}

}  // namespace epoxy::jobs
