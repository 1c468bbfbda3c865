// SPDX-License-Identifier: Apache-2.0
// `epoxy connection ...`.
#include "epoxy/cli/connection_command.h"

#include <cstdlib>
#include <iostream>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"
#include "epoxy/cli/read_session.h"
#include "epoxy/database/client.h"
#include "epoxy/database/connection_properties.h"

namespace epoxy::cli {
namespace {

using catalog::Json;

/// The connection as shown: the password replaced, as Glue's HidePassword does.
Json Hidden(Json connection) {
  Json& props = connection["ConnectionProperties"];
  if (props.is_object() && props.contains("PASSWORD")) props["PASSWORD"] = "********";
  return connection;
}

Result<Json> Definition(const ConnectionArgs& args) {
  if (args.url.empty()) return Status::InvalidInput("epoxy connection {} needs --url (jdbc:postgresql://host:port/db or jdbc:sqlite:/path)", args.action);
  EPOXY_RETURN_NOT_OK(database::ParseJdbcUrl(args.url).status());
  Json props = {{"JDBC_CONNECTION_URL", args.url}};
  if (!args.user.empty()) props["USERNAME"] = args.user;
  if (!args.secret_id.empty()) props["SECRET_ID"] = args.secret_id;
  std::string password;
  if (args.password_stdin) {
    std::getline(std::cin, password);
    if (!password.empty() && password.back() == '\r') password.pop_back();
  } else if (!args.password_env.empty()) {
    const char* value = std::getenv(args.password_env.c_str());
    if (value == nullptr) return Status::InvalidInput("--password-env: {} is not set", args.password_env);
    password = value;
  }
  if (!password.empty()) props["PASSWORD"] = password;
  Json input = {{"Name", args.name}, {"ConnectionType", "JDBC"}, {"ConnectionProperties", props}};
  if (!args.description.empty()) input["Description"] = args.description;
  return input;
}

}  // namespace

Result<int> RunConnectionCommand(const ConnectionArgs& args) {
  EPOXY_ASSIGN_OR_RETURN(auto store, catalog::CatalogStore::Open(args.catalog));
  if (args.action == "list") {
    EPOXY_ASSIGN_OR_RETURN(auto all, store->GetConnections());
    if (args.json) {
      Json list = Json::array();
      for (auto& c : all) list.push_back(Hidden(c));
      EPOXY_RETURN_NOT_OK(WriteStdout(Json{{"ConnectionList", list}}.dump(2) + "\n"));
      return 0;
    }
    for (const auto& c : all) {
      const Json props = c.value("ConnectionProperties", Json::object());
      EPOXY_RETURN_NOT_OK(WriteStdout(fmt::format("{}  {}  {}\n", c.value("Name", ""), c.value("ConnectionType", ""),
                                                  props.value("JDBC_CONNECTION_URL", ""))));
    }
    return 0;
  }
  if (args.name.empty()) return Status::InvalidInput("epoxy connection {} needs a connection NAME", args.action);
  if (args.action == "show") {
    auto c = store->GetConnection(args.name);
    if (!c.ok()) return catalog::WithGlueErrorName(c.status());
    EPOXY_RETURN_NOT_OK(WriteStdout(Json{{"Connection", Hidden(*c)}}.dump(2) + "\n"));
    return 0;
  }
  if (args.action == "delete") {
    EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(store->DeleteConnection(args.name)));
    return 0;
  }
  if (args.action == "test") {
    auto c = store->GetConnection(args.name);
    if (!c.ok()) return catalog::WithGlueErrorName(c.status());
    EPOXY_ASSIGN_OR_RETURN(auto options, database::ConnectionOptions(*c));
    EPOXY_ASSIGN_OR_RETURN(database::Endpoint endpoint, database::ParseJdbcUrl(options["url"]));
    if (!options["user"].empty()) endpoint.user = options["user"];
    if (!options["password"].empty()) endpoint.password = options["password"];
    EPOXY_ASSIGN_OR_RETURN(auto client, database::Connect(endpoint));
    EPOXY_ASSIGN_OR_RETURN(auto version, client->QueryAll(endpoint.engine == database::Engine::kPostgres
                                                               ? "SELECT version()" : "SELECT 'SQLite ' || sqlite_version()"));
    EPOXY_RETURN_NOT_OK(WriteStdout(fmt::format("connection {}: connected to {} ({})\n", args.name, endpoint.Describe(),
                                                version->Value(0, 0))));
    return 0;
  }
  if (args.action != "create" && args.action != "update") {
    return Status::InvalidInput("unknown connection action '{}' (create, update, show, list, delete, test)", args.action);
  }
  EPOXY_ASSIGN_OR_RETURN(Json input, Definition(args));
  EPOXY_RETURN_NOT_OK(catalog::WithGlueErrorName(args.action == "update" ? store->UpdateConnection(args.name, input)
                                                                         : store->CreateConnection(input)));
  EPOXY_RETURN_NOT_OK(WriteStdout(fmt::format("connection {} {}\n", args.name, args.action == "update" ? "updated" : "created")));
  return 0;
}

}  // namespace epoxy::cli
