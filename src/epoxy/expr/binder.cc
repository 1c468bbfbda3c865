// SPDX-License-Identifier: Apache-2.0
// Name resolution, Spark's implicit coercions and constant folding.
#include "epoxy/expr/binder.h"

#include <algorithm>
#include <map>

#include <re2/re2.h>

#include "epoxy/expr/cast.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/time_units.h"
#include "epoxy/expr/type_visit.h"
#include "epoxy/expr/calendar_functions.h"
#include "epoxy/expr/collection_functions.h"
#include "epoxy/expr/external_functions.h"
#include "epoxy/expr/math_functions.h"
#include "epoxy/expr/text_functions.h"

namespace epoxy::expr {
namespace {

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

int NumericRank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInt: return 3;
    case TypeId::kBigInt: return 4;
    case TypeId::kDecimal: return 5;
    case TypeId::kFloat: return 6;
    case TypeId::kDouble: return 7;
    default: return 0;
  }
}

/// The decimal an operand converts to beside another decimal: an integer literal takes the
/// narrowest decimal holding it (Spark's literalPickMinimumPrecision), other integers their type's.
TypePtr AsDecimal(const Expr& e) {
  const TypeId id = e.type->id();
  if (id == TypeId::kDecimal) return e.type;
  if (e.kind == ExprKind::kLiteral && IsIntegral(id) && !e.literal.is_null()) {
    return DecimalForIntegerLiteral(std::get<int64_t>(e.literal.value));
  }
  return DecimalForIntegral(id);
}

/// The wider of two numeric types. A decimal meets an integer or another decimal as Spark's
/// widerDecimalType, and a float or double as double.
TypePtr WiderNumeric(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b)) return a;
  if (a->id() == TypeId::kDecimal || b->id() == TypeId::kDecimal) {
    if (IsFloating(a->id()) || IsFloating(b->id())) return DataType::Double();
    TypePtr da = a->id() == TypeId::kDecimal ? a : DecimalForIntegral(a->id());
    TypePtr db = b->id() == TypeId::kDecimal ? b : DecimalForIntegral(b->id());
    return WiderDecimal(*da, *db);
  }
  return NumericRank(a->id()) >= NumericRank(b->id()) ? a : b;
}

std::string TypeList(const std::vector<ExprPtr>& args) {
  std::vector<std::string> types;
  for (const auto& a : args) types.push_back(a->type->ToString());
  return fmt::format("{}", fmt::join(types, ", "));
}

/// The type values of `a` and `b` share in CASE, COALESCE and the like: numbers widen, and a
/// string absorbs anything (Spark's rule for these functions).
Result<TypePtr> ValueType(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b) || b->id() == TypeId::kNull) return a;
  if (a->id() == TypeId::kNull) return b;
  if (IsNumeric(a->id()) && IsNumeric(b->id())) return WiderNumeric(a, b);
  if (a->id() == TypeId::kString || b->id() == TypeId::kString) return DataType::String();
  if ((a->id() == TypeId::kDate && b->id() == TypeId::kTimestamp) || (a->id() == TypeId::kTimestamp && b->id() == TypeId::kDate)) {
    return DataType::Timestamp();
  }
  return Status::InvalidInput("no common type for {} and {}", a->ToString(), b->ToString());
}

