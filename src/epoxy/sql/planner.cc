// SPDX-License-Identifier: Apache-2.0
// Planning queries: FROM (tables, files, WITH names, subqueries, joins), WHERE (through
// ApplyWhere), the select list or GROUP BY, DISTINCT, hints, ORDER BY (over the output, else over
// the input as hidden columns), set operations, LIMIT and OFFSET.
#include <algorithm>

#include "epoxy/plan/source.h"
#include "epoxy/sql/parser.h"
#include "epoxy/sql/planner_internal.h"

namespace epoxy::sql {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

void CollectTables(const Query& q, bool* any);

void CollectTables(const TableRef& ref, bool* any) {
  switch (ref.kind) {
    case TableRef::Kind::kTable: *any = true; break;
    case TableRef::Kind::kFiles:
    case TableRef::Kind::kValues: break;
    case TableRef::Kind::kSubquery: CollectTables(*ref.subquery, any); break;
    case TableRef::Kind::kJoin:
      CollectTables(*ref.left, any);
      CollectTables(*ref.right, any);
      break;
  }
}

void CollectTables(const Expr& e, bool* any) {
  if (e.kind == ExprKind::kSubquery) CollectTables(*std::static_pointer_cast<const Query>(e.subquery), any);
  for (const auto& a : e.args) CollectTables(*a, any);
}

void CollectTables(const Query& q, bool* any) {
  for (const auto& cte : q.with) CollectTables(*cte.query, any);
  if (q.kind != Query::Kind::kSelect) {
    CollectTables(*q.left, any);
    CollectTables(*q.right, any);
    return;
  }
  for (const auto& f : q.select.from) CollectTables(*f, any);
  for (const auto& i : q.select.items) CollectTables(*i.expr, any);
  if (q.select.where) CollectTables(*q.select.where, any);
  if (q.select.having) CollectTables(*q.select.having, any);
}

bool IsGenerator(const Expr& e) {
  return e.kind == ExprKind::kCall && e.window == nullptr &&
         (e.op == "explode" || e.op == "explode_outer" || e.op == "posexplode" || e.op == "posexplode_outer");
}

/// A generator in the select list (`explode(a) AS x`, `posexplode(a)`): a Generate node under the
/// projection, the item replaced by the generated columns. At most one, as in Spark.
Result<Scope> PlanGenerator(Scope scope, std::vector<ExprPtr>* items, std::vector<std::string>* names) {
  size_t at = items->size();
  for (size_t i = 0; i < items->size(); ++i) {
    if (!IsGenerator(*(*items)[i])) continue;
    if (at != items->size()) return Status::InvalidInput("only one generator (explode, posexplode) is allowed per SELECT");
    at = i;
  }
  if (at == items->size()) return scope;
  const Expr& call = *(*items)[at];
  if (call.args.size() != 1) return Status::InvalidInput("{} takes one argument ('{}')", call.op, call.ToString());
  EPOXY_ASSIGN_OR_RETURN(ExprPtr argument, expr::Bind(call.args[0], scope.schema(), scope.Options()));
  const bool outer = call.op.find("_outer") != std::string::npos;
  const bool position = call.op.rfind("pos", 0) == 0;
  std::vector<std::string> generated_names;
  if (!(*names)[at].empty()) generated_names.push_back((*names)[at]);
  const int input_width = scope.width();
  EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr generate, plan::Generate(scope.plan, argument, outer, position, generated_names));
  Scope out;
  out.plan = generate;
  out.qualifiers = scope.qualifiers;
  out.qualifiers.resize(static_cast<size_t>(generate->schema->num_fields()), "");
  std::vector<ExprPtr> replaced;
  std::vector<std::string> replaced_names;
  for (size_t i = 0; i < items->size(); ++i) {
    if (i != at) {
      replaced.push_back((*items)[i]);
      replaced_names.push_back((*names)[i]);
      continue;
    }
    for (int c = input_width; c < generate->schema->num_fields(); ++c) {
      auto column = std::make_shared<Expr>(*Expr::Column({generate->schema->field(c).name}));
      column->column = c;
      column->resolved = true;
      replaced.push_back(column);
      replaced_names.push_back(generate->schema->field(c).name);
    }
  }
  *items = std::move(replaced);
  *names = std::move(replaced_names);
  return out;
}

