// SPDX-License-Identifier: Apache-2.0
// Building and explaining logical plans; rewriting the column references of bound expressions.
#include "epoxy/plan/logical_plan.h"

#include <algorithm>
#include <functional>

#include "epoxy/expr/binder.h"

namespace epoxy::plan {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

std::shared_ptr<PlanNode> NodeOf(PlanKind kind, std::vector<PlanPtr> inputs) {
  auto node = std::make_shared<PlanNode>();
  node->kind = kind;
  node->inputs = std::move(inputs);
  return node;
}

const char* KindName(PlanKind kind) {
  switch (kind) {
    case PlanKind::kScan: return "Scan";
    case PlanKind::kFilter: return "Filter";
    case PlanKind::kProject: return "Project";
    case PlanKind::kAggregate: return "Aggregate";
    case PlanKind::kUnion: return "UnionAll";
    case PlanKind::kLimit: return "Limit";
    case PlanKind::kDistinct: return "Distinct";
    case PlanKind::kJoin: return "Join";
    case PlanKind::kSort: return "Sort";
    case PlanKind::kWindow: return "Window";
    case PlanKind::kReplicate: return "Replicate";
    case PlanKind::kRepartition: return "Repartition";
    case PlanKind::kExpand: return "Expand";
    case PlanKind::kValues: return "Values";
    case PlanKind::kGenerate: return "Generate";
  }
  return "?";
}

std::string ExprList(const std::vector<ExprPtr>& exprs) {
  std::vector<std::string> parts;
  for (const auto& e : exprs) parts.push_back(e->ToString());
  return fmt::format("{}", fmt::join(parts, ", "));
}

/// Each expression with its output name where the two differ.
std::string NamedList(const std::vector<ExprPtr>& exprs, const Schema& schema, int first_column) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < exprs.size(); ++i) {
    std::string text = exprs[i]->ToString();
    const std::string& name = schema.field(first_column + static_cast<int>(i)).name;
    parts.push_back(text == name ? text : text + " AS " + name);
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string SortList(const std::vector<SortKey>& keys) {
  std::vector<std::string> parts;
  for (const auto& k : keys) {
    parts.push_back(fmt::format("{} {} NULLS {}", k.expr->ToString(), k.ascending ? "ASC" : "DESC", k.nulls_first ? "FIRST" : "LAST"));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

std::string_view JoinTypeName(JoinType type) {
  switch (type) {
    case JoinType::kInner: return "inner";
    case JoinType::kLeft: return "left outer";
    case JoinType::kRight: return "right outer";
    case JoinType::kFull: return "full outer";
    case JoinType::kSemi: return "left semi";
    case JoinType::kAnti: return "left anti";
    case JoinType::kCross: return "cross";
  }
  return "?";
}

std::string PlanNode::Explain(int indent) const {
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  std::string line = pad + KindName(kind);
  switch (kind) {
    case PlanKind::kScan: {
      if (source.table_source != nullptr) {
        const std::string described = source.table_source->Describe();
        line += " " + (source.catalog_table.empty() ? described : source.catalog_table + " (" + described + ")");
      } else {
        line += fmt::format(" {} {}", FileFormatName(source.format),
                            source.catalog_table.empty() ? source.root : source.catalog_table + " (" + source.root + ")");
      }
      if (!source.partition_keys.empty()) {
        std::vector<std::string> keys;
        for (const auto& k : source.partition_keys) keys.push_back(k.name);
        line += fmt::format(" partitioned by [{}]", fmt::join(keys, ", "));
      }
      if (columns_pushed) {
        std::vector<std::string> names;
        for (int c : columns) names.push_back(schema->field(c).name);
        line += fmt::format(" columns [{}]", fmt::join(names, ", "));
      }
      if (partition_filter) line += " partition filter " + partition_filter->ToString();
      if (row_filter) line += " filter " + row_filter->ToString();
      break;
    }
    case PlanKind::kFilter: line += " " + predicate->ToString(); break;
    case PlanKind::kProject: line += " " + NamedList(exprs, *schema, 0); break;
    case PlanKind::kAggregate:
      line += fmt::format(" keys [{}] aggregates [{}]", ExprList(keys),
                          NamedList(exprs, *schema, static_cast<int>(keys.size())));
      break;
    case PlanKind::kLimit:
      line += limit >= 0 ? " " + std::to_string(limit) : " all";
      if (offset > 0) line += fmt::format(" offset {}", offset);
      break;
    case PlanKind::kJoin: {
      line += fmt::format(" {}", JoinTypeName(join_type));
      std::vector<std::string> pairs;
      for (size_t i = 0; i < left_keys.size(); ++i) {
        pairs.push_back(fmt::format("{} {} {}", left_keys[i]->ToString(), null_safe[i] ? "<=>" : "=", right_keys[i]->ToString()));
      }
      if (!pairs.empty()) line += fmt::format(" on [{}]", fmt::join(pairs, ", "));
      if (predicate) line += " condition " + predicate->ToString();
      if (hint == JoinHint::kBroadcastLeft) line += " broadcast left";
      if (hint == JoinHint::kBroadcastRight) line += " broadcast right";
      if (null_aware) line += " null-aware";
      if (single_match) line += " single match";
      break;
    }
    case PlanKind::kSort: line += " " + SortList(sort_keys); break;
    case PlanKind::kWindow: {
      if (!keys.empty()) line += fmt::format(" partition by [{}]", ExprList(keys));
      if (!sort_keys.empty()) line += fmt::format(" order by [{}]", SortList(sort_keys));
      line += fmt::format(" [{}]", NamedList(window_calls, *schema, inputs[0]->schema->num_fields()));
      break;
    }
    case PlanKind::kReplicate: line += " by " + inputs[0]->schema->fields().back().name; break;
    case PlanKind::kRepartition:
      line += fmt::format(" {} {}", coalesce ? "coalesce" : "repartition", num_partitions);
      if (!keys.empty()) line += fmt::format(" by [{}]", ExprList(keys));
      break;
    case PlanKind::kExpand: line += fmt::format(" {} sets", projections.size()); break;
    case PlanKind::kGenerate:
      line += fmt::format(" {}explode{}({})", generate_position ? "pos" : "", generate_outer ? "_outer" : "", exprs[0]->ToString());
      break;
    case PlanKind::kUnion:
    case PlanKind::kDistinct:
    case PlanKind::kValues: break;
  }
  line += "\n";
  for (const auto& input : inputs) line += input->Explain(indent + 1);
  return line;
}

Result<PlanPtr> Scan(ScanSource source) {
  if (source.data_schema == nullptr) return Status::InvalidInput("a scan of '{}' has no schema", source.root);
  auto node = NodeOf(PlanKind::kScan, {});
  std::vector<Field> fields = source.data_schema->fields();
  for (const auto& k : source.partition_keys) {
    // A partition key also stored in the files is the key (as Glue and Spark read them).
    fields.erase(std::remove_if(fields.begin(), fields.end(), [&](const Field& f) { return f.name == k.name; }), fields.end());
  }
  source.data_schema = Schema::Make(fields);
  for (const auto& k : source.partition_keys) fields.push_back(k);
  node->schema = Schema::Make(std::move(fields));
  node->source = std::move(source);
  return PlanPtr(node);
}

Result<PlanPtr> Filter(PlanPtr input, const ExprPtr& predicate, const std::vector<std::string>& qualifiers) {
  expr::BindOptions options;
  options.qualifiers = qualifiers;
  EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, expr::Bind(predicate, *input->schema, options));
  return FilterBound(std::move(input), std::move(bound));
}

Result<PlanPtr> FilterBound(PlanPtr input, ExprPtr predicate) {
  if (predicate->type->id() != TypeId::kBoolean && predicate->type->id() != TypeId::kNull) {
    return Status::InvalidInput("a filter must be boolean; '{}' is {}", predicate->ToString(), predicate->type->ToString());
  }
  auto node = NodeOf(PlanKind::kFilter, {input});
  node->schema = input->schema;
  node->predicate = std::move(predicate);
  return PlanPtr(node);
}

Result<PlanPtr> Project(PlanPtr input, const std::vector<ExprPtr>& exprs, const std::vector<std::string>& names,
                        const std::vector<std::string>& qualifiers) {
  expr::BindOptions options;
  options.qualifiers = qualifiers;
  bool any_aggregate = false;
  for (const auto& e : exprs) any_aggregate = any_aggregate || expr::ContainsAggregate(*e);
  if (any_aggregate) {
    GroupBySpec spec;
    spec.select = exprs;
    spec.names = names;
    return GroupBy(std::move(input), spec, options);
  }
  options.allow_windows = true;
  std::vector<ExprPtr> bound;
  std::vector<std::string> out_names;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (exprs[i]->kind == ExprKind::kStar) {
      for (int c = 0; c < input->schema->num_fields(); ++c) {
        bound.push_back(ColumnRef(*input->schema, c));
        out_names.push_back(input->schema->field(c).name);
      }
      continue;
    }
    EPOXY_ASSIGN_OR_RETURN(ExprPtr b, expr::Bind(exprs[i], *input->schema, options));
    bound.push_back(std::move(b));
    out_names.push_back(i < names.size() ? names[i] : "");
  }
  return ProjectWithWindows(std::move(input), std::move(bound), std::move(out_names));
}

Result<PlanPtr> ProjectWithWindows(PlanPtr input, std::vector<ExprPtr> exprs, std::vector<std::string> names) {
  bool any_window = false;
  for (const auto& e : exprs) any_window = any_window || expr::ContainsWindow(*e);
  if (!any_window) return ProjectBound(std::move(input), std::move(exprs), std::move(names));
  // Windowed calls become Window nodes below the projection, which then reads their columns.
  std::vector<ExprPtr> calls;
  std::vector<std::string> call_names;
  std::function<void(const ExprPtr&)> extract = [&](const ExprPtr& e) {
    if (e->kind == ExprKind::kCall && e->window != nullptr) {
      for (const auto& c : calls) {
        if (expr::SameExpr(*c, *e)) return;
      }
      calls.push_back(e);
      call_names.push_back(e->ToString());
      return;
    }
    for (const auto& a : e->args) extract(a);
  };
  for (const auto& e : exprs) extract(e);
  EPOXY_ASSIGN_OR_RETURN(PlanPtr windowed, Window(input, calls, call_names));
  const int base = input->schema->num_fields();
  std::function<ExprPtr(const ExprPtr&)> substitute = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kCall && e->window != nullptr) {
      for (size_t k = 0; k < calls.size(); ++k) {
        if (expr::SameExpr(*calls[k], *e)) return ColumnRef(*windowed->schema, base + static_cast<int>(k));
      }
    }
    if (e->args.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (auto& a : copy->args) a = substitute(a);
    return copy;
  };
  for (auto& e : exprs) e = substitute(e);
  return ProjectBound(windowed, std::move(exprs), std::move(names));
}

