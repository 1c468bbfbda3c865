// SPDX-License-Identifier: Apache-2.0
// Recursive descent over Spark SQL's expression precedence: OR < AND < NOT < predicates
// (comparison, IS NULL, IN, BETWEEN, LIKE) < + - || < * / % DIV < unary minus < primary.
#include "epoxy/expr/parser.h"

#include <algorithm>
#include <cctype>

#include "epoxy/expr/decimal.h"
#include "epoxy/expr/time_units.h"
#include "epoxy/types/value_text.h"

namespace epoxy::expr {
namespace {

constexpr int kMaxDepth = 200;

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Words that end an expression or start a clause, never column names when unquoted.
bool IsReserved(const Token& t) {
  static const char* kReserved[] = {"AND", "OR", "NOT", "FROM", "WHERE", "AS", "UNION", "LIMIT", "GROUP", "ORDER",
                                    "BY", "HAVING", "WHEN", "THEN", "ELSE", "END", "IS", "IN", "BETWEEN", "LIKE",
                                    "RLIKE", "REGEXP", "ALL", "SELECT", "ON", "JOIN", "DIV", "USING", "INTERSECT",
                                    "EXCEPT", "MINUS", "CROSS", "INNER", "DISTINCT", "EXISTS", "WITH", "OVER"};
  return std::any_of(std::begin(kReserved), std::end(kReserved), [&](const char* k) { return t.IsKeyword(k); });
}

}  // namespace

Result<ExprPtr> ParseExpression(std::string_view text) {
  EPOXY_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  TokenParser parser(text, std::move(tokens));
  EPOXY_ASSIGN_OR_RETURN(ExprPtr e, parser.ParseExpr());
  if (!parser.AtEnd()) return parser.Expected("the end of the expression");
  return e;
}

const Token& TokenParser::Peek(size_t ahead) const {
  return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
}

const Token& TokenParser::Next() {
  const Token& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool TokenParser::AcceptKeyword(std::string_view keyword) {
  if (!Peek().IsKeyword(keyword)) return false;
  Next();
  return true;
}

bool TokenParser::AcceptOperator(std::string_view op) {
  if (!Peek().IsOperator(op)) return false;
  Next();
  return true;
}

Status TokenParser::ExpectKeyword(std::string_view keyword) {
  return AcceptKeyword(keyword) ? Status::OK() : Expected(keyword);
}

Status TokenParser::ExpectOperator(std::string_view op) {
  return AcceptOperator(op) ? Status::OK() : Expected(fmt::format("'{}'", op));
}

Status TokenParser::Expected(std::string_view what) const {
  const Token& t = Peek();
  std::string found = t.kind == Token::Kind::kEnd ? "the end" : "'" + t.text + "'";
  return Status::InvalidInput("syntax error: expected {} at position {} of '{}', found {}", what, t.position + 1,
                              source_, found);
}

Result<std::string> TokenParser::ParseIdentifier() {
  const Token& t = Peek();
  if (t.kind == Token::Kind::kQuotedIdentifier || (t.kind == Token::Kind::kIdentifier && !IsReserved(t))) {
    return Next().text;
  }
  return Expected("a name");
}

Result<ExprPtr> TokenParser::ParseExpr() {
  if (++depth_ > kMaxDepth) return Status::InvalidInput("expression nested too deeply: '{}'", source_);
  EPOXY_ASSIGN_OR_RETURN(ExprPtr left, ParseAnd());
  while (Peek().IsKeyword("OR")) {
    Next();
    EPOXY_ASSIGN_OR_RETURN(ExprPtr right, ParseAnd());
    left = Expr::Call("or", {left, right});
  }
  --depth_;
  return left;
}

Result<ExprPtr> TokenParser::ParseAnd() {
  EPOXY_ASSIGN_OR_RETURN(ExprPtr left, ParseNot());
  while (AcceptKeyword("AND") || AcceptOperator("&&")) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr right, ParseNot());
    left = Expr::Call("and", {left, right});
  }
  return left;
}

Result<ExprPtr> TokenParser::ParseNot() {
  if (AcceptKeyword("NOT") || AcceptOperator("!")) {
    if (++depth_ > kMaxDepth) return Status::InvalidInput("expression nested too deeply: '{}'", source_);
    EPOXY_ASSIGN_OR_RETURN(ExprPtr operand, ParseNot());
    --depth_;
    return Expr::Call("not", {operand});
  }
  return ParsePredicate();
}

