// SPDX-License-Identifier: Apache-2.0
// The `epoxy` command: parses the command line (CLI11 lives only in this file) and dispatches.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "epoxy/cli/read_command.h"
#include "epoxy/common/thread_pool.h"
#include "epoxy/memory/memory_pool.h"

namespace {

/// Options every subcommand accepts, so they work before or after the subcommand name.
struct RuntimeOptions {
  int threads = 0;
  std::string memory_limit;
};

void AddRuntimeOptions(CLI::App* app, RuntimeOptions* runtime) {
  app->add_option("--threads", runtime->threads,
                  "worker threads (default: EPOXY_THREADS, else every core)")
      ->check(CLI::PositiveNumber);
  app->add_option("--memory-limit", runtime->memory_limit,
                  "memory budget for data, e.g. 4G (default: EPOXY_MEMORY_LIMIT, else 80% of RAM)");
}

void AddReadOptions(CLI::App* cmd, epoxy::cli::ReadArgs* read) {
  cmd->add_option("paths", read->paths, "files, folders (read recursively) or globs")->required();
  cmd->add_option("--format", read->format, "csv or json (default: detected per file)");
  cmd->add_option("--option", read->options,
                  "a Glue format option as key=value (separator, quoteChar, escaper, withHeader, "
                  "skipFirst, multiLine, jsonPath); repeatable");
}

int Fail(const epoxy::Status& status) {
  std::fprintf(stderr, "epoxy: error: %s\n", status.message().c_str());
  return epoxy::cli::ExitCodeFor(status);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"epoxy: a self-hosted, AWS Glue compatible ETL engine"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("epoxy ") + EPOXY_VERSION);
  RuntimeOptions runtime;
  AddRuntimeOptions(&app, &runtime);

  epoxy::cli::SchemaArgs schema_args;
  CLI::App* schema = app.add_subcommand("schema", "print the inferred schema of files");
  AddReadOptions(schema, &schema_args.read);
  schema->add_flag("--catalog", schema_args.catalog,
                   "print catalog types (choices widened to one type) instead of DynamicFrame types");
  AddRuntimeOptions(schema, &runtime);

  epoxy::cli::CatArgs cat_args;
  CLI::App* cat = app.add_subcommand("cat", "print the records of files");
  AddReadOptions(cat, &cat_args.read);
  cat->add_option("--output", cat_args.output, "jsonl (default), csv or table");
  cat->add_option("--limit", cat_args.limit, "print at most N records")->check(CLI::NonNegativeNumber);
  AddRuntimeOptions(cat, &runtime);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  if (runtime.threads > 0) epoxy::SetDefaultThreadCount(runtime.threads);
  if (!runtime.memory_limit.empty()) {
    auto bytes = epoxy::ParseByteSize(runtime.memory_limit);
    if (!bytes.ok()) return Fail(bytes.status());
    epoxy::SetProcessMemoryLimit(*bytes);
  }

  epoxy::Result<int> result = epoxy::Status::Internal("no command ran");
  if (*schema) {
    result = epoxy::cli::RunSchema(schema_args);
  } else if (*cat) {
    result = epoxy::cli::RunCat(cat_args);
  }
  if (!result.ok()) return Fail(result.status());
  return *result;
}
