// SPDX-License-Identifier: Apache-2.0
// Filter pushdown: each filter's conjuncts travel down the plan as far as they keep their meaning.
#include <algorithm>

#include "epoxy/plan/optimizer.h"

namespace epoxy::plan {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

std::vector<int> Referenced(const Expr& e) {
  std::vector<int> used;
  expr::ReferencedColumns(e, &used);
  return used;
}

/// `e` over a projection's output, rewritten over its input (column i becomes exprs[i]).
ExprPtr Inline(const ExprPtr& e, const std::vector<ExprPtr>& exprs) {
  if (e->kind == ExprKind::kColumn && e->column >= 0) {
    const ExprPtr& target = exprs[static_cast<size_t>(e->column)];
    if (e->fields.empty()) return target;
    if (target->kind == ExprKind::kColumn) {  // a.b over a plain column stays a field path
      auto copy = std::make_shared<Expr>(*target);
      copy->fields.insert(copy->fields.end(), e->fields.begin(), e->fields.end());
      copy->type = e->type;
      return copy;
    }
    return nullptr;  // a field of a computed struct: not inlined
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (auto& a : copy->args) {
    a = Inline(a, exprs);
    if (a == nullptr) return nullptr;
  }
  return copy;
}

PlanPtr WithFilter(const PlanPtr& input, const std::vector<ExprPtr>& conjuncts) {
  if (conjuncts.empty()) return input;
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanKind::kFilter;
  node->inputs = {input};
  node->schema = input->schema;
  node->predicate = AndAll(conjuncts);
  return node;
}

PlanPtr Push(const PlanPtr& node, std::vector<ExprPtr> conjuncts);

/// Conjuncts reaching a scan: those over partition keys prune partitions, the rest filter rows.
PlanPtr IntoScan(const PlanPtr& scan, const std::vector<ExprPtr>& conjuncts) {
  if (conjuncts.empty()) return scan;
  auto node = std::make_shared<PlanNode>(*scan);
  const int num_data = node->source.data_schema->num_fields();
  std::vector<ExprPtr> on_keys, on_rows;
  if (node->partition_filter) on_keys.push_back(node->partition_filter);
  if (node->row_filter) on_rows.push_back(node->row_filter);
  for (const auto& c : conjuncts) {
    std::vector<int> used = Referenced(*c);
    bool keys_only = !used.empty() && std::all_of(used.begin(), used.end(), [&](int col) { return col >= num_data; });
    (keys_only ? on_keys : on_rows).push_back(c);
  }
  node->partition_filter = AndAll(on_keys);
  node->row_filter = AndAll(on_rows);
  return node;
}

PlanPtr IntoJoin(const PlanPtr& join, const std::vector<ExprPtr>& conjuncts) {
  const JoinType type = join->join_type;
  const int num_left = join->inputs[0]->schema->num_fields();
  std::vector<ExprPtr> to_left, to_right, stay, into_condition;
  for (const auto& c : conjuncts) {
    std::vector<int> used = Referenced(*c);
    const bool left_only = std::all_of(used.begin(), used.end(), [&](int col) { return col < num_left; });
    const bool right_only = !used.empty() && std::all_of(used.begin(), used.end(), [&](int col) { return col >= num_left; });
    const bool inner = type == JoinType::kInner || type == JoinType::kCross;
    if (left_only && !used.empty() && (inner || type == JoinType::kLeft || type == JoinType::kSemi || type == JoinType::kAnti)) {
      to_left.push_back(c);
    } else if (right_only && (inner || type == JoinType::kRight)) {
      to_right.push_back(ShiftColumns(c, -num_left));
    } else if (inner && !used.empty()) {
      into_condition.push_back(c);  // both sides: a key or the residual of the join
    } else {
      stay.push_back(c);
    }
  }
  PlanPtr left = Push(join->inputs[0], to_left);
  PlanPtr right = Push(join->inputs[1], to_right);
  PlanPtr out;
  if (into_condition.empty()) {
    auto node = std::make_shared<PlanNode>(*join);
    node->inputs = {left, right};
    out = node;
  } else {
    // Rebuild through Join() so new equalities become keys.
    std::vector<ExprPtr> parts = into_condition;
    for (size_t i = 0; i < join->left_keys.size(); ++i) {
      auto eq = std::make_shared<Expr>(*Expr::Call(join->null_safe[i] ? "<=>" : "=",
                                                   {join->left_keys[i], ShiftColumns(join->right_keys[i], num_left)}));
      eq->type = DataType::Boolean();
      parts.push_back(eq);
    }
    if (join->predicate) parts.push_back(join->predicate);
    auto rebuilt = Join(left, right, type, AndAll(parts), join->hint);
    if (!rebuilt.ok()) return WithFilter(join, conjuncts);  // cannot happen for well-typed plans
    auto node = std::make_shared<PlanNode>(**rebuilt);
    node->single_match = join->single_match;
    node->null_aware = join->null_aware;
    // Join() may have filtered its inputs; push those filters further down too.
    for (auto& in : node->inputs) in = PushDownFilters(in);
    out = node;
  }
  return WithFilter(out, stay);
}

PlanPtr IntoAggregate(const PlanPtr& aggregate, const std::vector<ExprPtr>& conjuncts) {
  const int num_keys = static_cast<int>(aggregate->keys.size());
  std::vector<ExprPtr> below, stay;
  for (const auto& c : conjuncts) {
    std::vector<int> used = Referenced(*c);
    const bool keys_only = num_keys > 0 && !used.empty() &&
                           std::all_of(used.begin(), used.end(), [&](int col) { return col < num_keys; });
    ExprPtr inlined = keys_only ? Inline(c, aggregate->keys) : nullptr;
    (inlined ? below : stay).push_back(inlined ? inlined : c);
  }
  auto node = std::make_shared<PlanNode>(*aggregate);
  node->inputs = {Push(aggregate->inputs[0], below)};
  return WithFilter(node, stay);
}

PlanPtr IntoProject(const PlanPtr& project, const std::vector<ExprPtr>& conjuncts) {
  std::vector<ExprPtr> below, stay;
  for (const auto& c : conjuncts) {
    std::vector<int> used = Referenced(*c);
    bool windowed = std::any_of(used.begin(), used.end(), [&](int col) {
      return expr::ContainsWindow(*project->exprs[static_cast<size_t>(col)]);
    });
    ExprPtr inlined = windowed ? nullptr : Inline(c, project->exprs);
    (inlined ? below : stay).push_back(inlined ? inlined : c);
  }
  auto node = std::make_shared<PlanNode>(*project);
  node->inputs = {Push(project->inputs[0], below)};
  return WithFilter(node, stay);
}

/// Pushes `conjuncts` (over `node`'s output) into `node`, and keeps pushing below it.
PlanPtr Push(const PlanPtr& node, std::vector<ExprPtr> conjuncts) {
  switch (node->kind) {
    case PlanKind::kFilter: {
      std::vector<ExprPtr> parts;
      SplitConjuncts(FactorCommonConjuncts(node->predicate), &parts);
      conjuncts.insert(conjuncts.end(), parts.begin(), parts.end());
      return Push(node->inputs[0], std::move(conjuncts));
    }
    case PlanKind::kScan: return IntoScan(node, conjuncts);
    case PlanKind::kProject: return IntoProject(node, conjuncts);
    case PlanKind::kJoin: return IntoJoin(node, conjuncts);
    case PlanKind::kAggregate: return IntoAggregate(node, conjuncts);
    case PlanKind::kSort:
    case PlanKind::kRepartition: {
      auto copy = std::make_shared<PlanNode>(*node);
      copy->inputs = {Push(node->inputs[0], std::move(conjuncts))};
      return copy;
    }
    case PlanKind::kUnion: {
      auto copy = std::make_shared<PlanNode>(*node);
      for (auto& in : copy->inputs) in = Push(in, conjuncts);
      return copy;
    }
    default: {
      // Limits, windows, distinct, set operations: filters stay above; their inputs still get
      // their own filters pushed.
      auto copy = std::make_shared<PlanNode>(*node);
      for (auto& in : copy->inputs) in = Push(in, {});
      return WithFilter(copy, conjuncts);
    }
  }
}

/// The conjuncts of `e`, each once.
std::vector<ExprPtr> Conjuncts(const ExprPtr& e) {
  std::vector<ExprPtr> parts, unique;
  SplitConjuncts(e, &parts);
  for (const auto& p : parts) {
    if (std::none_of(unique.begin(), unique.end(), [&](const ExprPtr& u) { return expr::SameExpr(*u, *p); })) {
      unique.push_back(p);
    }
  }
  return unique;
}

ExprPtr Or(const ExprPtr& a, const ExprPtr& b) {
  auto e = std::make_shared<Expr>(*Expr::Call("or", {a, b}));
  e->type = DataType::Boolean();
  return e;
}

void SplitDisjuncts(const ExprPtr& e, std::vector<ExprPtr>* out) {
  if (e->kind == ExprKind::kCall && e->op == "or") {
    SplitDisjuncts(e->args[0], out);
    SplitDisjuncts(e->args[1], out);
  } else {
    out->push_back(e);
  }
}

}  // namespace

ExprPtr FactorCommonConjuncts(const ExprPtr& e) {
  if (e->kind != ExprKind::kCall) return e;
  if (e->op == "and") {
    auto copy = std::make_shared<Expr>(*e);
    for (auto& a : copy->args) a = FactorCommonConjuncts(a);
    return copy;
  }
  if (e->op != "or") return e;
  std::vector<ExprPtr> disjuncts;
  SplitDisjuncts(e, &disjuncts);
  std::vector<std::vector<ExprPtr>> parts;
  for (const auto& d : disjuncts) parts.push_back(Conjuncts(FactorCommonConjuncts(d)));
  std::vector<ExprPtr> common;
  for (const auto& c : parts[0]) {
    bool everywhere = std::all_of(parts.begin() + 1, parts.end(), [&](const std::vector<ExprPtr>& p) {
      return std::any_of(p.begin(), p.end(), [&](const ExprPtr& x) { return expr::SameExpr(*x, *c); });
    });
    if (everywhere) common.push_back(c);
  }
  if (common.empty()) return e;
  ExprPtr rest;
  bool some_branch_empty = false;
  for (const auto& p : parts) {
    std::vector<ExprPtr> remaining;
    for (const auto& x : p) {
      if (std::none_of(common.begin(), common.end(), [&](const ExprPtr& c) { return expr::SameExpr(*c, *x); })) {
        remaining.push_back(x);
      }
    }
    if (remaining.empty()) {
      some_branch_empty = true;  // (a) OR (a AND b) is a
      break;
    }
    ExprPtr branch = AndAll(remaining);
    rest = rest ? Or(rest, branch) : branch;
  }
  if (!some_branch_empty) common.push_back(rest);
  return AndAll(common);
}

PlanPtr PushDownFilters(const PlanPtr& plan) { return Push(plan, {}); }

PlanPtr Optimize(const PlanPtr& plan) {
  PlanPtr out = PushDownFilters(plan);
  out = ReorderJoins(out);
  out = PushDownFilters(out);
  out = ReduceGroupedJoinInputs(out);
  return PruneColumns(out);
}

}  // namespace epoxy::plan
