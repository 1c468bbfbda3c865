// SPDX-License-Identifier: Apache-2.0
// GROUP BY: binding the select list, collecting its aggregate calls into an Aggregate node, and
// rewriting the select list (and HAVING, and ORDER BY keys) to read the aggregate's output.
// GROUPING SETS, ROLLUP and CUBE expand each row once per set first (Spark's Expand).
#include <functional>

#include "epoxy/plan/logical_plan.h"

namespace epoxy::plan {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

constexpr const char* kGroupingId = "spark_grouping_id";

/// The aggregate calls in `e`, outside windows (a windowed call's arguments and window count).
void CollectAggregates(const ExprPtr& e, std::vector<ExprPtr>* calls) {
  if (e->kind == ExprKind::kCall && expr::IsAggregateFunction(e->op) && e->window == nullptr) {
    for (const auto& c : *calls) {
      if (expr::SameExpr(*c, *e)) return;
    }
    calls->push_back(e);
    return;
  }
  for (const auto& a : e->args) CollectAggregates(a, calls);
  if (e->window != nullptr) {
    for (const auto& k : e->window->partition_by) CollectAggregates(k, calls);
    for (const auto& k : e->window->order_by) CollectAggregates(k.expr, calls);
  }
}

/// Rewrites bound expressions over the aggregate's input into expressions over its output.
class OutputRewriter {
 public:
  OutputRewriter(const std::vector<ExprPtr>& keys, const std::vector<ExprPtr>& calls, const Schema& output)
      : keys_(keys), calls_(calls), output_(output) {}

  Result<ExprPtr> Rewrite(const ExprPtr& e) const {
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (expr::SameExpr(*keys_[i], *e)) return ColumnRef(output_, static_cast<int>(i));
    }
    if (e->kind == ExprKind::kCall && expr::IsAggregateFunction(e->op) && e->window == nullptr) {
      for (size_t j = 0; j < calls_.size(); ++j) {
        if (expr::SameExpr(*calls_[j], *e)) return ColumnRef(output_, static_cast<int>(keys_.size() + j));
      }
      return Status::Internal("aggregate {} was not collected", e->ToString());
    }
    if (e->kind == ExprKind::kColumn) {
      return Status::InvalidInput(
          "column '{}' is neither in GROUP BY nor inside an aggregate function; add it to GROUP BY or use an "
          "aggregate such as first({})", e->ToString(), e->ToString());
    }
    if (e->args.empty() && e->window == nullptr) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (auto& a : copy->args) {
      EPOXY_ASSIGN_OR_RETURN(a, Rewrite(a));
    }
    if (e->window != nullptr) {
      auto window = std::make_shared<expr::WindowSpec>(*e->window);
      for (auto& k : window->partition_by) {
        EPOXY_ASSIGN_OR_RETURN(k, Rewrite(k));
      }
      for (auto& k : window->order_by) {
        EPOXY_ASSIGN_OR_RETURN(k.expr, Rewrite(k.expr));
      }
      copy->window = window;
    }
    return ExprPtr(copy);
  }

 private:
  const std::vector<ExprPtr>& keys_;
  const std::vector<ExprPtr>& calls_;
  const Schema& output_;
};

/// grouping(c) and grouping_id() as arithmetic over the grouping id column (unbound): bit i
/// (from the left) of the id is set when group expression i is not in the row's set.
Result<ExprPtr> RewriteGroupingCalls(const ExprPtr& e, const std::vector<ExprPtr>& group_by, const Schema& schema,
                                     const expr::BindOptions& options) {
  if (e->kind == ExprKind::kCall && (e->op == "grouping" || e->op == "grouping_id")) {
    const int n = static_cast<int>(group_by.size());
    auto id = Expr::Column({kGroupingId});
    if (e->op == "grouping_id") {
      if (!e->args.empty()) return Status::InvalidInput("grouping_id() takes no arguments in epoxy ('{}')", e->ToString());
      return id;
    }
    if (e->args.size() != 1) return Status::InvalidInput("grouping takes one argument ('{}')", e->ToString());
    EPOXY_ASSIGN_OR_RETURN(ExprPtr arg, expr::Bind(e->args[0], schema, options));
    for (int i = 0; i < n; ++i) {
      auto key = expr::Bind(group_by[static_cast<size_t>(i)], schema, options);
      if (key.ok() && expr::SameExpr(**key, *arg)) {
        auto shifted = Expr::Call("div", {id, Expr::Literal(expr::Scalar::Integer(DataType::BigInt(), int64_t{1} << (n - 1 - i)))});
        auto bit = Expr::Call("%", {shifted, Expr::Literal(expr::Scalar::Integer(DataType::BigInt(), 2))});
        return Expr::Cast(bit, DataType::TinyInt());
      }
    }
    return Status::InvalidInput("grouping({}) needs one of the GROUP BY expressions", e->args[0]->ToString());
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  bool changed = false;
  for (auto& a : copy->args) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr rewritten, RewriteGroupingCalls(a, group_by, schema, options));
    changed |= rewritten != a;
    a = std::move(rewritten);
  }
  return changed ? ExprPtr(copy) : e;  // unchanged: the same node, so callers can tell
}