Result<PlanPtr> ProjectBound(PlanPtr input, std::vector<ExprPtr> exprs, std::vector<std::string> names) {
  std::vector<Field> fields;
  for (size_t i = 0; i < exprs.size(); ++i) {
    std::string name = i < names.size() && !names[i].empty() ? names[i] : exprs[i]->ToString();
    fields.push_back({name, exprs[i]->type});
  }
  auto node = NodeOf(PlanKind::kProject, {input});
  node->schema = Schema::Make(std::move(fields));
  node->exprs = std::move(exprs);
  return PlanPtr(node);
}

Result<PlanPtr> UnionAll(std::vector<PlanPtr> inputs) {
  if (inputs.empty()) return Status::InvalidInput("UNION ALL of nothing");
  const Schema& first = *inputs[0]->schema;
  // Spark widens each column to the inputs' common type.
  std::vector<TypePtr> types;
  for (const auto& f : first.fields()) types.push_back(f.type);
  for (size_t i = 1; i < inputs.size(); ++i) {
    const Schema& other = *inputs[i]->schema;
    if (other.num_fields() != first.num_fields()) {
      return Status::InvalidInput("UNION needs the same number of columns in every input: {} and {}", first.num_fields(),
                                  other.num_fields());
    }
    for (int c = 0; c < first.num_fields(); ++c) {
      if (other.field(c).type->Equals(*types[static_cast<size_t>(c)])) continue;
      auto common = expr::CommonType(types[static_cast<size_t>(c)], other.field(c).type);
      if (!common.ok()) {
        return Status::InvalidInput("UNION column {} ({}) is {} in the first input and {} in input {}", c + 1,
                                    first.field(c).name, first.field(c).type->ToString(),
                                    other.field(c).type->ToString(), i + 1);
      }
      types[static_cast<size_t>(c)] = *common;
    }
  }
  for (auto& in : inputs) {
    bool same = true;
    for (int c = 0; c < first.num_fields(); ++c) same = same && in->schema->field(c).type->Equals(*types[static_cast<size_t>(c)]);
    if (same) continue;
    std::vector<ExprPtr> casts;
    std::vector<std::string> names;
    for (int c = 0; c < first.num_fields(); ++c) {
      casts.push_back(expr::CastTo(ColumnRef(*in->schema, c), types[static_cast<size_t>(c)]));
      names.push_back(in->schema->field(c).name);
    }
    EPOXY_ASSIGN_OR_RETURN(in, ProjectBound(in, std::move(casts), std::move(names)));
  }
  std::vector<Field> fields;
  for (int c = 0; c < first.num_fields(); ++c) fields.push_back({first.field(c).name, types[static_cast<size_t>(c)]});
  auto node = NodeOf(PlanKind::kUnion, std::move(inputs));
  node->schema = Schema::Make(std::move(fields));
  return PlanPtr(node);
}

