// SPDX-License-Identifier: Apache-2.0
// Recursive descent over the expression parser's tokens. INTERSECT binds tighter than UNION and
// EXCEPT, which group left to right, as in Spark.
#include "epoxy/sql/parser.h"

#include <algorithm>

#include "epoxy/expr/parser.h"
#include "epoxy/types/value_text.h"

namespace epoxy::sql {
namespace {

using expr::Token;
using expr::TokenParser;

/// Words that start a clause, so never an alias when unquoted.
bool IsClauseKeyword(const Token& t) {
  static const char* kWords[] = {"FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "INTERSECT",
                                 "EXCEPT", "MINUS", "WINDOW", "JOIN", "ON", "USING", "INNER", "LEFT", "RIGHT", "FULL",
                                 "CROSS", "NATURAL", "SEMI", "ANTI", "LATERAL", "SORT", "CLUSTER", "DISTRIBUTE", "AS"};
  return std::any_of(std::begin(kWords), std::end(kWords), [&](const char* k) { return t.IsKeyword(k); });
}

class Parser {
 public:
  explicit Parser(TokenParser& p) : p_(p) {}

  Result<QueryPtr> ParseQuery() {
    auto query = std::make_shared<Query>();
    if (p_.AcceptKeyword("WITH")) {
      do {
        CommonTable cte;
        EPOXY_ASSIGN_OR_RETURN(cte.name, p_.ParseIdentifier());
        std::vector<std::string> columns;
        if (p_.AcceptOperator("(")) {
          EPOXY_ASSIGN_OR_RETURN(columns, ParseNameList());
        }
        EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("AS"));
        EPOXY_RETURN_NOT_OK(p_.ExpectOperator("("));
        EPOXY_ASSIGN_OR_RETURN(QueryPtr body, ParseQuery());
        EPOXY_RETURN_NOT_OK(p_.ExpectOperator(")"));
        if (!columns.empty()) body = Renamed(body, columns);
        cte.query = body;
        query->with.push_back(std::move(cte));
      } while (p_.AcceptOperator(","));
    }
    EPOXY_ASSIGN_OR_RETURN(QueryPtr body, ParseSetExpr());
    // ORDER BY / LIMIT apply to the whole set expression.
    auto out = std::make_shared<Query>(*body);
    if (!query->with.empty()) out->with = query->with;
    const bool has_order = p_.Peek().IsKeyword("ORDER") || p_.Peek().IsKeyword("SORT");
    const bool has_limit = p_.Peek().IsKeyword("LIMIT") || p_.Peek().IsKeyword("OFFSET");
    if ((has_order || has_limit) && (!out->order_by.empty() || out->limit || out->offset)) {
      out = Wrap(out);  // (SELECT ... ORDER BY ...) ORDER BY ...: the outer applies to the result
    }
    if (p_.AcceptKeyword("ORDER") || p_.AcceptKeyword("SORT")) {
      EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("BY"));
      do {
        EPOXY_ASSIGN_OR_RETURN(expr::OrderItem item, p_.ParseOrderItem());
        out->order_by.push_back(std::move(item));
      } while (p_.AcceptOperator(","));
    }
    if (p_.AcceptKeyword("LIMIT")) {
      if (!p_.AcceptKeyword("ALL")) {
        EPOXY_ASSIGN_OR_RETURN(int64_t n, ParseCount("LIMIT"));
        out->limit = n;
      }
    }
    if (p_.AcceptKeyword("OFFSET")) {
      EPOXY_ASSIGN_OR_RETURN(out->offset, ParseCount("OFFSET"));
    }
    return QueryPtr(out);
  }

 private:
  Result<int64_t> ParseCount(const char* clause) {
    const Token& t = p_.Next();
    int64_t n = 0;
    if (t.kind != Token::Kind::kNumber || !ParseInt64(t.text, &n) || n < 0) {
      return Status::InvalidInput("{} needs a whole number, got '{}'", clause, t.text);
    }
    return n;
  }

  Result<std::vector<std::string>> ParseNameList() {  // after '(' up to and with ')'
    std::vector<std::string> names;
    do {
      EPOXY_ASSIGN_OR_RETURN(std::string n, p_.ParseIdentifier());
      names.push_back(std::move(n));
    } while (p_.AcceptOperator(","));
    EPOXY_RETURN_NOT_OK(p_.ExpectOperator(")"));
    return names;
  }

