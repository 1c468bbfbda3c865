// SPDX-License-Identifier: Apache-2.0
// Semi-join reduction of grouped join inputs. A join with an aggregate grouped by its keys on one
// side (what a correlated scalar subquery becomes: TPC-H Q2, Q17, Q20) uses only the groups whose
// keys the other side holds. When the column behind the other side's key comes from a subtree
// much smaller than the aggregate's input (the filtered `part` of Q17 against all of `lineitem`),
// that input is semi-joined with the subtree first. The subtree holds a superset of the keys that
// can match (the joins above it only remove rows), so the answer is the same; it is evaluated
// twice, which costs far less than aggregating the rows it removes. A semi join on one key is
// pushed down the same way, to where its key column is produced.
#include <algorithm>

#include "epoxy/plan/optimizer.h"
#include "epoxy/plan/statistics.h"

namespace epoxy::plan {
namespace {

/// The input's rows must outnumber the reducing subtree's by this factor for the rewrite to pay.
constexpr double kMinReduction = 4;

bool IsColumn(const expr::ExprPtr& e) { return e->kind == expr::ExprKind::kColumn && e->column >= 0 && e->fields.empty(); }

/// A subtree producing the values of a column, and the column's index in it.
struct Origin {
  PlanPtr node;
  int column = -1;
};

/// How many tables `node` reads, through scans, filters, projections and joins (1000 past any
/// other node): what evaluating it a second time costs.
int TablesIn(const PlanNode& node) {
  switch (node.kind) {
    case PlanKind::kScan: return 1;
    case PlanKind::kFilter:
    case PlanKind::kProject: return TablesIn(*node.inputs[0]);
    case PlanKind::kJoin: return TablesIn(*node.inputs[0]) + TablesIn(*node.inputs[1]);
    default: return 1000;
  }
}

/// The smallest (by estimated rows) subtree of at most `max_tables` tables on the path from
/// `node` down to where column `column` is produced, through projections that pass it on,
/// filters and joins; no node when there is none.
Origin SmallestOrigin(const PlanPtr& node, int column, int max_tables) {
  Origin best{nullptr, column};
  double best_rows = 0;
  if (TablesIn(*node) <= max_tables) {
    best = {node, column};
    best_rows = EstimateRows(*node);
  }
  PlanPtr at = node;
  int c = column;
  while (true) {
    PlanPtr next;
    int next_column = c;
    switch (at->kind) {
      case PlanKind::kFilter: next = at->inputs[0]; break;
      case PlanKind::kProject:
        if (IsColumn(at->exprs[static_cast<size_t>(c)])) {
          next = at->inputs[0];
          next_column = at->exprs[static_cast<size_t>(c)]->column;
        }
        break;
      case PlanKind::kJoin: {
        const int left_width = at->inputs[0]->schema->num_fields();
        if (c < left_width) {
          next = at->inputs[0];
        } else if (at->join_type != JoinType::kSemi && at->join_type != JoinType::kAnti) {
          next = at->inputs[1];
          next_column = c - left_width;
        }
        break;
      }
      default: break;
    }
    if (next == nullptr) return best;
    at = next;
    c = next_column;
    if (TablesIn(*at) > max_tables) continue;
    const double rows = EstimateRows(*at);
    if (best.node == nullptr || rows <= best_rows) {
      best = {at, c};
      best_rows = rows;
    }
  }
}

/// The aggregate a join side is (directly or under a projection), and the group key a side's
/// column is; nullptr when the column is not a group key of one.
const PlanNode* GroupKeyOf(const PlanNode& side, int column, int* key) {
  const PlanNode* node = &side;
  if (node->kind == PlanKind::kProject) {
    const expr::ExprPtr& e = node->exprs[static_cast<size_t>(column)];
    if (!IsColumn(e)) return nullptr;
    column = e->column;
    node = node->inputs[0].get();
  }
  if (node->kind != PlanKind::kAggregate || column >= static_cast<int>(node->keys.size())) return nullptr;
  *key = column;
  return node;
}

/// `node` semi-joined with `origin` on `key` (over `node`) = the origin's column.
PlanPtr SemiJoin(const PlanPtr& node, const expr::ExprPtr& key, const Origin& origin) {
  expr::ExprPtr other = ShiftColumns(ColumnRef(*origin.node->schema, origin.column), node->schema->num_fields());
  auto compared = expr::ComparisonType(key->type, other->type);
  if (!compared.ok()) return nullptr;
  auto equal = std::make_shared<expr::Expr>(*expr::Expr::Call("=", {expr::CastTo(key, *compared), expr::CastTo(other, *compared)}));
  equal->type = DataType::Boolean();
  auto joined = Join(node, origin.node, JoinType::kSemi, equal);
  return joined.ok() ? *joined : nullptr;
}

/// `node` with the rows whose column `column` the origin lacks removed as early as possible: the
/// semi join goes down through projections that pass the column on, filters, and the side of a
/// join it comes from (unless that side is null-supplying), to where the column is produced.
PlanPtr SemiJoinAt(const PlanPtr& node, int column, const Origin& origin) {
  auto with_input = [&](size_t i, PlanPtr input) -> PlanPtr {
    if (input == nullptr) return nullptr;
    auto copy = std::make_shared<PlanNode>(*node);
    copy->inputs[i] = std::move(input);
    return copy;
  };
  switch (node->kind) {
    case PlanKind::kFilter: return with_input(0, SemiJoinAt(node->inputs[0], column, origin));
    case PlanKind::kProject: {
      const expr::ExprPtr& e = node->exprs[static_cast<size_t>(column)];
      if (IsColumn(e)) return with_input(0, SemiJoinAt(node->inputs[0], e->column, origin));
      break;
    }
    case PlanKind::kJoin: {
      const int left_width = node->inputs[0]->schema->num_fields();
      const JoinType t = node->join_type;
      if (column < left_width && (t == JoinType::kInner || t == JoinType::kLeft || t == JoinType::kSemi || t == JoinType::kAnti)) {
        return with_input(0, SemiJoinAt(node->inputs[0], column, origin));
      }
      if (column >= left_width && (t == JoinType::kInner || t == JoinType::kRight)) {
        return with_input(1, SemiJoinAt(node->inputs[1], column - left_width, origin));
      }
      break;
    }
    default: break;
  }
  return SemiJoin(node, ColumnRef(*node->schema, column), origin);
}

/// `side` (an aggregate, or a projection of one) whose aggregate reads only rows whose group key
/// `key` the origin holds; nullptr when the join cannot be built.
PlanPtr ReducedSide(const PlanNode& side, const PlanNode& aggregate, int key, const Origin& origin) {
  const PlanPtr& input = aggregate.inputs[0];
  const expr::ExprPtr& group_key = aggregate.keys[static_cast<size_t>(key)];
  PlanPtr reduced_input = IsColumn(group_key) ? SemiJoinAt(input, group_key->column, origin) : SemiJoin(input, group_key, origin);
  if (reduced_input == nullptr) return nullptr;
  auto reduced = std::make_shared<PlanNode>(aggregate);
  reduced->inputs = {reduced_input};
  if (&side == &aggregate) return reduced;
  auto projected = std::make_shared<PlanNode>(side);
  projected->inputs = {reduced};
  return projected;
}

/// Which sides of a join of this type may lose rows that find no match without changing its
/// output: both of an inner join, the null-supplying side of an outer one, the right side of a
/// semi or anti join.
bool Reducible(JoinType type, int side) {
  switch (type) {
    case JoinType::kInner: return true;
    case JoinType::kLeft:
    case JoinType::kSemi:
    case JoinType::kAnti: return side == 1;
    case JoinType::kRight: return side == 0;
    default: return false;
  }
}

/// A semi join on one key over joins (`o_orderkey IN (...)` above lineitem ⋈ orders in TPC-H Q18)
/// is a filter on that key's column: it goes down to where the column is produced, so the joins
/// above see only the rows it keeps. Null when it does not apply.
PlanPtr PushSemiJoinDown(const PlanPtr& node) {
  if (node->join_type != JoinType::kSemi || node->predicate != nullptr || node->left_keys.size() != 1) return nullptr;
  if (!IsColumn(node->left_keys[0]) || !IsColumn(node->right_keys[0])) return nullptr;
  const PlanPtr& left = node->inputs[0];
  if (left->kind != PlanKind::kJoin && left->kind != PlanKind::kProject && left->kind != PlanKind::kFilter) return nullptr;
  PlanPtr pushed = SemiJoinAt(left, node->left_keys[0]->column, Origin{node->inputs[1], node->right_keys[0]->column});
  // Where the column is produced by the left input itself, the semi join stays where it was.
  if (pushed == nullptr || (pushed->kind == PlanKind::kJoin && pushed->join_type == JoinType::kSemi && pushed->inputs[0] == left)) {
    return nullptr;
  }
  return pushed;
}

PlanPtr Reduce(const PlanPtr& plan) {
  std::vector<PlanPtr> inputs;
  bool changed = false;
  for (const auto& in : plan->inputs) {
    inputs.push_back(Reduce(in));
    changed = changed || inputs.back() != in;
  }
  PlanPtr node = plan;
  if (changed) {
    auto copy = std::make_shared<PlanNode>(*plan);
    copy->inputs = inputs;
    node = copy;
  }
  if (node->kind != PlanKind::kJoin || node->null_aware || node->left_keys.empty()) return node;
  if (std::any_of(node->null_safe.begin(), node->null_safe.end(), [](bool b) { return b; })) return node;
  if (PlanPtr pushed = PushSemiJoinDown(node)) return pushed;
  for (int side = 0; side < 2; ++side) {
    if (!Reducible(node->join_type, side)) continue;
    const auto& side_keys = side == 0 ? node->left_keys : node->right_keys;
    const auto& other_keys = side == 0 ? node->right_keys : node->left_keys;
    const PlanNode& grouped = *node->inputs[static_cast<size_t>(side)];
    const PlanPtr& other = node->inputs[static_cast<size_t>(1 - side)];
    for (size_t k = 0; k < side_keys.size(); ++k) {
      int key = -1;
      if (!IsColumn(side_keys[k]) || !IsColumn(other_keys[k])) continue;
      const PlanNode* aggregate = GroupKeyOf(grouped, side_keys[k]->column, &key);
      if (aggregate == nullptr) continue;
      // Worth it only when the subtree is much smaller than the rows aggregated, and filtered
      // (an unfiltered table, a foreign key's target, holds every key the aggregate has); one
      // table is preferred, two (a filtered semi join, as in Q20) are the most evaluated twice.
      Origin origin;
      for (int tables = 1; tables <= 2 && origin.node == nullptr; ++tables) {
        Origin o = SmallestOrigin(other, other_keys[k]->column, tables);
        if (o.node == nullptr) continue;
        const double rows = EstimateRows(*o.node);
        if (rows * kMinReduction > EstimateRows(*aggregate->inputs[0])) continue;
        if (rows >= DistinctBound(*o.node, o.column)) continue;
        origin = o;
      }
      if (origin.node == nullptr) continue;
      PlanPtr reduced = ReducedSide(grouped, *aggregate, key, origin);
      if (reduced == nullptr) continue;
      auto copy = std::make_shared<PlanNode>(*node);
      copy->inputs[static_cast<size_t>(side)] = reduced;
      return copy;
    }
  }
  return node;
}

}  // namespace

PlanPtr ReduceGroupedJoinInputs(const PlanPtr& plan) { return Reduce(plan); }

}  // namespace epoxy::plan
