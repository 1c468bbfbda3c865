// SPDX-License-Identifier: Apache-2.0
// One output file in any of the output formats.
#include "epoxy/format/output_file.h"

#include "epoxy/format/parquet/page_codec.h"

namespace epoxy {

Result<OutputFormat> ParseOutputFormat(std::string_view name) {
  if (name == "parquet") return OutputFormat::kParquet;
  if (name == "csv") return OutputFormat::kCsv;
  if (name == "json" || name == "jsonl") return OutputFormat::kJson;
  return Status::InvalidInput("output format must be parquet, csv or json, got '{}'", name);
}

const char* OutputExtension(OutputFormat format) {
  return format == OutputFormat::kParquet ? "parquet" : format == OutputFormat::kCsv ? "csv" : "json";
}

Result<std::unique_ptr<OutputFile>> OutputFile::Open(OutputFormat format, const std::string& path,
                                                     const SchemaPtr& schema, const OutputFileOptions& options) {
  auto out = std::unique_ptr<OutputFile>(new OutputFile());
  out->schema_ = schema;
  out->path_ = path;
  EPOXY_ASSIGN_OR_RETURN(auto fs, FileSystemFor(path));
  EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<FileWriter> sink, fs->OpenForWrite(path));
  if (format == OutputFormat::kParquet) {
    parquet::ParquetWriteOptions parquet_options;
    EPOXY_ASSIGN_OR_RETURN(parquet_options.codec, parquet::ParseCodecName(options.compression));
    parquet_options.row_group_bytes = options.row_group_bytes;
    EPOXY_ASSIGN_OR_RETURN(out->parquet_, parquet::ParquetWriter::Open(std::move(sink), schema, parquet_options));
    return out;
  }
  out->sink_ = std::move(sink);
  FileWriter* raw = out->sink_.get();
  OutputFile* self = out.get();
  out->text_ = RecordWriter::Make(format == OutputFormat::kCsv ? TextFormat::kCsv : TextFormat::kJsonLines,
                                  [raw, self](std::string_view s) {
                                    self->text_bytes_ += static_cast<int64_t>(s.size());
                                    return raw->Append(s);
                                  });
  return out;
}

Status OutputFile::Write(const Batch& batch) {
  rows_ += batch.num_rows();
  if (parquet_) return parquet_->Write(batch);
  return text_->Write(batch);
}

Status OutputFile::Close() {
  if (parquet_) return parquet_->Close();
  EPOXY_RETURN_NOT_OK(text_->Finish());
  return sink_->Close();
}

int64_t OutputFile::bytes() const { return parquet_ ? parquet_->bytes_written() : text_bytes_; }

}  // namespace epoxy
