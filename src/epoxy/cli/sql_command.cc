// SPDX-License-Identifier: Apache-2.0
// `epoxy sql`.
#include "epoxy/cli/sql_command.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "epoxy/cli/read_session.h"
#include "epoxy/cli/sql_script.h"
#include "epoxy/cli/sql_session.h"
#include "epoxy/exec/dataset_writer.h"
#include "epoxy/exec/physical_plan.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/format/spark_row_writer.h"

namespace epoxy::cli {
namespace {

/// Runs the statement into a dataset at --write: staged, then committed (or aborted on failure).
Result<exec::RunMetrics> WriteResult(const SqlArgs& args, SqlSession* session,
                                     const PlannedStatement& statement) {
  exec::DatasetWriteOptions write;
  write.path = args.write_path;
  EPOXY_ASSIGN_OR_RETURN(write.format, ParseOutputFormat(args.to));
  write.file.compression = args.compression;
  write.partition_keys = args.partition_by;
  EPOXY_ASSIGN_OR_RETURN(write.mode, exec::ParseSaveMode(args.mode));
  EPOXY_ASSIGN_OR_RETURN(write.target_file_bytes, ParseByteSize(args.target_file_size));
  write.max_records_per_file = args.max_records_per_file;
  EPOXY_ASSIGN_OR_RETURN(auto written, session->ExecuteIntoDataset(statement, write));
  const exec::WriteResult* result = &written.first;
  if (result->skipped) {
    std::fprintf(stderr, "epoxy: %s exists; nothing written (--mode ignore)\n", args.write_path.c_str());
  } else {
    std::fprintf(stderr, "epoxy: wrote %lld rows into %zu file(s) at %s\n", static_cast<long long>(result->rows),
                 result->files.size(), args.write_path.c_str());
  }
  return written.second;
}

Result<std::string> ReadScript(const SqlArgs& args) {
  if (args.file.empty()) return args.query;
  if (!args.query.empty()) return Status::InvalidInput("give statements or -f FILE, not both");
  std::ifstream in(args.file, std::ios::binary);
  if (!in) return Status::NotFound("cannot read the SQL file {}", args.file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<SqlSessionOptions> SessionOptions(const SqlArgs& args) {
  SqlSessionOptions options;
  options.catalog = args.catalog;
  options.database = args.database;
  for (const std::string& setting : args.conf) {
    size_t eq = setting.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidInput("--conf takes key=value, got '{}'", setting);
    }
    options.conf.Set(setting.substr(0, eq), setting.substr(eq + 1));
  }
  return options;
}

Result<std::unique_ptr<RecordWriter>> MakeWriter(const SqlArgs& args, const SqlSession& session) {
  if (args.output == "spark") return MakeSparkRowWriter(WriteStdout, session.spark_text_options());
  TextFormat format;
  if (args.output == "jsonl" || args.output == "json") format = TextFormat::kJsonLines;
  else if (args.output == "csv") format = TextFormat::kCsv;
  else if (args.output == "table") format = TextFormat::kTable;
  else return Status::InvalidInput("--output must be table, csv, jsonl or spark, got '{}'", args.output);
  return RecordWriter::Make(format, WriteStdout, args.max_rows);
}

/// Plans and runs one statement, printing its rows (or its plan, or writing it at --write).
Status RunStatement(const SqlArgs& args, SqlSession* session, const std::string& text) {
  EPOXY_ASSIGN_OR_RETURN(PlannedStatement statement, session->Plan(text));
  if (args.explain || statement.explain) {
    plan::PlanPtr optimized = exec::Optimize(statement.plan);
    return WriteStdout("== Physical plan ==\n" + exec::ExplainPhysical(optimized) +
                       "\n== Optimized logical plan ==\n" + optimized->Explain());
  }
  exec::RunMetrics metrics;
  if (!args.write_path.empty()) {
    EPOXY_ASSIGN_OR_RETURN(metrics, WriteResult(args, session, statement));
  } else {
    EPOXY_ASSIGN_OR_RETURN(auto writer, MakeWriter(args, *session));
    EPOXY_ASSIGN_OR_RETURN(metrics, session->Execute(statement, [&](const BatchPtr& batch) {
                             return writer->Write(*batch);
                           }));
    EPOXY_RETURN_NOT_OK(writer->Finish());
    std::fflush(stdout);
  }
  if (args.profile) {
    std::string profile = args.json ? metrics.ToJson() + "\n" : metrics.ToText();
    std::fputs(profile.c_str(), stderr);
  }
  return Status::OK();
}

}  // namespace

Result<int> RunSql(const SqlArgs& args) {
  EPOXY_ASSIGN_OR_RETURN(std::string script, ReadScript(args));
  std::vector<ScriptStatement> statements = SplitSqlScript(script);
  if (statements.empty()) return Status::InvalidInput("no SQL statement given");
  if (!args.write_path.empty() && statements.size() > 1) {
    return Status::InvalidInput("--write takes one statement, got {}", statements.size());
  }
  EPOXY_ASSIGN_OR_RETURN(SqlSessionOptions options, SessionOptions(args));
  SqlSession session(std::move(options));
  for (size_t i = 0; i < statements.size(); ++i) {
    Status status = RunStatement(args, &session, statements[i].text);
    if (!status.ok() && statements.size() > 1) {
      return status.WithContext(
          fmt::format("statement {} (line {})", i + 1, statements[i].line));
    }
    EPOXY_RETURN_NOT_OK(status);
  }
  return 0;
}

}  // namespace epoxy::cli