Result<ExprPtr> TokenParser::ParsePredicate() {
  EPOXY_ASSIGN_OR_RETURN(ExprPtr left, ParseAdditive());
  while (true) {
    static const char* kComparisons[] = {"<=>", "<>", "!=", "<=", ">=", "==", "=", "<", ">"};
    bool compared = false;
    for (const char* op : kComparisons) {
      if (AcceptOperator(op)) {
        std::string name = op;
        if (name == "<>") name = "!=";
        if (name == "==") name = "=";
        EPOXY_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
        left = Expr::Call(name, {left, right});
        compared = true;
        break;
      }
    }
    if (compared) continue;
    if (AcceptKeyword("IS")) {
      bool negated = AcceptKeyword("NOT");
      if (AcceptKeyword("DISTINCT")) {  // IS [NOT] DISTINCT FROM: null-safe (in)equality
        EPOXY_RETURN_NOT_OK(ExpectKeyword("FROM"));
        EPOXY_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
        left = Expr::Call("<=>", {left, right});
        if (!negated) left = Expr::Call("not", {left});
        continue;
      }
      EPOXY_RETURN_NOT_OK(ExpectKeyword("NULL"));
      left = Expr::Call(negated ? "is_not_null" : "is_null", {left});
      continue;
    }
    bool negated = false;
    if (Peek().IsKeyword("NOT") &&
        (Peek(1).IsKeyword("IN") || Peek(1).IsKeyword("BETWEEN") || Peek(1).IsKeyword("LIKE") ||
         Peek(1).IsKeyword("RLIKE") || Peek(1).IsKeyword("REGEXP"))) {
      Next();
      negated = true;
    }
    auto wrap = [&](ExprPtr e) { return negated ? Expr::Call("not", {e}) : e; };
    if (AcceptKeyword("IN")) {
      EPOXY_RETURN_NOT_OK(ExpectOperator("("));
      if (AtSubquery()) {
        EPOXY_ASSIGN_OR_RETURN(ExprPtr in, ParseSubquery("in", {left}));
        EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
        left = wrap(in);
        continue;
      }
      std::vector<ExprPtr> args = {left};
      do {
        EPOXY_ASSIGN_OR_RETURN(ExprPtr v, ParseExpr());
        args.push_back(v);
      } while (AcceptOperator(","));
      EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
      left = wrap(Expr::Call("in", std::move(args)));
    } else if (AcceptKeyword("BETWEEN")) {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr low, ParseAdditive());
      EPOXY_RETURN_NOT_OK(ExpectKeyword("AND"));
      EPOXY_ASSIGN_OR_RETURN(ExprPtr high, ParseAdditive());
      left = wrap(Expr::Call("and", {Expr::Call(">=", {left, low}), Expr::Call("<=", {left, high})}));
    } else if (AcceptKeyword("LIKE")) {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr pattern, ParseAdditive());
      left = wrap(Expr::Call("like", {left, pattern}));
    } else if (AcceptKeyword("RLIKE") || AcceptKeyword("REGEXP")) {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr pattern, ParseAdditive());
      left = wrap(Expr::Call("rlike", {left, pattern}));
    } else {
      if (negated) return Expected("IN, BETWEEN, LIKE or RLIKE after NOT");
      return left;
    }
  }
}

Result<ExprPtr> TokenParser::ParseAdditive() {
  EPOXY_ASSIGN_OR_RETURN(ExprPtr left, ParseMultiplicative());
  while (true) {
    std::string op;
    if (AcceptOperator("+")) op = "+";
    else if (AcceptOperator("-")) op = "-";
    else if (AcceptOperator("||")) op = "concat";
    else return left;
    EPOXY_ASSIGN_OR_RETURN(ExprPtr right, ParseMultiplicative());
    left = Expr::Call(op, {left, right});
  }
}

Result<ExprPtr> TokenParser::ParseMultiplicative() {
  EPOXY_ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
  while (true) {
    std::string op;
    if (AcceptOperator("*")) op = "*";
    else if (AcceptOperator("/")) op = "/";
    else if (AcceptOperator("%")) op = "%";
    else if (AcceptKeyword("DIV")) op = "div";
    else return left;
    EPOXY_ASSIGN_OR_RETURN(ExprPtr right, ParseUnary());
    left = Expr::Call(op, {left, right});
  }
}

