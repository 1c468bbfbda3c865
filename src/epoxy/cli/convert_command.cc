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
#include "epoxy/format/parquet/page_codec.h"
#include "epoxy/format/parquet/parquet_writer.h"
#include "epoxy/format/record_writer.h"

namespace epoxy::cli {
namespace {

enum class OutputFormat { kParquet, kCsv, kJson };

/// One output file being written in any of the formats.
class OutputFile {
 public:
  static Result<std::unique_ptr<OutputFile>> Open(OutputFormat format, const std::string& path,
                                                  const SchemaPtr& schema, const ConvertArgs& args) {
    auto out = std::unique_ptr<OutputFile>(new OutputFile());
    out->schema_ = schema;
    EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(path));
    EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<FileWriter> sink, fs->OpenForWrite(path));
    if (format == OutputFormat::kParquet) {
      parquet::ParquetWriteOptions options;
      EPOXY_ASSIGN_OR_RETURN(options.codec, parquet::ParseCodecName(args.compression));
      options.row_group_bytes = args.row_group_bytes;
      EPOXY_ASSIGN_OR_RETURN(out->parquet_, parquet::ParquetWriter::Open(std::move(sink), schema, options));
      return out;
    }
    out->sink_ = std::move(sink);
    FileWriter* raw = out->sink_.get();
    out->text_ = RecordWriter::Make(format == OutputFormat::kCsv ? TextFormat::kCsv : TextFormat::kJsonLines,
                                    [raw](std::string_view s) { return raw->Append(s); });
    return out;
  }

  const SchemaPtr& schema() const { return schema_; }

  Status Write(const Batch& batch) {
    rows_ += batch.num_rows();
    if (parquet_) return parquet_->Write(batch);
    return text_->Write(batch);
  }

  Status Close() {
    if (parquet_) return parquet_->Close();
    EPOXY_RETURN_NOT_OK(text_->Finish());
    return sink_->Close();
  }

  int64_t rows() const { return rows_; }

 private:
  SchemaPtr schema_;
  std::unique_ptr<parquet::ParquetWriter> parquet_;
  std::unique_ptr<FileWriter> sink_;
  std::unique_ptr<RecordWriter> text_;
  int64_t rows_ = 0;
};

/// A unique id for this write, in every output file name (several runs can share a folder).
std::string WriteId() {
  std::random_device rd;
  uint64_t r = (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
               static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
               static_cast<uint64_t>(::getpid());
  return fmt::format("{:016x}", r);
}

}  // namespace

Result<int> RunConvert(const ConvertArgs& args) {
  OutputFormat format = OutputFormat::kParquet;
  std::string to = args.to.empty() ? "parquet" : args.to;
  if (to == "parquet") {
    format = OutputFormat::kParquet;
  } else if (to == "csv") {
    format = OutputFormat::kCsv;
  } else if (to == "json" || to == "jsonl") {
    format = OutputFormat::kJson;
  } else {
    return Status::InvalidInput("--to must be parquet, csv or json, got '{}'", args.to);
  }
  EPOXY_RETURN_NOT_OK(parquet::ParseCodecName(args.compression).status());
  if (args.row_group_bytes < 1024) return Status::InvalidInput("--row-group-bytes must be at least 1024");
  if (args.output.empty()) return Status::InvalidInput("no OUTPUT given");
  std::error_code ec;
  bool to_folder = args.output.back() == '/' || std::filesystem::is_directory(args.output, ec);
  if (!to_folder && std::filesystem::exists(args.output, ec)) {
    // Replacing a file is atomic (the new one is renamed over it), so this is allowed.
  }
  const char* extension = format == OutputFormat::kParquet ? "parquet" : format == OutputFormat::kCsv ? "csv" : "json";
  std::string folder = args.output;
  if (to_folder && folder.back() != '/') folder += '/';
  std::string write_id = WriteId();

  ReadSession session;
  EPOXY_RETURN_NOT_OK(session.Open(args.read));
  std::unique_ptr<OutputFile> out;
  int files_written = 0;
  int64_t rows = 0;
  auto open_next = [&](const SchemaPtr& schema) -> Status {
    std::string path = to_folder ? fmt::format("{}part-{:05}-{}.{}", folder, files_written, write_id, extension)
                                 : args.output;
    EPOXY_ASSIGN_OR_RETURN(out, OutputFile::Open(format, path, schema, args));
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