Result<PlanPtr> Limit(PlanPtr input, int64_t limit, int64_t offset) {
  if (limit < -1) return Status::InvalidInput("LIMIT must not be negative, got {}", limit);
  if (offset < 0) return Status::InvalidInput("OFFSET must not be negative, got {}", offset);
  auto node = NodeOf(PlanKind::kLimit, {input});
  node->schema = input->schema;
  node->limit = limit;
  node->offset = offset;
  return PlanPtr(node);
}

Result<PlanPtr> Distinct(PlanPtr input) {
  auto node = NodeOf(PlanKind::kDistinct, {input});
  node->schema = input->schema;
  return PlanPtr(node);
}

Result<PlanPtr> DropDuplicates(PlanPtr input, const std::vector<std::string>& columns) {
  if (columns.empty()) return Distinct(std::move(input));
  const Schema& schema = *input->schema;
  std::vector<int> key_columns;
  for (const auto& name : columns) {
    int index = schema.FieldIndex(name);
    if (index < 0) {
      return Status::InvalidInput("dropDuplicates: column '{}' not found; available columns: {}", name, schema.ColumnNames());
    }
    if (std::find(key_columns.begin(), key_columns.end(), index) == key_columns.end()) key_columns.push_back(index);
  }
  // Spark's plan: group by the subset, first() of every other column, in the input's order.
  std::vector<ExprPtr> keys, calls;
  std::vector<std::string> names;
  std::vector<int> position(static_cast<size_t>(schema.num_fields()));
  for (int c : key_columns) {
    position[static_cast<size_t>(c)] = static_cast<int>(keys.size());
    keys.push_back(ColumnRef(schema, c));
    names.push_back(schema.field(c).name);
  }
  for (int c = 0; c < schema.num_fields(); ++c) {
    if (std::find(key_columns.begin(), key_columns.end(), c) != key_columns.end()) continue;
    auto first = std::make_shared<Expr>(*Expr::Call("first", {ColumnRef(schema, c)}));
    first->type = schema.field(c).type;
    position[static_cast<size_t>(c)] = static_cast<int>(key_columns.size() + calls.size());
    calls.push_back(first);
  }
  for (int c = 0; c < schema.num_fields(); ++c) {
    if (std::find(key_columns.begin(), key_columns.end(), c) == key_columns.end()) names.push_back(schema.field(c).name);
  }
  EPOXY_ASSIGN_OR_RETURN(PlanPtr aggregate, Aggregate(input, std::move(keys), std::move(calls), names));
  std::vector<ExprPtr> reorder;
  std::vector<std::string> out_names;
  for (int c = 0; c < schema.num_fields(); ++c) {
    reorder.push_back(ColumnRef(*aggregate->schema, position[static_cast<size_t>(c)]));
    out_names.push_back(schema.field(c).name);
  }
  return ProjectBound(aggregate, std::move(reorder), std::move(out_names));
}