Result<ExprPtr> TokenParser::ParseUnary() {
  if (AcceptOperator("-")) {
    if (++depth_ > kMaxDepth) return Status::InvalidInput("expression nested too deeply: '{}'", source_);
    EPOXY_ASSIGN_OR_RETURN(ExprPtr operand, ParseUnary());
    --depth_;
    // Fold a negative number literal so -2147483648 stays an int, as Spark does.
    if (operand->kind == ExprKind::kLiteral && !operand->literal.is_null()) {
      const Scalar& v = operand->literal;
      if (std::holds_alternative<int64_t>(v.value)) {
        int64_t x = std::get<int64_t>(v.value);
        if (x == int64_t{2147483648} && v.type->id() == TypeId::kBigInt) return Expr::Literal(Scalar::Integer(DataType::Int(), -x));
        if (x != INT64_MIN) return Expr::Literal(Scalar::Integer(v.type, -x));
      }
      if (std::holds_alternative<double>(v.value)) return Expr::Literal(Scalar{v.type, -std::get<double>(v.value)});
      if (std::holds_alternative<__int128>(v.value)) return Expr::Literal(Scalar{v.type, -std::get<__int128>(v.value)});
    }
    return Expr::Call("negate", {operand});
  }
  if (AcceptOperator("+")) return ParseUnary();
  return ParsePostfix();
}

Result<ExprPtr> TokenParser::ParsePostfix() {
  EPOXY_ASSIGN_OR_RETURN(ExprPtr e, ParsePrimary());
  while (Peek().IsOperator("[")) {
    Next();
    if (++depth_ > kMaxDepth) return Status::InvalidInput("expression nested too deeply: '{}'", source_);
    EPOXY_ASSIGN_OR_RETURN(ExprPtr index, ParseExpr());
    --depth_;
    EPOXY_RETURN_NOT_OK(ExpectOperator("]"));
    e = Expr::Call("get_item", {e, index});
    while (Peek().IsOperator(".")) {  // a field of a subscripted struct
      Next();
      EPOXY_ASSIGN_OR_RETURN(std::string field, ParseIdentifier());
      e = Expr::Call("get_item", {e, Expr::Literal(Scalar::String(field))});
    }
  }
  return e;
}

Result<ExprPtr> TokenParser::ParseNumber(const Token& t) {
  // Spark's literal types: 12 int (bigint past int's range, decimal past bigint's), 12L bigint,
  // 12S smallint, 12Y tinyint, 1.5 decimal(2,1), 1.5BD decimal, 1.5e0 and 1.5D double, 1.5F float.
  std::string text = t.text;
  char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
  bool decimal_suffix = text.size() > 2 && std::toupper(static_cast<unsigned char>(text[text.size() - 2])) == 'B' && suffix == 'D';
  if (decimal_suffix) text.resize(text.size() - 2);
  else if (std::isalpha(static_cast<unsigned char>(suffix))) text.pop_back();
  else suffix = 0;
  const bool exponent = text.find_first_of("eE") != std::string::npos;
  const bool integral = !exponent && text.find('.') == std::string::npos;
  if (decimal_suffix || (!exponent && suffix == 0 && !integral)) {
    __int128 unscaled = 0;
    TypePtr type = exponent ? nullptr : DecimalLiteralType(text, &unscaled);
    if (type == nullptr) return Status::InvalidInput("decimal literal '{}' needs more than 38 digits", t.text);
    return Expr::Literal(Scalar{type, unscaled});
  }
  if (integral && suffix != 'D' && suffix != 'F') {
    int64_t v = 0;
    if (!ParseInt64(text, &v)) {
      if (suffix != 0) return Status::InvalidInput("number '{}' is out of range", t.text);
      __int128 unscaled = 0;
      TypePtr type = DecimalLiteralType(text, &unscaled);  // beyond bigint: a decimal, as in Spark
      if (type == nullptr) return Status::InvalidInput("number '{}' is out of range", t.text);
      return Expr::Literal(Scalar{type, unscaled});
    }
    if (suffix == 'L') return Expr::Literal(Scalar::Integer(DataType::BigInt(), v));
    if (suffix == 'S') return Expr::Literal(Scalar::Integer(DataType::SmallInt(), v));
    if (suffix == 'Y') return Expr::Literal(Scalar::Integer(DataType::TinyInt(), v));
    if (suffix != 0) return Status::InvalidInput("unknown number suffix in '{}'", t.text);
    bool fits_int = v >= INT32_MIN && v <= INT32_MAX;
    return Expr::Literal(Scalar::Integer(fits_int ? DataType::Int() : DataType::BigInt(), v));
  }
  if (suffix != 0 && suffix != 'D' && suffix != 'F') return Status::InvalidInput("unknown number suffix in '{}'", t.text);
  double d = 0;
  if (!ParseDouble(text, &d)) return Status::InvalidInput("malformed number '{}'", t.text);
  if (suffix == 'F') return Expr::Literal(Scalar{DataType::Float(), d});
  return Expr::Literal(Scalar::Double(d));
}

