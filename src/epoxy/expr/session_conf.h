// SPDX-License-Identifier: Apache-2.0
// The SQL settings of the running session (`SET key=value`, `--conf`): what binding reads where
// Spark reads its SQLConf (the session time zone above all). Bound expressions copy what they
// need (a call keeps its time zone), so evaluation on any thread never reads these.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace epoxy::expr {

struct SessionConf {
  /// spark.sql.session.timeZone: a region ("America/Los_Angeles") or an offset ("+08:00").
  std::string time_zone = "UTC";
  /// Every setting by its key as written (SET shows them back); the typed fields above mirror
  /// the keys they stand for.
  std::map<std::string, std::string> values;

  /// Sets `key` (and the typed field it stands for).
  void Set(const std::string& key, const std::string& value);
  /// The value of `key`, or `fallback`.
  std::string Get(const std::string& key, const std::string& fallback = "") const;
};

/// The settings binding on this thread uses: those of the innermost ScopedSessionConf, else the
/// defaults.
const SessionConf& ActiveSessionConf();

/// Makes `conf` the active settings on this thread while it lives.
class ScopedSessionConf {
 public:
  explicit ScopedSessionConf(const SessionConf* conf);
  ~ScopedSessionConf();
  ScopedSessionConf(const ScopedSessionConf&) = delete;
  ScopedSessionConf& operator=(const ScopedSessionConf&) = delete;

 private:
  const SessionConf* previous_;
};

}  // namespace epoxy::expr