/// The scope under new column names (a subquery's `AS t(a, b)`, a WITH list).
Result<Scope> Renamed(Scope scope, const std::string& alias, const std::vector<std::string>& columns) {
  if (!columns.empty()) {
    if (static_cast<int>(columns.size()) != scope.width()) {
      return Status::InvalidInput("{} names {} columns, but its query has {}", alias.empty() ? "a subquery" : alias,
                                  columns.size(), scope.width());
    }
    std::vector<ExprPtr> refs;
    for (int c = 0; c < scope.width(); ++c) refs.push_back(plan::ColumnRef(scope.schema(), c));
    EPOXY_ASSIGN_OR_RETURN(scope.plan, plan::ProjectBound(scope.plan, std::move(refs), columns));
  }
  scope.qualifiers.assign(static_cast<size_t>(scope.width()), alias);
  return scope;
}

/// Spark's name for a relation in hints and qualifiers: its alias, else its table name.
std::string RelationName(const TableRef& ref) {
  if (!ref.alias.empty()) return ref.alias;
  return ref.kind == TableRef::Kind::kTable ? ref.table : "";
}

bool Hinted(const SelectCore& core, const TableRef& ref) {
  const std::string name = RelationName(ref);
  if (name.empty()) return false;
  return std::any_of(core.broadcast.begin(), core.broadcast.end(), [&](const std::string& b) { return SameName(b, name); });
}

/// An integer literal (ORDER BY 2, GROUP BY 1): its value.
bool Ordinal(const Expr& e, int64_t* out) {
  if (e.kind != ExprKind::kLiteral || e.literal.is_null() || !std::holds_alternative<int64_t>(e.literal.value)) return false;
  if (!e.literal.type->is_integer()) return false;
  *out = std::get<int64_t>(e.literal.value);
  return true;
}

}  // namespace

std::string PlaceholderName(int k) { return "__subquery_" + std::to_string(k); }

bool NeedsCatalog(const Statement& statement) {
  bool any = false;
  CollectTables(*statement.query, &any);
  return any;
}

Result<std::vector<ExprPtr>> ExpandStars(const std::vector<ExprPtr>& items, const Scope& scope,
                                         std::vector<std::string>* names) {
  std::vector<ExprPtr> out;
  std::vector<std::string> out_names;
  for (size_t i = 0; i < items.size(); ++i) {
    const ExprPtr& e = items[i];
    if (e->kind != ExprKind::kStar) {
      out.push_back(e);
      out_names.push_back(i < names->size() ? (*names)[i] : "");
      continue;
    }
    bool any = false;
    for (int c = 0; c < scope.width(); ++c) {
      if (!e->name.empty() && !SameName(scope.qualifiers[static_cast<size_t>(c)], e->name[0])) continue;
      auto column = std::make_shared<Expr>(*Expr::Column({scope.schema().field(c).name}));
      column->column = c;
      column->resolved = true;
      out.push_back(column);
      out_names.push_back(scope.schema().field(c).name);
      any = true;
    }
    if (!any && !e->name.empty()) return Status::InvalidInput("'{}.*': no relation named {} in FROM", e->name[0], e->name[0]);
  }
  *names = std::move(out_names);
  return out;
}

