// SPDX-License-Identifier: Apache-2.0
// KeyBookmark: the job bookmark of one database source (one transformation_ctx), Glue's
// jobBookmarkKeys. What it stores is a mark (the last key values read), the identities of the rows
// at the mark already read (rows may share its value), and the transactions that were open when a
// range of keys was read (they may still commit rows in it). A run reads rows at or past the mark
// that it has not seen, and rows those transactions committed since; so rows are neither skipped
// at a tie nor read twice, and a row that commits late below a newer row is read by a later run.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "epoxy/common/result.h"

namespace epoxy::database {

using KeyValues = std::vector<std::optional<std::string>>;

struct KeyState {
  std::vector<std::string> keys;
  bool descending = false;
  KeyValues mark;              // empty: no mark yet (every row is past it)
  std::vector<uint64_t> seen;  // identities of rows at or past the mark already read
  /// Key ranges an earlier run read while transactions were open: rows those transactions
  /// (`xids`, as a row's xmin names them) commit in the range are still to be read.
  struct Pending {
    KeyValues low;  // empty: from the first key
    KeyValues high;
    std::vector<uint64_t> xids;
    /// And the transactions numbered in [from_xid, to_xid): those that had an xid but had not yet
    /// finished when the snapshot's xmax was taken (a snapshot does not list them).
    uint64_t from_xid = 0, to_xid = 0;
    bool open() const { return !xids.empty() || from_xid < to_xid; }
  };
  std::vector<Pending> pending;

  nlohmann::json ToJson() const;
  static Result<KeyState> FromJson(const nlohmann::json& json);
};

class KeyBookmark {
 public:
  using Log = std::function<void(const std::string&)>;
  /// `from`: the state the run starts from (none: the first run reads every row).
  KeyBookmark(std::string ctx, std::optional<KeyState> from, Log log)
      : ctx_(std::move(ctx)), from_(std::move(from)), log_(std::move(log)) {}

  const std::string& ctx() const { return ctx_; }
  const std::optional<KeyState>& from() const { return from_; }
  void LogLine(const std::string& line) const {
    if (log_) log_(line);
  }

  /// What the run's first read of the source decided, in its snapshot: the last key it reads up
  /// to (later reads in the run stop there too) and the state the commit stores.
  struct Planned {
    bool empty = true;  // no row past the stored state
    KeyValues upper;
    KeyState next;
    bool held_back = false;  // open transactions kept the mark where it was (a source without xmin)
    int64_t in_flight = 0;   // transactions open at the snapshot
    std::vector<KeyState::Pending> late;  // ranges whose late rows this run reads
  };
  std::optional<Planned> planned() const {
    std::lock_guard lock(mu_);
    return planned_;
  }
  void SetPlanned(Planned p) {
    std::lock_guard lock(mu_);
    planned_ = std::move(p);
  }
  void AddRowsRead(int64_t n) {
    std::lock_guard lock(mu_);
    rows_read_ += n;
  }
  /// The state to commit (the loaded one when nothing was read).
  std::optional<KeyState> Next() const;
  /// Rows read, marks, rows held, for the run's report.
  nlohmann::json Report() const;

 private:
  const std::string ctx_;
  const std::optional<KeyState> from_;
  Log log_;
  mutable std::mutex mu_;
  std::optional<Planned> planned_;
  int64_t rows_read_ = 0;
};

}  // namespace epoxy::database
