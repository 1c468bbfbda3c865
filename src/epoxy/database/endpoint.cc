// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/endpoint.h"

#include <charconv>

#include <fmt/format.h>

namespace epoxy::database {
namespace {

/// %XX escapes of a URL component.
std::string PercentDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int value = 0;
      auto [p, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
      if (ec == std::errc() && p == text.data() + i + 3) {
        out.push_back(static_cast<char>(value));
        i += 2;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

/// `a=1&b=2` into `params`.
void ParseQuery(std::string_view query, std::map<std::string, std::string>* params) {
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    size_t eq = pair.find('=');
    if (!pair.empty()) {
      (*params)[PercentDecode(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : PercentDecode(pair.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
}

}  // namespace

std::string_view EngineName(Engine engine) { return engine == Engine::kPostgres ? "postgresql" : "sqlite"; }

std::string Endpoint::Describe() const {
  if (engine == Engine::kSqlite) return "sqlite:" + path;
  return fmt::format("postgresql://{}:{}/{}", host, port, database);
}

Result<Endpoint> ParseJdbcUrl(const std::string& url) {
  std::string_view rest = url;
  if (rest.substr(0, 5) == "jdbc:") rest.remove_prefix(5);
  Endpoint out;
  if (rest.substr(0, 7) == "sqlite:") {
    out.engine = Engine::kSqlite;
    rest.remove_prefix(7);
    if (rest.substr(0, 2) == "//") rest.remove_prefix(2);  // jdbc:sqlite:///abs/path
    size_t q = rest.find('?');
    if (q != std::string_view::npos) {
      ParseQuery(rest.substr(q + 1), &out.params);
      rest = rest.substr(0, q);
    }
    if (rest.empty()) return Status::InvalidInput("JDBC URL '{}' names no SQLite file (jdbc:sqlite:/path/file.db)", url);
    if (rest == ":memory:") return Status::InvalidInput("JDBC URL '{}': an in-memory SQLite database holds no table to read", url);
    out.path = std::string(rest);
    return out;
  }
  const bool postgres = rest.substr(0, 13) == "postgresql://" || rest.substr(0, 11) == "postgres://";
  if (!postgres) {
    return Status::NotSupported("JDBC URL '{}': epoxy connects to PostgreSQL (jdbc:postgresql://host:port/db) and "
                                "SQLite (jdbc:sqlite:/path/file.db)", url);
  }
  rest.remove_prefix(rest.find("//") + 2);
  size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    ParseQuery(rest.substr(q + 1), &out.params);
    rest = rest.substr(0, q);
  }
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  out.database = slash == std::string_view::npos ? "" : PercentDecode(rest.substr(slash + 1));
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {  // postgresql://user:password@host
    std::string_view credentials = authority.substr(0, at);
    size_t colon = credentials.find(':');
    out.user = PercentDecode(credentials.substr(0, colon));
    if (colon != std::string_view::npos) out.password = PercentDecode(credentials.substr(colon + 1));
    authority.remove_prefix(at + 1);
  }
  std::string_view host = authority;
  if (!host.empty() && host.front() == '[') {  // [::1]:5432
    size_t close = host.find(']');
    if (close == std::string_view::npos) return Status::InvalidInput("JDBC URL '{}': unclosed '[' in the host", url);
    out.host = std::string(host.substr(1, close - 1));
    host.remove_prefix(close + 1);
    if (!host.empty() && host.front() == ':') host.remove_prefix(1); else host = {};
  } else {
    size_t colon = host.rfind(':');
    out.host = std::string(host.substr(0, colon));
    host = colon == std::string_view::npos ? std::string_view() : host.substr(colon + 1);
  }
  if (!host.empty()) {
    int port = 0;
    auto [p, ec] = std::from_chars(host.data(), host.data() + host.size(), port);
    if (ec != std::errc() || p != host.data() + host.size() || port <= 0 || port > 65535) {
      return Status::InvalidInput("JDBC URL '{}': port '{}' is not a number from 1 to 65535", url, host);
    }
    out.port = port;
  }
  if (out.host.empty()) out.host = "localhost";
  if (out.database.empty()) return Status::InvalidInput("JDBC URL '{}' names no database (jdbc:postgresql://host:port/db)", url);
  if (auto it = out.params.find("user"); it != out.params.end()) {
    out.user = it->second;
    out.params.erase(it);
  }
  if (auto it = out.params.find("password"); it != out.params.end()) {
    out.password = it->second;
    out.params.erase(it);
  }
  return out;
}

}  // namespace epoxy::database