  /// SELECT * FROM (q) with columns renamed (a WITH name's column list).
  std::shared_ptr<Query> Renamed(const QueryPtr& q, const std::vector<std::string>& columns) {
    auto ref = std::make_shared<TableRef>();
    ref->kind = TableRef::Kind::kSubquery;
    ref->subquery = q;
    ref->column_aliases = columns;
    auto out = std::make_shared<Query>();
    out->select.items.push_back({Star(), ""});
    out->select.from.push_back(ref);
    return out;
  }

  std::shared_ptr<Query> Wrap(const QueryPtr& q) {
    auto ref = std::make_shared<TableRef>();
    ref->kind = TableRef::Kind::kSubquery;
    ref->subquery = q;
    auto out = std::make_shared<Query>();
    out->select.items.push_back({Star(), ""});
    out->select.from.push_back(ref);
    return out;
  }

  static expr::ExprPtr Star() {
    auto star = std::make_shared<expr::Expr>();
    star->kind = expr::ExprKind::kStar;
    return star;
  }

  Result<QueryPtr> ParseSetExpr() {
    EPOXY_ASSIGN_OR_RETURN(QueryPtr left, ParseSetTerm());
    while (true) {
      Query::Kind kind;
      if (p_.AcceptKeyword("UNION")) kind = Query::Kind::kUnion;
      else if (p_.AcceptKeyword("EXCEPT") || p_.AcceptKeyword("MINUS")) kind = Query::Kind::kExcept;
      else return left;
      bool all = p_.AcceptKeyword("ALL");
      if (!all) p_.AcceptKeyword("DISTINCT");
      EPOXY_ASSIGN_OR_RETURN(QueryPtr right, ParseSetTerm());
      left = SetOp(kind, all, left, right);
    }
  }

  Result<QueryPtr> ParseSetTerm() {
    EPOXY_ASSIGN_OR_RETURN(QueryPtr left, ParseSetPrimary());
    while (p_.AcceptKeyword("INTERSECT")) {
      bool all = p_.AcceptKeyword("ALL");
      if (!all) p_.AcceptKeyword("DISTINCT");
      EPOXY_ASSIGN_OR_RETURN(QueryPtr right, ParseSetPrimary());
      left = SetOp(Query::Kind::kIntersect, all, left, right);
    }
    return left;
  }

  static QueryPtr SetOp(Query::Kind kind, bool all, QueryPtr left, QueryPtr right) {
    auto q = std::make_shared<Query>();
    q->kind = kind;
    q->all = all;
    q->left = std::move(left);
    q->right = std::move(right);
    return q;
  }

  Result<QueryPtr> ParseSetPrimary() {
    if (p_.AcceptOperator("(")) {
      EPOXY_ASSIGN_OR_RETURN(QueryPtr inner, ParseQuery());
      EPOXY_RETURN_NOT_OK(p_.ExpectOperator(")"));
      return inner;
    }
    if (p_.Peek().IsKeyword("VALUES")) {  // an inline table as a query: SELECT * FROM VALUES ...
      EPOXY_ASSIGN_OR_RETURN(TableRefPtr values, ParseInlineTable());
      return QueryPtr(SelectAllFrom(values));
    }
    if (p_.Peek().IsKeyword("TABLE") && p_.Peek(1).kind != Token::Kind::kOperator) {  // TABLE t
      p_.Next();
      EPOXY_ASSIGN_OR_RETURN(TableRefPtr table, ParseTableName());
      return QueryPtr(SelectAllFrom(table));
    }
    EPOXY_ASSIGN_OR_RETURN(SelectCore core, ParseSelect());
    auto q = std::make_shared<Query>();
    q->select = std::move(core);
    return QueryPtr(q);
  }

  static std::shared_ptr<Query> SelectAllFrom(TableRefPtr ref) {
    auto out = std::make_shared<Query>();
    out->select.items.push_back({Star(), ""});
    out->select.from.push_back(std::move(ref));
    return out;
  }

