// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: a statement parsed and planned without a catalog (inline tables, files that
// do not exist, functions), which binds every expression and so folds and evaluates constant
// calls: any crash, hang or unbounded allocation in the parser, the planner, the binder or a
// function kernel over constants shows up here. Seeds: tests/fuzz/sql_fuzzer and, when the shared
// corpus is present, every Spark gold query (tools/run_fuzzers.sh adds them).
#include <cstddef>
#include <cstdint>

#include "epoxy/sql/parser.h"
#include "epoxy/sql/sql_planner.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace epoxy;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto statement = sql::ParseStatement(text);
  if (!statement.ok() || statement->query == nullptr || sql::NeedsCatalog(*statement)) return 0;
  sql::SqlContext context;  // no catalog: catalog tables are errors, files are listed (and missing)
  (void)sql::PlanQuery(*statement->query, context);
  return 0;
}
