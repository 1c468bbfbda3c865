// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/key_bookmark.h"

namespace epoxy::database {
namespace {

nlohmann::json ValuesToJson(const KeyValues& values) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : values) out.push_back(v ? nlohmann::json(*v) : nlohmann::json());
  return out;
}

}  // namespace

nlohmann::json KeyState::ToJson() const {
  return {{"Keys", keys}, {"Order", descending ? "desc" : "asc"}, {"Mark", ValuesToJson(mark)}, {"Seen", seen}};
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
  if (!planned_ || planned_->empty) return from_;
  return planned_->next;
}

nlohmann::json KeyBookmark::Report() const {
  std::lock_guard lock(mu_);
  nlohmann::json r = {{"Kind", "keys"}, {"RowsRead", rows_read_}};
  if (from_) r["From"] = ValuesToJson(from_->mark);
  if (planned_ && !planned_->empty) {
    r["Keys"] = planned_->next.keys;
    r["To"] = ValuesToJson(planned_->next.mark);
    r["ReadUpTo"] = ValuesToJson(planned_->upper);
    r["RowsRemembered"] = planned_->next.seen.size();
    r["HeldBack"] = planned_->held_back;
  }
  return r;
}

}  // namespace epoxy::database
