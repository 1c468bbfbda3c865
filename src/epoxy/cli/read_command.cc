// SPDX-License-Identifier: Apache-2.0
// `epoxy schema` and `epoxy cat`.
#include "epoxy/cli/read_command.h"

#include <cstdio>

#include "epoxy/cli/read_session.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/types/type_merge.h"

namespace epoxy::cli {

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