Result<PlanPtr> Sort(PlanPtr input, std::vector<SortKey> keys) {
  for (const auto& k : keys) {
    if (k.expr->type->is_nested() && k.expr->type->id() != TypeId::kStruct && k.expr->type->id() != TypeId::kArray) {
      return Status::InvalidInput("cannot order by '{}' of type {}", k.expr->ToString(), k.expr->type->ToString());
    }
  }
  auto node = NodeOf(PlanKind::kSort, {input});
  node->schema = input->schema;
  node->sort_keys = std::move(keys);
  return PlanPtr(node);
}

Result<PlanPtr> SetOperation(PlanPtr left, PlanPtr right, SetOpKind op, bool all) {
  // The same column checks and widening as UNION.
  EPOXY_ASSIGN_OR_RETURN(PlanPtr both, UnionAll({left, right}));
  left = both->inputs[0];
  right = both->inputs[1];
  const Schema& schema = *both->schema;
  const int n = schema.num_fields();
  if (!all) {
    std::vector<ExprPtr> equal;
    for (int c = 0; c < n; ++c) {
      auto eq = std::make_shared<Expr>(*Expr::Call("<=>", {ColumnRef(*left->schema, c), ShiftColumns(ColumnRef(*right->schema, c), n)}));
      eq->type = DataType::Boolean();
      equal.push_back(eq);
    }
    EPOXY_ASSIGN_OR_RETURN(PlanPtr joined, Join(left, right, op == SetOpKind::kIntersect ? JoinType::kSemi : JoinType::kAnti, AndAll(equal)));
    return Distinct(joined);
  }
  // Each side's rows tagged (1, 0) or (0, 1), counted per distinct row.
  auto tagged = [&](const PlanPtr& side, int64_t l, int64_t r) -> Result<PlanPtr> {
    std::vector<ExprPtr> exprs;
    std::vector<std::string> names;
    for (int c = 0; c < n; ++c) {
      exprs.push_back(ColumnRef(*side->schema, c));
      names.push_back(schema.field(c).name);
    }
    exprs.push_back(Expr::Literal(expr::Scalar::Integer(DataType::BigInt(), l)));
    exprs.push_back(Expr::Literal(expr::Scalar::Integer(DataType::BigInt(), r)));
    names.push_back("vcol_left");
    names.push_back("vcol_right");
    return ProjectBound(side, std::move(exprs), std::move(names));
  };
  EPOXY_ASSIGN_OR_RETURN(PlanPtr l, tagged(left, 1, 0));
  EPOXY_ASSIGN_OR_RETURN(PlanPtr r, tagged(right, 0, 1));
  EPOXY_ASSIGN_OR_RETURN(PlanPtr unioned, UnionAll({l, r}));
  std::vector<ExprPtr> keys, calls;
  std::vector<std::string> names;
  for (int c = 0; c < n; ++c) {
    keys.push_back(ColumnRef(*unioned->schema, c));
    names.push_back(schema.field(c).name);
  }
  for (int side = 0; side < 2; ++side) {
    auto sum = std::make_shared<Expr>(*Expr::Call("sum", {ColumnRef(*unioned->schema, n + side)}));
    sum->type = DataType::BigInt();
    calls.push_back(sum);
    names.push_back(side == 0 ? "left_count" : "right_count");
  }
  EPOXY_ASSIGN_OR_RETURN(PlanPtr counted, Aggregate(unioned, std::move(keys), std::move(calls), names));
  ExprPtr lc = ColumnRef(*counted->schema, n), rc = ColumnRef(*counted->schema, n + 1);
  auto call = [](const std::string& f, std::vector<ExprPtr> args, TypePtr type) {
    auto e = std::make_shared<Expr>(*Expr::Call(f, std::move(args)));
    e->type = std::move(type);
    return ExprPtr(e);
  };
  ExprPtr copies = op == SetOpKind::kIntersect ? call("least", {lc, rc}, DataType::BigInt())
                                               : call("-", {lc, rc}, DataType::BigInt());
  EPOXY_ASSIGN_OR_RETURN(PlanPtr kept, FilterBound(counted, call(">", {copies, Expr::Literal(expr::Scalar::Integer(DataType::BigInt(), 0))}, DataType::Boolean())));
  std::vector<ExprPtr> exprs;
  std::vector<std::string> out_names;
  for (int c = 0; c < n; ++c) {
    exprs.push_back(ColumnRef(*kept->schema, c));
    out_names.push_back(schema.field(c).name);
  }
  exprs.push_back(copies);
  out_names.push_back("copies");
  EPOXY_ASSIGN_OR_RETURN(PlanPtr with_copies, ProjectBound(kept, std::move(exprs), std::move(out_names)));
  auto node = NodeOf(PlanKind::kReplicate, {with_copies});
  node->schema = both->schema;
  return PlanPtr(node);
}

