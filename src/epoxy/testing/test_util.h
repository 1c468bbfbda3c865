// SPDX-License-Identifier: Apache-2.0
// Shared test helpers: Status assertions, temporary folders, the shared conformance corpus.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "epoxy/common/result.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/vector/array.h"

#define EPOXY_TEST_CONCAT_INNER(a, b) a##b
#define EPOXY_TEST_CONCAT(a, b) EPOXY_TEST_CONCAT_INNER(a, b)

#define ASSERT_OK(expr)                                          \
  do {                                                           \
    ::epoxy::Status _st = (expr);                                \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString();    \
  } while (false)

#define EXPECT_OK(expr)                                          \
  do {                                                           \
    ::epoxy::Status _st = (expr);                                \
    EXPECT_TRUE(_st.ok()) << #expr << ": " << _st.ToString();    \
  } while (false)

#define ASSERT_OK_AND_ASSIGN_IMPL(tmp, lhs, rexpr)                             \
  auto tmp = (rexpr);                                                          \
  ASSERT_TRUE(tmp.ok()) << #rexpr << ": " << tmp.status().ToString();          \
  lhs = std::move(tmp).ValueOrDie();

#define ASSERT_OK_AND_ASSIGN(lhs, rexpr) \
  ASSERT_OK_AND_ASSIGN_IMPL(EPOXY_TEST_CONCAT(_assign_, __LINE__), lhs, rexpr)

namespace epoxy::testing {

/// A fresh folder under the system temp dir, deleted with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  /// Writes `content` to path()/relative (creating folders) and returns the full path.
  std::string Write(const std::string& relative, std::string_view content) const;

 private:
  std::string path_;
};

/// ../shared next to the repository (EPOXY_SHARED_DIR), or "" when absent.
std::string SharedDir();

/// Each row of `batch` as one JSON line (the `epoxy cat --output jsonl` form).
std::vector<std::string> ToJsonLines(const Batch& batch);

/// Everything a read produced.
struct ReadOutcome {
  Status status;
  std::vector<std::string> rows;    // JSON lines, in order
  SchemaPtr schema;                 // merged DynamicFrame schema of all batches
  std::vector<RecordError> errors;  // malformed records
  int64_t num_batches = 0;
};

/// Reads `paths` (files, folders or globs) with a RecordReader.
ReadOutcome ReadPaths(FileFormat format, const std::vector<std::string>& paths,
                      const FormatOptions& options = {}, int64_t block_size = 8 << 20);
/// Writes `content` to a temporary file with `name` and reads it.
ReadOutcome ReadText(FileFormat format, std::string_view content, const FormatOptions& options = {},
                     const std::string& name = "input", int64_t block_size = 8 << 20);

/// The rows of a small JSON Lines text, as one batch (types as the JSON reader infers them).
BatchPtr JsonBatch(std::string_view json_lines);

}  // namespace epoxy::testing

/// Skips the test visibly when ../shared/<relative> is missing (a user's clone has no ../shared).
#define EPOXY_REQUIRE_SHARED(relative, out_path)                                            \
  std::string out_path = ::epoxy::testing::SharedDir();                                     \
  if (out_path.empty() || !std::filesystem::exists(out_path + "/" + (relative))) {          \
    GTEST_SKIP() << "../shared/" << (relative) << " is not present; conformance test skipped"; \
  }                                                                                         \
  out_path += std::string("/") + (relative);
