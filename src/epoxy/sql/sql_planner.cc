// SPDX-License-Identifier: Apache-2.0
// SELECT statements: parsing on the expression parser's tokens, and planning.
#include "epoxy/sql/sql_planner.h"

#include "epoxy/expr/parser.h"
#include "epoxy/plan/source.h"
#include "epoxy/types/value_text.h"

namespace epoxy::sql {
namespace {

using expr::Token;
using expr::TokenParser;

/// Clauses this front end does not have yet, refused with their name.
Status RefuseUnsupported(const TokenParser& p) {
  static const char* kLater[] = {"JOIN", "GROUP", "ORDER", "HAVING", "WINDOW", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "SORT", "CLUSTER", "DISTRIBUTE"};
  for (const char* k : kLater) {
    if (p.Peek().IsKeyword(k)) {
      return Status::NotSupported("{} is not supported yet: joins, grouping, ordering and windows come with the engine's relational part", k);
    }
  }
  return Status::OK();
}

Result<TableRef> ParseTable(TokenParser& p) {
  TableRef ref;
  if (p.Peek().IsOperator("(")) return Status::NotSupported("subqueries in FROM are not supported yet");
  EPOXY_ASSIGN_OR_RETURN(std::string first, p.ParseIdentifier());
  if (p.AcceptOperator(".")) {
    bool quoted = p.Peek().kind == Token::Kind::kQuotedIdentifier;
    EPOXY_ASSIGN_OR_RETURN(std::string second, p.ParseIdentifier());
    auto format = ParseFileFormat(first);
    if (quoted && format.ok()) {
      ref.is_files = true;
      ref.format = *format;
      ref.path = second;
    } else {
      ref.database = first;
      ref.table = second;
    }
  } else {
    ref.table = first;
  }
  if (p.AcceptKeyword("AS")) {
    EPOXY_ASSIGN_OR_RETURN(ref.alias, p.ParseIdentifier());
  } else if (p.Peek().kind == Token::Kind::kQuotedIdentifier ||
             (p.Peek().kind == Token::Kind::kIdentifier && !p.Peek().IsKeyword("WHERE") && !p.Peek().IsKeyword("UNION") &&
              !p.Peek().IsKeyword("LIMIT") && RefuseUnsupported(p).ok())) {
    EPOXY_ASSIGN_OR_RETURN(ref.alias, p.ParseIdentifier());
  }
  return ref;
}

Result<SelectCore> ParseSelect(TokenParser& p) {
  SelectCore core;
  EPOXY_RETURN_NOT_OK(p.ExpectKeyword("SELECT"));
  if (p.AcceptKeyword("DISTINCT")) {
    core.distinct = true;
  } else {
    p.AcceptKeyword("ALL");
  }
  do {
    SelectItem item;
    EPOXY_ASSIGN_OR_RETURN(item.expr, p.ParseExpr());
    if (p.AcceptKeyword("AS")) {
      EPOXY_ASSIGN_OR_RETURN(item.alias, p.ParseIdentifier());
    } else if (p.Peek().kind == Token::Kind::kQuotedIdentifier ||
               (p.Peek().kind == Token::Kind::kIdentifier && !p.Peek().IsKeyword("FROM"))) {
      EPOXY_ASSIGN_OR_RETURN(item.alias, p.ParseIdentifier());
    }
    core.items.push_back(std::move(item));
  } while (p.AcceptOperator(","));
  if (!p.AcceptKeyword("FROM")) {
    if (p.AtEnd()) return Status::NotSupported("SELECT without FROM is not supported yet");
    return p.Expected("FROM");
  }
  EPOXY_ASSIGN_OR_RETURN(core.from, ParseTable(p));
  EPOXY_RETURN_NOT_OK(RefuseUnsupported(p));
  if (p.AcceptKeyword("WHERE")) {
    EPOXY_ASSIGN_OR_RETURN(core.where, p.ParseExpr());
  }
  EPOXY_RETURN_NOT_OK(RefuseUnsupported(p));
  return core;
}

}  // namespace

Result<Query> ParseQuery(std::string_view text) {
  EPOXY_ASSIGN_OR_RETURN(std::vector<Token> tokens, expr::Tokenize(text));
  TokenParser p(text, std::move(tokens));
  Query query;
  while (true) {
    EPOXY_ASSIGN_OR_RETURN(SelectCore core, ParseSelect(p));
    query.selects.push_back(std::move(core));
    if (!p.AcceptKeyword("UNION")) break;
    // UNION and UNION DISTINCT remove repeats; UNION ALL keeps them.
    query.union_distinct.push_back(!p.AcceptKeyword("ALL"));
    if (!query.union_distinct.back()) continue;
    p.AcceptKeyword("DISTINCT");
  }
  if (p.AcceptKeyword("LIMIT")) {
    const Token& t = p.Next();
    int64_t n = 0;
    if (t.kind != Token::Kind::kNumber || !ParseInt64(t.text, &n)) return Status::InvalidInput("LIMIT needs a whole number, got '{}'", t.text);
    query.limit = n;
  }
  p.AcceptOperator(";");
  if (!p.AtEnd()) {
    EPOXY_RETURN_NOT_OK(RefuseUnsupported(p));
    return p.Expected("the end of the statement");
  }
  return query;
}

Result<plan::PlanPtr> PlanQuery(const Query& query, const SqlContext& context) {
  std::vector<plan::PlanPtr> selects;
  for (const auto& core : query.selects) {
    plan::ScanSource source;
    std::vector<std::string> qualifiers;
    const TableRef& from = core.from;
    if (from.is_files) {
      EPOXY_ASSIGN_OR_RETURN(source, plan::ResolveFileSource(from.format, from.path));
    } else {
      if (context.catalog == nullptr) return Status::InvalidInput("no catalog to find table {}", from.table);
      std::string db = from.database.empty() ? context.default_database : from.database;
      EPOXY_ASSIGN_OR_RETURN(source, plan::ResolveCatalogSource(*context.catalog, db, from.table));
      qualifiers.push_back(from.table);
    }
    if (!from.alias.empty()) qualifiers.push_back(from.alias);
    EPOXY_ASSIGN_OR_RETURN(plan::PlanPtr node, plan::Scan(std::move(source)));
    if (core.where) {
      EPOXY_ASSIGN_OR_RETURN(node, plan::Filter(node, core.where, qualifiers));
    }
    std::vector<expr::ExprPtr> exprs;
    std::vector<std::string> names;
    for (const auto& item : core.items) {
      exprs.push_back(item.expr);
      names.push_back(item.alias);
    }
    EPOXY_ASSIGN_OR_RETURN(node, plan::Project(node, exprs, names, qualifiers));
    if (core.distinct) {
      EPOXY_ASSIGN_OR_RETURN(node, plan::Distinct(node));
    }
    selects.push_back(std::move(node));
  }
  // Left to right: a run of UNION ALL becomes one union; a UNION (distinct) closes the run.
  plan::PlanPtr out = selects[0];
  std::vector<plan::PlanPtr> run{out};
  for (size_t i = 1; i < selects.size(); ++i) {
    run.push_back(selects[i]);
    if (query.union_distinct[i - 1] || i + 1 == selects.size()) {
      EPOXY_ASSIGN_OR_RETURN(out, plan::UnionAll(std::move(run)));
      if (query.union_distinct[i - 1]) {
        EPOXY_ASSIGN_OR_RETURN(out, plan::Distinct(out));
      }
      run = {out};
    }
  }
  if (query.limit) {
    EPOXY_ASSIGN_OR_RETURN(out, plan::Limit(out, *query.limit));
  }
  return out;
}

Result<plan::PlanPtr> PlanSql(std::string_view text, const SqlContext& context) {
  EPOXY_ASSIGN_OR_RETURN(Query query, ParseQuery(text));
  return PlanQuery(query, context);
}

}  // namespace epoxy::sql