Result<PlanPtr> Repartition(PlanPtr input, int64_t n, std::vector<ExprPtr> keys, bool coalesce) {
  if (n <= 0) return Status::InvalidInput("{} needs a positive number of partitions, got {}", coalesce ? "coalesce" : "repartition", n);
  auto node = NodeOf(PlanKind::kRepartition, {input});
  node->schema = input->schema;
  node->num_partitions = n;
  node->keys = std::move(keys);
  node->coalesce = coalesce;
  return PlanPtr(node);
}

Result<PlanPtr> SingleRow() {
  auto node = NodeOf(PlanKind::kValues, {});
  node->schema = Schema::Make({});
  node->rows = {Batch::Make(node->schema, {}, 1)};
  return PlanPtr(node);
}

Result<PlanPtr> Generate(PlanPtr input, ExprPtr argument, bool outer, bool position, std::vector<std::string> names) {
  const TypePtr& t = argument->type;
  if (t->id() != TypeId::kArray && t->id() != TypeId::kMap) {
    return Status::InvalidInput("explode needs an array or a map, got {} ('{}')", t->ToString(), argument->ToString());
  }
  std::vector<Field> generated;
  if (position) generated.push_back({"pos", DataType::Int()});
  if (t->id() == TypeId::kArray) {
    generated.push_back({"col", t->element()});
  } else {
    generated.push_back({"key", t->key()});
    generated.push_back({"value", t->value()});
  }
  if (!names.empty()) {
    if (names.size() != generated.size()) {
      return Status::InvalidInput("explode of {} makes {} columns, but {} names were given", t->ToString(), generated.size(), names.size());
    }
    for (size_t i = 0; i < names.size(); ++i) generated[i].name = names[i];
  }
  std::vector<Field> fields = input->schema->fields();
  fields.insert(fields.end(), generated.begin(), generated.end());
  auto node = NodeOf(PlanKind::kGenerate, {std::move(input)});
  node->schema = Schema::Make(std::move(fields));
  node->exprs = {std::move(argument)};
  node->generate_outer = outer;
  node->generate_position = position;
  return PlanPtr(node);
}

