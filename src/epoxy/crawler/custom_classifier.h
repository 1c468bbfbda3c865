// SPDX-License-Identifier: Apache-2.0
// Custom classifiers (Glue's GrokClassifier, CsvClassifier and JsonClassifier), validated and
// compiled once per crawl. A crawler tries them in its listed order before the built-in ones.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "epoxy/common/result.h"
#include "epoxy/format/grok/grok_pattern.h"

namespace epoxy::crawler {

struct CustomClassifier {
  enum class Kind { kGrok, kCsv, kJson, kXml };
  Kind kind = Kind::kCsv;
  std::string name;
  std::string classification;  // what tables it makes are classified as: grok's own, csv, json, xml

  // CsvClassifier
  std::optional<char> delimiter;  // unset: sniffed as the built-in classifier does
  char quote = '"';
  std::string contains_header = "UNKNOWN";  // UNKNOWN | PRESENT | ABSENT
  std::vector<std::string> header;          // column names to use
  bool allow_single_column = false;
  bool disable_value_trimming = false;
  std::vector<std::string> custom_datatypes;  // allowed inferred types (Glue's names); empty: all
  std::string serde;                          // OpenCSVSerDe | LazySimpleSerDe | None

  // JsonClassifier
  std::string json_path;

  // GrokClassifier
  std::string grok_pattern;
  std::string custom_patterns;
  std::shared_ptr<const grok::GrokPattern> grok;
};

/// Validates a classifier in Glue's Classifier shape ({"CsvClassifier": {...}}, ...) against
/// Glue's limits and compiles it. Errors name the classifier and the setting.
Result<CustomClassifier> CompileClassifier(const nlohmann::json& classifier);

/// Whether `type` (a catalog type name such as "bigint") is allowed by a CsvClassifier's
/// CustomDatatypes (INT, LONG, SHORT, DOUBLE, FLOAT, DECIMAL, BOOLEAN, DATE, TIMESTAMP, STRING, BINARY).
bool CustomDatatypeAllows(const std::vector<std::string>& allowed, const std::string& type);

}  // namespace epoxy::crawler
