// SPDX-License-Identifier: Apache-2.0
// Building, explaining and rewriting logical plans.
#include "epoxy/plan/logical_plan.h"

#include <algorithm>

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
  }
  return "?";
}

ExprPtr AndAll(const std::vector<ExprPtr>& parts);

std::string ExprList(const std::vector<ExprPtr>& exprs, const Schema& schema) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < exprs.size(); ++i) {
    std::string text = exprs[i]->ToString();
    const std::string& name = schema.field(static_cast<int>(i)).name;
    parts.push_back(text == name ? text : text + " AS " + name);
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

std::string PlanNode::Explain(int indent) const {
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  std::string line = pad + KindName(kind);
  switch (kind) {
    case PlanKind::kScan: {
      line += fmt::format(" {} {}", FileFormatName(source.format),
                          source.catalog_table.empty() ? source.root : source.catalog_table + " (" + source.root + ")");
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
    case PlanKind::kProject:
    case PlanKind::kAggregate: line += " " + ExprList(exprs, *schema); break;
    case PlanKind::kLimit: line += " " + std::to_string(limit); break;
    case PlanKind::kUnion:
    case PlanKind::kDistinct: break;
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
  if (bound->type->id() != TypeId::kBoolean && bound->type->id() != TypeId::kNull) {
    return Status::InvalidInput("a filter must be boolean; '{}' is {}", predicate->ToString(), bound->type->ToString());
  }
  auto node = NodeOf(PlanKind::kFilter, {input});
  node->schema = input->schema;
  node->predicate = std::move(bound);
  return PlanPtr(node);
}

Result<PlanPtr> Project(PlanPtr input, const std::vector<ExprPtr>& exprs, const std::vector<std::string>& names,
                        const std::vector<std::string>& qualifiers) {
  expr::BindOptions options;
  options.qualifiers = qualifiers;
  options.allow_aggregates = true;
  std::vector<ExprPtr> bound;
  std::vector<Field> fields;
  bool any_aggregate = false;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (exprs[i]->kind == ExprKind::kStar) {
      for (int c = 0; c < input->schema->num_fields(); ++c) {
        auto column = std::make_shared<Expr>(*Expr::Column({input->schema->field(c).name}));
        column->column = c;
        column->type = input->schema->field(c).type;
        bound.push_back(column);
        fields.push_back(input->schema->field(c));
      }
      continue;
    }
    EPOXY_ASSIGN_OR_RETURN(ExprPtr b, expr::Bind(exprs[i], *input->schema, options));
    any_aggregate = any_aggregate || expr::ContainsAggregate(*b);
    std::string name = i < names.size() && !names[i].empty() ? names[i] : exprs[i]->ToString();
    fields.push_back({name, b->type});
    bound.push_back(std::move(b));
  }
  if (any_aggregate) {
    for (const auto& b : bound) {
      if (!expr::ContainsAggregate(*b) && b->kind != ExprKind::kLiteral) {
        return Status::InvalidInput(
            "'{}' is neither an aggregate nor grouped; without GROUP BY every selected expression must be an "
            "aggregate (GROUP BY comes with the engine's relational part)", b->ToString());
      }
    }
  }
  auto node = NodeOf(any_aggregate ? PlanKind::kAggregate : PlanKind::kProject, {input});
  node->schema = Schema::Make(std::move(fields));
  node->exprs = std::move(bound);
  return PlanPtr(node);
}

Result<PlanPtr> UnionAll(std::vector<PlanPtr> inputs) {
  if (inputs.empty()) return Status::InvalidInput("UNION ALL of nothing");
  const Schema& first = *inputs[0]->schema;
  for (size_t i = 1; i < inputs.size(); ++i) {
    const Schema& other = *inputs[i]->schema;
    if (other.num_fields() != first.num_fields()) {
      return Status::InvalidInput("UNION ALL needs the same number of columns: {} and {}", first.num_fields(),
                                  other.num_fields());
    }
    for (int c = 0; c < first.num_fields(); ++c) {
      if (!other.field(c).type->Equals(*first.field(c).type)) {
        return Status::InvalidInput("UNION ALL column {} ({}) is {} in the first input and {} in input {}", c + 1,
                                    first.field(c).name, first.field(c).type->ToString(),
                                    other.field(c).type->ToString(), i + 1);
      }
    }
  }
  auto node = NodeOf(PlanKind::kUnion, std::move(inputs));
  node->schema = node->inputs[0]->schema;
  return PlanPtr(node);
}

Result<PlanPtr> Limit(PlanPtr input, int64_t limit) {
  if (limit < 0) return Status::InvalidInput("LIMIT must not be negative, got {}", limit);
  auto node = NodeOf(PlanKind::kLimit, {input});
  node->schema = input->schema;
  node->limit = limit;
  return PlanPtr(node);
}

Result<PlanPtr> Distinct(PlanPtr input) {
  auto node = NodeOf(PlanKind::kDistinct, {input});
  node->schema = input->schema;
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

namespace {

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

/// The scan's columns that nodes above it use, when only projections and filters sit between.
void CollectUsed(const PlanNode& node, std::vector<int>* used) {
  for (const auto& e : node.exprs) expr::ReferencedColumns(*e, used);
  if (node.predicate) expr::ReferencedColumns(*node.predicate, used);
}

}  // namespace

PlanPtr PushDownFilters(const PlanPtr& plan) {
  std::vector<PlanPtr> inputs;
  for (const auto& in : plan->inputs) inputs.push_back(PushDownFilters(in));
  auto node = std::make_shared<PlanNode>(*plan);
  node->inputs = inputs;
  if (node->kind == PlanKind::kFilter && inputs[0]->kind == PlanKind::kScan) {
    auto scan = std::make_shared<PlanNode>(*inputs[0]);
    const int num_data = scan->source.data_schema->num_fields();
    std::vector<ExprPtr> conjuncts, on_keys, on_rows;
    if (scan->partition_filter) on_keys.push_back(scan->partition_filter);
    if (scan->row_filter) on_rows.push_back(scan->row_filter);
    SplitConjuncts(node->predicate, &conjuncts);
    for (const auto& c : conjuncts) {
      std::vector<int> used;
      expr::ReferencedColumns(*c, &used);
      bool keys_only = !used.empty() && std::all_of(used.begin(), used.end(), [&](int col) { return col >= num_data; });
      (keys_only ? on_keys : on_rows).push_back(c);
    }
    scan->partition_filter = AndAll(on_keys);
    scan->row_filter = AndAll(on_rows);
    return scan;
  }
  // Projection pushdown: a projection or aggregate straight over a scan reads only what it uses.
  if ((node->kind == PlanKind::kProject || node->kind == PlanKind::kAggregate) && inputs[0]->kind == PlanKind::kScan) {
    auto scan = std::make_shared<PlanNode>(*inputs[0]);
    std::vector<int> used;
    CollectUsed(*node, &used);
    if (scan->row_filter) expr::ReferencedColumns(*scan->row_filter, &used);
    if (scan->partition_filter) expr::ReferencedColumns(*scan->partition_filter, &used);
    std::sort(used.begin(), used.end());
    scan->columns = used;
    scan->columns_pushed = true;
    node->inputs = {scan};
  }
  return node;
}

}  // namespace epoxy::plan
