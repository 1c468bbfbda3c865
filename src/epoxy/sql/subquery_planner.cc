// SPDX-License-Identifier: Apache-2.0
// Subqueries as joins, never run per row. A subquery that plans on its own is uncorrelated:
// EXISTS becomes a semi (anti) join with its first row, IN a semi join on the value (NOT IN a
// null-aware anti join), a scalar subquery a left join with its single row. A correlated one is
// split into its own conjuncts and those that refer to the outer query: EXISTS and IN become
// semi and anti joins on the latter; a scalar aggregate is grouped by its correlation keys and
// left-joined on them (with the aggregate's empty-input value where no group matches, as
// Spark does for count).
#include <functional>

#include "epoxy/sql/planner_internal.h"

namespace epoxy::sql {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

const Query& QueryOf(const Expr& e) { return *std::static_pointer_cast<const Query>(e.subquery); }

void SplitAnd(const ExprPtr& e, std::vector<ExprPtr>* out) {
  if (e->kind == ExprKind::kCall && e->op == "and" && e->args.size() == 2) {
    SplitAnd(e->args[0], out);
    SplitAnd(e->args[1], out);
  } else {
    out->push_back(e);
  }
}

ExprPtr AndUnbound(const std::vector<ExprPtr>& parts) {
  if (parts.empty()) return nullptr;
  ExprPtr out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) out = Expr::Call("and", {out, parts[i]});
  return out;
}

ExprPtr Typed(const std::string& op, std::vector<ExprPtr> args, TypePtr type) {
  auto e = std::make_shared<Expr>(*Expr::Call(op, std::move(args)));
  e->type = std::move(type);
  return e;
}

/// a = b over bound operands, in their common type.
Result<ExprPtr> Equal(const ExprPtr& a, const ExprPtr& b) {
  EPOXY_ASSIGN_OR_RETURN(TypePtr common, expr::ComparisonType(a->type, b->type));
  return Typed("=", {expr::CastTo(a, common), expr::CastTo(b, common)}, DataType::Boolean());
}

/// The schema of `inner`'s columns followed by `outer`'s, and its qualifiers.
struct CombinedScope {
  SchemaPtr schema;
  std::vector<std::string> qualifiers;
  int num_inner = 0;

  CombinedScope(const Scope& inner, const Scope& outer) : num_inner(inner.width()) {
    std::vector<Field> fields = inner.schema().fields();
    for (const auto& f : outer.schema().fields()) fields.push_back(f);
    schema = Schema::Make(std::move(fields));
    qualifiers = inner.qualifiers;
    qualifiers.insert(qualifiers.end(), outer.qualifiers.begin(), outer.qualifiers.end());
  }
  expr::BindOptions Options() const {
    expr::BindOptions o;
    o.column_qualifiers = &qualifiers;
    o.num_inner = num_inner;
    return o;
  }
};

/// Columns of [inner, outer] moved to [outer, inner] (a join's layout, outer on the left).
ExprPtr OuterFirst(const ExprPtr& e, int num_inner, int num_outer) {
  std::vector<int> mapping(static_cast<size_t>(num_inner + num_outer));
  for (int i = 0; i < num_inner; ++i) mapping[static_cast<size_t>(i)] = num_outer + i;
  for (int j = 0; j < num_outer; ++j) mapping[static_cast<size_t>(num_inner + j)] = j;
  return plan::RemapColumns(e, mapping);
}

/// The value of an aggregate expression over no rows (count is 0, most others null), or null when
/// it is not a constant then.
ExprPtr EmptyInputValue(const ExprPtr& item) {
  std::function<ExprPtr(const ExprPtr&)> empty = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kCall && expr::IsAggregateFunction(e->op) && e->window == nullptr) {
      if (e->op == "count" || e->op == "count_if" || e->op == "approx_count_distinct") {
        return Expr::Literal(expr::Scalar::Integer(DataType::BigInt(), 0));
      }
      return Expr::Literal(expr::Scalar::Null());
    }
    if (e->kind == ExprKind::kColumn) return nullptr;
    if (e->args.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (auto& a : copy->args) {
      a = empty(a);
      if (a == nullptr) return nullptr;
    }
    return copy;
  };
  ExprPtr constant = empty(item);
  if (constant == nullptr) return nullptr;
  auto bound = expr::Bind(constant, *Schema::Make({}));
  if (!bound.ok() || (*bound)->kind != ExprKind::kLiteral || (*bound)->literal.is_null()) return nullptr;
  return *bound;
}

}  // namespace

