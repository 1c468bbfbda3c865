// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/key_bookmark.h"

#include <algorithm>

namespace epoxy::database {
namespace {

nlohmann::json ValuesToJson(const KeyValues& values) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : values) out.push_back(v ? nlohmann::json(*v) : nlohmann::json());
  return out;
}

}  // namespace

nlohmann::json KeyState::ToJson() const {
  nlohmann::json open = nlohmann::json::array();
  for (const auto& p : pending) open.push_back({{"Low", ValuesToJson(p.low)}, {"High", ValuesToJson(p.high)}, {"Xids", p.xids},
                    {"XidRange", {p.from_xid, p.to_xid}}});
  return {{"Keys", keys}, {"Order", descending ? "desc" : "asc"}, {"Mark", ValuesToJson(mark)}, {"Seen", seen},
          {"Pending", open}};
}

Result<KeyState> KeyState::FromJson(const nlohmann::json& json) {
  KeyState s;
  try {
    s.keys = json.at("Keys").get<std::vector<std::string>>();
    s.descending = json.value("Order", "asc") == "desc";
    for (const auto& v : json.at("Mark")) {
      s.mark.push_back(v.is_null() ? std::nullopt : std::optional<std::string>(v.get<std::string>()));
    }
    s.seen = json.value("Seen", std::vector<uint64_t>{});
    auto values = [](const nlohmann::json& list) {
      KeyValues out;
      for (const auto& v : list) out.push_back(v.is_null() ? std::nullopt : std::optional<std::string>(v.get<std::string>()));
      return out;
    };
    for (const auto& p : json.value("Pending", nlohmann::json::array())) {
      auto range = p.value("XidRange", std::vector<uint64_t>{0, 0});
      if (range.size() != 2) return Status::InvalidData("a database bookmark's stored XidRange is malformed");
      s.pending.push_back({values(p.at("Low")), values(p.at("High")), p.at("Xids").get<std::vector<uint64_t>>(),
                           range[0], range[1]});
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidData("a database bookmark's stored state is malformed: {}", e.what());
  }
  if (!s.mark.empty() && s.mark.size() != s.keys.size()) {
    return Status::InvalidData("a database bookmark's stored mark has {} values for {} keys", s.mark.size(), s.keys.size());
  }
  return s;
}

std::optional<KeyState> KeyBookmark::Next() const {
  std::lock_guard lock(mu_);
  if (!planned_) return from_;
  return planned_->next;
}

nlohmann::json KeyBookmark::Report() const {
  std::lock_guard lock(mu_);
  nlohmann::json r = {{"Kind", "keys"}, {"RowsRead", rows_read_}};
  if (from_) r["From"] = ValuesToJson(from_->mark);
  if (planned_) {
    r["Keys"] = planned_->next.keys;
    r["To"] = ValuesToJson(planned_->next.mark);
    if (!planned_->empty) r["ReadUpTo"] = ValuesToJson(planned_->upper);
    r["RowsRemembered"] = planned_->next.seen.size();
    r["HeldBack"] = planned_->held_back;
    r["OpenTransactions"] = planned_->in_flight;
    size_t waiting = 0;
    for (const auto& p : planned_->next.pending) waiting += p.xids.size() + (p.to_xid - std::min(p.from_xid, p.to_xid));
    r["TransactionsAwaited"] = waiting;
  }
  return r;
}

}  // namespace epoxy::database
