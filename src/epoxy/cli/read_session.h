// SPDX-License-Identifier: Apache-2.0
// ReadSession: what every reading command shares (expanding inputs, detecting the format, opening
// a reader, reporting malformed records).
#pragma once

#include <nlohmann/json.hpp>

#include <memory>

#include "epoxy/cli/read_command.h"
#include "epoxy/format/record_reader.h"

namespace epoxy::cli {

class ReadSession {
 public:
  Status Open(const ReadArgs& args);
  RecordReader& reader() { return *reader_; }
  /// Prints malformed records to stderr; returns 1 if there were any.
  int ReportErrors();
  int64_t num_files() const { return num_files_; }

 private:
  ErrorSink errors_{1000};
  std::unique_ptr<RecordReader> reader_;
  int64_t num_files_ = 0;
};

/// Writes to standard output.
Status WriteStdout(std::string_view text);

/// A JSON object given on the command line, or read from a file when `text` is @PATH; `what`
/// names the option in errors.
Result<nlohmann::json> ParseJsonArgument(const std::string& text, const char* what);

}  // namespace epoxy::cli
