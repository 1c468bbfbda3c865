// SPDX-License-Identifier: Apache-2.0
// A simple pushed-down predicate (column, comparison, literal; AND/OR) that readers use to skip
// data whose statistics cannot match. The engine's expressions lower to it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace epoxy {

/// A literal: integers and timestamps as int64, floating point, text, or a boolean.
using Literal = std::variant<int64_t, double, std::string, bool>;

struct Predicate;
using PredicatePtr = std::shared_ptr<const Predicate>;

struct Predicate {
  enum class Kind { kAnd, kOr, kCompare, kIsNull, kIsNotNull };
  enum class Op { kEq, kNe, kLt, kLe, kGt, kGe };
  Kind kind = Kind::kCompare;
  std::string column;  // top-level column, for kCompare / kIsNull / kIsNotNull
  Op op = Op::kEq;
  Literal literal;
  std::vector<PredicatePtr> children;  // kAnd / kOr

  static PredicatePtr Compare(std::string column, Op op, Literal literal);
  static PredicatePtr IsNull(std::string column, bool negated = false);
  static PredicatePtr And(std::vector<PredicatePtr> children);
  static PredicatePtr Or(std::vector<PredicatePtr> children);
};

/// What a reader knows about one column in one chunk of data. Bounds are optional.
struct ColumnStats {
  bool has_bounds = false;
  Literal min, max;
  bool has_null_count = false;
  int64_t null_count = 0;
  int64_t num_values = 0;  // rows, nulls included
};

/// Whether rows described by `stats` (looked up by column name; absent means unknown) may satisfy
/// `predicate`. Conservative: false only when no row can match.
bool MayMatch(const Predicate& predicate,
              const std::function<const ColumnStats*(const std::string& column)>& stats);

}  // namespace epoxy
