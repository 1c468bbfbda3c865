// SPDX-License-Identifier: Apache-2.0
// Name resolution, Spark's implicit coercions and constant folding.
#include "epoxy/expr/binder.h"

#include <algorithm>
#include <map>
#include <string_view>

#include <re2/re2.h>

#include "epoxy/expr/bind_context.h"
#include "epoxy/expr/cast.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/external_functions.h"
#include "epoxy/expr/function_registry.h"
#include "epoxy/expr/function_signature.h"
#include "epoxy/expr/type_visit.h"

namespace epoxy::expr {
namespace {

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}


std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Whether a call over constants may be computed while binding: not aggregates, windows, UDFs
/// (which may not be deterministic), per-row or per-query values.
bool Foldable(const Expr& e) {
  if (e.window != nullptr || e.function == nullptr) return false;
  const FunctionEntry& f = *e.function;
  return f.kind == FunctionKind::kScalar && f.deterministic && f.foldable;
}

/// Casts the call's arguments as `sig` asks (Spark's implicit casts), after checking their count.
Status ApplySignature(BindContext& ctx, const Signature& sig) {
  const size_t n = ctx.num_args();
  EPOXY_RETURN_NOT_OK(ctx.Arity(sig.required, sig.variadic ? SIZE_MAX : sig.args.size()));
  auto spec_of = [&](size_t i) -> const ArgSpec& { return sig.args[std::min(i, sig.args.size() - 1)]; };
  std::vector<size_t> common;
  for (size_t i = 0; i < n; ++i) {
    const ArgSpec& spec = spec_of(i);
    if (spec.kind == ArgSpec::Kind::kCommon) {
      common.push_back(i);
      continue;
    }
    auto target = ImplicitCastTarget(ctx.type(i), spec);
    if (!target.ok()) return ctx.ArgumentError(i, DescribeArgSpec(spec));
    ctx.args()[i] = CastTo(ctx.arg(i), *target);
  }
  if (!common.empty()) {
    TypePtr type = DataType::Null();
    for (size_t i : common) {
      auto t = CommonType(type, ctx.type(i));
      if (!t.ok()) return ctx.TypeError(t.status().message());
      type = *t;
    }
    for (size_t i : common) ctx.args()[i] = CastTo(ctx.arg(i), type);
  }
  return Status::OK();
}

/// The result type `sig` gives the call (its arguments cast).
TypePtr SignatureResult(BindContext& ctx, const Signature& sig) {
  auto common = [&]() -> TypePtr {
    for (size_t i = 0; i < ctx.num_args(); ++i) {
      if (sig.args[std::min(i, sig.args.size() - 1)].kind == ArgSpec::Kind::kCommon) return ctx.type(i);
    }
    return DataType::Null();
  };
  switch (sig.result) {
    case Signature::Result::kConcrete: return sig.result_type;
    case Signature::Result::kArgument: return ctx.type(sig.result_argument);
    case Signature::Result::kCommon: return common();
    case Signature::Result::kArrayOfCommon: return DataType::Array(common());
  }
  return sig.result_type;
}

ExprPtr CastToImpl(const ExprPtr& e, const TypePtr& type) {
  if (e->type->Equals(*type)) return e;
  if (e->kind == ExprKind::kLiteral && CanCast(*e->type, *type)) {
    // A constant is converted once, here.
    auto one = MakeArrayFromScalar(e->literal, 1);
    auto cast = one.ok() ? CastArray(*one, type) : Result<ArrayPtr>(one.status());
    if (cast.ok()) {
      Scalar value = ScalarAt(**cast, 0);
      value.type = type;
      return Expr::Literal(std::move(value));
    }
  }
  auto cast = std::make_shared<Expr>(*Expr::Cast(e, type));
  cast->type = type;
  cast->implicit = true;
  return cast;
}



class Binder {
 public:
  Binder(const Schema& schema, const BindOptions& options) : schema_(schema), options_(options) {}