Result<TypePtr> TokenParser::ParseTypeName() {
  // The type's tokens up to the closing parenthesis of the CAST, rebuilt as text.
  std::string text;
  int parens = 0;
  while (!AtEnd()) {
    const Token& t = Peek();
    if (t.IsOperator(")") && parens == 0) break;
    if (t.IsOperator("(") || t.IsOperator("<")) ++parens;
    if (t.IsOperator(")") || t.IsOperator(">")) --parens;
    text += t.text;
    if (t.IsOperator(",")) text += "";
    Next();
  }
  std::string lower = Lower(text);
  if (lower.rfind("varchar", 0) == 0 || lower.rfind("char", 0) == 0) return DataType::String();
  if (lower == "long") return DataType::BigInt();
  auto type = ParseType(lower);
  if (!type.ok()) return Status::InvalidInput("unknown type '{}' in '{}'", text, source_);
  return *type;
}

Result<ExprPtr> TokenParser::ParseInterval() {
  // INTERVAL 1 DAY, INTERVAL '3' HOURS, INTERVAL 1 YEAR 2 MONTHS: months and microseconds.
  int64_t months = 0, micros = 0;
  int parts = 0;
  while (Peek().kind == Token::Kind::kNumber || Peek().kind == Token::Kind::kString ||
         (parts == 0 && Peek().IsOperator("-") && Peek(1).kind == Token::Kind::kNumber)) {
    bool negative = AcceptOperator("-");
    const Token& amount = Next();
    int64_t n = 0;
    if (!ParseInt64(amount.text, &n)) return Status::InvalidInput("INTERVAL needs whole numbers, got '{}' in '{}'", amount.text, source_);
    if (negative) n = -n;
    if (Peek().kind != Token::Kind::kIdentifier) return Expected("an interval unit (YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND)");
    std::string unit = Lower(Next().text);
    if (unit.size() > 1 && unit.back() == 's') unit.pop_back();
    static const std::pair<const char*, int64_t> kMicros[] = {
        {"week", 7 * 86400000000LL}, {"day", 86400000000LL}, {"hour", 3600000000LL}, {"minute", 60000000LL},
        {"second", 1000000LL}, {"millisecond", 1000LL}, {"microsecond", 1LL}};
    bool known = false;
    if (unit == "year") months += n * 12, known = true;
    if (unit == "month") months += n, known = true;
    for (const auto& [name, scale] : kMicros) {
      if (unit == name) {
        micros += n * scale;
        known = true;
      }
    }
    if (!known) return Status::InvalidInput("unknown interval unit '{}' in '{}'", unit, source_);
    ++parts;
  }
  if (parts == 0) return Expected("an interval amount");
  return Expr::Call("interval", {Expr::Literal(Scalar::Integer(DataType::BigInt(), months)),
                                 Expr::Literal(Scalar::Integer(DataType::BigInt(), micros))});
}

Result<ExprPtr> TokenParser::ParseCast() {
  EPOXY_RETURN_NOT_OK(ExpectOperator("("));
  EPOXY_ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
  EPOXY_RETURN_NOT_OK(ExpectKeyword("AS"));
  EPOXY_ASSIGN_OR_RETURN(TypePtr type, ParseTypeName());
  EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
  return Expr::Cast(operand, type);
}

