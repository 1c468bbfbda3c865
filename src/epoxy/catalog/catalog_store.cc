// SPDX-License-Identifier: Apache-2.0
// Opening a catalog, and Glue's error names and naming rules.
#include "epoxy/catalog/catalog_store.h"

#include <cctype>

#include <algorithm>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/sqlite/sqlite_catalog_store.h"

namespace epoxy::catalog {

Result<std::string> CatalogFilePath(const std::string& uri) {
  std::string path = uri;
  if (const char* env = std::getenv("EPOXY_CATALOG"); path.empty() && env != nullptr) path = env;
  if (path.empty()) {
    const char* home = std::getenv("EPOXY_HOME");
    std::string base = home && *home ? home : std::string(std::getenv("HOME") ? std::getenv("HOME") : ".") + "/.epoxy";
    path = base + "/catalog.db";
  } else if (path.rfind("sqlite://", 0) == 0) {
    path = path.substr(9);
  } else if (path.find("://") != std::string::npos) {
    return Status::NotSupported("catalog '{}': only sqlite:///path catalogs are supported by this build", uri);
  }
  if (path.empty()) return Status::InvalidInput("catalog '{}' names no file", uri);
  return path;
}

Result<std::unique_ptr<CatalogStore>> CatalogStore::Open(const std::string& uri) {
  EPOXY_ASSIGN_OR_RETURN(std::string path, CatalogFilePath(uri));
  return OpenSqliteCatalog(path);
}

std::string GlueErrorName(const Status& status) {
  // Messages may name a more precise exception in front ("ConcurrentRunsExceededException: ...").
  const std::string& m = status.message();
  if (const size_t colon = m.find(": "); colon != std::string::npos && colon > 9 && colon < 64 &&
                                          m.compare(colon - 9, 9, "Exception") == 0) {
    bool word = true;
    for (size_t i = 0; i < colon; ++i) word = word && std::isalpha(static_cast<unsigned char>(m[i]));
    if (word) return m.substr(0, colon);
  }
  switch (status.code()) {
    case StatusCode::kNotFound: return "EntityNotFoundException";
    case StatusCode::kAlreadyExists: return "AlreadyExistsException";
    case StatusCode::kInvalidInput: return "InvalidInputException";
    default: return "InternalServiceException";
  }
}

Status ValidateName(std::string_view kind, const std::string& name) {
  if (name.empty() || name.size() > 255) {
    return Status::InvalidInput("{} name '{}' must be 1 to 255 characters long", kind, name);
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7F) {
      return Status::InvalidInput("{} name '{}' must be one line without control characters", kind, name);
    }
  }
  return Status::OK();
}

Result<std::pair<std::string, std::string>> ClassifierKindAndName(const Json& classifier) {
  static const char* kKinds[] = {"GrokClassifier", "XMLClassifier", "JsonClassifier", "CsvClassifier"};
  if (!classifier.is_object() || classifier.size() != 1) {
    return Status::InvalidInput("a classifier is an object with exactly one of GrokClassifier, XMLClassifier, "
                                "JsonClassifier or CsvClassifier");
  }
  const std::string kind = classifier.begin().key();
  if (std::none_of(std::begin(kKinds), std::end(kKinds), [&](const char* k) { return kind == k; })) {
    return Status::InvalidInput("unknown classifier kind '{}' (known: GrokClassifier, XMLClassifier, JsonClassifier, "
                                "CsvClassifier)", kind);
  }
  const Json& body = classifier.begin().value();
  if (!body.is_object() || !body.contains("Name") || !body["Name"].is_string()) {
    return Status::InvalidInput("{} needs a Name", kind);
  }
  std::string name = body["Name"].get<std::string>();
  EPOXY_RETURN_NOT_OK(ValidateName("classifier", name));
  return std::make_pair(kind, name);
}

Status WithGlueErrorName(const Status& status) {
  if (status.ok()) return status;
  const std::string name = GlueErrorName(status);
  const std::string& message = status.message();
  if (message.rfind(name, 0) == 0) return status;  // already named
  return Status(status.code(), fmt::format("{}: {}", name, message));
}

}  // namespace epoxy::catalog
