// SPDX-License-Identifier: Apache-2.0
// The active session settings, per thread.
#include "epoxy/expr/session_conf.h"

#include <cctype>

namespace epoxy::expr {
namespace {

thread_local const SessionConf* active = nullptr;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

void SessionConf::Set(const std::string& key, const std::string& value) {
  values[key] = value;
  if (Lower(key) == "spark.sql.session.timezone") time_zone = value;
}

std::string SessionConf::Get(const std::string& key, const std::string& fallback) const {
  auto it = values.find(key);
  return it == values.end() ? fallback : it->second;
}

const SessionConf& ActiveSessionConf() {
  static const SessionConf kDefaults;
  return active != nullptr ? *active : kDefaults;
}

ScopedSessionConf::ScopedSessionConf(const SessionConf* conf) : previous_(active) { active = conf; }

ScopedSessionConf::~ScopedSessionConf() { active = previous_; }

}  // namespace epoxy::expr
