// SPDX-License-Identifier: Apache-2.0
// Filters pushed into the SQL a database source sends: the conjuncts the database evaluates
// exactly as Spark would (comparisons of numbers and dates with constants, string equality, null
// tests), with their constants bound as parameters. The scan applies the whole filter again, so a
// conjunct left out only costs rows on the wire, never changes the answer.
#pragma once

#include <string>
#include <vector>

#include "epoxy/database/client.h"
#include "epoxy/database/type_mapping.h"
#include "epoxy/expr/expression.h"

namespace epoxy::database {

/// A statement's parameters as it is built: Add() binds a value and returns its placeholder.
class SqlParams {
 public:
  explicit SqlParams(const Client& client) : client_(&client) {}
  std::string Add(std::optional<std::string> value) {
    params_.push_back(std::move(value));
    return client_->Placeholder(static_cast<int>(params_.size()));
  }
  const Params& params() const { return params_; }

 private:
  const Client* client_;
  Params params_;
};

/// The SQL of the conjuncts of `filter` (bound over `columns`, the source's columns in order)
/// that can be pushed, joined by AND ("" when none); `all_pushed` says whether every conjunct was.
std::string PushableFilter(const expr::ExprPtr& filter, const std::vector<ColumnMapping>& columns, Engine engine,
                           SqlParams* params, bool* all_pushed);

}  // namespace epoxy::database