Result<Scope> Planner::PlanQuery(const Query& query, const CommonTables& outer_ctes) {
  CommonTables ctes = outer_ctes;
  for (const auto& cte : query.with) ctes.push_back(cte);
  Scope out;
  std::vector<plan::SortKey> keys;
  int visible = -1;
  if (query.kind == Query::Kind::kSelect) {
    EPOXY_ASSIGN_OR_RETURN(out, PlanSelect(query.select, query.order_by, ctes, &keys, &visible));
  } else {
    EPOXY_ASSIGN_OR_RETURN(Scope left, PlanQuery(*query.left, ctes));
    EPOXY_ASSIGN_OR_RETURN(Scope right, PlanQuery(*query.right, ctes));
    if (query.kind == Query::Kind::kUnion) {
      EPOXY_ASSIGN_OR_RETURN(out.plan, plan::UnionAll({left.plan, right.plan}));
      if (!query.all) {
        EPOXY_ASSIGN_OR_RETURN(out.plan, plan::Distinct(out.plan));
      }
    } else {
      EPOXY_ASSIGN_OR_RETURN(out.plan, plan::SetOperation(left.plan, right.plan,
                                                          query.kind == Query::Kind::kIntersect ? plan::SetOpKind::kIntersect
                                                                                                : plan::SetOpKind::kExcept,
                                                          query.all));
    }
    out.qualifiers.assign(static_cast<size_t>(out.width()), "");
    for (const auto& item : query.order_by) {
      int64_t ordinal = 0;
      ExprPtr bound;
      if (Ordinal(*item.expr, &ordinal)) {
        if (ordinal < 1 || ordinal > out.width()) return Status::InvalidInput("ORDER BY position {} is not in the select list", ordinal);
        bound = plan::ColumnRef(out.schema(), static_cast<int>(ordinal - 1));
      } else {
        EPOXY_ASSIGN_OR_RETURN(bound, expr::Bind(item.expr, out.schema(), out.Options()));
      }
      keys.push_back({bound, item.ascending, item.nulls_first});
    }
  }
  if (!keys.empty()) {
    EPOXY_ASSIGN_OR_RETURN(out.plan, plan::Sort(out.plan, std::move(keys)));
  }
  if (query.limit || query.offset > 0) {
    EPOXY_ASSIGN_OR_RETURN(out.plan, plan::Limit(out.plan, query.limit ? *query.limit : -1, query.offset));
  }
  if (visible >= 0 && visible < out.width()) {
    // ORDER BY's hidden columns go once the rows are sorted.
    std::vector<ExprPtr> columns;
    std::vector<std::string> names;
    for (int c = 0; c < visible; ++c) {
      columns.push_back(plan::ColumnRef(out.schema(), c));
      names.push_back(out.schema().field(c).name);
    }
    EPOXY_ASSIGN_OR_RETURN(out.plan, plan::ProjectBound(out.plan, std::move(columns), std::move(names)));
    out.qualifiers.resize(static_cast<size_t>(visible));
  }
  return out;
}