  /// VALUES row, row, ... [[AS] alias[(names)]]. A row is `(e1, e2, ...)` (one value a column) or
  /// one expression (a one-column row), as Spark's two styles of inline table.
  Result<TableRefPtr> ParseInlineTable() {
    EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("VALUES"));
    auto ref = std::make_shared<TableRef>();
    ref->kind = TableRef::Kind::kValues;
    do {
      std::vector<expr::ExprPtr> row;
      if (p_.Peek().IsOperator("(") && !p_.Peek(1).IsKeyword("SELECT") && !p_.Peek(1).IsKeyword("WITH")) {
        EPOXY_ASSIGN_OR_RETURN(row, ParseExprTuple());
        if (row.empty()) return p_.Expected("a value in the inline table's row");
      } else {
        EPOXY_ASSIGN_OR_RETURN(expr::ExprPtr e, p_.ParseExpr());
        row.push_back(std::move(e));
      }
      ref->rows.push_back(std::move(row));
    } while (p_.AcceptOperator(","));
    EPOXY_RETURN_NOT_OK(ParseAlias(ref.get()));
    return TableRefPtr(ref);
  }

  /// Whether an inline table starts here (VALUES followed by a row, not a table named values).
  bool AtInlineTable() const {
    if (!p_.Peek().IsKeyword("VALUES")) return false;
    const Token& next = p_.Peek(1);
    if (next.kind == Token::Kind::kEnd || next.IsOperator(",") || next.IsOperator(")") || next.IsOperator(";")) return false;
    return !(next.kind == Token::Kind::kIdentifier && IsClauseKeyword(next));
  }

  /// [db.]table
  Result<TableRefPtr> ParseTableName() {
    auto ref = std::make_shared<TableRef>();
    EPOXY_ASSIGN_OR_RETURN(ref->table, p_.ParseIdentifier());
    if (p_.AcceptOperator(".")) {
      ref->database = ref->table;
      EPOXY_ASSIGN_OR_RETURN(ref->table, p_.ParseIdentifier());
    }
    return TableRefPtr(ref);
  }

  Status ParseHint(const std::string& text, SelectCore* core) {
    EPOXY_ASSIGN_OR_RETURN(std::vector<Token> tokens, expr::Tokenize(text));
    TokenParser h(text, std::move(tokens));
    while (!h.AtEnd()) {
      if (h.AcceptOperator(",")) continue;
      EPOXY_ASSIGN_OR_RETURN(std::string name, h.ParseIdentifier());
      for (auto& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      std::vector<expr::ExprPtr> args;
      if (h.AcceptOperator("(")) {
        if (!h.AcceptOperator(")")) {
          do {
            EPOXY_ASSIGN_OR_RETURN(expr::ExprPtr a, h.ParseExpr());
            args.push_back(std::move(a));
          } while (h.AcceptOperator(","));
          EPOXY_RETURN_NOT_OK(h.ExpectOperator(")"));
        }
      }
      if (name == "BROADCAST" || name == "BROADCASTJOIN" || name == "MAPJOIN") {
        for (const auto& a : args) {
          if (a->kind != expr::ExprKind::kColumn) return Status::InvalidInput("BROADCAST takes table names, got '{}'", a->ToString());
          core->broadcast.push_back(a->name.back());
        }
      } else if (name == "REPARTITION" || name == "COALESCE" || name == "REPARTITION_BY_RANGE") {
        core->coalesce = name == "COALESCE";
        size_t first_column = 0;
        if (!args.empty() && args[0]->kind == expr::ExprKind::kLiteral && !args[0]->literal.is_null() &&
            std::holds_alternative<int64_t>(args[0]->literal.value)) {
          core->repartition = std::get<int64_t>(args[0]->literal.value);
          first_column = 1;
        } else if (core->coalesce) {
          return Status::InvalidInput("COALESCE needs a number of partitions");
        } else {
          core->repartition = 200;  // spark.sql.shuffle.partitions
        }
        for (size_t i = first_column; i < args.size(); ++i) core->repartition_by.push_back(args[i]);
      }
      // Other hints (MERGE, SHUFFLE_HASH, ...) change nothing here, as Spark ignores unknown ones.
    }
    return Status::OK();
  }

  Result<SelectCore> ParseSelect() {
    SelectCore core;
    EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("SELECT"));
    while (p_.Peek().kind == Token::Kind::kHint) EPOXY_RETURN_NOT_OK(ParseHint(p_.Next().text, &core));
    if (p_.AcceptKeyword("DISTINCT")) {
      core.distinct = true;
    } else {
      p_.AcceptKeyword("ALL");
    }
    do {
      SelectItem item;
      EPOXY_ASSIGN_OR_RETURN(item.expr, p_.ParseExpr());
      if (p_.AcceptKeyword("AS")) {
        EPOXY_ASSIGN_OR_RETURN(item.alias, p_.ParseIdentifier());
      } else if (p_.Peek().kind == Token::Kind::kQuotedIdentifier ||
                 (p_.Peek().kind == Token::Kind::kIdentifier && !IsClauseKeyword(p_.Peek()))) {
        EPOXY_ASSIGN_OR_RETURN(item.alias, p_.ParseIdentifier());
      }
      core.items.push_back(std::move(item));
    } while (p_.AcceptOperator(","));
    if (p_.AcceptKeyword("FROM")) {
      do {
        EPOXY_ASSIGN_OR_RETURN(TableRefPtr ref, ParseTableRef());
        core.from.push_back(std::move(ref));
      } while (p_.AcceptOperator(","));
    }
    if (p_.AcceptKeyword("WHERE")) {
      EPOXY_ASSIGN_OR_RETURN(core.where, p_.ParseExpr());
    }
    if (p_.AcceptKeyword("GROUP")) {
      EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("BY"));
      core.grouped = true;
      EPOXY_RETURN_NOT_OK(ParseGroupBy(&core));
    }
    if (p_.AcceptKeyword("HAVING")) {
      EPOXY_ASSIGN_OR_RETURN(core.having, p_.ParseExpr());
    }
    if (p_.Peek().IsKeyword("WINDOW")) return Status::NotSupported("the WINDOW clause (named windows) is not supported; write each window in its OVER clause");
    return core;
  }

  /// An expression list in parentheses: `(a, b)` or `()`.
  Result<std::vector<expr::ExprPtr>> ParseExprTuple() {
    std::vector<expr::ExprPtr> out;
    EPOXY_RETURN_NOT_OK(p_.ExpectOperator("("));
    if (p_.AcceptOperator(")")) return out;
    do {
      EPOXY_ASSIGN_OR_RETURN(expr::ExprPtr e, p_.ParseExpr());
      out.push_back(std::move(e));
    } while (p_.AcceptOperator(","));
    EPOXY_RETURN_NOT_OK(p_.ExpectOperator(")"));
    return out;
  }

  /// The index of `e` among the group expressions, added when new.
  int GroupIndex(SelectCore* core, const expr::ExprPtr& e) {
    for (size_t i = 0; i < core->group_by.size(); ++i) {
      if (core->group_by[i]->ToString() == e->ToString()) return static_cast<int>(i);
    }
    core->group_by.push_back(e);
    return static_cast<int>(core->group_by.size() - 1);
  }

  Status ParseGroupBy(SelectCore* core) {
    const bool rollup = p_.Peek().IsKeyword("ROLLUP") && p_.Peek(1).IsOperator("(");
    const bool cube = p_.Peek().IsKeyword("CUBE") && p_.Peek(1).IsOperator("(");
    if (p_.Peek().IsKeyword("GROUPING") && p_.Peek(1).IsKeyword("SETS")) {
      p_.Next();
      p_.Next();
      EPOXY_RETURN_NOT_OK(p_.ExpectOperator("("));
      do {
        std::vector<expr::ExprPtr> set;
        if (p_.Peek().IsOperator("(")) {
          EPOXY_ASSIGN_OR_RETURN(set, ParseExprTuple());
        } else {
          EPOXY_ASSIGN_OR_RETURN(expr::ExprPtr e, p_.ParseExpr());
          set.push_back(e);
        }
        std::vector<int> indexes;
        for (const auto& e : set) indexes.push_back(GroupIndex(core, e));
        core->grouping_sets.push_back(std::move(indexes));
      } while (p_.AcceptOperator(","));
      return p_.ExpectOperator(")");
    }
    std::vector<expr::ExprPtr> exprs;
    if (rollup || cube) {
      p_.Next();
      EPOXY_ASSIGN_OR_RETURN(exprs, ParseExprTuple());
    } else {
      do {
        EPOXY_ASSIGN_OR_RETURN(expr::ExprPtr e, p_.ParseExpr());
        exprs.push_back(std::move(e));
      } while (p_.AcceptOperator(","));
    }
    bool with_rollup = false, with_cube = false;
    if (p_.Peek().IsKeyword("WITH") && (p_.Peek(1).IsKeyword("ROLLUP") || p_.Peek(1).IsKeyword("CUBE"))) {
      p_.Next();
      with_rollup = p_.Next().IsKeyword("ROLLUP");
      with_cube = !with_rollup;
    }
    std::vector<int> indexes;
    for (const auto& e : exprs) indexes.push_back(GroupIndex(core, e));
    const int n = static_cast<int>(indexes.size());
    if (rollup || with_rollup) {
      for (int k = n; k >= 0; --k) core->grouping_sets.emplace_back(indexes.begin(), indexes.begin() + k);
    } else if (cube || with_cube) {
      if (n > 12) return Status::InvalidInput("CUBE of {} expressions makes too many grouping sets (at most 12)", n);
      for (int mask = (1 << n) - 1; mask >= 0; --mask) {
        std::vector<int> set;
        for (int i = 0; i < n; ++i) {
          if (mask & (1 << (n - 1 - i))) set.push_back(indexes[static_cast<size_t>(i)]);
        }
        core->grouping_sets.push_back(std::move(set));
      }
    }
    return Status::OK();
  }

  Result<TableRefPtr> ParseTableRef() {
    EPOXY_ASSIGN_OR_RETURN(TableRefPtr left, ParseTablePrimary());
    while (true) {
      const bool natural = p_.AcceptKeyword("NATURAL");
      plan::JoinType type = plan::JoinType::kInner;
      bool joined = true;
      if (p_.AcceptKeyword("JOIN")) {
        type = plan::JoinType::kInner;
      } else if (p_.AcceptKeyword("INNER")) {
        EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("JOIN"));
      } else if (p_.AcceptKeyword("CROSS")) {
        EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("JOIN"));
        type = plan::JoinType::kCross;
      } else if (p_.AcceptKeyword("LEFT") || p_.Peek().IsKeyword("SEMI") || p_.Peek().IsKeyword("ANTI")) {
        if (p_.AcceptKeyword("SEMI")) type = plan::JoinType::kSemi;
        else if (p_.AcceptKeyword("ANTI")) type = plan::JoinType::kAnti;
        else {
          p_.AcceptKeyword("OUTER");
          type = plan::JoinType::kLeft;
        }
        EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("JOIN"));
      } else if (p_.AcceptKeyword("RIGHT")) {
        p_.AcceptKeyword("OUTER");
        EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("JOIN"));
        type = plan::JoinType::kRight;
      } else if (p_.AcceptKeyword("FULL")) {
        p_.AcceptKeyword("OUTER");
        EPOXY_RETURN_NOT_OK(p_.ExpectKeyword("JOIN"));
        type = plan::JoinType::kFull;
      } else {
        joined = false;
      }
      if (!joined) {
        if (natural) return p_.Expected("JOIN after NATURAL");
        return left;
      }
      auto join = std::make_shared<TableRef>();
      join->kind = TableRef::Kind::kJoin;
      join->join_type = type;
      join->natural = natural;
      join->left = left;
      EPOXY_ASSIGN_OR_RETURN(join->right, ParseTablePrimary());
      if (!natural && type != plan::JoinType::kCross) {
        if (p_.AcceptKeyword("ON")) {
          EPOXY_ASSIGN_OR_RETURN(join->condition, p_.ParseExpr());
        } else if (p_.AcceptKeyword("USING")) {
          EPOXY_RETURN_NOT_OK(p_.ExpectOperator("("));
          EPOXY_ASSIGN_OR_RETURN(join->using_columns, ParseNameList());
        } else if (type != plan::JoinType::kInner) {
          return p_.Expected(fmt::format("ON or USING after {} JOIN", plan::JoinTypeName(type)));
        }
      }
      left = join;
    }
  }

  Status ParseAlias(TableRef* ref) {
    if (p_.AcceptKeyword("AS") || p_.Peek().kind == Token::Kind::kQuotedIdentifier ||
        (p_.Peek().kind == Token::Kind::kIdentifier && !IsClauseKeyword(p_.Peek()) && !p_.Peek().IsKeyword("TABLESAMPLE"))) {
      EPOXY_ASSIGN_OR_RETURN(ref->alias, p_.ParseIdentifier());
      if (p_.AcceptOperator("(")) {
        EPOXY_ASSIGN_OR_RETURN(ref->column_aliases, ParseNameList());
      }
    }
    return Status::OK();
  }

  Result<TableRefPtr> ParseTablePrimary() {
    auto ref = std::make_shared<TableRef>();
    if (AtInlineTable()) return ParseInlineTable();
    if (p_.AcceptOperator("(")) {
      if (p_.Peek().IsKeyword("SELECT") || p_.Peek().IsKeyword("WITH") || p_.Peek().IsOperator("(") ||
          AtInlineTable() || p_.Peek().IsKeyword("TABLE")) {
        ref->kind = TableRef::Kind::kSubquery;
        EPOXY_ASSIGN_OR_RETURN(ref->subquery, ParseQuery());
        EPOXY_RETURN_NOT_OK(p_.ExpectOperator(")"));
        EPOXY_RETURN_NOT_OK(ParseAlias(ref.get()));
        return TableRefPtr(ref);
      }
      EPOXY_ASSIGN_OR_RETURN(TableRefPtr inner, ParseTableRef());  // (a JOIN b)
      EPOXY_RETURN_NOT_OK(p_.ExpectOperator(")"));
      return inner;
    }
    EPOXY_ASSIGN_OR_RETURN(std::string first, p_.ParseIdentifier());
    if (p_.AcceptOperator(".")) {
      const bool quoted = p_.Peek().kind == Token::Kind::kQuotedIdentifier;
      EPOXY_ASSIGN_OR_RETURN(std::string second, p_.ParseIdentifier());
      auto format = ParseFileFormat(first);
      if (quoted && format.ok()) {
        ref->kind = TableRef::Kind::kFiles;
        ref->format = *format;
        ref->path = second;
      } else {
        ref->database = first;
        ref->table = second;
      }
    } else {
      ref->table = first;
    }
    EPOXY_RETURN_NOT_OK(ParseAlias(ref.get()));
    return TableRefPtr(ref);
  }

  TokenParser& p_;
};

}  // namespace

