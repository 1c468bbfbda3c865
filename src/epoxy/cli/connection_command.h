// SPDX-License-Identifier: Apache-2.0
// `epoxy connection ...`: JDBC connections in the catalog (Glue's Connection shape).
#pragma once

#include <string>

#include "epoxy/common/result.h"

namespace epoxy::cli {

struct ConnectionArgs {
  std::string catalog;
  std::string action;  // create | update | show | list | delete | test
  std::string name;
  std::string url, user, secret_id, description;
  bool password_stdin = false;  // the password is read from standard input, never from the command line
  std::string password_env;     // or from this environment variable
  bool json = false;
};

Result<int> RunConnectionCommand(const ConnectionArgs& args);

}  // namespace epoxy::cli