Result<Scope> Planner::PlanSelect(const SelectCore& core, const std::vector<expr::OrderItem>& order_by,
                                  const CommonTables& ctes, std::vector<plan::SortKey>* sort_keys, int* num_visible) {
  Scope scope;
  if (core.from.empty()) {
    EPOXY_ASSIGN_OR_RETURN(scope.plan, plan::SingleRow());
  } else {
    EPOXY_ASSIGN_OR_RETURN(scope, PlanFrom(core.from, core, ctes));
  }
  if (core.where) {
    if (expr::ContainsAggregate(*core.where)) return Status::InvalidInput("aggregate functions are not allowed in WHERE ('{}'); use HAVING", core.where->ToString());
    EPOXY_ASSIGN_OR_RETURN(scope, ApplyWhere(std::move(scope), core.where, ctes));
  }
  std::vector<ExprPtr> raw;
  std::vector<std::string> names;
  for (const auto& item : core.items) {
    raw.push_back(item.expr);
    names.push_back(item.alias);
  }
  EPOXY_ASSIGN_OR_RETURN(std::vector<ExprPtr> items, ExpandStars(raw, scope, &names));
  bool grouped = core.grouped || (core.having != nullptr);
  for (const auto& e : items) grouped = grouped || expr::ContainsAggregate(*e);
  if (!grouped) {
    EPOXY_ASSIGN_OR_RETURN(scope, PlanGenerator(std::move(scope), &items, &names));
  }

  // The select list, with `extra` expressions (ORDER BY keys over the input) as hidden columns.
  auto build = [&](const std::vector<ExprPtr>& extra) -> Result<Scope> {
    if (grouped) return PlanGrouped(scope, core, items, names, extra, ctes);
    Scope input = scope;
    std::vector<ExprPtr> bound;
    expr::BindOptions options = input.Options();
    options.allow_windows = true;
    std::vector<ExprPtr> all = items;
    all.insert(all.end(), extra.begin(), extra.end());
    for (auto& e : all) {
      if (expr::ContainsSubquery(*e)) {
        EPOXY_ASSIGN_OR_RETURN(e, JoinScalarSubqueries(&input, e, ctes));
      }
    }
    options.column_qualifiers = &input.qualifiers;
    for (const auto& e : all) {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr b, expr::Bind(e, input.schema(), options));
      bound.push_back(std::move(b));
    }
    std::vector<std::string> all_names = names;
    all_names.resize(all.size());
    Scope out;
    EPOXY_ASSIGN_OR_RETURN(out.plan, plan::ProjectWithWindows(input.plan, std::move(bound), std::move(all_names)));
    return out;
  };
  EPOXY_ASSIGN_OR_RETURN(Scope out, build({}));
  // Output columns that are plain input columns keep their relation's name (ORDER BY n1.n_name).
  out.qualifiers.assign(static_cast<size_t>(out.width()), "");
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i]->kind != ExprKind::kColumn || !names[i].empty()) continue;
    auto bound = expr::Bind(items[i], scope.schema(), scope.Options());
    if (bound.ok() && (*bound)->fields.empty()) out.qualifiers[i] = scope.qualifiers[static_cast<size_t>((*bound)->column)];
  }
  // ORDER BY: over the output first (aliases, select items, ordinals), else over the input.
  std::vector<ExprPtr> extra;
  std::vector<int> extra_of;  // per ORDER BY item: its hidden column, or -1
  std::vector<ExprPtr> resolved;
  for (const auto& item : order_by) {
    int64_t ordinal = 0;
    if (Ordinal(*item.expr, &ordinal)) {
      if (ordinal < 1 || ordinal > out.width()) return Status::InvalidInput("ORDER BY position {} is not in the select list", ordinal);
      resolved.push_back(plan::ColumnRef(out.schema(), static_cast<int>(ordinal - 1)));
      extra_of.push_back(-1);
      continue;
    }
    auto bound = expr::Bind(item.expr, out.schema(), out.Options());
    if (bound.ok()) {
      resolved.push_back(*bound);
      extra_of.push_back(-1);
      continue;
    }
    if (core.distinct) {
      return Status::InvalidInput("ORDER BY '{}' of a SELECT DISTINCT must be in the select list ({})", item.expr->ToString(),
                                  bound.status().message());
    }
    resolved.push_back(nullptr);
    extra_of.push_back(static_cast<int>(extra.size()));
    extra.push_back(item.expr);
  }
  const int visible = out.width();
  if (!extra.empty()) {
    std::vector<std::string> qualifiers = out.qualifiers;
    EPOXY_ASSIGN_OR_RETURN(out, build(extra));
    qualifiers.resize(static_cast<size_t>(out.width()), "");
    out.qualifiers = std::move(qualifiers);
  }
  for (size_t k = 0; k < order_by.size(); ++k) {
    ExprPtr key = extra_of[k] < 0 ? resolved[k] : plan::ColumnRef(out.schema(), visible + extra_of[k]);
    sort_keys->push_back({key, order_by[k].ascending, order_by[k].nulls_first});
  }
  *num_visible = extra.empty() ? -1 : visible;
  if (core.distinct) {
    EPOXY_ASSIGN_OR_RETURN(out.plan, plan::Distinct(out.plan));
  }
  if (core.repartition) {
    std::vector<ExprPtr> keys;
    for (const auto& k : core.repartition_by) {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr b, expr::Bind(k, out.schema(), out.Options()));
      keys.push_back(std::move(b));
    }
    EPOXY_ASSIGN_OR_RETURN(out.plan, plan::Repartition(out.plan, *core.repartition, std::move(keys), core.coalesce));
  }
  return out;
}

