// SPDX-License-Identifier: Apache-2.0
// S3Config resolution.
#include "epoxy/storage/s3/s3_config.h"

#include <cstdlib>
#include <fstream>
#include <algorithm>
#include <map>

namespace epoxy {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string Trim(std::string s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// Sections of an INI file (~/.aws/credentials, ~/.aws/config): section -> key -> value.
std::map<std::string, std::map<std::string, std::string>> ReadIni(const std::string& path) {
  std::map<std::string, std::map<std::string, std::string>> out;
  std::ifstream in(path);
  std::string line, section;
  while (std::getline(in, line)) {
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = Trim(line.substr(1, line.size() - 2));
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    out[section][Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  return out;
}

long EnvLong(const char* name, long fallback) {
  std::string v = Env(name);
  if (v.empty()) return fallback;
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  return (end && *end == '\0' && n > 0) ? n : fallback;
}

}  // namespace

Result<S3Config> S3Config::FromEnvironment() {
  S3Config c;
  std::string home = Env("HOME");
  std::string profile = Env("AWS_PROFILE");
  if (profile.empty()) profile = "default";
  std::string credentials_file = Env("AWS_SHARED_CREDENTIALS_FILE");
  if (credentials_file.empty()) credentials_file = home + "/.aws/credentials";
  std::string config_file = Env("AWS_CONFIG_FILE");
  if (config_file.empty()) config_file = home + "/.aws/config";
  auto credentials = ReadIni(credentials_file);
  auto config = ReadIni(config_file);
  const auto& config_section = config[profile == "default" ? "default" : "profile " + profile];

  c.access_key = Env("AWS_ACCESS_KEY_ID");
  c.secret_key = Env("AWS_SECRET_ACCESS_KEY");
  c.session_token = Env("AWS_SESSION_TOKEN");
  if (c.access_key.empty()) {
    using Section = std::map<std::string, std::string>;
    for (const Section* section : {static_cast<const Section*>(&credentials[profile]), &config_section}) {
      auto find = [&](const char* key) {
        auto it = section->find(key);
        return it == section->end() ? std::string() : it->second;
      };
      if (c.access_key.empty()) {
        c.access_key = find("aws_access_key_id");
        c.secret_key = find("aws_secret_access_key");
        c.session_token = find("aws_session_token");
      }
    }
  }
  std::string region = Env("AWS_REGION");
  if (region.empty()) region = Env("AWS_DEFAULT_REGION");
  if (region.empty()) {
    auto it = config_section.find("region");
    if (it != config_section.end()) region = it->second;
  }
  if (!region.empty()) c.region = region;

  std::string endpoint = Env("EPOXY_S3_ENDPOINT");
  if (endpoint.empty()) endpoint = Env("AWS_ENDPOINT_URL_S3");
  if (endpoint.empty()) endpoint = Env("AWS_ENDPOINT_URL");
  if (endpoint.empty()) {
    auto it = config_section.find("endpoint_url");
    if (it != config_section.end()) endpoint = it->second;
  }
  if (endpoint.empty()) {
    c.endpoint = "https://s3." + c.region + ".amazonaws.com";
    c.path_style = false;
  } else {
    if (!(endpoint.rfind("http://", 0) == 0 || endpoint.rfind("https://", 0) == 0) ||
        endpoint.size() < 10) {
      return Status::InvalidInput(
          "S3 endpoint '{}' is not a URL (expected http://host:port or https://host)", endpoint);
    }
    while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
    c.endpoint = endpoint;
    c.path_style = true;
  }
  c.connect_timeout_ms = EnvLong("EPOXY_S3_CONNECT_TIMEOUT_MS", c.connect_timeout_ms);
  c.read_timeout_ms = EnvLong("EPOXY_S3_READ_TIMEOUT_MS", c.read_timeout_ms);
  c.max_attempts = static_cast<int>(EnvLong("EPOXY_S3_MAX_ATTEMPTS", c.max_attempts));
  // S3 refuses parts under 5 MiB (all but the last).
  c.part_size = std::max<int64_t>(5 << 20, EnvLong("EPOXY_S3_PART_SIZE", static_cast<long>(c.part_size)));
  return c;
}

Status ParseS3Uri(std::string_view uri, std::string* bucket, std::string* key) {
  size_t scheme = uri.find("://");
  if (scheme == std::string_view::npos) return Status::InvalidInput("'{}' is not an s3:// URI", uri);
  std::string_view rest = uri.substr(scheme + 3);
  size_t slash = rest.find('/');
  *bucket = std::string(rest.substr(0, slash));
  *key = slash == std::string_view::npos ? "" : std::string(rest.substr(slash + 1));
  if (bucket->empty()) return Status::InvalidInput("'{}' names no bucket", uri);
  return Status::OK();
}

}  // namespace epoxy
