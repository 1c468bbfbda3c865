// SPDX-License-Identifier: Apache-2.0
// `epoxy classifier ...`.
#include "epoxy/cli/classifier_command.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/cli/read_session.h"
#include "epoxy/crawler/custom_classifier.h"

namespace epoxy::cli {
namespace {

using catalog::Json;

Result<Json> CsvDefinition(const ClassifierArgs& args) {
  Json body = {{"Name", args.name}};
  if (!args.delimiter.empty()) body["Delimiter"] = args.delimiter == "\\t" ? "\t" : args.delimiter;
  if (!args.quote.empty()) body["QuoteSymbol"] = args.quote;
  std::string header = args.header;
  for (auto& ch : header) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  body["ContainsHeader"] = header;
  if (!args.columns.empty()) body["Header"] = args.columns;
  if (!args.datatypes.empty()) {
    body["CustomDatatypeConfigured"] = true;
    body["CustomDatatypes"] = args.datatypes;
  }
  if (args.allow_single_column) body["AllowSingleColumn"] = true;
  if (args.disable_value_trimming) body["DisableValueTrimming"] = true;
  if (!args.serde.empty()) body["Serde"] = args.serde;
  return Json{{"CsvClassifier", body}};
}

Result<Json> GrokDefinition(const ClassifierArgs& args) {
  if (args.classification.empty() || args.pattern.empty()) {
    return Status::InvalidInput("create-grok needs --classification and --pattern");
  }
  Json body = {{"Name", args.name}, {"Classification", args.classification}, {"GrokPattern", args.pattern}};
  std::string custom = args.custom_patterns;
  if (!args.custom_patterns_file.empty()) {
    std::ifstream in(args.custom_patterns_file);
    if (!in) return Status::IOError("cannot read --custom-patterns-file '{}'", args.custom_patterns_file);
    std::stringstream text;
    text << in.rdbuf();
    custom += (custom.empty() ? "" : "\n") + text.str();
  }
  if (!custom.empty()) body["CustomPatterns"] = custom;
  return Json{{"GrokClassifier", body}};
}

/// One line per classifier: name, kind and its defining setting.
std::string Describe(const Json& c) {
  const std::string kind = c.begin().key();
  const Json& b = c.begin().value();
  std::string detail;
  if (kind == "CsvClassifier") {
    detail = fmt::format("delimiter '{}' header {}", b.value("Delimiter", "(sniffed)"), b.value("ContainsHeader", "UNKNOWN"));
  } else if (kind == "JsonClassifier") {
    detail = b.value("JsonPath", "");
  } else if (kind == "GrokClassifier") {
    detail = b.value("Classification", "") + "  " + b.value("GrokPattern", "");
  } else {
    detail = b.value("Classification", "") + "  row tag " + b.value("RowTag", "");
  }
  return fmt::format("{}  {}  {}\n", b.value("Name", ""), kind, detail);
}

}  // namespace

Result<int> RunClassifierCommand(const ClassifierArgs& args) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::CatalogStore::Open(args.catalog));
  if (args.action == "list") {
    EPOXY_ASSIGN_OR_RETURN(auto all, store->GetClassifiers());
    if (args.json) {
      EPOXY_RETURN_NOT_OK(WriteStdout(Json{{"Classifiers", all}}.dump(2) + "\n"));
      return 0;
    }
    for (const auto& c : all) EPOXY_RETURN_NOT_OK(WriteStdout(Describe(c)));
    return 0;
  }
  if (args.name.empty()) return Status::InvalidInput("epoxy classifier {} needs a classifier NAME", args.action);
  if (args.action == "show") {
    auto c = store->GetClassifier(args.name);
    if (!c.ok()) return catalog::WithGlueErrorName(c.status());
    EPOXY_RETURN_NOT_OK(WriteStdout(Json{{"Classifier", *c}}.dump(2) + "\n"));
    return 0;
  }
  if (args.action == "delete") {
    EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(store->DeleteClassifier(args.name)));
    return 0;
  }
  Json definition;
  if (args.action == "create-csv") {
    EPOXY_ASSIGN_OR_RETURN(definition, CsvDefinition(args));
  } else if (args.action == "create-json") {
    if (args.json_path.empty()) return Status::InvalidInput("create-json needs --json-path (for example '$[*]')");
    definition = Json{{"JsonClassifier", {{"Name", args.name}, {"JsonPath", args.json_path}}}};
  } else if (args.action == "create-grok") {
    EPOXY_ASSIGN_OR_RETURN(definition, GrokDefinition(args));
  } else {
    return Status::InvalidInput(
        "unknown classifier action '{}' (create-csv, create-json, create-grok, list, show, delete)", args.action);
  }
  // Validate (compile the pattern, check Glue's limits) before anything is stored.
  EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(crawler::CompileClassifier(definition).status()));
  EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(args.update ? store->UpdateClassifier(definition) : store->CreateClassifier(definition)));
  EPOXY_RETURN_NOT_OK(WriteStdout(fmt::format("classifier {} {}\n", args.name, args.update ? "updated" : "created")));
  return 0;
}

}  // namespace epoxy::cli
