// SPDX-License-Identifier: Apache-2.0
// Validation and compilation of custom classifiers.
#include "epoxy/crawler/custom_classifier.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/format/json/json_path.h"

namespace epoxy::crawler {
namespace {

using Json = nlohmann::json;

/// A one-character setting, as Glue's Delimiter and QuoteSymbol are.
Result<std::optional<char>> CharSetting(const Json& body, const char* key, const std::string& name) {
  if (!body.contains(key)) return std::optional<char>();
  if (!body[key].is_string() || body[key].get<std::string>().size() != 1) {
    return Status::InvalidInput("classifier {}: {} must be one character", name, key);
  }
  return std::optional<char>(body[key].get<std::string>()[0]);
}

Result<std::string> StringSetting(const Json& body, const char* key, const std::string& name, size_t max_size,
                                  bool required) {
  if (!body.contains(key)) {
    if (required) return Status::InvalidInput("classifier {} needs {}", name, key);
    return std::string();
  }
  if (!body[key].is_string()) return Status::InvalidInput("classifier {}: {} must be a string", name, key);
  std::string value = body[key].get<std::string>();
  if (value.size() > max_size) {
    return Status::InvalidInput("classifier {}: {} is {} characters long; the limit is {}", name, key, value.size(),
                                max_size);
  }
  if (required && value.empty()) return Status::InvalidInput("classifier {}: {} is empty", name, key);
  return value;
}

Result<std::vector<std::string>> StringList(const Json& body, const char* key, const std::string& name) {
  std::vector<std::string> out;
  if (!body.contains(key)) return out;
  if (!body[key].is_array()) return Status::InvalidInput("classifier {}: {} must be a list of strings", name, key);
  for (const auto& v : body[key]) {
    if (!v.is_string()) return Status::InvalidInput("classifier {}: {} must be a list of strings", name, key);
    out.push_back(v.get<std::string>());
  }
  return out;
}

Status CompileCsv(const Json& body, CustomClassifier* c) {
  c->classification = "csv";
  EPOXY_ASSIGN_OR_RETURN(c->delimiter, CharSetting(body, "Delimiter", c->name));
  EPOXY_ASSIGN_OR_RETURN(std::optional<char> quote, CharSetting(body, "QuoteSymbol", c->name));
  if (quote) c->quote = *quote;
  if (c->delimiter && *c->delimiter == c->quote) {
    return Status::InvalidInput("classifier {}: Delimiter and QuoteSymbol must differ", c->name);
  }
  c->contains_header = body.value("ContainsHeader", "UNKNOWN");
  if (c->contains_header != "UNKNOWN" && c->contains_header != "PRESENT" && c->contains_header != "ABSENT") {
    return Status::InvalidInput("classifier {}: ContainsHeader must be UNKNOWN, PRESENT or ABSENT, not '{}'", c->name,
                                c->contains_header);
  }
  EPOXY_ASSIGN_OR_RETURN(c->header, StringList(body, "Header", c->name));
  c->allow_single_column = body.value("AllowSingleColumn", false);
  c->disable_value_trimming = body.value("DisableValueTrimming", false);
  if (body.value("CustomDatatypeConfigured", false)) {
    EPOXY_ASSIGN_OR_RETURN(c->custom_datatypes, StringList(body, "CustomDatatypes", c->name));
    static const char* kKnown[] = {"BINARY", "BOOLEAN", "DATE", "DECIMAL", "DOUBLE", "FLOAT",
                                   "INT",    "LONG",    "SHORT", "STRING", "TIMESTAMP"};
    for (const auto& t : c->custom_datatypes) {
      if (std::none_of(std::begin(kKnown), std::end(kKnown), [&](const char* k) { return t == k; })) {
        return Status::InvalidInput("classifier {}: unknown CustomDatatypes entry '{}' (known: BINARY, BOOLEAN, DATE, "
                                    "DECIMAL, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, TIMESTAMP)", c->name, t);
      }
    }
  }
  c->serde = body.value("Serde", "None");
  if (c->serde != "OpenCSVSerDe" && c->serde != "LazySimpleSerDe" && c->serde != "None") {
    return Status::InvalidInput("classifier {}: Serde must be OpenCSVSerDe, LazySimpleSerDe or None, not '{}'",
                                c->name, c->serde);
  }
  return Status::OK();
}

Status CompileJson(const Json& body, CustomClassifier* c) {
  c->classification = "json";
  EPOXY_ASSIGN_OR_RETURN(c->json_path, StringSetting(body, "JsonPath", c->name, 255, true));
  auto path = JsonPath::Parse(c->json_path);
  if (!path.ok()) return Status::InvalidInput("classifier {}: {}", c->name, path.status().message());
  return Status::OK();
}

Status CompileGrok(const Json& body, CustomClassifier* c) {
  EPOXY_ASSIGN_OR_RETURN(c->classification, StringSetting(body, "Classification", c->name, 255, true));
  EPOXY_ASSIGN_OR_RETURN(c->grok_pattern, StringSetting(body, "GrokPattern", c->name, 2048, true));
  EPOXY_ASSIGN_OR_RETURN(c->custom_patterns, StringSetting(body, "CustomPatterns", c->name, 16000, false));
  auto grok = grok::GrokPattern::Compile(c->grok_pattern, c->custom_patterns);
  if (!grok.ok()) return Status::InvalidInput("classifier {}: {}", c->name, grok.status().message());
  c->grok = std::make_shared<const grok::GrokPattern>(std::move(*grok));
  return Status::OK();
}

}  // namespace

Result<CustomClassifier> CompileClassifier(const Json& classifier) {
  EPOXY_ASSIGN_OR_RETURN(auto kind_and_name, catalog::ClassifierKindAndName(classifier));
  const auto& [kind, name] = kind_and_name;
  const Json& body = classifier.begin().value();
  CustomClassifier c;
  c.name = name;
  if (kind == "CsvClassifier") {
    c.kind = CustomClassifier::Kind::kCsv;
    EPOXY_RETURN_NOT_OK(CompileCsv(body, &c));
  } else if (kind == "JsonClassifier") {
    c.kind = CustomClassifier::Kind::kJson;
    EPOXY_RETURN_NOT_OK(CompileJson(body, &c));
  } else if (kind == "GrokClassifier") {
    c.kind = CustomClassifier::Kind::kGrok;
    EPOXY_RETURN_NOT_OK(CompileGrok(body, &c));
  } else {
    c.kind = CustomClassifier::Kind::kXml;
    EPOXY_ASSIGN_OR_RETURN(c.classification, StringSetting(body, "Classification", c.name, 255, true));
    EPOXY_RETURN_NOT_OK(StringSetting(body, "RowTag", c.name, 255, true).status());
  }
  return c;
}

bool CustomDatatypeAllows(const std::vector<std::string>& allowed, const std::string& type) {
  if (allowed.empty() || type == "string") return true;
  std::string glue;
  if (type == "int" || type == "tinyint") glue = "INT";
  else if (type == "bigint") glue = "LONG";
  else if (type == "smallint") glue = "SHORT";
  else if (type == "double") glue = "DOUBLE";
  else if (type == "float") glue = "FLOAT";
  else if (type == "boolean") glue = "BOOLEAN";
  else if (type == "date") glue = "DATE";
  else if (type == "timestamp") glue = "TIMESTAMP";
  else if (type == "binary") glue = "BINARY";
  else if (type.rfind("decimal", 0) == 0) glue = "DECIMAL";
  else return false;
  return std::find(allowed.begin(), allowed.end(), glue) != allowed.end();
}

}  // namespace epoxy::crawler
