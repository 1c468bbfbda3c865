// SPDX-License-Identifier: Apache-2.0
// A catalog connection (Glue's Connection shape) as a source's or sink's options: the JDBC URL,
// the user and the password, the last two from the connection itself or from the secret its
// SECRET_ID names. Secrets are local files standing in for Secrets Manager: an absolute path, or
// $EPOXY_HOME/secrets/<SECRET_ID>.json, holding {"username": ..., "password": ...}.
#pragma once

#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "epoxy/common/result.h"

namespace epoxy::database {

/// url, user and password of `connection` (a Connection document).
Result<std::map<std::string, std::string>> ConnectionOptions(const nlohmann::json& connection);

/// The file a SECRET_ID names.
std::string SecretPath(const std::string& secret_id);

/// `options` with the url, user and password of connection `connectionName` filled in where the
/// options do not give them (`lookup` finds the connection by name).
using ConnectionLookup = std::function<Result<nlohmann::json>(const std::string&)>;
Result<std::map<std::string, std::string>> WithConnection(std::map<std::string, std::string> options,
                                                          const ConnectionLookup& lookup);

}  // namespace epoxy::database
