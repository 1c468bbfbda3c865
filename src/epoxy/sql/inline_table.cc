// SPDX-License-Identifier: Apache-2.0
// Inline tables (`VALUES (1, 'a'), (2, 'b') AS t(a, b)`), resolved as Spark's ResolveInlineTables
// does: every row has one value per column, each value is a constant expression, a column's type
// is the values' wider type (without promoting numbers to strings), and the rows are computed
// once, while planning, into rows held in memory.
#include <algorithm>

#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/function_registry.h"
#include "epoxy/sql/planner_internal.h"
#include "epoxy/vector/take.h"

namespace epoxy::sql {
namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

/// Whether `e` (bound) calls a function whose value may differ between evaluations (rand(),
/// uuid()): Spark refuses those in an inline table, as they are not constant.
bool CallsNondeterministic(const Expr& e) {
  if (e.kind == ExprKind::kCall && e.function != nullptr && !e.function->deterministic) return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return CallsNondeterministic(*a); });
}

Status CannotEvaluate(const Expr& e, std::string_view why) {
  return Status::InvalidInput("[INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE] cannot evaluate '{}' in an inline table: {}",
                              e.ToString(), why);
}

/// The column names: the alias's list, else col1, col2, ... (Spark's defaults).
std::vector<std::string> ColumnNames(const TableRef& ref) {
  if (!ref.column_aliases.empty()) return ref.column_aliases;
  std::vector<std::string> names;
  for (size_t c = 0; c < ref.rows[0].size(); ++c) names.push_back("col" + std::to_string(c + 1));
  return names;
}

}  // namespace

Result<Scope> PlanInlineTable(const TableRef& ref) {
  const std::vector<std::string> names = ColumnNames(ref);
  const size_t width = names.size();
  const SchemaPtr no_columns = Schema::Make({});
  // Bound values, row by row.
  std::vector<std::vector<ExprPtr>> rows;
  rows.reserve(ref.rows.size());
  for (size_t r = 0; r < ref.rows.size(); ++r) {
    const auto& row = ref.rows[r];
    if (row.size() != width) {
      return Status::InvalidInput("[INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH] an inline table of {} columns has a row ({}) of {} values",
                                  width, r, row.size());
    }
    std::vector<ExprPtr> bound;
    for (const auto& e : row) {
      if (expr::ContainsSubquery(*e)) return CannotEvaluate(*e, "a subquery is not a constant");
      auto b = expr::Bind(e, *no_columns);
      if (!b.ok()) return CannotEvaluate(*e, b.status().message());
      if (CallsNondeterministic(**b)) return CannotEvaluate(*e, "it is not deterministic");
      bound.push_back(*std::move(b));
    }
    rows.push_back(std::move(bound));
  }
  // Each column's type: the wider type of its values.
  std::vector<Field> fields;
  for (size_t c = 0; c < width; ++c) {
    TypePtr type = DataType::Null();
    for (const auto& row : rows) {
      TypePtr wider = expr::WiderTypeWithoutStringPromotion(type, row[c]->type);
      if (wider == nullptr) {
        return Status::InvalidInput("[INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE] the values of column `{}` of an inline table "
                                    "have incompatible types ({} and {})",
                                    names[c], type->ToString(), row[c]->type->ToString());
      }
      type = wider;
    }
    fields.push_back({names[c], type});
  }
  // The rows, each value cast to its column's type and computed once.
  static const auto kOneRow = Batch::Make(Schema::Make({}), {}, 1);
  std::vector<ArrayPtr> columns;
  for (size_t c = 0; c < width; ++c) {
    std::vector<ArrayPtr> values;
    std::vector<RowRef> refs;
    for (size_t r = 0; r < rows.size(); ++r) {
      const ExprPtr& value = rows[r][c];
      ExprPtr cast = expr::CastTo(value, fields[c].type);
      auto computed = expr::EvaluateToArray(*cast, *kOneRow);
      if (!computed.ok()) {
        return Status::InvalidInput("[INVALID_INLINE_TABLE.FAILED_SQL_EXPRESSION_EVALUATION] '{}' in an inline table: {}", value->ToString(),
                                    computed.status().message());
      }
      refs.push_back(MakeRowRef(static_cast<uint32_t>(values.size()), 0));
      values.push_back(*std::move(computed));
    }
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, TakeFrom(values, refs, fields[c].type));
    columns.push_back(std::move(column));
  }
  SchemaPtr schema = Schema::Make(std::move(fields));
  BatchPtr batch = Batch::Make(schema, std::move(columns), static_cast<int64_t>(rows.size()));
  Scope scope;
  EPOXY_ASSIGN_OR_RETURN(scope.plan, plan::InMemoryRows(schema, {batch}));
  scope.qualifiers.assign(width, ref.alias);
  return scope;
}

}  // namespace epoxy::sql