Result<ExprPtr> TokenParser::ParseCase() {
  std::vector<ExprPtr> args;
  ExprPtr subject;
  if (!Peek().IsKeyword("WHEN")) {
    EPOXY_ASSIGN_OR_RETURN(subject, ParseExpr());  // CASE x WHEN v THEN ... is CASE WHEN x = v ...
  }
  while (AcceptKeyword("WHEN")) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr when, ParseExpr());
    EPOXY_RETURN_NOT_OK(ExpectKeyword("THEN"));
    EPOXY_ASSIGN_OR_RETURN(ExprPtr then, ParseExpr());
    args.push_back(subject ? Expr::Call("=", {subject, when}) : when);
    args.push_back(then);
  }
  if (args.empty()) return Expected("WHEN");
  if (AcceptKeyword("ELSE")) {
    EPOXY_ASSIGN_OR_RETURN(ExprPtr otherwise, ParseExpr());
    args.push_back(otherwise);
  }
  EPOXY_RETURN_NOT_OK(ExpectKeyword("END"));
  return Expr::Call("case", std::move(args));
}

Result<ExprPtr> TokenParser::ParseFunction(std::string name) {
  name = Lower(std::move(name));
  std::vector<ExprPtr> args;
  bool distinct = false;
  if (name == "count" && Peek().IsOperator("*") && Peek(1).IsOperator(")")) {
    Next();  // count(*) is count()
  } else if (!Peek().IsOperator(")")) {
    if (AcceptKeyword("DISTINCT")) distinct = true;
    else AcceptKeyword("ALL");
    do {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr a, ParseExpr());
      args.push_back(a);
    } while (AcceptOperator(","));
  }
  EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
  auto call = std::make_shared<Expr>(*Expr::Call(name, std::move(args)));
  call->distinct = distinct;
  if (AcceptKeyword("OVER")) {
    EPOXY_ASSIGN_OR_RETURN(call->window, ParseWindow());
  }
  return ExprPtr(call);
}

Result<OrderItem> TokenParser::ParseOrderItem() {
  OrderItem item;
  EPOXY_ASSIGN_OR_RETURN(item.expr, ParseExpr());
  if (AcceptKeyword("DESC")) {
    item.ascending = false;
  } else {
    AcceptKeyword("ASC");
  }
  item.nulls_first = item.ascending;  // Spark: nulls first ascending, last descending
  if (AcceptKeyword("NULLS")) {
    if (AcceptKeyword("FIRST")) item.nulls_first = true;
    else if (AcceptKeyword("LAST")) item.nulls_first = false;
    else return Expected("FIRST or LAST after NULLS");
  }
  return item;
}

Result<FrameBound> TokenParser::ParseFrameBound() {
  FrameBound b;
  if (AcceptKeyword("UNBOUNDED")) {
    if (AcceptKeyword("PRECEDING")) b.kind = FrameBound::Kind::kUnboundedPreceding;
    else if (AcceptKeyword("FOLLOWING")) b.kind = FrameBound::Kind::kUnboundedFollowing;
    else return Expected("PRECEDING or FOLLOWING");
    return b;
  }
  if (AcceptKeyword("CURRENT")) {
    EPOXY_RETURN_NOT_OK(ExpectKeyword("ROW"));
    b.kind = FrameBound::Kind::kCurrentRow;
    return b;
  }
  const Token& n = Next();
  if (n.kind != Token::Kind::kNumber || !ParseInt64(n.text, &b.offset) || b.offset < 0) {
    return Status::InvalidInput("a window frame bound needs a whole number of rows or values, got '{}' in '{}'", n.text, source_);
  }
  if (AcceptKeyword("PRECEDING")) b.kind = FrameBound::Kind::kPreceding;
  else if (AcceptKeyword("FOLLOWING")) b.kind = FrameBound::Kind::kFollowing;
  else return Expected("PRECEDING or FOLLOWING");
  return b;
}

