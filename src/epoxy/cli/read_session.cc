// SPDX-License-Identifier: Apache-2.0
// ReadSession, standard output, and JSON arguments.
#include "epoxy/cli/read_session.h"

#include <fstream>
#include <iterator>

#include <cstdio>

#include "epoxy/storage/glob.h"

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

}  // namespace

Status WriteStdout(std::string_view text) {
  if (text.empty()) return Status::OK();
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
    return Status::IOError("cannot write to standard output");
  }
  return Status::OK();
}

Status ReadSession::Open(const ReadArgs& args) {
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
  num_files_ = static_cast<int64_t>(files.size());
  EPOXY_ASSIGN_OR_RETURN(reader_, MakeRecordReader(format, std::move(files), options));
  return Status::OK();
}

int ReadSession::ReportErrors() {
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

Result<nlohmann::json> ParseJsonArgument(const std::string& text, const char* what) {
  std::string body = text;
  if (!text.empty() && text[0] == '@') {
    std::ifstream in(text.substr(1));
    if (!in) return Status::NotFound("cannot read {} from {}", what, text.substr(1));
    body.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::InvalidInput("{} must be a JSON object, got: {}", what, text);
  return j;
}

}  // namespace epoxy::cli