Result<Statement> ParseStatement(std::string_view text) {
  EPOXY_ASSIGN_OR_RETURN(std::vector<Token> tokens, expr::Tokenize(text));
  TokenParser p(text, std::move(tokens));
  Parser parser(p);
  p.set_subquery_parser([&parser](TokenParser&) -> Result<std::shared_ptr<const void>> {
    EPOXY_ASSIGN_OR_RETURN(QueryPtr q, parser.ParseQuery());
    return std::shared_ptr<const void>(q);
  });
  Statement statement;
  if (p.AcceptKeyword("EXPLAIN")) {
    statement.explain = true;
    p.AcceptKeyword("EXTENDED");
    p.AcceptKeyword("FORMATTED");
  }
  if (!p.Peek().IsKeyword("SELECT") && !p.Peek().IsKeyword("WITH") && !p.Peek().IsOperator("(") &&
      !p.Peek().IsKeyword("VALUES") && !(p.Peek().IsKeyword("TABLE") && p.Peek(1).kind != Token::Kind::kOperator)) {
    if (p.AtEnd()) return Status::InvalidInput("an empty statement");
    return Status::NotSupported("only queries (SELECT, WITH, VALUES, TABLE, EXPLAIN) are supported by epoxy sql, not '{}'", p.Peek().text);
  }
  EPOXY_ASSIGN_OR_RETURN(statement.query, parser.ParseQuery());
  p.AcceptOperator(";");
  if (!p.AtEnd()) return p.Expected("the end of the statement");
  return statement;
}

}  // namespace epoxy::sql
