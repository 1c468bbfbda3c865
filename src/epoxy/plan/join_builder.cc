// SPDX-License-Identifier: Apache-2.0
// Join nodes: the condition split into hash keys (equalities across the two sides) and a
// residual, with conjuncts that only one side can decide moved below the join where that keeps
// the join's meaning.
#include "epoxy/plan/logical_plan.h"

namespace epoxy::plan {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

enum class Side { kNone, kLeft, kRight, kBoth };

Side SideOf(const Expr& e, int num_left) {
  std::vector<int> used;
  expr::ReferencedColumns(e, &used);
  if (used.empty()) return Side::kNone;
  bool left = false, right = false;
  for (int c : used) (c < num_left ? left : right) = true;
  return left && right ? Side::kBoth : left ? Side::kLeft : Side::kRight;
}

/// Whether a conjunct deciding only one side may become a filter on that side's input.
bool PushableTo(JoinType type, Side side) {
  switch (type) {
    case JoinType::kInner:
    case JoinType::kCross: return side == Side::kLeft || side == Side::kRight;
    // ON conditions of outer joins filter the side that is not preserved; semi and anti joins
    // filter the right side only.
    case JoinType::kLeft:
    case JoinType::kSemi:
    case JoinType::kAnti: return side == Side::kRight;
    case JoinType::kRight: return side == Side::kLeft;
    case JoinType::kFull: return false;
  }
  return false;
}

}  // namespace

Result<PlanPtr> Join(PlanPtr left, PlanPtr right, JoinType type, ExprPtr condition, JoinHint hint) {
  const int num_left = left->schema->num_fields();
  std::vector<ExprPtr> conjuncts, residual, left_filters, right_filters;
  if (condition) {
    if (condition->type->id() != TypeId::kBoolean && condition->type->id() != TypeId::kNull) {
      return Status::InvalidInput("a join condition must be boolean; '{}' is {}", condition->ToString(),
                                  condition->type->ToString());
    }
    SplitConjuncts(condition, &conjuncts);
  }
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanKind::kJoin;
  node->hint = hint;
  for (const auto& c : conjuncts) {
    const bool equality = c->kind == ExprKind::kCall && (c->op == "=" || c->op == "<=>") && c->args.size() == 2;
    if (equality) {
      Side a = SideOf(*c->args[0], num_left), b = SideOf(*c->args[1], num_left);
      if ((a == Side::kLeft && b == Side::kRight) || (a == Side::kRight && b == Side::kLeft)) {
        // The binder already gave both sides the comparison's common type.
        const ExprPtr& l = a == Side::kLeft ? c->args[0] : c->args[1];
        const ExprPtr& r = a == Side::kLeft ? c->args[1] : c->args[0];
        node->left_keys.push_back(l);
        node->right_keys.push_back(ShiftColumns(r, -num_left));
        node->null_safe.push_back(c->op == "<=>");
        continue;
      }
    }
    Side side = SideOf(*c, num_left);
    if (PushableTo(type, side)) {
      (side == Side::kLeft ? left_filters : right_filters).push_back(side == Side::kLeft ? c : ShiftColumns(c, -num_left));
      continue;
    }
    residual.push_back(c);
  }
  if (!left_filters.empty()) {
    EPOXY_ASSIGN_OR_RETURN(left, FilterBound(left, AndAll(left_filters)));
  }
  if (!right_filters.empty()) {
    EPOXY_ASSIGN_OR_RETURN(right, FilterBound(right, AndAll(right_filters)));
  }
  if (type == JoinType::kCross && !node->left_keys.empty()) type = JoinType::kInner;
  if (type == JoinType::kCross && !residual.empty()) type = JoinType::kInner;
  node->join_type = type;
  node->predicate = AndAll(residual);
  std::vector<Field> fields = left->schema->fields();
  if (type != JoinType::kSemi && type != JoinType::kAnti) {
    for (const auto& f : right->schema->fields()) fields.push_back(f);
  }
  node->schema = Schema::Make(std::move(fields));
  node->inputs = {std::move(left), std::move(right)};
  return PlanPtr(node);
}

}  // namespace epoxy::plan
