// SPDX-License-Identifier: Apache-2.0
// What a crawler learns about one file: its classification (Glue's built-in classifiers), its
// compression, and its schema and record statistics from a bounded sample.
#pragma once

#include <string>
#include <vector>

#include "epoxy/common/thread_pool.h"
#include "epoxy/crawler/custom_classifier.h"
#include "epoxy/format/compression.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/storage/file_system.h"
#include "epoxy/types/schema.h"

namespace epoxy::crawler {

struct FileProfile {
  FileInfo file;
  std::string classification;  // parquet, orc, avro, json, csv, a grok classifier's own, or UNKNOWN
  std::string classifier;      // the custom classifier that classified the file; empty for built-in ones
  FormatOptions read_options;  // how the file was (and is to be) read: separator, quoteChar, jsonPath...
  Compression compression = Compression::kNone;
  SchemaPtr schema;            // catalog types; null when UNKNOWN
  int64_t records = 0;         // exact for Parquet and fully read files, else estimated
  int64_t average_record_size = 0;
  char delimiter = ',';        // csv
  bool header = false;         // csv
  bool quoted = false;         // csv: any quoted field in the sample
  char quote = '"';            // csv
  std::string serde;           // csv: a CsvClassifier's Serde (OpenCSVSerDe, LazySimpleSerDe, None)
  std::string grok_pattern;    // grok: the pattern and custom patterns, for the table's SerDe
  std::string grok_custom_patterns;
  std::string skip_reason;     // why the file was not classified, in detail
  std::string skip_kind;       // the reason's kind, for the crawl summary's counts
};

struct ProfileOptions {
  int64_t sample_rows = 1000;  // records read from each file
  /// Custom classifiers, tried in order before the built-in ones; the first that is certain wins,
  /// else a built-in one, else the custom classifier that matched best.
  const std::vector<CustomClassifier>* classifiers = nullptr;
  /// Runs the reader's parse tasks (the default pool when null). Callers that profile files as
  /// tasks of a pool must pass another one: a reader waiting on its parse tasks helps run its
  /// pool's queue, and would otherwise start further profiles inside this one, nesting without
  /// bound and keeping every nested file's data alive.
  ThreadPool* parse_pool = nullptr;
};

/// Classifies and samples one file (the first `sample_rows` records). Problems with the file
/// (unreadable, corrupt, empty, unknown content) give a profile with classification UNKNOWN and
/// a reason, not an error; only a failure of the crawl itself is an error.
FileProfile ProfileFile(const FileInfo& file, const ProfileOptions& options);

}  // namespace epoxy::crawler