  Result<ExprPtr> Bind(const ExprPtr& e) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr bound, BindNode(e));
    return Fold(bound);
  }

 private:
  Status TypeError(const Expr& e, std::string_view why) const {
    return Status::InvalidInput("type error in '{}': {}", e.ToString(), why);
  }

  Result<ExprPtr> BindNode(const ExprPtr& e) {
    switch (e->kind) {
      case ExprKind::kLiteral: return e;
      case ExprKind::kStar: return Status::InvalidInput("'*' is only allowed in a select list or count(*)");
      case ExprKind::kColumn: return BindColumn(*e);
      case ExprKind::kCast: {
        EPOXY_ASSIGN_OR_RETURN(ExprPtr operand, Bind(e->args[0]));
        if (!CanCast(*operand->type, *e->cast_to)) {
          return TypeError(*e, fmt::format("cannot cast {} to {}", operand->type->ToString(), e->cast_to->ToString()));
        }
        auto out = std::make_shared<Expr>(*e);
        out->args = {operand};
        out->type = e->cast_to;
        return ExprPtr(out);
      }
      case ExprKind::kCall: return BindCall(*e);
      case ExprKind::kSubquery:
        return Status::InvalidInput("a subquery is not allowed here ('{}')", e->ToString());
    }
    return Status::Internal("unknown expression kind");
  }

  Result<ExprPtr> BindColumn(const Expr& e) {
    if (e.resolved && e.column >= 0 && e.column < schema_.num_fields() && e.fields.empty()) {
      auto out = std::make_shared<Expr>(e);
      out->type = schema_.field(e.column).type;
      return ExprPtr(out);
    }
    std::vector<std::string> path = e.name;
    EPOXY_ASSIGN_OR_RETURN(int index, ResolveColumn(&path));
    if (index < 0) {
      std::vector<std::string> names;
      const int visible = options_.num_inner >= 0 ? options_.num_inner : schema_.num_fields();
      for (int i = 0; i < visible; ++i) names.push_back(QualifiedName(i));
      return Status::InvalidInput("column '{}' not found; available columns: {}", fmt::join(e.name, "."),
                                  fmt::join(names, ", "));
    }
    auto out = std::make_shared<Expr>(e);
    out->column = index;
    out->name = path;
    TypePtr type = schema_.field(index).type;
    for (size_t k = 1; k < path.size(); ++k) {
      if (type->id() != TypeId::kStruct) {
        return Status::InvalidInput("'{}' is {}, not a struct, so it has no field '{}'", fmt::join(path.begin(), path.begin() + static_cast<long>(k), "."),
                                    type->ToString(), path[k]);
      }
      int field = -1;
      for (size_t f = 0; f < type->fields().size(); ++f) {
        if (SameName(type->fields()[f].name, path[k])) field = static_cast<int>(f);
      }
      if (field < 0) {
        std::vector<std::string> names;
        for (const auto& f : type->fields()) names.push_back(f.name);
        return Status::InvalidInput("field '{}' not found in '{}'; its fields: {}", path[k],
                                    fmt::join(path.begin(), path.begin() + static_cast<long>(k), "."), fmt::join(names, ", "));
      }
      out->fields.push_back(field);
      type = type->fields()[static_cast<size_t>(field)].type;
    }
    out->type = type;
    return ExprPtr(out);
  }

  std::string QualifiedName(int i) const {
    const std::string& name = schema_.field(i).name;
    if (options_.column_qualifiers == nullptr || (*options_.column_qualifiers)[static_cast<size_t>(i)].empty()) return name;
    return (*options_.column_qualifiers)[static_cast<size_t>(i)] + "." + name;
  }

  /// The column `path` starts with (a qualifier it starts with is dropped from it), or -1.
  /// Errors: a name found in two relations of one scope.
  Result<int> ResolveColumn(std::vector<std::string>* path) const {
    const int n = schema_.num_fields();
    const int inner = options_.num_inner >= 0 ? options_.num_inner : n;
    for (auto [from, to] : {std::pair(0, inner), std::pair(inner, n)}) {
      if (from >= to) continue;
      // A relation's qualifier first (`n1.n_name`), then a plain name.
      if (path->size() > 1 && options_.column_qualifiers != nullptr) {
        EPOXY_ASSIGN_OR_RETURN(int q, FindColumn((*path)[1], from, to, &(*path)[0]));
        if (q >= 0) {
          path->erase(path->begin());
          return q;
        }
      }
      EPOXY_ASSIGN_OR_RETURN(int index, FindColumn((*path)[0], from, to, nullptr));
      if (index >= 0) return index;
      if (path->size() > 1) {
        bool qualified = std::any_of(options_.qualifiers.begin(), options_.qualifiers.end(),
                                     [&](const std::string& q) { return SameName(q, (*path)[0]); });
        if (qualified) {
          EPOXY_ASSIGN_OR_RETURN(index, FindColumn((*path)[1], from, to, nullptr));
          if (index >= 0) {
            path->erase(path->begin());
            return index;
          }
        }
      }
    }
    return -1;
  }

  /// The column named `name` among [from, to), of relation `qualifier` when given: an exact match
  /// first, then any case. Two matches of one name are ambiguous.
  Result<int> FindColumn(const std::string& name, int from, int to, const std::string* qualifier) const {
    for (bool exact : {true, false}) {
      int found = -1;
      for (int i = from; i < to; ++i) {
        const std::string& field = schema_.field(i).name;
        if (exact ? field != name : !SameName(field, name)) continue;
        if (qualifier != nullptr &&
            (options_.column_qualifiers == nullptr || !SameName((*options_.column_qualifiers)[static_cast<size_t>(i)], *qualifier))) {
          continue;
        }
        if (found >= 0) {
          if (qualifier != nullptr || options_.column_qualifiers == nullptr) {
            return Status::InvalidInput("column '{}' is ambiguous: the input has it twice", name);
          }
          return Status::InvalidInput("column '{}' is ambiguous: it is in both {} and {}; qualify it ({} or {})", name,
                                      Relation(found), Relation(i), QualifiedName(found), QualifiedName(i));
        }
        found = i;
      }
      if (found >= 0) return found;
    }
    return -1;
  }

  std::string Relation(int i) const {
    const std::string& q = (*options_.column_qualifiers)[static_cast<size_t>(i)];
    return q.empty() ? "an unnamed input" : q;
  }

  Result<ExprPtr> BindCall(const Expr& e) {
    const bool windowed = e.window != nullptr;
    std::shared_ptr<const ExternalFunctionDef> external = FindExternalFunction(e.op);
    const FunctionEntry* entry = external != nullptr ? nullptr : FunctionRegistry::Builtins().Find(e.op);
    if (external == nullptr && entry == nullptr) return UnknownFunction(e);
    const FunctionKind kind = entry != nullptr ? entry->kind : FunctionKind::kScalar;
    if (windowed && !options_.allow_windows) {
      return Status::InvalidInput("window function {} is not allowed here ('{}'); windows belong in a select list", e.op,
                                  e.ToString());
    }
    if (kind == FunctionKind::kWindow && !windowed) {
      return Status::InvalidInput("window function {}() needs an OVER clause ('{}')", e.op, e.ToString());
    }
    if (kind == FunctionKind::kAggregate && !windowed && !options_.allow_aggregates) {
      return Status::InvalidInput("aggregate function {} is not allowed here ('{}')", e.op, e.ToString());
    }
    if (kind == FunctionKind::kGenerator) {
      return Status::InvalidInput("generator {}() is only allowed at the top of a select list or in LATERAL VIEW ('{}')",
                                  e.op, e.ToString());
    }
    if (e.op == "grouping" || e.op == "grouping_id") {
      return Status::InvalidInput("{}() needs GROUP BY with GROUPING SETS, ROLLUP or CUBE ('{}')", e.op, e.ToString());
    }
    std::vector<ExprPtr> args;
    {
      // Arguments of an aggregate may not hold another aggregate (those of a windowed one may:
      // sum(sum(x)) OVER () windows the grouped sums); windows may sit inside scalar functions
      // (length(lag(s) OVER w)) but not inside aggregates or other windows.
      const bool aggregate = kind == FunctionKind::kAggregate;
      BindOptions inner = options_;
      if (aggregate && !windowed) inner.allow_aggregates = false;
      inner.allow_windows = options_.allow_windows && !windowed && !aggregate;
      Binder binder(schema_, inner);
      for (const auto& a : e.args) {
        if (a->kind == ExprKind::kCall && a->op == "interval") {
          args.push_back(a);  // an operand of + or -, handled there; anywhere else an error there
          continue;
        }
        EPOXY_ASSIGN_OR_RETURN(ExprPtr b, binder.Bind(a));
        args.push_back(b);
      }
    }
    auto out = std::make_shared<Expr>(e);
    out->args = args;
    if (external != nullptr) {  // a UDF: any arguments, its declared type
      out->type = external->result;
      return ExprPtr(out);
    }
    const std::string written = Lower(e.op);
    out->display_name = DisplayName(*entry, written);
    out->op = entry->name;
    out->function = entry;
    if (windowed) {
      EPOXY_ASSIGN_OR_RETURN(out->window, BindWindowSpec(*e.window));
      if (kind != FunctionKind::kWindow && kind != FunctionKind::kAggregate) {
        return Status::InvalidInput("{} cannot be used over a window ('{}')", e.op, e.ToString());
      }
      if (e.distinct) return Status::InvalidInput("DISTINCT is not allowed in a window aggregate ('{}')", e.ToString());
    }
    if (std::any_of(args.begin(), args.end(), [](const ExprPtr& a) { return a->type == nullptr; }) &&
        entry->name != "+" && entry->name != "-") {
      return Status::InvalidInput("an INTERVAL can only be added to or subtracted from a date or timestamp ('{}')",
                                  e.ToString());
    }
    BindContext ctx(out, *entry, options_);
    if (entry->parsed_signature != nullptr) EPOXY_RETURN_NOT_OK(ApplySignature(ctx, *entry->parsed_signature));
    if (entry->bind) return entry->bind(ctx);
    return ctx.Done(SignatureResult(ctx, *entry->parsed_signature));
  }

  Status UnknownFunction(const Expr& e) const {
    std::vector<std::string> close = FunctionRegistry::Builtins().Closest(e.op);
    if (close.empty()) {
      return Status::InvalidInput("[UNRESOLVED_ROUTINE] unknown function '{}' in '{}'", e.op, e.ToString());
    }
    return Status::InvalidInput("[UNRESOLVED_ROUTINE] unknown function '{}' in '{}'; did you mean {}?", e.op,
                                e.ToString(), fmt::join(close, ", "));
  }

  Result<WindowSpecPtr> BindWindowSpec(const WindowSpec& spec) {
    BindOptions inner = options_;
    inner.allow_windows = false;
    Binder binder(schema_, inner);
    auto out = std::make_shared<WindowSpec>(spec);
    for (auto& k : out->partition_by) {
      EPOXY_ASSIGN_OR_RETURN(k, binder.Bind(k));
    }
    for (auto& k : out->order_by) {
      EPOXY_ASSIGN_OR_RETURN(k.expr, binder.Bind(k.expr));
    }
    if (out->units == WindowSpec::Units::kRange && !out->order_by.empty() &&
        (out->start.kind == FrameBound::Kind::kPreceding || out->start.kind == FrameBound::Kind::kFollowing ||
         out->end.kind == FrameBound::Kind::kPreceding || out->end.kind == FrameBound::Kind::kFollowing)) {
      if (out->order_by.size() != 1) {
        return Status::InvalidInput("a RANGE frame with offsets needs exactly one ORDER BY expression");
      }
      TypeId id = out->order_by[0].expr->type->id();
      if (!IsNumeric(id) && id != TypeId::kDate && id != TypeId::kTimestamp) {
        return Status::InvalidInput("a RANGE frame with offsets needs a numeric, date or timestamp ORDER BY, not {}",
                                    out->order_by[0].expr->type->ToString());
      }
    }
    return WindowSpecPtr(out);
  }


  Result<ExprPtr> Fold(const ExprPtr& e) { return FoldConstant(e); }

  const Schema& schema_;
  const BindOptions& options_;
};

}  // namespace

