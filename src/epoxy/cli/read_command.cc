// SPDX-License-Identifier: Apache-2.0
// `epoxy schema` and `epoxy cat`.
#include "epoxy/cli/read_command.h"

#include <cstdio>
#include <unistd.h>

#include "epoxy/format/record_reader.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/storage/glob.h"
#include "epoxy/types/type_merge.h"

namespace epoxy::cli {
namespace {

Result<FormatOptions> ParseOptions(const std::vector<std::string>& pairs) {
  FormatOptions out;
  for (const auto& pair : pairs) {
    size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidInput("--option '{}' must look like key=value", pair);
    }
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

Status WriteStdout(std::string_view text) {
  if (text.empty()) return Status::OK();
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
    return Status::IOError("cannot write to standard output");
  }
  return Status::OK();
}

/// Opens a reader over every input and reports errors after the reading ends.
class ReadSession {
 public:
  Status Open(const ReadArgs& args) {
    if (args.paths.empty()) return Status::InvalidInput("no input paths given");
    EPOXY_ASSIGN_OR_RETURN(std::vector<FileInfo> files, ExpandPaths(args.paths));
    if (files.empty()) {
      return Status::NotFound("no files found under {}", fmt::join(args.paths, ", "));
    }
    FileFormat format;
    if (!args.format.empty()) {
      EPOXY_ASSIGN_OR_RETURN(format, ParseFileFormat(args.format));
    } else {
      EPOXY_ASSIGN_OR_RETURN(format, DetectFileFormat(files[0]));
      for (size_t i = 1; i < files.size(); ++i) {
        EPOXY_ASSIGN_OR_RETURN(FileFormat other, DetectFileFormat(files[i]));
        if (other != format) {
          return Status::InvalidInput(
              "'{}' looks like {} but '{}' like {}; pass --format to read them all one way",
              files[0].path, FileFormatName(format), files[i].path, FileFormatName(other));
        }
      }
    }
    ReadOptions options;
    EPOXY_ASSIGN_OR_RETURN(options.format_options, ParseOptions(args.options));
    options.errors = &errors_;
    EPOXY_ASSIGN_OR_RETURN(reader_, MakeRecordReader(format, std::move(files), options));
    return Status::OK();
  }

  RecordReader& reader() { return *reader_; }

  /// Prints malformed records to stderr; returns 1 if there were any.
  int ReportErrors() {
    if (errors_.count() == 0) return 0;
    for (const auto& e : errors_.errors()) {
      std::fprintf(stderr, "epoxy: malformed record: %s\n", e.ToString().c_str());
    }
    auto kept = static_cast<int64_t>(errors_.errors().size());
    if (errors_.count() > kept) {
      std::fprintf(stderr, "epoxy: ... and %lld more\n",
                   static_cast<long long>(errors_.count() - kept));
    }
    std::fprintf(stderr, "epoxy: %lld malformed record(s) skipped\n",
                 static_cast<long long>(errors_.count()));
    return 1;
  }

 private:
  ErrorSink errors_{1000};
  std::unique_ptr<RecordReader> reader_;
};

}  // namespace

Result<int> RunSchema(const SchemaArgs& args) {
  ReadSession session;
  EPOXY_RETURN_NOT_OK(session.Open(args.read));
  SchemaPtr merged;
  while (true) {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, session.reader().Next());
    if (batch == nullptr) break;
    merged = merged == nullptr
                 ? batch->schema()
                 : MergeSchemas(*merged, *batch->schema(), MergeMode::kDynamicFrame);
  }
  if (merged == nullptr) merged = Schema::Make({});
  if (args.catalog) merged = ToCatalogSchema(*merged);
  EPOXY_RETURN_NOT_OK(WriteStdout(merged->ToString()));
  std::fflush(stdout);
  return session.ReportErrors();
}

Result<int> RunCat(const CatArgs& args) {
  TextFormat text_format;
  if (args.output == "jsonl" || args.output == "json") {
    text_format = TextFormat::kJsonLines;
  } else if (args.output == "csv") {
    text_format = TextFormat::kCsv;
  } else if (args.output == "table") {
    text_format = TextFormat::kTable;
  } else {
    return Status::InvalidInput("--output must be jsonl, csv or table, got '{}'", args.output);
  }
  ReadSession session;
  EPOXY_RETURN_NOT_OK(session.Open(args.read));
  auto writer = RecordWriter::Make(text_format, WriteStdout, args.limit);
  int64_t remaining = args.limit < 0 ? INT64_MAX : args.limit;
  while (remaining > 0) {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, session.reader().Next());
    if (batch == nullptr) break;
    if (batch->num_rows() > remaining) batch = batch->Slice(0, remaining);
    remaining -= batch->num_rows();
    EPOXY_RETURN_NOT_OK(writer->Write(*batch));
  }
  EPOXY_RETURN_NOT_OK(writer->Finish());
  std::fflush(stdout);
  return session.ReportErrors();
}

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return 0;
    case StatusCode::kInvalidInput: return 2;
    case StatusCode::kNotFound: return 3;
    case StatusCode::kInvalidData: return 4;
    case StatusCode::kIOError: return 5;
    case StatusCode::kOutOfMemory: return 6;
    case StatusCode::kNotSupported: return 7;
    default: return 10;
  }
}

}  // namespace epoxy::cli
