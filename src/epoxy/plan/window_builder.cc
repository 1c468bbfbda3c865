// SPDX-License-Identifier: Apache-2.0
// Window nodes: windowed calls grouped by their PARTITION BY and ORDER BY, one node per group
// (each sorts its input once), then their columns put back in the order asked for.
#include "epoxy/plan/logical_plan.h"

namespace epoxy::plan {
namespace {

using expr::ExprPtr;

bool SamePartitioning(const expr::WindowSpec& a, const expr::WindowSpec& b) {
  if (a.partition_by.size() != b.partition_by.size() || a.order_by.size() != b.order_by.size()) return false;
  for (size_t i = 0; i < a.partition_by.size(); ++i) {
    if (!expr::SameExpr(*a.partition_by[i], *b.partition_by[i])) return false;
  }
  for (size_t i = 0; i < a.order_by.size(); ++i) {
    const auto& x = a.order_by[i];
    const auto& y = b.order_by[i];
    if (x.ascending != y.ascending || x.nulls_first != y.nulls_first || !expr::SameExpr(*x.expr, *y.expr)) return false;
  }
  return true;
}

}  // namespace

Result<PlanPtr> Window(PlanPtr input, std::vector<ExprPtr> calls, std::vector<std::string> names) {
  if (calls.empty()) return input;
  const int base = input->schema->num_fields();
  // Groups of calls with one window each, in order of first appearance.
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i]->window == nullptr) return Status::Internal("a Window node got an unwindowed call");
    bool placed = false;
    for (auto& g : groups) {
      if (SamePartitioning(*calls[g[0]]->window, *calls[i]->window)) {
        g.push_back(i);
        placed = true;
        break;
      }
    }
    if (!placed) groups.push_back({i});
  }
  PlanPtr out = input;
  std::vector<int> position(calls.size());  // output column of each call
  for (const auto& g : groups) {
    auto node = std::make_shared<PlanNode>();
    node->kind = PlanKind::kWindow;
    node->inputs = {out};
    node->keys = calls[g[0]]->window->partition_by;
    node->sort_keys = calls[g[0]]->window->order_by;
    std::vector<Field> fields = out->schema->fields();
    for (size_t i : g) {
      position[i] = static_cast<int>(fields.size());
      fields.push_back({i < names.size() && !names[i].empty() ? names[i] : calls[i]->ToString(), calls[i]->type});
      node->window_calls.push_back(calls[i]);
    }
    node->schema = Schema::Make(std::move(fields));
    out = node;
  }
  bool in_order = true;
  for (size_t i = 0; i < calls.size(); ++i) in_order = in_order && position[i] == base + static_cast<int>(i);
  if (in_order) return out;
  std::vector<ExprPtr> columns;
  std::vector<std::string> out_names;
  for (int c = 0; c < base; ++c) {
    columns.push_back(ColumnRef(*out->schema, c));
    out_names.push_back(out->schema->field(c).name);
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    columns.push_back(ColumnRef(*out->schema, position[i]));
    out_names.push_back(out->schema->field(position[i]).name);
  }
  return ProjectBound(out, std::move(columns), std::move(out_names));
}

}  // namespace epoxy::plan