Result<Scope> Planner::PlanGrouped(const Scope& from, const SelectCore& core, const std::vector<ExprPtr>& items,
                                   const std::vector<std::string>& names, const std::vector<ExprPtr>& extra,
                                   const CommonTables& ctes) {
  plan::GroupBySpec spec;
  // GROUP BY 1 and GROUP BY alias mean select items (an input column of that name wins).
  for (const auto& g : core.group_by) {
    int64_t ordinal = 0;
    if (Ordinal(*g, &ordinal)) {
      if (ordinal < 1 || ordinal > static_cast<int64_t>(items.size())) {
        return Status::InvalidInput("GROUP BY position {} is not in the select list", ordinal);
      }
      spec.group_by.push_back(items[static_cast<size_t>(ordinal - 1)]);
      continue;
    }
    ExprPtr key = g;
    if (g->kind == ExprKind::kColumn && g->name.size() == 1 && !expr::Bind(g, from.schema(), from.Options()).ok()) {
      for (size_t i = 0; i < names.size(); ++i) {
        if (SameName(names[i], g->name[0])) key = items[i];
      }
    }
    spec.group_by.push_back(key);
  }
  spec.grouping_sets = core.grouping_sets;
  bool subqueries = core.having != nullptr && expr::ContainsSubquery(*core.having);
  for (const auto& e : items) subqueries = subqueries || expr::ContainsSubquery(*e);
  for (const auto& e : extra) subqueries = subqueries || expr::ContainsSubquery(*e);
  if (!subqueries) {
    spec.select = items;
    spec.names = names;
    spec.having = core.having;
    spec.extra = extra;
    Scope out;
    EPOXY_ASSIGN_OR_RETURN(out.plan, plan::GroupBy(from.plan, spec, from.Options()));
    return out;
  }
  // Subqueries in a grouped select list or HAVING are values from outside the groups: the parts
  // of each expression without one are computed by the aggregate, the subqueries' values joined to
  // its rows, and the expressions assembled over both.
  std::vector<std::pair<std::string, ExprPtr>> subquery_values;
  std::function<ExprPtr(const ExprPtr&)> cut_subqueries = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kSubquery) {
      std::string name = PlaceholderName(next_placeholder_++);
      subquery_values.emplace_back(name, e);
      return Expr::Column({name});
    }
    if (e->args.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (auto& a : copy->args) a = cut_subqueries(a);
    return copy;
  };
  std::vector<ExprPtr> pieces;
  std::vector<std::string> piece_names;
  std::function<bool(const Expr&)> has_placeholder = [&](const Expr& e) {
    if (e.kind == ExprKind::kColumn && e.name.size() == 1 && e.name[0].rfind("__subquery_", 0) == 0) return true;
    return std::any_of(e.args.begin(), e.args.end(), [&](const ExprPtr& a) { return has_placeholder(*a); });
  };
  std::function<ExprPtr(const ExprPtr&)> skeleton = [&](const ExprPtr& e) -> ExprPtr {
    if (!has_placeholder(*e)) {
      if (e->kind == ExprKind::kLiteral) return e;
      std::string name = "__aggregated_" + std::to_string(pieces.size());
      pieces.push_back(e);
      piece_names.push_back(name);
      return Expr::Column({name});
    }
    if (e->args.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (auto& a : copy->args) a = skeleton(a);
    return copy;
  };
  std::vector<ExprPtr> shaped;
  for (const auto& e : items) shaped.push_back(skeleton(cut_subqueries(e)));
  for (const auto& e : extra) shaped.push_back(skeleton(cut_subqueries(e)));
  ExprPtr having = core.having ? skeleton(cut_subqueries(core.having)) : nullptr;
  spec.select = pieces;
  spec.names = piece_names;
  Scope grouped;
  EPOXY_ASSIGN_OR_RETURN(grouped.plan, plan::GroupBy(from.plan, spec, from.Options()));
  grouped.qualifiers.assign(static_cast<size_t>(grouped.width()), "");
  for (const auto& [name, subquery] : subquery_values) {
    if (subquery->op != "scalar") {
      return Status::NotSupported("EXISTS and IN with a subquery are only supported in WHERE, not with GROUP BY ('{}')", subquery->ToString());
    }
    const Query& q = *std::static_pointer_cast<const Query>(subquery->subquery);
    auto value = PlanQuery(q, ctes);
    if (!value.ok()) {
      return Status::NotSupported("a subquery in a grouped select list or HAVING must not refer to the outer query: {}",
                                  value.status().message());
    }
    if (value->width() != 1) return Status::InvalidInput("a scalar subquery must return one column, this one returns {}", value->width());
    EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr named, plan::ProjectBound(value->plan, {plan::ColumnRef(value->schema(), 0)}, {name}));
    EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr joined, plan::Join(grouped.plan, named, plan::JoinType::kLeft, nullptr));
    auto single = std::make_shared<plan::PlanNode>(*joined);
    single->single_match = true;
    grouped.plan = single;
    grouped.qualifiers.push_back("");
  }
  if (having) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr condition, expr::Bind(having, grouped.schema(), grouped.Options()));
    EPOXY_ASSIGN_OR_RETURN(grouped.plan, plan::FilterBound(grouped.plan, condition));
  }
  std::vector<ExprPtr> bound;
  expr::BindOptions options = grouped.Options();
  options.allow_windows = true;
  for (const auto& e : shaped) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr b, expr::Bind(e, grouped.schema(), options));
    bound.push_back(std::move(b));
  }
  std::vector<std::string> out_names = names;
  out_names.resize(shaped.size());
  Scope out;
  EPOXY_ASSIGN_OR_RETURN(out.plan, plan::ProjectWithWindows(grouped.plan, std::move(bound), std::move(out_names)));
  return out;
}