Result<WindowSpecPtr> TokenParser::ParseWindow() {
  if (Peek().kind == Token::Kind::kIdentifier && !Peek().IsOperator("(")) {
    return Status::NotSupported("named windows (OVER {}) are not supported; write the window in the OVER clause", Peek().text);
  }
  EPOXY_RETURN_NOT_OK(ExpectOperator("("));
  auto spec = std::make_shared<WindowSpec>();
  if (AcceptKeyword("PARTITION") || AcceptKeyword("DISTRIBUTE")) {
    EPOXY_RETURN_NOT_OK(ExpectKeyword("BY"));
    do {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr key, ParseExpr());
      spec->partition_by.push_back(std::move(key));
    } while (AcceptOperator(","));
  }
  if (AcceptKeyword("ORDER") || AcceptKeyword("SORT")) {
    EPOXY_RETURN_NOT_OK(ExpectKeyword("BY"));
    do {
      EPOXY_ASSIGN_OR_RETURN(OrderItem item, ParseOrderItem());
      spec->order_by.push_back(std::move(item));
    } while (AcceptOperator(","));
  }
  if (Peek().IsKeyword("ROWS") || Peek().IsKeyword("RANGE")) {
    spec->units = Next().IsKeyword("ROWS") ? WindowSpec::Units::kRows : WindowSpec::Units::kRange;
    if (AcceptKeyword("BETWEEN")) {
      EPOXY_ASSIGN_OR_RETURN(spec->start, ParseFrameBound());
      EPOXY_RETURN_NOT_OK(ExpectKeyword("AND"));
      EPOXY_ASSIGN_OR_RETURN(spec->end, ParseFrameBound());
    } else {
      EPOXY_ASSIGN_OR_RETURN(spec->start, ParseFrameBound());
      spec->end = {FrameBound::Kind::kCurrentRow, 0};
    }
    auto rank = [](const FrameBound& b) -> double {
      switch (b.kind) {
        case FrameBound::Kind::kUnboundedPreceding: return -1e300;
        case FrameBound::Kind::kPreceding: return -static_cast<double>(b.offset);
        case FrameBound::Kind::kCurrentRow: return 0;
        case FrameBound::Kind::kFollowing: return static_cast<double>(b.offset);
        case FrameBound::Kind::kUnboundedFollowing: return 1e300;
      }
      return 0;
    };
    if (spec->start.kind == FrameBound::Kind::kUnboundedFollowing || spec->end.kind == FrameBound::Kind::kUnboundedPreceding ||
        rank(spec->start) > rank(spec->end)) {
      return Status::InvalidInput("a window frame's start must not come after its end ('{}')", source_);
    }
  }
  EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
  return WindowSpecPtr(spec);
}

Result<ExprPtr> TokenParser::ParseExtract() {
  // EXTRACT(field FROM source)
  EPOXY_RETURN_NOT_OK(ExpectOperator("("));
  const Token& field = Next();
  std::string f = Lower(field.text);
  static const std::pair<const char*, const char*> kFields[] = {
      {"year", "year"}, {"years", "year"}, {"month", "month"}, {"months", "month"}, {"day", "dayofmonth"},
      {"days", "dayofmonth"}, {"dayofweek", "dayofweek"}, {"dow", "dayofweek"}, {"doy", "dayofyear"},
      {"dayofyear", "dayofyear"}, {"quarter", "quarter"}, {"hour", "hour"}, {"hours", "hour"},
      {"minute", "minute"}, {"minutes", "minute"}, {"second", "second"}, {"seconds", "second"}};
  const char* function = nullptr;
  for (const auto& [name, fn] : kFields) {
    if (f == name) function = fn;
  }
  if (function == nullptr) return Status::InvalidInput("EXTRACT cannot take the field '{}' in '{}'", field.text, source_);
  EPOXY_RETURN_NOT_OK(ExpectKeyword("FROM"));
  EPOXY_ASSIGN_OR_RETURN(ExprPtr source, ParseExpr());
  EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
  return Expr::Call(function, {source});
}

bool TokenParser::AtSubquery() const {
  return subquery_parser_ && (Peek().IsKeyword("SELECT") || Peek().IsKeyword("WITH") ||
                              (Peek().IsOperator("(") && (Peek(1).IsKeyword("SELECT") || Peek(1).IsKeyword("WITH"))));
}

