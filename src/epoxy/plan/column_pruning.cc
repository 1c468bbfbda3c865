// SPDX-License-Identifier: Apache-2.0
// Column pruning: each node is rebuilt to produce only the columns its parents use (and what it
// needs itself), and returns where each of its old columns went. Scans read only what is used.
#include <algorithm>
#include <set>

#include "epoxy/plan/optimizer.h"

namespace epoxy::plan {
namespace {

using expr::ExprPtr;

/// A rebuilt node and, for each column of the old node, its index in the new one (-1: dropped).
struct Pruned {
  PlanPtr plan;
  std::vector<int> mapping;
};

void AddRefs(const ExprPtr& e, std::set<int>* out) {
  if (e == nullptr) return;
  std::vector<int> used;
  expr::ReferencedColumns(*e, &used);
  out->insert(used.begin(), used.end());
  if (e->window != nullptr) {
    for (const auto& k : e->window->partition_by) AddRefs(k, out);
    for (const auto& k : e->window->order_by) AddRefs(k.expr, out);
  }
  for (const auto& a : e->args) {
    if (a->window != nullptr) AddRefs(a, out);
  }
}

std::set<int> AllColumns(const PlanNode& node) {
  std::set<int> all;
  for (int c = 0; c < node.schema->num_fields(); ++c) all.insert(c);
  return all;
}

/// Projects `pruned` down to exactly `wanted` (old column indexes, in order) when it holds more.
Pruned Trim(Pruned pruned, const std::set<int>& wanted, const Schema& old_schema) {
  if (static_cast<int>(wanted.size()) == pruned.plan->schema->num_fields()) return pruned;
  std::vector<ExprPtr> columns;
  std::vector<std::string> names;
  std::vector<int> mapping(pruned.mapping.size(), -1);
  for (int c : wanted) {
    mapping[static_cast<size_t>(c)] = static_cast<int>(columns.size());
    columns.push_back(ColumnRef(*pruned.plan->schema, pruned.mapping[static_cast<size_t>(c)]));
    names.push_back(old_schema.field(c).name);
  }
  auto project = ProjectBound(pruned.plan, std::move(columns), std::move(names));
  return {*project, std::move(mapping)};
}

Pruned Prune(const PlanPtr& node, const std::set<int>& required);

Pruned Identity(const PlanPtr& node) {
  std::vector<int> mapping(static_cast<size_t>(node->schema->num_fields()));
  for (size_t i = 0; i < mapping.size(); ++i) mapping[i] = static_cast<int>(i);
  return {node, std::move(mapping)};
}

/// Prunes every input of `node` with all its columns required (their own inner columns still go).
Pruned KeepAll(const PlanPtr& node) {
  auto copy = std::make_shared<PlanNode>(*node);
  for (auto& in : copy->inputs) {
    Pruned p = Prune(in, AllColumns(*in));
    in = p.plan;
  }
  return Identity(copy);
}

Pruned PruneScan(const PlanPtr& node, const std::set<int>& required) {
  auto scan = std::make_shared<PlanNode>(*node);
  std::set<int> read = required;
  AddRefs(scan->row_filter, &read);
  AddRefs(scan->partition_filter, &read);
  scan->columns.assign(read.begin(), read.end());
  scan->columns_pushed = true;
  return Trim(Identity(scan), required, *node->schema);
}

Pruned PruneProject(const PlanPtr& node, const std::set<int>& required) {
  std::set<int> child_required;
  for (int c : required) AddRefs(node->exprs[static_cast<size_t>(c)], &child_required);
  Pruned child = Prune(node->inputs[0], child_required);
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  std::vector<int> mapping(node->exprs.size(), -1);
  for (int c : required) {
    mapping[static_cast<size_t>(c)] = static_cast<int>(exprs.size());
    exprs.push_back(RemapColumns(node->exprs[static_cast<size_t>(c)], child.mapping));
    names.push_back(node->schema->field(c).name);
  }
  auto project = ProjectBound(child.plan, std::move(exprs), std::move(names));
  return {*project, std::move(mapping)};
}

Pruned PruneAggregate(const PlanPtr& node, const std::set<int>& required) {
  const int num_keys = static_cast<int>(node->keys.size());
  std::set<int> child_required;
  for (const auto& k : node->keys) AddRefs(k, &child_required);
  std::vector<int> kept_calls;
  for (int c : required) {
    if (c >= num_keys) kept_calls.push_back(c - num_keys);
  }
  for (int k : kept_calls) AddRefs(node->exprs[static_cast<size_t>(k)], &child_required);
  Pruned child = Prune(node->inputs[0], child_required);
  std::vector<ExprPtr> keys, calls;
  std::vector<std::string> names;
  std::vector<int> mapping(static_cast<size_t>(node->schema->num_fields()), -1);
  for (int i = 0; i < num_keys; ++i) {
    mapping[static_cast<size_t>(i)] = i;
    keys.push_back(RemapColumns(node->keys[static_cast<size_t>(i)], child.mapping));
    names.push_back(node->schema->field(i).name);
  }
  for (int k : kept_calls) {
    mapping[static_cast<size_t>(num_keys + k)] = num_keys + static_cast<int>(calls.size());
    calls.push_back(RemapColumns(node->exprs[static_cast<size_t>(k)], child.mapping));
    names.push_back(node->schema->field(num_keys + k).name);
  }
  auto aggregate = Aggregate(child.plan, std::move(keys), std::move(calls), std::move(names));
  return {*aggregate, std::move(mapping)};
}

Pruned PruneJoin(const PlanPtr& node, const std::set<int>& required) {
  const int num_left = node->inputs[0]->schema->num_fields();
  std::set<int> left_required, right_required, condition;
  for (int c : required) (c < num_left ? left_required : right_required).insert(c < num_left ? c : c - num_left);
  for (const auto& k : node->left_keys) AddRefs(k, &left_required);
  for (const auto& k : node->right_keys) AddRefs(k, &right_required);
  AddRefs(node->predicate, &condition);
  for (int c : condition) (c < num_left ? left_required : right_required).insert(c < num_left ? c : c - num_left);
  Pruned left = Prune(node->inputs[0], left_required);
  Pruned right = Prune(node->inputs[1], right_required);
  auto join = std::make_shared<PlanNode>(*node);
  join->inputs = {left.plan, right.plan};
  for (auto& k : join->left_keys) k = RemapColumns(k, left.mapping);
  for (auto& k : join->right_keys) k = RemapColumns(k, right.mapping);
  const int new_left = left.plan->schema->num_fields();
  std::vector<int> combined(left.mapping);
  for (int m : right.mapping) combined.push_back(m < 0 ? -1 : new_left + m);
  if (join->predicate) join->predicate = RemapColumns(join->predicate, combined);
  std::vector<Field> fields = left.plan->schema->fields();
  const bool both_sides = node->join_type != JoinType::kSemi && node->join_type != JoinType::kAnti;
  if (both_sides) {
    for (const auto& f : right.plan->schema->fields()) fields.push_back(f);
  }
  join->schema = Schema::Make(std::move(fields));
  if (!both_sides) combined.resize(static_cast<size_t>(num_left));
  Pruned out{join, combined};
  std::set<int> wanted = required;
  return Trim(out, wanted, *node->schema);
}

/// Sort, Repartition, Filter: their own expressions' columns plus what is required, then trimmed.
Pruned PruneWithExprs(const PlanPtr& node, const std::set<int>& required) {
  std::set<int> child_required = required;
  AddRefs(node->predicate, &child_required);
  for (const auto& k : node->sort_keys) AddRefs(k.expr, &child_required);
  for (const auto& k : node->keys) AddRefs(k, &child_required);
  Pruned child = Prune(node->inputs[0], child_required);
  auto copy = std::make_shared<PlanNode>(*node);
  copy->inputs = {child.plan};
  copy->schema = child.plan->schema;
  if (copy->predicate) copy->predicate = RemapColumns(copy->predicate, child.mapping);
  for (auto& k : copy->sort_keys) k.expr = RemapColumns(k.expr, child.mapping);
  for (auto& k : copy->keys) k = RemapColumns(k, child.mapping);
  return Trim({copy, child.mapping}, required, *node->schema);
}

Pruned PruneWindow(const PlanPtr& node, const std::set<int>& required) {
  const int base = node->inputs[0]->schema->num_fields();
  std::set<int> child_required;
  std::vector<int> kept;
  for (int c : required) {
    if (c < base) child_required.insert(c);
    else kept.push_back(c - base);
  }
  if (kept.empty()) return Prune(node->inputs[0], child_required);  // no window value is used
  for (const auto& k : node->keys) AddRefs(k, &child_required);
  for (const auto& k : node->sort_keys) AddRefs(k.expr, &child_required);
  for (int k : kept) AddRefs(node->window_calls[static_cast<size_t>(k)], &child_required);
  Pruned child = Prune(node->inputs[0], child_required);
  auto copy = std::make_shared<PlanNode>(*node);
  copy->inputs = {child.plan};
  for (auto& k : copy->keys) k = RemapColumns(k, child.mapping);
  for (auto& k : copy->sort_keys) k.expr = RemapColumns(k.expr, child.mapping);
  copy->window_calls.clear();
  std::vector<Field> fields = child.plan->schema->fields();
  std::vector<int> mapping(child.mapping);
  mapping.resize(static_cast<size_t>(node->schema->num_fields()), -1);
  for (int k : kept) {
    mapping[static_cast<size_t>(base + k)] = static_cast<int>(fields.size());
    copy->window_calls.push_back(RemapColumns(node->window_calls[static_cast<size_t>(k)], child.mapping));
    fields.push_back(node->schema->field(base + k));
  }
  copy->schema = Schema::Make(std::move(fields));
  return Trim({copy, mapping}, required, *node->schema);
}

Pruned PruneUnion(const PlanPtr& node, const std::set<int>& required) {
  auto copy = std::make_shared<PlanNode>(*node);
  for (auto& in : copy->inputs) {
    Pruned p = Trim(Prune(in, required), required, *in->schema);
    in = p.plan;
  }
  std::vector<Field> fields;
  std::vector<int> mapping(static_cast<size_t>(node->schema->num_fields()), -1);
  for (int c : required) {
    mapping[static_cast<size_t>(c)] = static_cast<int>(fields.size());
    fields.push_back(node->schema->field(c));
  }
  copy->schema = Schema::Make(std::move(fields));
  return {copy, std::move(mapping)};
}

Pruned Prune(const PlanPtr& node, const std::set<int>& required) {
  switch (node->kind) {
    case PlanKind::kScan: return PruneScan(node, required);
    case PlanKind::kProject: return PruneProject(node, required);
    case PlanKind::kAggregate: return PruneAggregate(node, required);
    case PlanKind::kJoin: return PruneJoin(node, required);
    case PlanKind::kFilter:
    case PlanKind::kSort:
    case PlanKind::kRepartition: return PruneWithExprs(node, required);
    case PlanKind::kWindow: return PruneWindow(node, required);
    case PlanKind::kUnion: return PruneUnion(node, required);
    case PlanKind::kLimit: {
      Pruned child = Prune(node->inputs[0], required);
      auto copy = std::make_shared<PlanNode>(*node);
      copy->inputs = {child.plan};
      copy->schema = child.plan->schema;
      return {copy, child.mapping};
    }
    // Distinct, set operations and Expand depend on every column.
    default: return KeepAll(node);
  }
}

}  // namespace

PlanPtr PruneColumns(const PlanPtr& plan) { return Prune(plan, AllColumns(*plan)).plan; }

}  // namespace epoxy::plan