Result<Scope> Planner::PlanFrom(const std::vector<TableRefPtr>& from, const SelectCore& core, const CommonTables& ctes) {
  EPOXY_ASSIGN_OR_RETURN(Scope out, PlanTableRef(*from[0], core, ctes));
  for (size_t i = 1; i < from.size(); ++i) {
    EPOXY_ASSIGN_OR_RETURN(Scope right, PlanTableRef(*from[i], core, ctes));
    plan::JoinHint hint = Hinted(core, *from[i]) ? plan::JoinHint::kBroadcastRight
                          : (i == 1 && Hinted(core, *from[0])) ? plan::JoinHint::kBroadcastLeft
                                                                : plan::JoinHint::kNone;
    EPOXY_ASSIGN_OR_RETURN(out.plan, plan::Join(out.plan, right.plan, plan::JoinType::kCross, nullptr, hint));
    out.qualifiers.insert(out.qualifiers.end(), right.qualifiers.begin(), right.qualifiers.end());
  }
  return out;
}

Result<Scope> Planner::PlanTableRef(const TableRef& ref, const SelectCore& core, const CommonTables& ctes) {
  switch (ref.kind) {
    case TableRef::Kind::kTable: {
      if (ref.database.empty()) {
        // A WITH name, the innermost first; it sees the names defined before it.
        for (size_t i = ctes.size(); i-- > 0;) {
          if (!SameName(ctes[i].name, ref.table)) continue;
          CommonTables visible(ctes.begin(), ctes.begin() + static_cast<long>(i));
          EPOXY_ASSIGN_OR_RETURN(Scope scope, PlanQuery(*ctes[i].query, visible));
          return Renamed(std::move(scope), ref.alias.empty() ? ref.table : ref.alias, ref.column_aliases);
        }
      }
      if (ref.database.empty() && context_.temp_views != nullptr) {
        for (const auto& [name, view] : *context_.temp_views) {
          if (!SameName(name, ref.table)) continue;
          Scope scope;
          scope.plan = view;
          return Renamed(std::move(scope), ref.alias.empty() ? ref.table : ref.alias, ref.column_aliases);
        }
      }
      if (context_.catalog == nullptr) return Status::InvalidInput("no catalog to find table {}", ref.table);
      const std::string db = ref.database.empty() ? context_.default_database : ref.database;
      EPOXY_ASSIGN_OR_RETURN(plan::ScanSource source, plan::ResolveCatalogSource(*context_.catalog, db, ref.table));
      Scope scope;
      EPOXY_ASSIGN_OR_RETURN(scope.plan, plan::Scan(std::move(source)));
      return Renamed(std::move(scope), ref.alias.empty() ? ref.table : ref.alias, ref.column_aliases);
    }
    case TableRef::Kind::kFiles: {
      EPOXY_ASSIGN_OR_RETURN(plan::ScanSource source, plan::ResolveFileSource(ref.format, ref.path));
      Scope scope;
      EPOXY_ASSIGN_OR_RETURN(scope.plan, plan::Scan(std::move(source)));
      return Renamed(std::move(scope), ref.alias, ref.column_aliases);
    }
    case TableRef::Kind::kSubquery: {
      EPOXY_ASSIGN_OR_RETURN(Scope scope, PlanQuery(*ref.subquery, ctes));
      return Renamed(std::move(scope), ref.alias, ref.column_aliases);
    }
    case TableRef::Kind::kJoin: return PlanJoin(ref, core, ctes);
    case TableRef::Kind::kValues: return PlanInlineTable(ref);
  }
  return Status::Internal("unknown table reference");
}