/// GROUPING SETS: each input row once per set, the group expressions of other sets nulled, and
/// the set's grouping id. Output: the input's columns, one column per group expression, the id.
Result<PlanPtr> ExpandSets(const PlanPtr& input, const std::vector<ExprPtr>& keys,
                           const std::vector<std::vector<int>>& sets) {
  const Schema& in = *input->schema;
  const int n = static_cast<int>(keys.size());
  std::vector<Field> fields = in.fields();
  for (int i = 0; i < n; ++i) fields.push_back({"spark_group_" + std::to_string(i), keys[static_cast<size_t>(i)]->type});
  fields.push_back({kGroupingId, DataType::BigInt()});
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanKind::kExpand;
  node->inputs = {input};
  node->schema = Schema::Make(std::move(fields));
  for (const auto& set : sets) {
    std::vector<ExprPtr> row;
    for (int c = 0; c < in.num_fields(); ++c) row.push_back(ColumnRef(in, c));
    int64_t id = 0;
    for (int i = 0; i < n; ++i) {
      const bool in_set = std::find(set.begin(), set.end(), i) != set.end();
      if (in_set) {
        row.push_back(keys[static_cast<size_t>(i)]);
      } else {
        row.push_back(Expr::Literal(expr::Scalar::Null(keys[static_cast<size_t>(i)]->type)));
        id |= int64_t{1} << (n - 1 - i);
      }
    }
    row.push_back(Expr::Literal(expr::Scalar::Integer(DataType::BigInt(), id)));
    node->projections.push_back(std::move(row));
  }
  return PlanPtr(node);
}

}  // namespace

Result<PlanPtr> Aggregate(PlanPtr input, std::vector<ExprPtr> keys, std::vector<ExprPtr> calls,
                          std::vector<std::string> names) {
  std::vector<Field> fields;
  for (size_t i = 0; i < keys.size() + calls.size(); ++i) {
    const ExprPtr& e = i < keys.size() ? keys[i] : calls[i - keys.size()];
    std::string name = i < names.size() && !names[i].empty() ? names[i] : e->ToString();
    fields.push_back({name, e->type});
  }
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanKind::kAggregate;
  node->inputs = {std::move(input)};
  node->schema = Schema::Make(std::move(fields));
  node->keys = std::move(keys);
  node->exprs = std::move(calls);
  return PlanPtr(node);
}