/// A correlated subquery's FROM with its own conjuncts applied, and the conjuncts that refer to
/// the outer query (bound over the subquery's columns followed by the outer's).
struct Correlated {
  Scope inner;
  std::vector<ExprPtr> conditions;      // bound over [inner, outer]
  std::vector<ExprPtr> raw_conditions;  // the same, unbound
};

class SubqueryPlanner {
 public:
  SubqueryPlanner(Planner* planner, const CommonTables& ctes) : planner_(planner), ctes_(ctes) {}

  Result<Correlated> Split(const Query& q, const Scope& outer, bool aggregated) {
    if (q.kind != Query::Kind::kSelect) {
      return Status::NotSupported("a correlated subquery must be a single SELECT, not a set operation");
    }
    const SelectCore& core = q.select;
    if (core.from.empty()) return Status::NotSupported("a correlated subquery needs a FROM clause");
    if ((core.grouped || core.having) && !aggregated) {
      return Status::NotSupported("GROUP BY and HAVING in a correlated EXISTS or IN subquery");
    }
    if (core.grouped) return Status::NotSupported("GROUP BY in a correlated scalar subquery (it must be one aggregate)");
    CommonTables ctes = ctes_;
    for (const auto& cte : q.with) ctes.push_back(cte);
    Correlated out;
    EPOXY_ASSIGN_OR_RETURN(out.inner, planner_->PlanFrom(core.from, core, ctes));
    std::vector<ExprPtr> conjuncts, local;
    if (core.where) SplitAnd(core.where, &conjuncts);
    CombinedScope combined(out.inner, outer);
    for (const auto& c : conjuncts) {
      if (expr::ContainsSubquery(*c) || expr::Bind(c, out.inner.schema(), out.inner.Options()).ok()) {
        local.push_back(c);
        continue;
      }
      EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, expr::Bind(c, *combined.schema, combined.Options()));
      out.conditions.push_back(std::move(bound));
      out.raw_conditions.push_back(c);
    }
    if (!local.empty()) {
      EPOXY_ASSIGN_OR_RETURN(out.inner, planner_->ApplyWhere(std::move(out.inner), AndUnbound(local), ctes));
    }
    return out;
  }

  /// [NOT] EXISTS (q) and x [NOT] IN (q) as a semi (anti) join of `scope` with q.
  Result<Scope> PredicateJoin(Scope scope, const Expr& subquery, bool negated) {
    const Query& q = QueryOf(subquery);
    const bool in = subquery.op == "in";
    const plan::JoinType type = negated ? plan::JoinType::kAnti : plan::JoinType::kSemi;
    ExprPtr value;
    if (in) {
      EPOXY_ASSIGN_OR_RETURN(value, expr::Bind(subquery.args[0], scope.schema(), scope.Options()));
    }
    auto standalone = planner_->PlanQuery(q, ctes_);
    if (standalone.ok()) {
      plan::PlanPtr right = standalone->plan;
      ExprPtr condition;
      if (in) {
        if (standalone->width() != 1) {
          return Status::InvalidInput("an IN subquery must return one column, this one returns {}", standalone->width());
        }
        EPOXY_ASSIGN_OR_RETURN(condition, Equal(value, plan::ShiftColumns(plan::ColumnRef(*right->schema, 0), scope.width())));
      } else {
        EPOXY_ASSIGN_OR_RETURN(right, plan::Limit(right, 1));  // only whether it has a row matters
      }
      EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr joined, plan::Join(scope.plan, right, type, condition));
      if (in && negated) {
        auto aware = std::make_shared<plan::PlanNode>(*joined);
        aware->null_aware = true;
        joined = aware;
      }
      scope.plan = joined;
      return scope;
    }
    auto correlated = Split(q, scope, false);
    if (!correlated.ok()) {
      return Status(correlated.status().code(), fmt::format("{} (planned on its own: {})", correlated.status().message(),
                                                            standalone.status().message()));
    }
    const int num_outer = scope.width(), num_inner = correlated->inner.width();
    std::vector<ExprPtr> conditions;
    for (const auto& c : correlated->conditions) conditions.push_back(OuterFirst(c, num_inner, num_outer));
    plan::PlanPtr right = correlated->inner.plan;
    if (in) {
      if (q.select.items.size() != 1) return Status::InvalidInput("an IN subquery must return one column");
      CombinedScope combined(correlated->inner, scope);
      EPOXY_ASSIGN_OR_RETURN(ExprPtr item, expr::Bind(q.select.items[0].expr, *combined.schema, combined.Options()));
      std::vector<int> used;
      expr::ReferencedColumns(*item, &used);
      for (int c : used) {
        if (c >= num_inner) return Status::NotSupported("an IN subquery's selected value must not refer to the outer query");
      }
      // The subquery's columns and its selected value.
      std::vector<ExprPtr> columns;
      std::vector<std::string> names;
      for (int c = 0; c < num_inner; ++c) {
        columns.push_back(plan::ColumnRef(correlated->inner.schema(), c));
        names.push_back(correlated->inner.schema().field(c).name);
      }
      columns.push_back(item);
      names.push_back("__in_value");
      EPOXY_ASSIGN_OR_RETURN(right, plan::ProjectBound(right, std::move(columns), std::move(names)));
      ExprPtr y = plan::ShiftColumns(plan::ColumnRef(*right->schema, num_inner), num_outer);
      EPOXY_ASSIGN_OR_RETURN(ExprPtr equal, Equal(value, y));
      if (negated) {
        // NOT IN: a row of the group with a null on either side makes the test unknown.
        equal = Typed("or", {Typed("or", {equal, Typed("is_null", {value}, DataType::Boolean())}, DataType::Boolean()),
                             Typed("is_null", {y}, DataType::Boolean())},
                      DataType::Boolean());
      }
      conditions.push_back(equal);
    }
    EPOXY_ASSIGN_OR_RETURN(scope.plan, plan::Join(scope.plan, right, type, plan::AndAll(conditions)));
    return scope;
  }

  /// A scalar subquery's value as a new last column of `scope`, named `name`.
  Status ScalarColumn(Scope* scope, const Expr& subquery, const std::string& name) {
    const Query& q = QueryOf(subquery);
    const int width = scope->width();
    auto standalone = planner_->PlanQuery(q, ctes_);
    if (standalone.ok()) {
      if (standalone->width() != 1) {
        return Status::InvalidInput("a scalar subquery must return one column, this one returns {}", standalone->width());
      }
      EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr value, plan::ProjectBound(standalone->plan, {plan::ColumnRef(standalone->schema(), 0)}, {name}));
      EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr joined, plan::Join(scope->plan, value, plan::JoinType::kLeft, nullptr));
      auto single = std::make_shared<plan::PlanNode>(*joined);
      single->single_match = true;
      scope->plan = single;
      scope->qualifiers.push_back("");
      return Status::OK();
    }
    if (q.kind != Query::Kind::kSelect || q.select.items.size() != 1) {
      return Status::InvalidInput("a scalar subquery must return one column ({})", standalone.status().message());
    }
    auto correlated = Split(q, *scope, true);
    if (!correlated.ok()) {
      return Status(correlated.status().code(), fmt::format("{} (planned on its own: {})", correlated.status().message(),
                                                            standalone.status().message()));
    }
    // Each correlation must be inner = outer: the inner side becomes a group key.
    const int num_inner = correlated->inner.width();
    std::vector<ExprPtr> inner_keys, outer_keys;
    for (size_t i = 0; i < correlated->conditions.size(); ++i) {
      const Expr& c = *correlated->conditions[i];
      const Expr& raw = *correlated->raw_conditions[i];
      bool split = false;
      if (c.kind == ExprKind::kCall && c.op == "=" && c.args.size() == 2) {
        for (int side = 0; side < 2 && !split; ++side) {
          std::vector<int> a, b;
          expr::ReferencedColumns(*c.args[static_cast<size_t>(side)], &a);
          expr::ReferencedColumns(*c.args[static_cast<size_t>(1 - side)], &b);
          const bool a_inner = !a.empty() && std::all_of(a.begin(), a.end(), [&](int x) { return x < num_inner; });
          const bool b_outer = !b.empty() && std::all_of(b.begin(), b.end(), [&](int x) { return x >= num_inner; });
          if (a_inner && b_outer) {
            inner_keys.push_back(raw.args[static_cast<size_t>(side)]);
            outer_keys.push_back(plan::ShiftColumns(c.args[static_cast<size_t>(1 - side)], -num_inner));
            split = true;
          }
        }
      }
      if (!split) {
        return Status::NotSupported(
            "a correlated scalar subquery may only relate its columns to the outer query's by equality, not '{}'",
            raw.ToString());
      }
    }
    const ExprPtr& item = q.select.items[0].expr;
    plan::GroupBySpec spec;
    spec.group_by = inner_keys;
    spec.select = inner_keys;
    spec.select.push_back(item);
    spec.select.push_back(Expr::Literal(expr::Scalar::Boolean(true)));
    for (size_t k = 0; k < inner_keys.size(); ++k) spec.names.push_back("__key_" + std::to_string(k));
    spec.names.push_back("__value");
    spec.names.push_back("__present");
    EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr grouped, plan::GroupBy(correlated->inner.plan, spec, correlated->inner.Options()));
    std::vector<ExprPtr> conditions;
    for (size_t k = 0; k < outer_keys.size(); ++k) {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr eq, Equal(outer_keys[k], plan::ShiftColumns(plan::ColumnRef(*grouped->schema, static_cast<int>(k)), width)));
      conditions.push_back(eq);
    }
    EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr joined, plan::Join(scope->plan, grouped, plan::JoinType::kLeft, plan::AndAll(conditions)));
    auto single = std::make_shared<plan::PlanNode>(*joined);
    single->single_match = true;
    const Schema& out = *single->schema;
    const int value = width + static_cast<int>(inner_keys.size());
    ExprPtr result = plan::ColumnRef(out, value);
    if (ExprPtr empty = EmptyInputValue(item)) {
      // No group for this row: the aggregate's value over no rows (count's 0), not null.
      ExprPtr missing = Typed("is_null", {plan::ColumnRef(out, value + 1)}, DataType::Boolean());
      result = Typed("case", {missing, expr::CastTo(empty, result->type), result}, result->type);
    }
    std::vector<ExprPtr> columns;
    std::vector<std::string> names;
    for (int c = 0; c < width; ++c) {
      columns.push_back(plan::ColumnRef(out, c));
      names.push_back(out.field(c).name);
    }
    columns.push_back(result);
    names.push_back(name);
    EPOXY_ASSIGN_OR_RETURN(scope->plan, plan::ProjectBound(single, std::move(columns), std::move(names)));
    scope->qualifiers.push_back("");
    return Status::OK();
  }

 private:
  Planner* planner_;
  const CommonTables& ctes_;
};