Result<PlanPtr> InMemoryRows(SchemaPtr schema, std::vector<BatchPtr> rows) {
  auto node = NodeOf(PlanKind::kValues, {});
  for (const auto& batch : rows) {
    if (batch->schema()->num_fields() != schema->num_fields()) return Status::Internal("in-memory rows do not match their schema");
  }
  node->schema = std::move(schema);
  node->rows = std::move(rows);
  return PlanPtr(node);
}

Result<PlanPtr> PushDownPredicate(const PlanPtr& scan, const ExprPtr& predicate) {
  if (scan->kind != PlanKind::kScan) return Status::InvalidInput("push_down_predicate applies to a source, not to a {}", KindName(scan->kind));
  const auto& keys = scan->source.partition_keys;
  std::vector<std::string> key_names;
  for (const auto& k : keys) key_names.push_back(k.name);
  if (keys.empty()) {
    return Status::InvalidInput("push_down_predicate '{}' needs a partitioned source; {} has no partition columns",
                                predicate->ToString(), scan->source.catalog_table.empty() ? scan->source.root : scan->source.catalog_table);
  }
  EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, expr::Bind(predicate, *scan->schema));
  std::vector<int> used;
  expr::ReferencedColumns(*bound, &used);
  const int num_data = scan->source.data_schema->num_fields();
  for (int c : used) {
    if (c < num_data) {
      return Status::InvalidInput("push_down_predicate may only use partition columns ({}); '{}' is not one",
                                  fmt::join(key_names, ", "), scan->schema->field(c).name);
    }
  }
  auto node = std::make_shared<PlanNode>(*scan);
  std::vector<ExprPtr> parts;
  if (node->partition_filter) parts.push_back(node->partition_filter);
  parts.push_back(bound);
  node->partition_filter = AndAll(parts);
  return PlanPtr(node);
}

