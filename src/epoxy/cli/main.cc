// SPDX-License-Identifier: Apache-2.0
// The `epoxy` command: parses the command line (CLI11 lives only in this file) and dispatches.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "epoxy/cli/catalog_command.h"
#include "epoxy/cli/classifier_command.h"
#include "epoxy/cli/connection_command.h"
#include "epoxy/cli/crawl_command.h"
#include "epoxy/cli/job_command.h"
#include "epoxy/cli/read_command.h"
#include "epoxy/cli/run_command.h"
#include "epoxy/cli/serve_command.h"
#include "epoxy/cli/trigger_command.h"
#include "epoxy/cli/sql_command.h"
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
  cmd->add_option("--format", read->format, "csv, json or parquet (default: detected per file)");
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
  // `run` hands everything after its script to the script, so it is parsed before CLI11 sees it.
  epoxy::cli::RunArgs run_args;
  auto is_run = epoxy::cli::ParseRunArgs(argc, argv, &run_args);
  if (!is_run.ok()) return Fail(is_run.status());
  if (*is_run) {
    auto code = epoxy::cli::RunScript(run_args);
    if (!code.ok()) return Fail(code.status());
    return *code;
  }

  // The worker of a run that `epoxy serve` started (internal: the server runs it).
  if (argc == 3 && std::string_view(argv[1]) == "run-worker") {
    auto code = epoxy::cli::RunWorker(argv[2]);
    if (!code.ok()) return Fail(code.status());
    return *code;
  }

  if (argc == 2 && std::string_view(argv[1]) == "python-path") {
    auto dir = epoxy::cli::PythonPackagesDir();
    if (!dir.ok()) return Fail(dir.status());
    std::printf("%s\n", dir->c_str());
    return 0;
  }

  CLI::App app{"epoxy: a self-hosted, AWS Glue compatible ETL engine\n"
               "  epoxy run SCRIPT.py [--JOB_NAME NAME] [--KEY VALUE]...   run a Glue job script (see the README)\n"
               "  epoxy job run NAME [--KEY VALUE]...   run a stored job's script\n"
               "  epoxy python-path   the folder to put on PYTHONPATH to run job scripts with python3"};
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

  epoxy::cli::ConvertArgs convert_args;
  std::vector<std::string> convert_paths;
  CLI::App* convert = app.add_subcommand("convert", "convert files to Parquet, CSV or JSON Lines");
  convert->add_option("paths", convert_paths, "INPUT... OUTPUT (OUTPUT is a folder when it ends in / or exists as one)")
      ->required()->expected(2, -1);
  convert->add_option("--format", convert_args.read.format, "input format: csv, json or parquet (default: detected)");
  convert->add_option("--option", convert_args.read.options, "a Glue format option of the input as key=value; repeatable");
  convert->add_option("--to", convert_args.to, "parquet (default), csv or json");
  convert->add_option("--compression", convert_args.compression,
                      "Parquet codec: snappy (default), zstd, gzip, lz4_raw, brotli or none");
  convert->add_option("--row-group-bytes", convert_args.row_group_bytes,
                      "target uncompressed bytes per Parquet row group (default 32 MiB)");
  AddRuntimeOptions(convert, &runtime);

  std::string meta_path;
  bool meta_json = false;
  CLI::App* meta = app.add_subcommand("parquet-meta", "print a Parquet file's metadata");
  meta->add_option("file", meta_path, "a Parquet file")->required();
  meta->add_flag("--json", meta_json, "print JSON instead of text");
  AddRuntimeOptions(meta, &runtime);

  epoxy::cli::CatalogArgs catalog_args;
  CLI::App* catalog = app.add_subcommand("catalog", "the Data Catalog: databases, tables, partitions");
  catalog->add_option("action", catalog_args.action,
                      "databases | create-database NAME | delete-database NAME | tables DB | "
                      "table DB TABLE | partitions DB TABLE | versions DB TABLE | "
                      "create-table DB TABLE | create-partition DB TABLE | delete-table DB TABLE")
      ->required();
  catalog->add_option("names", catalog_args.names, "database and table names");
  catalog->add_option("--catalog", catalog_args.catalog,
                      "sqlite:///path/catalog.db (default: $EPOXY_HOME/catalog.db, EPOXY_HOME=~/.epoxy)");
  catalog->add_flag("--json", catalog_args.json, "print the Glue API response shape");
  catalog->add_option("--expression", catalog_args.expression, "partitions: Glue's GetPartitions expression");
  catalog->add_option("--location", catalog_args.location, "create-table / create-partition: the data's location");
  catalog->add_option("--columns", catalog_args.columns, "create-table: name:type,...");
  catalog->add_option("--partition-keys", catalog_args.partition_keys, "create-table: name:type,...");
  catalog->add_option("--format", catalog_args.format, "create-table: parquet (default), csv or json");
  catalog->add_option("--values", catalog_args.values, "create-partition: v1,v2,...");
  AddRuntimeOptions(catalog, &runtime);

  epoxy::cli::CrawlArgs crawl_args;
  CLI::App* crawl = app.add_subcommand("crawl", "crawl a folder or bucket into catalog tables");
  crawl->add_option("path", crawl_args.path, "a folder, file:// or s3:// prefix (with --connection: db/schema/table, % a wildcard)")->required();
  crawl->add_option("--connection", crawl_args.connection, "a JDBC connection (epoxy connection create): crawl its tables");
  crawl->add_option("--database", crawl_args.database, "the catalog database (created when missing)")->required();
  crawl->add_option("--name", crawl_args.name, "the crawler's name (default: DATABASE_FOLDER)");
  crawl->add_option("--table-prefix", crawl_args.table_prefix, "prefix for the tables' names");
  crawl->add_option("--exclude", crawl_args.excludes, "a glob, relative to PATH, of files to leave out; repeatable");
  crawl->add_option("--sample-size", crawl_args.sample_size, "files read per folder (default: all)");
  crawl->add_option("--recrawl", crawl_args.recrawl, "everything (default) or new-folders");
  crawl->add_option("--update-behavior", crawl_args.update_behavior, "update (default) or log (the default and only choice with --recrawl new-folders)");
  crawl->add_option("--delete-behavior", crawl_args.delete_behavior, "deprecate (default), log or delete (log with --recrawl new-folders)");
  crawl->add_flag("--combine-compatible", crawl_args.combine_compatible, "one table per path (CombineCompatibleSchemas)");
  crawl->add_flag("--inherit-from-table", crawl_args.inherit_from_table, "partitions take the table's schema");
  crawl->add_flag("--merge-new-columns", crawl_args.merge_new_columns,
                  "updates only add new columns, never drop or retype (MergeNewColumns)");
  crawl->add_option("--table-level", crawl_args.table_level, "the folder depth of tables (bucket or root = 1)");
  crawl->add_option("--classifier", crawl_args.classifiers,
                    "a custom classifier (epoxy classifier create-...), tried before the built-in ones; repeatable");
  crawl->add_option("--table-threshold", crawl_args.table_threshold,
                    "fail, writing nothing, when the crawl would make more tables than this");
  crawl->add_option("--catalog", crawl_args.catalog, "sqlite:///path/catalog.db (default: $EPOXY_HOME/catalog.db)");
  AddRuntimeOptions(crawl, &runtime);

  epoxy::cli::CrawlerArgs crawler_args;
  CLI::App* crawler = app.add_subcommand("crawler", "crawler definitions: list, show NAME, run NAME, history NAME");
  crawler->add_option("action", crawler_args.action, "list | show | run | history")->required();
  crawler->add_option("name", crawler_args.name, "the crawler");
  crawler->add_flag("--json", crawler_args.json, "print JSON");
  crawler->add_option("--catalog", crawler_args.catalog, "sqlite:///path/catalog.db (default: $EPOXY_HOME/catalog.db)");
  AddRuntimeOptions(crawler, &runtime);

  epoxy::cli::SqlArgs sql_args;
  CLI::App* sql = app.add_subcommand("sql", "run a SELECT over catalog tables and files");
  CLI::Option* sql_query = sql->add_option("query", sql_args.query,
                  "statements separated by ';': SELECT (joins, GROUP BY, windows, subqueries, set operations, ORDER BY; see the README) over db.table, parquet.`path`, json.`path` or csv.`path`");
  CLI::Option* sql_file = sql->add_option("-f,--file", sql_args.file, "read the statements from this file");
  sql_query->excludes(sql_file);
  sql->add_option("--conf", sql_args.conf, "a session setting key=value, e.g. spark.sql.session.timeZone=UTC; repeatable")
      ->allow_extra_args(false);
  sql->add_option("--output", sql_args.output, "table (default), csv, jsonl or spark (rows as spark-sql prints them)");
  sql->add_option("--max-rows", sql_args.max_rows, "table output: rows shown (default 20)");
  sql->add_flag("--profile", sql_args.profile, "print the run's metrics (files, row groups, rows, time, memory) to stderr");
  sql->add_flag("--json", sql_args.json, "with --profile: the metrics as one JSON object");
  sql->add_flag("--explain", sql_args.explain, "print the plan instead of running it");
  sql->add_option("--write", sql_args.write_path, "write the result to this folder (staged, then committed) instead of printing it");
  sql->add_option("--to", sql_args.to, "--write: parquet (default), csv or json");
  sql->add_option("--partition-by", sql_args.partition_by, "--write: columns that become key=value folders")->delimiter(',');
  sql->add_option("--mode", sql_args.mode, "--write: error (default; fails if the folder has files), append, overwrite or ignore");
  sql->add_option("--target-file-size", sql_args.target_file_size, "--write: start a new file past this size (default 128M; K, M, G suffixes)");
  sql->add_option("--max-records-per-file", sql_args.max_records_per_file, "--write: at most this many rows a file");
  sql->add_option("--compression", sql_args.compression, "--write: Parquet codec (default snappy)");
  sql->add_option("--database", sql_args.database, "the database of unqualified table names (default: default)");
  sql->add_option("--catalog", sql_args.catalog, "sqlite:///path/catalog.db (default: $EPOXY_HOME/catalog.db)");
  AddRuntimeOptions(sql, &runtime);

  epoxy::cli::ClassifierArgs classifier_args;
  CLI::App* classifier = app.add_subcommand(
      "classifier", "custom classifiers: create-csv|create-json|create-grok NAME, list, show NAME, delete NAME");
  classifier->add_option("action", classifier_args.action, "create-csv | create-json | create-grok | list | show | delete")
      ->required();
  classifier->add_option("name", classifier_args.name, "the classifier");
  classifier->add_flag("--update", classifier_args.update, "create-*: replace an existing classifier's settings");
  classifier->add_flag("--json", classifier_args.json, "list: print JSON");
  classifier->add_option("--delimiter", classifier_args.delimiter, "create-csv: one character (\\t for tab); default: sniffed");
  classifier->add_option("--quote", classifier_args.quote, "create-csv: the quote character (default \")");
  classifier->add_option("--header", classifier_args.header, "create-csv: present, absent or unknown (default: detected)");
  classifier->add_option("--columns", classifier_args.columns, "create-csv: column names, in order")->delimiter(',');
  classifier->add_option("--datatypes", classifier_args.datatypes,
                         "create-csv: the types inference may choose (INT,LONG,DOUBLE,...,STRING)")->delimiter(',');
  classifier->add_flag("--allow-single-column", classifier_args.allow_single_column, "create-csv: accept one column");
  classifier->add_flag("--disable-value-trimming", classifier_args.disable_value_trimming, "create-csv: keep spaces");
  classifier->add_option("--serde", classifier_args.serde, "create-csv: OpenCSVSerDe, LazySimpleSerDe or None");
  classifier->add_option("--json-path", classifier_args.json_path, "create-json: the records' JsonPath, e.g. '$[*]'");
  classifier->add_option("--classification", classifier_args.classification, "create-grok: the tables' classification");
  classifier->add_option("--pattern", classifier_args.pattern, "create-grok: the grok pattern");
  classifier->add_option("--custom-patterns", classifier_args.custom_patterns, "create-grok: 'NAME regex' lines");
  classifier->add_option("--custom-patterns-file", classifier_args.custom_patterns_file,
                         "create-grok: a file of 'NAME regex' lines");
  classifier->add_option("--catalog", classifier_args.catalog, "sqlite:///path/catalog.db (default: $EPOXY_HOME/catalog.db)");
  AddRuntimeOptions(classifier, &runtime);

  epoxy::cli::ConnectionArgs connection_args;
  CLI::App* connection = app.add_subcommand(
      "connection", "JDBC connections: create|update NAME --url URL, show NAME, list, delete NAME, test NAME");
  connection->add_option("action", connection_args.action, "create | update | show | list | delete | test")->required();
  connection->add_option("name", connection_args.name, "the connection");
  connection->add_option("--url", connection_args.url, "JDBC_CONNECTION_URL: jdbc:postgresql://host:5432/db or jdbc:sqlite:/path/file.db");
  connection->add_option("--user", connection_args.user, "USERNAME");
  connection->add_flag("--password-stdin", connection_args.password_stdin, "read PASSWORD from standard input (one line)");
  connection->add_option("--password-env", connection_args.password_env, "read PASSWORD from this environment variable");
  connection->add_option("--secret-id", connection_args.secret_id,
                         "SECRET_ID: a JSON file {\"username\", \"password\"} at this absolute path or at $EPOXY_HOME/secrets/ID.json");
  connection->add_option("--description", connection_args.description, "Description");
  connection->add_flag("--json", connection_args.json, "list: print JSON");
  connection->add_option("--catalog", connection_args.catalog, "sqlite:///path/catalog.db (default: $EPOXY_HOME/catalog.db)");
  AddRuntimeOptions(connection, &runtime);

  epoxy::cli::JobArgs job_args;
  CLI::App* job = app.add_subcommand("job", "job definitions: create, update, show, list, delete (run: epoxy job run NAME)");
  job->add_option("action", job_args.action, "create | update | show | list | delete")->required();
  job->add_option("name", job_args.name, "the job");
  job->add_option("--definition", job_args.definition, "a CreateJob JSON document, or @file holding one");
  job->add_option("--script", job_args.script, "the script (Command.ScriptLocation)");
  job->add_option("--role", job_args.role, "Role (kept for Glue compatibility)");
  job->add_option("--command-name", job_args.command_name, "glueetl (default) or pythonshell");
  job->add_option("--default-arguments", job_args.default_arguments, "DefaultArguments as a JSON map");
  job->add_option("--non-overridable-arguments", job_args.non_overridable_arguments, "NonOverridableArguments as a JSON map");
  job->add_option("--max-concurrent-runs", job_args.max_concurrent_runs, "ExecutionProperty.MaxConcurrentRuns (default 1)");
  job->add_option("--max-retries", job_args.max_retries, "MaxRetries: new attempts after a failed run (default 0)");
  job->add_option("--timeout", job_args.timeout, "Timeout in minutes (default 480)");
  job->add_option("--worker-type", job_args.worker_type, "WorkerType (G.1X = 4 threads a worker, ...)");
  job->add_option("--number-of-workers", job_args.number_of_workers, "NumberOfWorkers");
  job->add_option("--glue-version", job_args.glue_version, "GlueVersion (default 5.0)");
  job->add_option("--tags", job_args.tags, "Tags as a JSON map");
  job->add_flag("--json", job_args.json, "print JSON");

  epoxy::cli::RunsArgs runs_args;
  CLI::App* runs = app.add_subcommand("runs", "a job's runs, newest first (GetJobRuns with --json)");
  runs->add_option("job", runs_args.target, "the job")->required();
  runs->add_option("--max", runs_args.max_results, "at most this many runs");
  runs->add_flag("--json", runs_args.json, "print the GetJobRuns response");
  epoxy::cli::RunsArgs run_show_args;
  CLI::App* run_show = app.add_subcommand("run-show", "one run: its JobRun, metrics, sources, sinks and outputs");
  run_show->add_option("run_id", run_show_args.target, "the run's id")->required();
  epoxy::cli::RunsArgs run_stop_args;
  CLI::App* run_stop = app.add_subcommand("run-stop", "stops a run (it ends STOPPED, publishing nothing it did not commit)");
  run_stop->add_option("run_id", run_stop_args.target, "the run's id")->required();

  epoxy::cli::BookmarkArgs bookmark_args;
  CLI::App* bookmark = app.add_subcommand("bookmark", "a job's bookmark: show JOB, reset JOB [--run-id ID] [--retract-outputs]");
  bookmark->add_option("action", bookmark_args.action, "show | reset")->required();
  bookmark->add_option("job", bookmark_args.job, "the job")->required();
  bookmark->add_option("--run-id", bookmark_args.run_id, "reset: rewind to the state after this run");
  bookmark->add_flag("--retract-outputs", bookmark_args.retract_outputs,
                     "reset: also remove the outputs of the runs the bookmark forgets");
  bookmark->add_flag("--json", bookmark_args.json, "show: print the GetJobBookmark response");

  epoxy::cli::TriggerArgs trigger_args;
  CLI::App* trigger = app.add_subcommand("trigger", "triggers: create NAME --definition JSON, show, list, start, stop, delete");
  trigger->add_option("action", trigger_args.action, "create | show | list | start | stop | delete")->required();
  trigger->add_option("name", trigger_args.name, "the trigger");
  trigger->add_option("--definition", trigger_args.definition, "create: a CreateTrigger JSON document, or @file");
  trigger->add_flag("--json", trigger_args.json, "print JSON");
  epoxy::cli::WorkflowArgs workflow_args;
  CLI::App* workflow = app.add_subcommand("workflow", "workflows: create NAME, show NAME (its graph), list, start, stop NAME RUN_ID, delete");
  workflow->add_option("action", workflow_args.action, "create | show | list | start | stop | delete")->required();
  workflow->add_option("name", workflow_args.name, "the workflow");
  workflow->add_option("run_id", workflow_args.run_id, "stop: the run");
  workflow->add_option("--definition", workflow_args.definition,
                       "create: a CreateWorkflow JSON document; start: RunProperties as JSON (or @file)");
  workflow->add_flag("--json", workflow_args.json, "print JSON");
  CLI::App* scheduler = app.add_subcommand("scheduler", "runs the scheduler of triggers and workflows alone (without epoxy serve)");

  epoxy::cli::ServeArgs serve_args;
  CLI::App* serve = app.add_subcommand("serve", "the Glue API server (AWS JSON 1.1, SigV4): aws glue --endpoint-url, boto3");
  serve->add_option("--host", serve_args.host, "address to bind (default 127.0.0.1)");
  serve->add_option("--port", serve_args.port, "port (default 8999; 0 picks a free one)");
  serve->add_option("--account-id", serve_args.account_id, "the CatalogId and the account in ARNs (default 123456789012)");
  serve->add_option("--region", serve_args.region, "the region requests are signed for (default us-east-1; a list a,b accepts each)");
  serve->add_option("--threads", serve_args.threads, "request threads (default 16)");
  serve->add_option("--max-clock-skew", serve_args.max_clock_skew,
                    "seconds a request's signing time may differ from the server's (default 900, as AWS)");
  serve->add_flag("--allow-reset", serve_args.allow_reset, "POST /moto-api/reset empties the catalog (loopback only; for tests)");
  serve->add_flag("--test-clock", serve_args.test_clock,
                  "the scheduler's time moves only by POST /epoxy-test/clock (with --allow-reset; for tests)");
  serve->add_option("--catalog", serve_args.catalog, "sqlite:///path/catalog.db (default: $EPOXY_HOME/catalog.db)");
  epoxy::cli::AccessKeyArgs access_key_args;
  CLI::App* access_key = app.add_subcommand("access-key", "the keys epoxy serve accepts: create, list, delete ID");
  access_key->add_option("action", access_key_args.action, "create | list | delete")->required();
  access_key->add_option("id", access_key_args.id, "delete: the AccessKeyId");
  access_key->add_option("--catalog", access_key_args.catalog, "sqlite:///path/catalog.db (default: $EPOXY_HOME/catalog.db)");

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
  } else if (*convert) {
    convert_args.output = convert_paths.back();
    convert_paths.pop_back();
    convert_args.read.paths = convert_paths;
    result = epoxy::cli::RunConvert(convert_args);
  } else if (*meta) {
    result = epoxy::cli::RunParquetMeta(meta_path, meta_json);
  } else if (*catalog) {
    result = epoxy::cli::RunCatalog(catalog_args);
  } else if (*crawl) {
    result = epoxy::cli::RunCrawl(crawl_args);
  } else if (*crawler) {
    result = epoxy::cli::RunCrawlerCommand(crawler_args);
  } else if (*sql) {
    if (sql_args.query.empty() && sql_args.file.empty()) {
      return Fail(epoxy::Status::InvalidInput("epoxy sql: give the statements or -f FILE"));
    }
    result = epoxy::cli::RunSql(sql_args);
  } else if (*classifier) {
    result = epoxy::cli::RunClassifierCommand(classifier_args);
  } else if (*connection) {
    result = epoxy::cli::RunConnectionCommand(connection_args);
  } else if (*job) {
    result = epoxy::cli::RunJobCommand(job_args);
  } else if (*runs) {
    runs_args.action = "runs";
    result = epoxy::cli::RunRunsCommand(runs_args);
  } else if (*run_show) {
    run_show_args.action = "show";
    result = epoxy::cli::RunRunsCommand(run_show_args);
  } else if (*run_stop) {
    run_stop_args.action = "stop";
    result = epoxy::cli::RunRunsCommand(run_stop_args);
  } else if (*bookmark) {
    result = epoxy::cli::RunBookmarkCommand(bookmark_args);
  } else if (*trigger) {
    result = epoxy::cli::RunTriggerCommand(trigger_args);
  } else if (*workflow) {
    result = epoxy::cli::RunWorkflowCommand(workflow_args);
  } else if (*scheduler) {
    result = epoxy::cli::RunScheduler();
  } else if (*serve) {
    result = epoxy::cli::RunServe(serve_args);
  } else if (*access_key) {
    result = epoxy::cli::RunAccessKeyCommand(access_key_args);
  }
  if (!result.ok()) return Fail(result.status());
  return *result;
}
