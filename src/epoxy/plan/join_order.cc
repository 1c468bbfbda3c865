// SPDX-License-Identifier: Apache-2.0
// Join reordering: a tree of inner and cross joins is flattened into relations and conditions
// over their concatenated columns, then rebuilt greedily, the pair with the smallest estimated
// result first (Greedy Operator Ordering), and projected back to the original column order.
#include <algorithm>
#include <limits>

#include "epoxy/plan/optimizer.h"
#include "epoxy/plan/statistics.h"

namespace epoxy::plan {
namespace {

using expr::Expr;
using expr::ExprPtr;

bool Reorderable(const PlanNode& node) {
  return node.kind == PlanKind::kJoin && (node.join_type == JoinType::kInner || node.join_type == JoinType::kCross) &&
         node.hint == JoinHint::kNone && !node.single_match;
}

struct JoinGraph {
  std::vector<PlanPtr> relations;
  std::vector<int> first_column;  // of each relation, in the tree's output
  std::vector<ExprPtr> conditions;  // over the tree's output columns
};

/// Flattens the join tree at `node`, whose output starts at column `offset` of the whole tree.
void Flatten(const PlanPtr& node, int offset, JoinGraph* graph) {
  if (!Reorderable(*node)) {
    graph->relations.push_back(node);
    graph->first_column.push_back(offset);
    return;
  }
  const int num_left = node->inputs[0]->schema->num_fields();
  Flatten(node->inputs[0], offset, graph);
  Flatten(node->inputs[1], offset + num_left, graph);
  for (size_t i = 0; i < node->left_keys.size(); ++i) {
    auto eq = std::make_shared<Expr>(*Expr::Call(node->null_safe[i] ? "<=>" : "=",
                                                 {ShiftColumns(node->left_keys[i], offset),
                                                  ShiftColumns(node->right_keys[i], offset + num_left)}));
    eq->type = DataType::Boolean();
    graph->conditions.push_back(eq);
  }
  if (node->predicate) {
    std::vector<ExprPtr> parts;
    SplitConjuncts(node->predicate, &parts);
    for (const auto& p : parts) graph->conditions.push_back(ShiftColumns(p, offset));
  }
}

/// A joined set of relations: its plan and where each of the tree's columns sits in it.
struct Component {
  PlanPtr plan;
  uint64_t relations = 0;  // bit set
  std::vector<int> local;  // tree column -> column of `plan`, -1 when not in it
  double rows = 0;
};

uint64_t RelationsOf(const Expr& e, const JoinGraph& graph) {
  std::vector<int> used;
  expr::ReferencedColumns(e, &used);
  uint64_t set = 0;
  for (int c : used) {
    for (size_t r = graph.relations.size(); r-- > 0;) {
      if (c >= graph.first_column[r]) {
        set |= uint64_t{1} << r;
        break;
      }
    }
  }
  return set;
}

Result<Component> JoinPair(const Component& a, const Component& b, const JoinGraph& graph,
                           const std::vector<uint64_t>& condition_sets, std::vector<bool>* used) {
  const uint64_t both = a.relations | b.relations;
  const int width = a.plan->schema->num_fields();
  Component out;
  out.relations = both;
  out.local.assign(a.local.size(), -1);
  for (size_t c = 0; c < a.local.size(); ++c) {
    if (a.local[c] >= 0) out.local[c] = a.local[c];
    else if (b.local[c] >= 0) out.local[c] = width + b.local[c];
  }
  std::vector<ExprPtr> parts;
  for (size_t i = 0; i < graph.conditions.size(); ++i) {
    if ((*used)[i] || (condition_sets[i] & ~both) != 0) continue;
    (*used)[i] = true;
    parts.push_back(RemapColumns(graph.conditions[i], out.local));
  }
  EPOXY_ASSIGN_OR_RETURN(out.plan, Join(a.plan, b.plan, JoinType::kInner, AndAll(parts)));
  out.rows = EstimateRows(*out.plan);
  return out;
}

Result<PlanPtr> Reorder(const PlanPtr& root) {
  JoinGraph graph;
  Flatten(root, 0, &graph);
  const size_t n = graph.relations.size();
  if (n > 62) return root;  // relation sets are 64-bit masks
  const int total = root->schema->num_fields();
  std::vector<uint64_t> condition_sets;
  for (const auto& c : graph.conditions) condition_sets.push_back(RelationsOf(*c, graph));
  std::vector<Component> parts;
  for (size_t r = 0; r < n; ++r) {
    Component c;
    c.plan = ReorderJoins(graph.relations[r]);
    c.relations = uint64_t{1} << r;
    c.local.assign(static_cast<size_t>(total), -1);
    const int width = graph.relations[r]->schema->num_fields();
    for (int k = 0; k < width; ++k) c.local[static_cast<size_t>(graph.first_column[r] + k)] = k;
    c.rows = EstimateRows(*c.plan);
    parts.push_back(std::move(c));
  }
  std::vector<bool> used(graph.conditions.size(), false);
  while (parts.size() > 1) {
    // The connected pair with the smallest estimated result; without one, the two smallest.
    size_t best_a = 0, best_b = 1;
    double best = std::numeric_limits<double>::infinity();
    bool connected = false;
    for (size_t i = 0; i < parts.size(); ++i) {
      for (size_t j = i + 1; j < parts.size(); ++j) {
        const uint64_t both = parts[i].relations | parts[j].relations;
        bool links = false;
        for (size_t k = 0; k < condition_sets.size() && !links; ++k) {
          links = !used[k] && (condition_sets[k] & ~both) == 0 && (condition_sets[k] & parts[i].relations) != 0 &&
                  (condition_sets[k] & parts[j].relations) != 0;
        }
        if (connected && !links) continue;
        std::vector<bool> trial = used;
        EPOXY_ASSIGN_OR_RETURN(Component joined, JoinPair(parts[i], parts[j], graph, condition_sets, &trial));
        double cost = joined.rows;
        if (!links) cost = parts[i].rows * parts[j].rows;
        if ((links && !connected) || cost < best) {
          best = cost;
          best_a = i;
          best_b = j;
          connected = connected || links;
        }
      }
    }
    // The larger input first: it is the probe side, the smaller is built.
    if (parts[best_a].rows < parts[best_b].rows) std::swap(best_a, best_b);
    EPOXY_ASSIGN_OR_RETURN(Component joined, JoinPair(parts[best_a], parts[best_b], graph, condition_sets, &used));
    parts.erase(parts.begin() + static_cast<long>(std::max(best_a, best_b)));
    parts.erase(parts.begin() + static_cast<long>(std::min(best_a, best_b)));
    parts.push_back(std::move(joined));
  }
  Component& all = parts[0];
  // Conditions no pair took (they name one relation only): a filter on top.
  std::vector<ExprPtr> rest;
  for (size_t i = 0; i < graph.conditions.size(); ++i) {
    if (!used[i]) rest.push_back(RemapColumns(graph.conditions[i], all.local));
  }
  PlanPtr out = all.plan;
  if (!rest.empty()) {
    EPOXY_ASSIGN_OR_RETURN(out, FilterBound(out, AndAll(rest)));
  }
  std::vector<ExprPtr> columns;
  std::vector<std::string> names;
  bool identity = true;
  for (int c = 0; c < total; ++c) {
    const int local = all.local[static_cast<size_t>(c)];
    identity = identity && local == c;
    columns.push_back(ColumnRef(*out->schema, local));
    names.push_back(root->schema->field(c).name);
  }
  if (identity) return out;
  return ProjectBound(out, std::move(columns), std::move(names));
}

}  // namespace

PlanPtr ReorderJoins(const PlanPtr& plan) {
  if (Reorderable(*plan)) {
    auto reordered = Reorder(plan);
    if (reordered.ok()) return *reordered;
    return plan;  // keep the written order when rebuilding fails (it cannot for bound plans)
  }
  if (plan->inputs.empty()) return plan;
  auto copy = std::make_shared<PlanNode>(*plan);
  for (auto& in : copy->inputs) in = ReorderJoins(in);
  return copy;
}

}  // namespace epoxy::plan