Result<PlanPtr> GroupBy(PlanPtr input, const GroupBySpec& spec, const expr::BindOptions& options) {
  expr::BindOptions bind = options;
  bind.allow_aggregates = false;
  bind.allow_windows = false;
  // Group expressions are bound over the input; with grouping sets the aggregate reads them from
  // the expanded rows instead.
  std::vector<ExprPtr> group_exprs;
  for (const auto& g : spec.group_by) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, expr::Bind(g, *input->schema, bind));
    group_exprs.push_back(std::move(bound));
  }
  PlanPtr source = input;
  std::vector<ExprPtr> keys = group_exprs;  // what the aggregate groups by
  std::vector<ExprPtr> matched = group_exprs;  // what select expressions are matched against
  const bool sets = !spec.grouping_sets.empty();
  std::vector<std::string> qualifiers;
  if (sets) {
    EPOXY_ASSIGN_OR_RETURN(source, ExpandSets(input, group_exprs, spec.grouping_sets));
    keys.clear();
    const int base = input->schema->num_fields();
    for (size_t i = 0; i <= group_exprs.size(); ++i) keys.push_back(ColumnRef(*source->schema, base + static_cast<int>(i)));
    // Select expressions that match a group expression read its (nulled) expanded column; the
    // grouping id is a key too (grouping() and grouping_id() read it).
    matched = keys;
    if (options.column_qualifiers != nullptr) {
      qualifiers = *options.column_qualifiers;
      qualifiers.resize(static_cast<size_t>(source->schema->num_fields()));
    }
  }
  expr::BindOptions select = options;
  select.allow_aggregates = true;
  select.allow_windows = true;
  if (sets && options.column_qualifiers != nullptr) select.column_qualifiers = &qualifiers;
  // The name a select item shows, written over the input's columns (not the expanded ones).
  std::string shown_name;
  auto bind_select = [&](const ExprPtr& e, bool windows) -> Result<ExprPtr> {
    expr::BindOptions o = select;
    o.allow_windows = windows;
    ExprPtr unbound = e;
    if (sets) {
      EPOXY_ASSIGN_OR_RETURN(unbound, RewriteGroupingCalls(e, spec.group_by, *input->schema, bind));
    }
    EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, expr::Bind(unbound, *source->schema, o));
    shown_name = unbound == e ? bound->ToString() : e->ToString();  // grouping(x) keeps its name
    if (sets) {
      // Group expressions inside select items read the expanded columns.
      std::function<ExprPtr(const ExprPtr&)> to_expanded = [&](const ExprPtr& x) -> ExprPtr {
        for (size_t i = 0; i < group_exprs.size(); ++i) {
          if (expr::SameExpr(*group_exprs[i], *x)) return keys[i];
        }
        if (x->kind == ExprKind::kCall && expr::IsAggregateFunction(x->op) && x->window == nullptr) return x;
        if (x->args.empty()) return x;
        auto copy = std::make_shared<Expr>(*x);
        for (auto& a : copy->args) a = to_expanded(a);
        return copy;
      };
      bound = to_expanded(bound);
    }
    return bound;
  };
  std::vector<ExprPtr> items, extra;
  std::vector<std::string> names;
  for (size_t i = 0; i < spec.select.size(); ++i) {
    const ExprPtr& e = spec.select[i];
    if (e->kind == ExprKind::kStar) {
      return Status::InvalidInput("'*' cannot be selected with GROUP BY or aggregates; name the grouped columns");
    }
    EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, bind_select(e, true));
    items.push_back(std::move(bound));
    std::string name = i < spec.names.size() ? spec.names[i] : "";
    if (name.empty() && sets) name = shown_name;
    names.push_back(std::move(name));
  }
  ExprPtr having;
  if (spec.having) {
    EPOXY_ASSIGN_OR_RETURN(having, bind_select(spec.having, false));
  }
  for (const auto& e : spec.extra) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, bind_select(e, true));
    extra.push_back(std::move(bound));
  }
  std::vector<ExprPtr> calls;
  for (const auto& e : items) CollectAggregates(e, &calls);
  if (having) CollectAggregates(having, &calls);
  for (const auto& e : extra) CollectAggregates(e, &calls);

  std::vector<std::string> agg_names;
  for (const auto& k : keys) agg_names.push_back(k->ToString());
  for (const auto& c : calls) agg_names.push_back(c->ToString());
  EPOXY_ASSIGN_OR_RETURN(PlanPtr aggregate, Aggregate(source, keys, calls, agg_names));
  OutputRewriter rewriter(matched, calls, *aggregate->schema);
  PlanPtr out = aggregate;
  if (having) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr condition, rewriter.Rewrite(having));
    EPOXY_ASSIGN_OR_RETURN(out, FilterBound(out, condition));
  }
  std::vector<ExprPtr> projected;
  for (const auto& e : items) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr r, rewriter.Rewrite(e));
    projected.push_back(std::move(r));
  }
  for (const auto& e : extra) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr r, rewriter.Rewrite(e));
    projected.push_back(std::move(r));
    names.push_back("");
  }
  // The projection computes any windows over the grouped rows.
  return ProjectWithWindows(out, std::move(projected), std::move(names));
}

}  // namespace epoxy::plan