Result<Scope> Planner::PlanJoin(const TableRef& ref, const SelectCore& core, const CommonTables& ctes) {
  EPOXY_ASSIGN_OR_RETURN(Scope left, PlanTableRef(*ref.left, core, ctes));
  EPOXY_ASSIGN_OR_RETURN(Scope right, PlanTableRef(*ref.right, core, ctes));
  Scope both;
  both.qualifiers = left.qualifiers;
  both.qualifiers.insert(both.qualifiers.end(), right.qualifiers.begin(), right.qualifiers.end());
  std::vector<Field> fields = left.schema().fields();
  for (const auto& f : right.schema().fields()) fields.push_back(f);
  const SchemaPtr combined = Schema::Make(std::move(fields));
  const plan::JoinHint hint = Hinted(core, *ref.right) ? plan::JoinHint::kBroadcastRight
                              : Hinted(core, *ref.left) ? plan::JoinHint::kBroadcastLeft
                                                        : plan::JoinHint::kNone;
  std::vector<std::string> using_columns = ref.using_columns;
  if (ref.natural) {
    for (const auto& f : left.schema().fields()) {
      if (right.schema().FieldIndex(f.name) >= 0) using_columns.push_back(f.name);
    }
  }
  ExprPtr condition;
  if (ref.condition) {
    if (expr::ContainsSubquery(*ref.condition)) return Status::NotSupported("subqueries in a JOIN's ON condition; move them to WHERE");
    expr::BindOptions options;
    options.column_qualifiers = &both.qualifiers;
    EPOXY_ASSIGN_OR_RETURN(condition, expr::Bind(ref.condition, *combined, options));
  }
  std::vector<std::pair<int, int>> using_pairs;
  if (!using_columns.empty()) {
    std::vector<ExprPtr> equal;
    for (const auto& name : using_columns) {
      const int l = left.schema().FieldIndex(name), r = right.schema().FieldIndex(name);
      if (l < 0 || r < 0) {
        return Status::InvalidInput("USING column '{}' must be in both sides of the join (left: {}; right: {})", name,
                                    left.schema().ColumnNames(), right.schema().ColumnNames());
      }
      using_pairs.emplace_back(l, r);
      auto eq = Expr::Call("=", {Expr::Column({name}), Expr::Column({name})});
      // Bound by hand: the left's column against the right's.
      auto lhs = plan::ColumnRef(*combined, l), rhs = plan::ColumnRef(*combined, left.width() + r);
      EPOXY_ASSIGN_OR_RETURN(TypePtr common, expr::ComparisonType(lhs->type, rhs->type));
      auto e = std::make_shared<Expr>(*Expr::Call("=", {expr::CastTo(lhs, common), expr::CastTo(rhs, common)}));
      e->type = DataType::Boolean();
      equal.push_back(e);
      (void)eq;
    }
    if (condition) equal.push_back(condition);
    condition = plan::AndAll(equal);
  }
  EPOXY_ASSIGN_OR_RETURN(both.plan, plan::Join(left.plan, right.plan, ref.join_type, condition, hint));
  if (ref.join_type == plan::JoinType::kSemi || ref.join_type == plan::JoinType::kAnti) {
    both.qualifiers.resize(static_cast<size_t>(left.width()));
  }
  if (using_pairs.empty() || ref.join_type == plan::JoinType::kSemi || ref.join_type == plan::JoinType::kAnti) {
    if (!ref.alias.empty()) return Renamed(std::move(both), ref.alias, {});
    return both;
  }
  // USING: each join column once (from the preserved side; coalesced for a full join), then
  // the other columns of the left and of the right.
  std::vector<ExprPtr> columns;
  std::vector<std::string> names, qualifiers;
  const Schema& out = both.schema();
  for (auto [l, r] : using_pairs) {
    ExprPtr lhs = plan::ColumnRef(out, l), rhs = plan::ColumnRef(out, left.width() + r);
    ExprPtr value = ref.join_type == plan::JoinType::kRight ? rhs : lhs;
    if (ref.join_type == plan::JoinType::kFull) {
      EPOXY_ASSIGN_OR_RETURN(TypePtr common, expr::CommonType(lhs->type, rhs->type));
      auto c = std::make_shared<Expr>(*Expr::Call("coalesce", {expr::CastTo(lhs, common), expr::CastTo(rhs, common)}));
      c->type = common;
      value = c;
    }
    columns.push_back(value);
    names.push_back(left.schema().field(l).name);
    qualifiers.push_back("");
  }
  for (int c = 0; c < out.num_fields(); ++c) {
    const bool is_left = c < left.width();
    const int index = is_left ? c : c - left.width();
    bool used = std::any_of(using_pairs.begin(), using_pairs.end(), [&](auto p) { return (is_left ? p.first : p.second) == index; });
    if (used) continue;
    columns.push_back(plan::ColumnRef(out, c));
    names.push_back(out.field(c).name);
    qualifiers.push_back(both.qualifiers[static_cast<size_t>(c)]);
  }
  Scope result;
  EPOXY_ASSIGN_OR_RETURN(result.plan, plan::ProjectBound(both.plan, std::move(columns), std::move(names)));
  result.qualifiers = std::move(qualifiers);
  if (!ref.alias.empty()) return Renamed(std::move(result), ref.alias, {});
  return result;
}

Result<plan::PlanPtr> PlanQuery(const Query& query, const SqlContext& context) {
  Planner planner(context);
  EPOXY_ASSIGN_OR_RETURN(Scope scope, planner.PlanQuery(query, {}));
  return scope.plan;
}

Result<plan::PlanPtr> PlanSql(std::string_view text, const SqlContext& context) {
  EPOXY_ASSIGN_OR_RETURN(Statement statement, ParseStatement(text));
  return PlanQuery(*statement.query, context);
}

}  // namespace epoxy::sql
