// SPDX-License-Identifier: Apache-2.0
// `epoxy convert`: files of one format into Parquet, CSV or JSON Lines.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include "epoxy/cli/read_command.h"
#include "epoxy/cli/read_session.h"
#include "epoxy/format/batch_conform.h"
#include "epoxy/exec/dataset_writer.h"
#include "epoxy/format/output_file.h"
#include "epoxy/format/parquet/page_codec.h"

namespace epoxy::cli {

Result<int> RunConvert(const ConvertArgs& args) {
  auto parsed_format = ParseOutputFormat(args.to.empty() ? "parquet" : args.to);
  if (!parsed_format.ok()) return Status::InvalidInput("--to must be parquet, csv or json, got '{}'", args.to);
  const OutputFormat format = *parsed_format;
  EPOXY_RETURN_NOT_OK(parquet::ParseCodecName(args.compression).status());
  if (args.row_group_bytes < 1024) return Status::InvalidInput("--row-group-bytes must be at least 1024");
  if (args.output.empty()) return Status::InvalidInput("no OUTPUT given");
  std::error_code ec;
  bool to_folder = args.output.back() == '/' || std::filesystem::is_directory(args.output, ec);
  if (!to_folder && std::filesystem::exists(args.output, ec)) {
    // Replacing a file is atomic (the new one is renamed over it), so this is allowed.
  }
  const char* extension = OutputExtension(format);
  std::string folder = args.output;
  if (to_folder && folder.back() != '/') folder += '/';
  std::string write_id = exec::NewWriteId();

  ReadSession session;
  EPOXY_RETURN_NOT_OK(session.Open(args.read));
  std::unique_ptr<OutputFile> out;
  int files_written = 0;
  int64_t rows = 0;
  auto open_next = [&](const SchemaPtr& schema) -> Status {
    std::string path = to_folder ? fmt::format("{}part-{:05}-{}.{}", folder, files_written, write_id, extension)
                                 : args.output;
    OutputFileOptions options;
    options.compression = args.compression;
    options.row_group_bytes = args.row_group_bytes;
    EPOXY_ASSIGN_OR_RETURN(out, OutputFile::Open(format, path, schema, options));
    ++files_written;
    return Status::OK();
  };
  while (true) {
    EPOXY_ASSIGN_OR_RETURN(BatchPtr batch, session.reader().Next());
    if (batch == nullptr) break;
    if (out == nullptr) EPOXY_RETURN_NOT_OK(open_next(batch->schema()));
    EPOXY_ASSIGN_OR_RETURN(BatchPtr fitted, ConformBatch(batch, out->schema()));
    if (fitted == nullptr) {
      // The records changed shape (a new column, or a value of another type): a file holds one
      // schema, so the rest goes to a new file.
      if (!to_folder) {
        return Status::InvalidInput(
            "the input's schema changes part-way ({} becomes {}); write to a folder (OUTPUT/) to "
            "get one file per schema",
            out->schema()->ColumnNames(), batch->schema()->ToString());
      }
      EPOXY_RETURN_NOT_OK(out->Close());
      EPOXY_RETURN_NOT_OK(open_next(batch->schema()));
      fitted = batch;
    }
    if (fitted->num_rows() == 0) continue;
    EPOXY_RETURN_NOT_OK(out->Write(*fitted));
    rows += fitted->num_rows();
  }
  if (out == nullptr) {
    // No input records and no schema: nothing to write, which is not an error.
    std::fprintf(stderr, "epoxy: no records in the input; nothing written\n");
    return session.ReportErrors();
  }
  EPOXY_RETURN_NOT_OK(out->Close());
  std::fprintf(stderr, "epoxy: converted %lld records from %lld file(s) into %d %s file(s) at %s\n",
               static_cast<long long>(rows), static_cast<long long>(session.num_files()),
               files_written, extension, args.output.c_str());
  return session.ReportErrors();
}

}  // namespace epoxy::cli