void SplitConjuncts(const ExprPtr& e, std::vector<ExprPtr>* out) {
  if (e->kind == ExprKind::kCall && e->op == "and") {
    SplitConjuncts(e->args[0], out);
    SplitConjuncts(e->args[1], out);
  } else {
    out->push_back(e);
  }
}

ExprPtr AndAll(const std::vector<ExprPtr>& parts) {
  if (parts.empty()) return nullptr;
  ExprPtr out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    auto both = std::make_shared<Expr>(*Expr::Call("and", {out, parts[i]}));
    both->type = DataType::Boolean();
    out = both;
  }
  return out;
}

ExprPtr ColumnRef(const Schema& schema, int index) {
  auto column = std::make_shared<Expr>(*Expr::Column({schema.field(index).name}));
  column->column = index;
  column->type = schema.field(index).type;
  return column;
}

ExprPtr RemapColumns(const ExprPtr& e, const std::vector<int>& mapping) {
  if (e->kind == ExprKind::kColumn && e->column >= 0) {
    auto copy = std::make_shared<Expr>(*e);
    copy->column = mapping[static_cast<size_t>(e->column)];
    return copy;
  }
  if (e->args.empty() && e->window == nullptr) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (auto& a : copy->args) a = RemapColumns(a, mapping);
  if (e->window != nullptr) {
    auto window = std::make_shared<expr::WindowSpec>(*e->window);
    for (auto& k : window->partition_by) k = RemapColumns(k, mapping);
    for (auto& k : window->order_by) k.expr = RemapColumns(k.expr, mapping);
    copy->window = window;
  }
  return copy;
}

ExprPtr ShiftColumns(const ExprPtr& e, int delta) {
  if (delta == 0) return e;
  if (e->kind == ExprKind::kColumn && e->column >= 0) {
    auto copy = std::make_shared<Expr>(*e);
    copy->column += delta;
    return copy;
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (auto& a : copy->args) a = ShiftColumns(a, delta);
  return copy;
}

}  // namespace epoxy::plan
