// SPDX-License-Identifier: Apache-2.0
// Fuzzes the GetPartitions expression parser (reachable from any API client) over keys of every
// kind: it must answer SQL or an InvalidInput error, and the SQL must have one parameter per '?'.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "epoxy/catalog/partition_expression.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<epoxy::catalog::PartitionKey> kKeys = {
      {"s", "string"}, {"i", "int"}, {"b", "bigint"}, {"d", "date"}, {"t", "timestamp"}, {"m", "decimal(10,2)"},
      {"f", "double"}, {"v", "varchar(10)"}};
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto result = epoxy::catalog::TranslatePartitionExpression(text, kKeys);
  if (!result.ok()) {
    if (result.status().code() != epoxy::StatusCode::kInvalidInput) std::abort();
    return 0;
  }
  size_t placeholders = 0;
  for (char c : result->sql) placeholders += c == '?';
  if (placeholders != result->params.size()) std::abort();
  for (const auto& kind : {"int", "decimal", "date", "timestamp"}) (void)epoxy::catalog::ParseTypedKeyValue(kind, text);
  return 0;
}