Result<Scope> Planner::ApplyWhere(Scope scope, const ExprPtr& where, const CommonTables& ctes) {
  SubqueryPlanner subqueries(this, ctes);
  const int width = scope.width();
  std::vector<ExprPtr> conjuncts, rest;
  SplitAnd(where, &conjuncts);
  for (const auto& c : conjuncts) {
    bool negated = false;
    const Expr* e = c.get();
    while (e->kind == ExprKind::kCall && e->op == "not" && e->args.size() == 1) {
      negated = !negated;
      e = e->args[0].get();
    }
    if (e->kind == ExprKind::kSubquery && (e->op == "exists" || e->op == "in")) {
      EPOXY_ASSIGN_OR_RETURN(scope, subqueries.PredicateJoin(std::move(scope), *e, negated));
      continue;
    }
    rest.push_back(c);
  }
  for (auto& r : rest) {
    if (expr::ContainsSubquery(*r)) {
      EPOXY_ASSIGN_OR_RETURN(r, JoinScalarSubqueries(&scope, r, ctes));
    }
  }
  if (!rest.empty()) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr condition, expr::Bind(AndUnbound(rest), scope.schema(), scope.Options()));
    EPOXY_ASSIGN_OR_RETURN(scope.plan, plan::FilterBound(scope.plan, condition));
  }
  if (scope.width() > width) {
    // The subqueries' value columns served the filter only.
    std::vector<ExprPtr> columns;
    std::vector<std::string> names;
    for (int c = 0; c < width; ++c) {
      columns.push_back(plan::ColumnRef(scope.schema(), c));
      names.push_back(scope.schema().field(c).name);
    }
    EPOXY_ASSIGN_OR_RETURN(scope.plan, plan::ProjectBound(scope.plan, std::move(columns), std::move(names)));
    scope.qualifiers.resize(static_cast<size_t>(width));
  }
  return scope;
}

Result<ExprPtr> Planner::JoinScalarSubqueries(Scope* scope, const ExprPtr& e, const CommonTables& ctes) {
  if (e->kind == ExprKind::kSubquery) {
    if (e->op != "scalar") {
      return Status::NotSupported(
          "EXISTS and IN with a subquery must be conditions of WHERE joined by AND (possibly under NOT), not part of '{}'",
          e->ToString());
    }
    SubqueryPlanner subqueries(this, ctes);
    const std::string name = PlaceholderName(next_placeholder_++);
    EPOXY_RETURN_NOT_OK(subqueries.ScalarColumn(scope, *e, name));
    return Expr::Column({name});
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (auto& a : copy->args) {
    EPOXY_ASSIGN_OR_RETURN(a, JoinScalarSubqueries(scope, a, ctes));
  }
  return ExprPtr(copy);
}

}  // namespace epoxy::sql