/// Replaces a deterministic call or cast over constants by its value.
Result<ExprPtr> FoldConstant(const ExprPtr& e) {
  if (e->kind != ExprKind::kCall && e->kind != ExprKind::kCast) return e;
  if (e->kind == ExprKind::kCall && !Foldable(*e)) return e;
  for (const auto& a : e->args) {
    if (a->kind != ExprKind::kLiteral) return e;
  }
  if (e->type->id() == TypeId::kArray || e->type->id() == TypeId::kMap || e->type->id() == TypeId::kStruct) return e;
  static const auto kOneRow = Batch::Make(Schema::Make({}), {}, 1);
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr value, EvaluateToArray(*e, *kOneRow));
  Scalar folded = ScalarAt(*value, 0);
  folded.type = e->type;
  auto literal = std::make_shared<Expr>(*Expr::Literal(std::move(folded)));
  literal->type = e->type;
  return ExprPtr(literal);
}

ExprPtr CastTo(const ExprPtr& e, const TypePtr& type) { return CastToImpl(e, type); }

Result<ExprPtr> Bind(const ExprPtr& e, const Schema& schema, const BindOptions& options) {
  Binder binder(schema, options);
  return binder.Bind(e);
}

void ReferencedColumns(const Expr& bound, std::vector<int>* columns) {
  if (bound.kind == ExprKind::kColumn && bound.column >= 0 &&
      std::find(columns->begin(), columns->end(), bound.column) == columns->end()) {
    columns->push_back(bound.column);
  }
  for (const auto& a : bound.args) ReferencedColumns(*a, columns);
}

}  // namespace epoxy::expr