/// A LIKE pattern as a regular expression: % is any run, _ any one character, \\ escapes.
std::string LikeToRegex(std::string_view like) {
  std::string out;
  for (size_t i = 0; i < like.size(); ++i) {
    char c = like[i];
    if (c == '\\' && i + 1 < like.size()) {
      out += RE2::QuoteMeta(std::string(1, like[++i]));
    } else if (c == '%') {
      out += ".*";
    } else if (c == '_') {
      out += ".";
    } else {
      out += RE2::QuoteMeta(std::string(1, c));
    }
  }
  return out;
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
    if (windowed && !options_.allow_windows) {
      return Status::InvalidInput("window function {} is not allowed here ('{}'); windows belong in a select list", e.op,
                                  e.ToString());
    }
    if (IsWindowFunction(e.op) && !windowed) {
      return Status::InvalidInput("window function {}() needs an OVER clause ('{}')", e.op, e.ToString());
    }
    if (IsAggregateFunction(e.op) && !windowed && !options_.allow_aggregates) {
      return Status::InvalidInput("aggregate function {} is not allowed here ('{}')", e.op, e.ToString());
    }
    if (e.op == "grouping" || e.op == "grouping_id") {
      return Status::InvalidInput("{}() needs GROUP BY with GROUPING SETS, ROLLUP or CUBE ('{}')", e.op, e.ToString());
    }
    std::vector<ExprPtr> args;
    {
      // Arguments of an aggregate may not hold another aggregate (those of a windowed one may:
      // sum(sum(x)) OVER () windows the grouped sums); windows may sit inside scalar functions
      // (length(lag(s) OVER w)) but not inside aggregates or other windows.
      BindOptions inner = options_;
      if (IsAggregateFunction(e.op) && !windowed) inner.allow_aggregates = false;
      inner.allow_windows = options_.allow_windows && !windowed && !IsAggregateFunction(e.op);
      Binder binder(schema_, inner);
      for (const auto& a : e.args) {
        if (a->kind == ExprKind::kCall && a->op == "interval") {
          args.push_back(a);  // an operand of + or -, handled there; anywhere else an error below
          continue;
        }
        EPOXY_ASSIGN_OR_RETURN(ExprPtr b, binder.Bind(a));
        args.push_back(b);
      }
    }
    auto out = std::make_shared<Expr>(e);
    out->args = args;
    if (windowed) {
      EPOXY_ASSIGN_OR_RETURN(out->window, BindWindowSpec(*e.window));
      return BindWindowCall(e, out);
    }
    const std::string& op = e.op;
    auto need = [&](size_t lo, size_t hi) -> Status {
      if (args.size() < lo || args.size() > hi) {
        if (lo == hi) return Status::InvalidInput("{} takes {} argument(s), got {} in '{}'", op, lo, args.size(), e.ToString());
        return Status::InvalidInput("{} takes {} to {} arguments, got {} in '{}'", op, lo, hi, args.size(), e.ToString());
      }
      return Status::OK();
    };
    auto result = [&](TypePtr type) -> Result<ExprPtr> {
      out->type = std::move(type);
      return ExprPtr(out);
    };
    auto cast_all = [&](const TypePtr& type) {
      for (auto& a : out->args) a = CastTo(a, type);
    };
    auto require_boolean = [&](size_t i) -> Status {
      TypeId id = out->args[i]->type->id();
      if (id == TypeId::kNull) {
        out->args[i] = CastTo(out->args[i], DataType::Boolean());
        return Status::OK();
      }
      if (id != TypeId::kBoolean) {
        return TypeError(e, fmt::format("{} needs a boolean, got {} ({})", op, out->args[i]->type->ToString(), out->args[i]->ToString()));
      }
      return Status::OK();
    };
    auto string_arg = [&](size_t i) {
      if (out->args[i]->type->id() != TypeId::kString) out->args[i] = CastTo(out->args[i], DataType::String());
    };
    bool raw_interval = std::any_of(args.begin(), args.end(), [](const ExprPtr& a) { return a->type == nullptr; });
    if (raw_interval && op != "+" && op != "-") {
      return Status::InvalidInput("an INTERVAL can only be added to or subtracted from a date or timestamp ('{}')", e.ToString());
    }
    if (op == "interval") {
      return Status::InvalidInput("an INTERVAL can only be added to or subtracted from a date or timestamp ('{}')", e.ToString());
    }
    // Arithmetic.
    if (op == "+" || op == "-" || op == "*" || op == "%" || op == "/" || op == "div") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      TypePtr a = args[0]->type, b = args[1]->type;
      // Date and timestamp arithmetic with an INTERVAL: add_interval(x, months, micros).
      bool interval_right = e.args[1]->kind == ExprKind::kCall && e.args[1]->op == "interval";
      if ((op == "+" || op == "-") && (interval_right || (op == "+" && e.args[0]->kind == ExprKind::kCall && e.args[0]->op == "interval"))) {
        ExprPtr value = interval_right ? out->args[0] : out->args[1];
        const Expr& interval = interval_right ? *e.args[1] : *e.args[0];
        int64_t sign = op == "-" ? -1 : 1;
        int64_t months = std::get<int64_t>(interval.args[0]->literal.value) * sign;
        int64_t micros = std::get<int64_t>(interval.args[1]->literal.value) * sign;
        TypeId id = value->type->id();
        if (id == TypeId::kString) value = CastTo(value, DataType::Timestamp());
        if (id != TypeId::kDate && id != TypeId::kTimestamp && id != TypeId::kString) {
          return TypeError(e, fmt::format("an INTERVAL is added to a date or timestamp, not to {}", value->type->ToString()));
        }
        // A date stays a date when the interval has whole days only, as in Spark.
        TypePtr type = id == TypeId::kDate && micros % kMicrosPerDay == 0 ? DataType::Date() : DataType::Timestamp();
        if (type->id() == TypeId::kTimestamp) value = CastTo(value, DataType::Timestamp());
        out->op = "add_interval";
        out->args = {value, Expr::Literal(Scalar::Integer(DataType::BigInt(), months)),
                     Expr::Literal(Scalar::Integer(DataType::BigInt(), micros))};
        return result(type);
      }
      if (a == nullptr || b == nullptr) {
        return Status::InvalidInput("an INTERVAL can only be added to or subtracted from a date or timestamp ('{}')", e.ToString());
      }
      // Date arithmetic: date +/- integer days.
      if ((op == "+" || op == "-") && a->id() == TypeId::kDate && IsIntegral(b->id())) {
        out->op = op == "+" ? "date_add" : "date_sub";
        out->args[1] = CastTo(out->args[1], DataType::Int());
        return result(DataType::Date());
      }
      auto numeric = [](const TypePtr& t) {
        return IsNumeric(t->id()) ? t : t->id() == TypeId::kNull ? DataType::Int() : DataType::Double();
      };
      for (const auto& t : {a, b}) {
        if (!IsNumeric(t->id()) && t->id() != TypeId::kString && t->id() != TypeId::kNull) {
          return TypeError(e, fmt::format("{} needs numbers, got {}", op, TypeList(args)));
        }
      }
      TypePtr na = numeric(a), nb = numeric(b);
      const bool decimal = (na->id() == TypeId::kDecimal || nb->id() == TypeId::kDecimal) && !IsFloating(na->id()) &&
                           !IsFloating(nb->id());
      if (decimal && op != "div") {
        // Spark's decimal arithmetic: each side as a decimal, the result typed by the operator.
        TypePtr da = AsDecimal(*out->args[0]), db = AsDecimal(*out->args[1]);
        if (da == nullptr) da = DecimalForIntegral(TypeId::kInt);  // a NULL operand
        if (db == nullptr) db = DecimalForIntegral(TypeId::kInt);
        out->args[0] = CastTo(out->args[0], da);
        out->args[1] = CastTo(out->args[1], db);
        return result(DecimalArithmeticType(op, *da, *db));
      }
      TypePtr common = WiderNumeric(na, nb);
      if (op == "/") common = DataType::Double();
      if (op == "div") common = DataType::BigInt();
      cast_all(common);
      return result(common);
    }
    if (op == "negate") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      TypePtr t = args[0]->type;
      if (t->id() == TypeId::kString) t = DataType::Double();
      if (!IsNumeric(t->id())) return TypeError(e, fmt::format("- needs a number, got {}", t->ToString()));
      cast_all(t);
      return result(t);
    }
    // Comparisons.
    if (op == "=" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" || op == "<=>") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      auto common = ComparisonType(args[0]->type, args[1]->type);
      if (!common.ok()) return TypeError(e, common.status().message());
      cast_all(*common);
      return result(DataType::Boolean());
    }
    if (op == "and" || op == "or") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      EPOXY_RETURN_NOT_OK(require_boolean(0));
      EPOXY_RETURN_NOT_OK(require_boolean(1));
      return result(DataType::Boolean());
    }
    if (op == "not") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      EPOXY_RETURN_NOT_OK(require_boolean(0));
      return result(DataType::Boolean());
    }
    if (op == "is_null" || op == "is_not_null" || op == "isnull" || op == "isnotnull") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      if (op == "isnull") out->op = "is_null";
      if (op == "isnotnull") out->op = "is_not_null";
      return result(DataType::Boolean());
    }
    if (op == "in") {
      TypePtr common = args[0]->type;
      for (size_t i = 1; i < args.size(); ++i) {
        auto t = ComparisonType(common, args[i]->type);
        if (!t.ok()) return TypeError(e, t.status().message());
        common = *t;
      }
      cast_all(common);
      return result(DataType::Boolean());
    }
    if (op == "like" || op == "rlike") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      string_arg(0);
      string_arg(1);
      EPOXY_RETURN_NOT_OK(CompileRegex(out, 1, op == "like"));
      return result(DataType::Boolean());
    }
    if (op == "case") {
      TypePtr type = DataType::Null();
      for (size_t i = 0; i < args.size(); ++i) {
        bool is_condition = i % 2 == 0 && i + 1 < args.size();
        if (is_condition) {
          EPOXY_RETURN_NOT_OK(require_boolean(i));
          continue;
        }
        auto t = ValueType(type, args[i]->type);
        if (!t.ok()) return TypeError(e, t.status().message());
        type = *t;
      }
      for (size_t i = 0; i < args.size(); ++i) {
        if (!(i % 2 == 0 && i + 1 < args.size())) out->args[i] = CastTo(out->args[i], type);
      }
      return result(type);
    }
    if (auto external = FindExternalFunction(op)) {  // a UDF: any arguments, its declared type
      out->type = external->result;
      return ExprPtr(out);
    }
    return BindFunction(e, out, need);
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

  /// f(...) OVER (...): ranking and offset functions, and aggregates over a frame.
  Result<ExprPtr> BindWindowCall(const Expr& e, std::shared_ptr<Expr> out) {
    const std::string op = e.op;
    auto& args = out->args;
    static const char* kNeedOrder[] = {"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead"};
    for (const char* f : kNeedOrder) {
      if (op == f && out->window->order_by.empty()) {
        return Status::InvalidInput("window function {}() needs an ORDER BY in its window ('{}')", op, e.ToString());
      }
    }
    auto need = [&](size_t lo, size_t hi) -> Status {
      if (args.size() < lo || args.size() > hi) {
        return Status::InvalidInput("{} takes {} to {} arguments, got {} in '{}'", op, lo, hi, args.size(), e.ToString());
      }
      return Status::OK();
    };
    auto done = [&](TypePtr type) -> Result<ExprPtr> {
      out->type = std::move(type);
      return ExprPtr(out);
    };
    if (op == "row_number" || op == "rank" || op == "dense_rank") {
      EPOXY_RETURN_NOT_OK(need(0, 0));
      return done(DataType::Int());
    }
    if (op == "percent_rank" || op == "cume_dist") {
      EPOXY_RETURN_NOT_OK(need(0, 0));
      return done(DataType::Double());
    }
    if (op == "ntile") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 0, DataType::Int()));
      if (args[0]->literal.is_null() || std::get<int64_t>(args[0]->literal.value) <= 0) {
        return Status::InvalidInput("ntile needs a positive number of buckets ('{}')", e.ToString());
      }
      return done(DataType::Int());
    }
    if (op == "lag" || op == "lead") {
      EPOXY_RETURN_NOT_OK(need(1, 3));
      if (args.size() >= 2) EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1, DataType::Int()));
      if (args.size() == 3) args[2] = CastTo(args[2], args[0]->type);
      return done(args[0]->type);
    }
    if (op == "nth_value") {
      EPOXY_RETURN_NOT_OK(need(2, 3));
      EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1, DataType::Int()));
      if (args[1]->literal.is_null() || std::get<int64_t>(args[1]->literal.value) <= 0) {
        return Status::InvalidInput("nth_value needs a positive position ('{}')", e.ToString());
      }
      if (args.size() == 3) EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 2, DataType::Boolean()));
      return done(args[0]->type);
    }
    if (!IsAggregateFunction(op)) return Status::InvalidInput("{} cannot be used over a window ('{}')", op, e.ToString());
    if (e.distinct) return Status::InvalidInput("DISTINCT is not allowed in a window aggregate ('{}')", e.ToString());
    auto need_any = [&](size_t lo, size_t hi) { return need(lo, hi); };
    return BindFunction(e, out, need_any);
  }

  template <typename Need>
  Result<ExprPtr> BindFunction(const Expr& e, std::shared_ptr<Expr> out, Need& need) {
    const std::string op = out->op;
    auto& args = out->args;
    auto result = [&](TypePtr type) -> Result<ExprPtr> {
      out->type = std::move(type);
      return ExprPtr(out);
    };
    auto cast_arg = [&](size_t i, const TypePtr& type) -> Status {
      if (!CanCast(*args[i]->type, *type)) {
        return TypeError(e, fmt::format("argument {} of {} is {}, which does not convert to {}", i + 1, op,
                                        args[i]->type->ToString(), type->ToString()));
      }
      args[i] = CastTo(args[i], type);
      return Status::OK();
    };
    auto common_value = [&](size_t from) -> Result<TypePtr> {
      TypePtr type = DataType::Null();
      for (size_t i = from; i < args.size(); ++i) {
        auto t = ValueType(type, args[i]->type);
        if (!t.ok()) return TypeError(e, t.status().message());
        type = *t;
      }
      for (size_t i = from; i < args.size(); ++i) args[i] = CastTo(args[i], type);
      return type;
    };
    // Aggregates.
    if (op == "count") {
      EPOXY_RETURN_NOT_OK(need(0, e.distinct ? 1000 : 1));
      return result(DataType::BigInt());
    }
    if (op == "count_if") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      if (args[0]->type->id() != TypeId::kBoolean) EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Boolean()));
      return result(DataType::BigInt());
    }
    if (op == "sum" || op == "avg" || op == "mean") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      if (op == "mean") out->op = "avg";
      TypePtr t = args[0]->type;
      if (t->id() == TypeId::kString) EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
      else if (!IsNumeric(t->id()) && t->id() != TypeId::kNull) return TypeError(e, fmt::format("{} needs numbers, got {}", op, t->ToString()));
      if (args[0]->type->id() == TypeId::kDecimal) {
        const DataType& d = *args[0]->type;
        return result(op == "sum" ? DecimalSumType(d) : DecimalAvgType(d));
      }
      if (op != "sum") {
        EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
        return result(DataType::Double());
      }
      if (IsIntegral(args[0]->type->id()) || args[0]->type->id() == TypeId::kNull) {
        EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::BigInt()));
        return result(DataType::BigInt());
      }
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
      return result(DataType::Double());
    }
    if (op == "min" || op == "max" || op == "any_value") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      return result(args[0]->type);
    }
    if (op == "first" || op == "last" || op == "first_value" || op == "last_value") {
      EPOXY_RETURN_NOT_OK(need(1, 2));  // the second: ignoreNulls
      if (op == "first_value") out->op = "first";
      if (op == "last_value") out->op = "last";
      if (args.size() == 2) EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1, DataType::Boolean()));
      return result(args[0]->type);
    }
    if (op == "median" || op == "product" || op == "skewness" || op == "kurtosis") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      if (!IsNumeric(args[0]->type->id()) && args[0]->type->id() != TypeId::kString && args[0]->type->id() != TypeId::kNull) {
        return TypeError(e, fmt::format("{} needs numbers, got {}", op, args[0]->type->ToString()));
      }
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
      return result(DataType::Double());
    }
    if (op == "covar_pop" || op == "covar_samp" || op == "corr") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
      EPOXY_RETURN_NOT_OK(cast_arg(1, DataType::Double()));
      return result(DataType::Double());
    }
    if (op == "mode") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      return result(args[0]->type);
    }
    if (op == "collect_list" || op == "collect_set" || op == "array_agg") {
      if (op == "array_agg") out->op = "collect_list";
      EPOXY_RETURN_NOT_OK(need(1, 1));
      return result(DataType::Array(args[0]->type));
    }
    if (op == "stddev" || op == "std" || op == "stddev_samp" || op == "stddev_pop" || op == "variance" ||
        op == "var_samp" || op == "var_pop") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      if (op == "std" || op == "stddev") out->op = "stddev_samp";
      if (op == "variance") out->op = "var_samp";
      if (!IsNumeric(args[0]->type->id()) && args[0]->type->id() != TypeId::kString && args[0]->type->id() != TypeId::kNull) {
        return TypeError(e, fmt::format("{} needs numbers, got {}", op, args[0]->type->ToString()));
      }
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
      return result(DataType::Double());
    }
    if (op == "approx_count_distinct") {
      EPOXY_RETURN_NOT_OK(need(1, 2));
      if (args.size() == 2) EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1, DataType::Double()));
      return result(DataType::BigInt());
    }
    if (op == "bool_and" || op == "every" || op == "bool_or" || op == "some" || op == "any") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      out->op = op == "bool_and" || op == "every" ? "bool_and" : "bool_or";
      if (args[0]->type->id() != TypeId::kBoolean && args[0]->type->id() != TypeId::kNull) {
        return TypeError(e, fmt::format("{} needs a boolean, got {}", op, args[0]->type->ToString()));
      }
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Boolean()));
      return result(DataType::Boolean());
    }
    // Conditional functions.
    if (op == "coalesce" || op == "nvl" || op == "ifnull") {
      EPOXY_RETURN_NOT_OK(need(op == "coalesce" ? 1 : 2, op == "coalesce" ? 1000 : 2));
      out->op = "coalesce";
      EPOXY_ASSIGN_OR_RETURN(TypePtr t, common_value(0));
      return result(t);
    }
    if (op == "if" || op == "iff") {
      EPOXY_RETURN_NOT_OK(need(3, 3));
      if (args[0]->type->id() != TypeId::kBoolean) EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Boolean()));
      out->op = "case";
      EPOXY_ASSIGN_OR_RETURN(TypePtr t, common_value(1));
      return result(t);
    }
    if (op == "nullif") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      auto common = ComparisonType(args[0]->type, args[1]->type);
      if (!common.ok()) return TypeError(e, common.status().message());
      ExprPtr value = args[0];
      ExprPtr equal = Expr::Call("=", {CastTo(args[0], *common), CastTo(args[1], *common)});
      auto eq = std::make_shared<Expr>(*equal);
      eq->type = DataType::Boolean();
      out->op = "case";
      out->args = {eq, Expr::Literal(Scalar::Null(value->type)), value};
      return result(value->type);
    }
    if (op == "greatest" || op == "least") {
      EPOXY_RETURN_NOT_OK(need(2, 1000));
      EPOXY_ASSIGN_OR_RETURN(TypePtr t, common_value(0));
      return result(t);
    }
    // Math.
    if (op == "abs") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      if (!IsNumeric(args[0]->type->id())) EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
      return result(args[0]->type);
    }
    if (op == "round" || op == "bround") {
      EPOXY_RETURN_NOT_OK(need(1, 2));
      if (!IsNumeric(args[0]->type->id())) EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
      if (args.size() == 2) EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1, DataType::Int()));
      if (args[0]->type->id() == TypeId::kDecimal) {
        // Spark's RoundBase: room for one more integer digit, the scale cut to the digits kept.
        const int p = args[0]->type->precision(), s = args[0]->type->scale();
        int digits = 0;
        if (args.size() == 2 && !args[1]->literal.is_null()) digits = static_cast<int>(std::get<int64_t>(args[1]->literal.value));
        if (digits < 0) return result(DataType::Decimal(std::min(std::max(p - s + 1, -digits + 1), kMaxDecimalPrecision), 0));
        const int scale = std::min(s, digits);
        return result(DataType::Decimal(std::min(p - s + 1 + scale, kMaxDecimalPrecision), scale));
      }
      return result(args[0]->type);
    }
    if (op == "floor" || op == "ceil" || op == "ceiling") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      out->op = op == "ceiling" ? "ceil" : op;
      if (IsIntegral(args[0]->type->id())) {
        EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::BigInt()));
        return result(DataType::BigInt());
      }
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Double()));
      return result(DataType::BigInt());
    }
    // Strings.
    if (op == "lower" || op == "upper" || op == "lcase" || op == "ucase" || op == "trim" || op == "ltrim" ||
        op == "rtrim" || op == "md5" || op == "initcap" || op == "reverse") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      if (op == "lcase") out->op = "lower";
      if (op == "ucase") out->op = "upper";
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::String()));
      return result(DataType::String());
    }
    if (op == "length" || op == "char_length" || op == "character_length") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      out->op = "length";
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::String()));
      return result(DataType::Int());
    }
    if (op == "substring" || op == "substr") {  // one function, named as written (Spark's names differ)
      EPOXY_RETURN_NOT_OK(need(2, 3));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::String()));
      for (size_t i = 1; i < args.size(); ++i) EPOXY_RETURN_NOT_OK(cast_arg(i, DataType::Int()));
      return result(DataType::String());
    }
    if (op == "concat" || op == "concat_ws") {
      EPOXY_RETURN_NOT_OK(need(op == "concat" ? 1 : 2, 1000));
      for (size_t i = 0; i < args.size(); ++i) EPOXY_RETURN_NOT_OK(cast_arg(i, DataType::String()));
      return result(DataType::String());
    }
    if (op == "size" || op == "cardinality") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      out->op = "size";
      TypeId id = args[0]->type->id();
      if (id != TypeId::kArray && id != TypeId::kMap) return TypeError(e, fmt::format("{} needs an array or a map, got {}", op, args[0]->type->ToString()));
      return result(DataType::Int());
    }
    if (op == "sort_array" || op == "array_sort") {
      EPOXY_RETURN_NOT_OK(need(1, op == "sort_array" ? 2 : 1));
      if (args[0]->type->id() != TypeId::kArray) return TypeError(e, fmt::format("{} needs an array, got {}", op, args[0]->type->ToString()));
      if (args.size() == 2) EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1, DataType::Boolean()));
      return result(args[0]->type);
    }
    if (op == "split") {
      EPOXY_RETURN_NOT_OK(need(2, 3));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::String()));
      EPOXY_RETURN_NOT_OK(CompileRegex(out, 1, false));
      if (args.size() == 3) EPOXY_RETURN_NOT_OK(cast_arg(2, DataType::Int()));
      return result(DataType::Array(DataType::String()));
    }
    if (op == "regexp_extract") {
      EPOXY_RETURN_NOT_OK(need(2, 3));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::String()));
      EPOXY_RETURN_NOT_OK(CompileRegex(out, 1, false));
      if (args.size() == 3) EPOXY_RETURN_NOT_OK(cast_arg(2, DataType::Int()));
      return result(DataType::String());
    }
    if (op == "regexp_replace") {
      EPOXY_RETURN_NOT_OK(need(3, 3));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::String()));
      EPOXY_RETURN_NOT_OK(CompileRegex(out, 1, false));
      EPOXY_RETURN_NOT_OK(cast_arg(2, DataType::String()));
      return result(DataType::String());
    }
    if (op == "hash") {
      EPOXY_RETURN_NOT_OK(need(1, 1000));
      return result(DataType::Int());
    }
    if (op == "sha2") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::String()));
      EPOXY_RETURN_NOT_OK(cast_arg(1, DataType::Int()));
      return result(DataType::String());
    }
    // Dates and times.
    if (op == "monotonically_increasing_id" || op == "spark_partition_id") {
      EPOXY_RETURN_NOT_OK(need(0, 0));
      return result(op == "spark_partition_id" ? DataType::Int() : DataType::BigInt());
    }
    if (op == "input_file_name") {
      return Status::NotSupported("input_file_name() is not supported by epoxy yet ('{}')", e.ToString());
    }
    if (op == "current_date" || op == "current_timestamp" || op == "now") {
      EPOXY_RETURN_NOT_OK(need(0, 0));
      if (op == "now") out->op = "current_timestamp";
      return result(op == "current_date" ? DataType::Date() : DataType::Timestamp());
    }
    if (op == "date_add" || op == "date_sub") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Date()));
      EPOXY_RETURN_NOT_OK(cast_arg(1, DataType::Int()));
      return result(DataType::Date());
    }
    if (op == "datediff") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Date()));
      EPOXY_RETURN_NOT_OK(cast_arg(1, DataType::Date()));
      return result(DataType::Int());
    }
    if (op == "to_date" || op == "to_timestamp") {
      EPOXY_RETURN_NOT_OK(need(1, 2));
      TypePtr to = op == "to_date" ? DataType::Date() : DataType::Timestamp();
      if (args.size() == 1) {  // without a pattern it is the cast
        if (!CanCast(*args[0]->type, *to)) return TypeError(e, fmt::format("{} cannot take {}", op, args[0]->type->ToString()));
        return CastTo(args[0], to);
      }
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::String()));
      EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1));
      return result(to);
    }
    if (op == "unix_timestamp") {
      EPOXY_RETURN_NOT_OK(need(0, 2));
      if (args.size() == 2) EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1));
      if (args.size() >= 1 && args[0]->type->id() != TypeId::kString) EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Timestamp()));
      return result(DataType::BigInt());
    }
    if (op == "from_unixtime") {
      EPOXY_RETURN_NOT_OK(need(1, 2));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::BigInt()));
      if (args.size() == 2) EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1));
      return result(DataType::String());
    }
    if (op == "date_format") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Timestamp()));
      EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, 1));
      return result(DataType::String());
    }
    if (op == "year" || op == "month" || op == "dayofmonth" || op == "day" || op == "dayofweek" || op == "dayofyear" ||
        op == "quarter") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      if (op == "day") out->op = "dayofmonth";
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Date()));
      return result(DataType::Int());
    }
    if (op == "hour" || op == "minute" || op == "second") {
      EPOXY_RETURN_NOT_OK(need(1, 1));
      EPOXY_RETURN_NOT_OK(cast_arg(0, DataType::Timestamp()));
      return result(DataType::Int());
    }
    if (op == "date_trunc" || op == "trunc") {
      EPOXY_RETURN_NOT_OK(need(2, 2));
      // date_trunc(unit, ts) gives a timestamp; trunc(date, unit) a date.
      size_t unit = op == "date_trunc" ? 0 : 1;
      EPOXY_RETURN_NOT_OK(RequireLiteral(e, out, unit));
      EPOXY_RETURN_NOT_OK(cast_arg(1 - unit, op == "date_trunc" ? DataType::Timestamp() : DataType::Date()));
      return result(op == "date_trunc" ? DataType::Timestamp() : DataType::Date());
    }
    EPOXY_ASSIGN_OR_RETURN(bool collection, BindCollectionFunction(out.get()));
    if (collection) return ExprPtr(out);
    EPOXY_ASSIGN_OR_RETURN(bool calendar, BindCalendarFunction(out.get()));
    if (calendar) return ExprPtr(out);
    EPOXY_ASSIGN_OR_RETURN(bool math, BindMathFunction(out.get()));
    if (math) return ExprPtr(out);
    EPOXY_ASSIGN_OR_RETURN(ExprPtr text, BindTextFunction(out));
    if (text != nullptr) return text;
    return Status::InvalidInput("unknown function '{}' in '{}'", op, e.ToString());
  }

  /// Argument i folded to a constant of `type` (text by default); an error when it is not constant.
  Status RequireLiteral(const Expr& e, const std::shared_ptr<Expr>& out, size_t i,
                        const TypePtr& type = DataType::String()) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr folded, Fold(CastTo(out->args[i], type)));
    if (folded->kind != ExprKind::kLiteral) {
      return Status::InvalidInput("argument {} of {} must be a constant in '{}'", i + 1, out->op, e.ToString());
    }
    out->args[i] = folded;
    return Status::OK();
  }

  /// A constant regular expression argument, compiled once here.
  Status CompileRegex(const std::shared_ptr<Expr>& out, size_t i, bool like) {
    EPOXY_RETURN_NOT_OK(RequireLiteral(*out, out, i));
    const Scalar& pattern = out->args[i]->literal;
    if (pattern.is_null()) return Status::OK();
    std::string text = std::get<std::string>(pattern.value);
    if (like) text = LikeToRegex(text);
    RE2::Options options;
    options.set_log_errors(false);
    options.set_dot_nl(true);
    auto re = std::make_shared<RE2>(text, options);
    if (!re->ok()) {
      return Status::InvalidInput("invalid regular expression '{}' in '{}': {}", std::get<std::string>(pattern.value),
                                  out->ToString(), re->error());
    }
    out->regex = std::move(re);
    return Status::OK();
  }

  /// Replaces a deterministic call or cast over constants by its value.
  Result<ExprPtr> Fold(const ExprPtr& e) {
    if (e->kind != ExprKind::kCall && e->kind != ExprKind::kCast) return e;
    if (e->kind == ExprKind::kCall && (IsAggregateFunction(e->op) || IsWindowFunction(e->op) || e->window != nullptr ||
                                       e->op == "current_date" || e->op == "current_timestamp" ||
                                       e->op == "monotonically_increasing_id" || FindExternalFunction(e->op) != nullptr)) {
      return e;  // per-row values (ids, UDFs, which may not be deterministic) are never folded
    }
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

  const Schema& schema_;
  const BindOptions& options_;
};

}  // namespace

Result<TypePtr> ComparisonType(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b)) return a;
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  if (IsNumeric(a->id()) && IsNumeric(b->id())) return WiderNumeric(a, b);
  // A string meets the other side's type (Spark casts the string).
  if (a->id() == TypeId::kString && b->id() != TypeId::kBinary && CanCast(*a, *b)) return b;
  if (b->id() == TypeId::kString && a->id() != TypeId::kBinary && CanCast(*b, *a)) return a;
  if ((a->id() == TypeId::kDate && b->id() == TypeId::kTimestamp) || (a->id() == TypeId::kTimestamp && b->id() == TypeId::kDate)) {
    return DataType::Timestamp();
  }
  return Status::InvalidInput("cannot compare {} with {}", a->ToString(), b->ToString());
}

Result<TypePtr> CommonType(const TypePtr& a, const TypePtr& b) { return ValueType(a, b); }

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