Result<ExprPtr> TokenParser::ParseSubquery(std::string use, std::vector<ExprPtr> args) {
  if (++depth_ > kMaxDepth) return Status::InvalidInput("query nested too deeply: '{}'", source_);
  EPOXY_ASSIGN_OR_RETURN(std::shared_ptr<const void> query, subquery_parser_(*this));
  --depth_;
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kSubquery;
  e->op = std::move(use);
  e->args = std::move(args);
  e->subquery = std::move(query);
  return ExprPtr(e);
}

Result<ExprPtr> TokenParser::ParsePrimary() {
  const Token& t = Peek();
  switch (t.kind) {
    case Token::Kind::kNumber: return ParseNumber(Next());
    case Token::Kind::kString: return Expr::Literal(Scalar::String(Next().text));
    case Token::Kind::kEnd: return Expected("an expression");
    default: break;
  }
  if (AcceptOperator("(")) {
    if (AtSubquery()) {
      EPOXY_ASSIGN_OR_RETURN(ExprPtr scalar, ParseSubquery("scalar", {}));
      EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
      return scalar;
    }
    if (++depth_ > kMaxDepth) return Status::InvalidInput("expression nested too deeply: '{}'", source_);
    EPOXY_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpr());
    --depth_;
    EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
    return inner;
  }
  if (t.IsOperator("*")) {
    Next();
    auto star = std::make_shared<Expr>();
    star->kind = ExprKind::kStar;
    return ExprPtr(star);
  }
  if (t.kind == Token::Kind::kIdentifier) {
    if (AcceptKeyword("NULL")) return Expr::Literal(Scalar::Null());
    if (AcceptKeyword("TRUE")) return Expr::Literal(Scalar::Boolean(true));
    if (AcceptKeyword("FALSE")) return Expr::Literal(Scalar::Boolean(false));
    if (AcceptKeyword("CASE")) return ParseCase();
    if (t.IsKeyword("CAST") && Peek(1).IsOperator("(")) {
      Next();
      return ParseCast();
    }
    if ((t.IsKeyword("DATE") || t.IsKeyword("TIMESTAMP")) && Peek(1).kind == Token::Kind::kString) {
      bool date = t.IsKeyword("DATE");
      Next();
      const Token& value = Next();
      if (date) {
        int32_t days = 0;
        if (!ParseDate(value.text, &days)) return Status::InvalidInput("invalid DATE '{}' in '{}'", value.text, source_);
        return Expr::Literal(Scalar::Integer(DataType::Date(), days));
      }
      int64_t micros = 0;
      if (!ParseTimestamp(value.text, &micros, true)) {
        int32_t days = 0;
        if (!ParseDate(value.text, &days)) {
          return Status::InvalidInput("invalid TIMESTAMP '{}' in '{}'", value.text, source_);
        }
        micros = days * kMicrosPerDay;
      }
      return Expr::Literal(Scalar::Integer(DataType::Timestamp(), micros));
    }
    if (t.IsKeyword("INTERVAL")) {
      Next();
      return ParseInterval();
    }
    if (t.IsKeyword("EXISTS") && Peek(1).IsOperator("(")) {
      Next();
      Next();
      if (!AtSubquery()) return Expected("a subquery after EXISTS (");
      EPOXY_ASSIGN_OR_RETURN(ExprPtr exists, ParseSubquery("exists", {}));
      EPOXY_RETURN_NOT_OK(ExpectOperator(")"));
      return exists;
    }
    if (t.IsKeyword("EXTRACT") && Peek(1).IsOperator("(")) {
      Next();
      return ParseExtract();
    }
  }
  if ((t.kind == Token::Kind::kIdentifier && !IsReserved(t)) || t.kind == Token::Kind::kQuotedIdentifier) {
    std::string first = Next().text;
    if (t.kind == Token::Kind::kIdentifier && Peek().IsOperator("(")) {
      Next();
      return ParseFunction(first);
    }
    std::vector<std::string> path = {first};
    while (Peek().IsOperator(".")) {
      Next();
      if (Peek().IsOperator("*")) {  // t.* in a select list
        Next();
        auto star = std::make_shared<Expr>();
        star->kind = ExprKind::kStar;
        star->name = path;
        return ExprPtr(star);
      }
      EPOXY_ASSIGN_OR_RETURN(std::string part, ParseIdentifier());
      path.push_back(part);
    }
    return Expr::Column(std::move(path));
  }
  return Expected("an expression");
}

}  // namespace epoxy::expr
