// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/connection_properties.h"

#include "epoxy/database/option_text_internal.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace epoxy::database {

std::string SecretPath(const std::string& secret_id) {
  if (!secret_id.empty() && secret_id[0] == '/') return secret_id;
  const char* home = std::getenv("EPOXY_HOME");
  std::string base = home && *home ? home : std::string(std::getenv("HOME") ? std::getenv("HOME") : ".") + "/.epoxy";
  return base + "/secrets/" + secret_id + ".json";
}

Result<std::map<std::string, std::string>> ConnectionOptions(const nlohmann::json& connection) {
  const std::string name = connection.value("Name", "");
  const std::string type = connection.value("ConnectionType", "");
  if (type != "JDBC") {
    return Status::NotSupported("connection {} is of type {}; epoxy reads and writes through JDBC connections", name, type);
  }
  const nlohmann::json props = connection.value("ConnectionProperties", nlohmann::json::object());
  std::map<std::string, std::string> out;
  out["url"] = props.value("JDBC_CONNECTION_URL", "");
  if (out["url"].empty()) return Status::InvalidInput("connection {} has no JDBC_CONNECTION_URL", name);
  out["user"] = props.value("USERNAME", "");
  out["password"] = props.value("PASSWORD", "");
  const std::string secret_id = props.value("SECRET_ID", "");
  if (!secret_id.empty()) {
    const std::string path = SecretPath(secret_id);
    std::ifstream in(path);
    if (!in) return Status::NotFound("connection {}: secret {} not found (looked for {})", name, secret_id, path);
    std::stringstream text;
    text << in.rdbuf();
    auto secret = nlohmann::json::parse(text.str(), nullptr, false);
    if (!secret.is_object()) {
      return Status::InvalidData("connection {}: secret {} ({}) is not a JSON object with username and password", name,
                                 secret_id, path);
    }
    if (secret.contains("username") && secret["username"].is_string()) out["user"] = secret["username"];
    if (secret.contains("password") && secret["password"].is_string()) out["password"] = secret["password"];
  }
  return out;
}

Result<std::map<std::string, std::string>> WithConnection(std::map<std::string, std::string> options,
                                                          const ConnectionLookup& lookup) {
  std::string name;
  for (const auto& [k, v] : options) {
    if (Lower(k) == "connectionname") name = v;
  }
  if (name.empty()) return options;
  EPOXY_ASSIGN_OR_RETURN(nlohmann::json connection, lookup(name));
  EPOXY_ASSIGN_OR_RETURN(auto props, ConnectionOptions(connection));
  for (auto& [k, v] : props) {
    bool given = false;
    for (const auto& [ok, ov] : options) given |= Lower(ok) == k && !ov.empty();
    if (!given) options[k] = v;
  }
  return options;
}

}  // namespace epoxy::database
