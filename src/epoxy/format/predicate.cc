// SPDX-License-Identifier: Apache-2.0
// Statistics-based pruning of simple predicates.
#include "epoxy/format/predicate.h"

namespace epoxy {
namespace {

/// -1, 0, 1, or 2 when the two literals cannot be compared.
int CompareLiterals(const Literal& a, const Literal& b) {
  if (a.index() == b.index()) {
    if (a < b) return -1;
    if (b < a) return 1;
    return 0;
  }
  auto numeric = [](const Literal& l, double* out) {
    if (auto* i = std::get_if<int64_t>(&l)) {
      *out = static_cast<double>(*i);
      return true;
    }
    if (auto* d = std::get_if<double>(&l)) {
      *out = *d;
      return true;
    }
    return false;
  };
  double x, y;
  if (numeric(a, &x) && numeric(b, &y)) return x < y ? -1 : (x > y ? 1 : 0);
  return 2;
}

}  // namespace

PredicatePtr Predicate::Compare(std::string column, Op op, Literal literal) {
  auto p = std::make_shared<Predicate>();
  p->kind = Kind::kCompare;
  p->column = std::move(column);
  p->op = op;
  p->literal = std::move(literal);
  return p;
}

PredicatePtr Predicate::IsNull(std::string column, bool negated) {
  auto p = std::make_shared<Predicate>();
  p->kind = negated ? Kind::kIsNotNull : Kind::kIsNull;
  p->column = std::move(column);
  return p;
}

PredicatePtr Predicate::And(std::vector<PredicatePtr> children) {
  auto p = std::make_shared<Predicate>();
  p->kind = Kind::kAnd;
  p->children = std::move(children);
  return p;
}

PredicatePtr Predicate::Or(std::vector<PredicatePtr> children) {
  auto p = std::make_shared<Predicate>();
  p->kind = Kind::kOr;
  p->children = std::move(children);
  return p;
}

bool MayMatch(const Predicate& p,
              const std::function<const ColumnStats*(const std::string& column)>& stats) {
  switch (p.kind) {
    case Predicate::Kind::kAnd:
      for (const auto& c : p.children) {
        if (!MayMatch(*c, stats)) return false;
      }
      return true;
    case Predicate::Kind::kOr:
      for (const auto& c : p.children) {
        if (MayMatch(*c, stats)) return true;
      }
      return p.children.empty();
    case Predicate::Kind::kIsNull: {
      const ColumnStats* s = stats(p.column);
      return s == nullptr || !s->has_null_count || s->null_count > 0;
    }
    case Predicate::Kind::kIsNotNull: {
      const ColumnStats* s = stats(p.column);
      return s == nullptr || !s->has_null_count || s->null_count < s->num_values;
    }
    case Predicate::Kind::kCompare: {
      const ColumnStats* s = stats(p.column);
      if (s == nullptr) return true;
      // A comparison never matches a null: an all-null chunk cannot match.
      if (s->has_null_count && s->num_values > 0 && s->null_count == s->num_values) return false;
      if (!s->has_bounds) return true;
      int lo = CompareLiterals(p.literal, s->min);  // literal vs min
      int hi = CompareLiterals(p.literal, s->max);  // literal vs max
      if (lo == 2 || hi == 2) return true;
      switch (p.op) {
        case Predicate::Op::kEq: return lo >= 0 && hi <= 0;
        case Predicate::Op::kNe: return !(lo == 0 && hi == 0);
        case Predicate::Op::kLt: return lo > 0;    // some value < literal: min < literal
        case Predicate::Op::kLe: return lo >= 0;
        case Predicate::Op::kGt: return hi < 0;    // max > literal
        case Predicate::Op::kGe: return hi <= 0;
      }
      return true;
    }
  }
  return true;
}

}  // namespace epoxy
