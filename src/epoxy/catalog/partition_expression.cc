// SPDX-License-Identifier: Apache-2.0
// A recursive-descent parser for Glue partition expressions that emits SQL directly.
#include "epoxy/catalog/partition_expression.h"

#include <cctype>

#include <fmt/format.h>

namespace epoxy::catalog {
namespace {

constexpr size_t kMaxExpression = 2048;
constexpr int kMaxDepth = 100;

enum class TokenKind { kIdent, kString, kNumber, kOp, kLParen, kRParen, kComma, kEnd };

struct Token {
  TokenKind kind;
  std::string text;
  size_t pos;
};

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

class Translator {
 public:
  Translator(std::string_view text, const std::vector<PartitionKey>& keys) : text_(text), keys_(keys) {}

  Result<SqlFilter> Run() {
    if (text_.size() > kMaxExpression) {
      return Status::InvalidInput("partition expression is {} characters; at most {}", text_.size(), kMaxExpression);
    }
    EPOXY_RETURN_NOT_OK(Tokenize());
    EPOXY_ASSIGN_OR_RETURN(std::string sql, Or(0));
    if (Peek().kind != TokenKind::kEnd) return Error(Peek(), "unexpected text");
    return SqlFilter{std::move(sql), std::move(params_)};
  }

 private:
  Status Error(const Token& t, std::string_view what) const {
    return Status::InvalidInput("cannot parse partition expression '{}': {} at position {}", text_, what, t.pos);
  }

  Status Tokenize() {
    size_t i = 0;
    while (i < text_.size()) {
      char c = text_[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      size_t start = i;
      if (c == '\'' || c == '"') {
        std::string value;
        ++i;
        while (true) {
          if (i >= text_.size()) return Status::InvalidInput("cannot parse partition expression '{}': unterminated string at position {}", text_, start);
          if (text_[i] == c) {
            if (i + 1 < text_.size() && text_[i + 1] == c) {  // doubled quote
              value.push_back(c);
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          value.push_back(text_[i++]);
        }
        tokens_.push_back({TokenKind::kString, value, start});
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '-' && i + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i + 1])))) {
        ++i;
        while (i < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[i])) || text_[i] == '.')) ++i;
        tokens_.push_back({TokenKind::kNumber, std::string(text_.substr(start, i - start)), start});
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '`') {
        if (c == '`') {
          size_t close = text_.find('`', i + 1);
          if (close == std::string_view::npos) return Status::InvalidInput("cannot parse partition expression '{}': unterminated name at position {}", text_, start);
          tokens_.push_back({TokenKind::kIdent, std::string(text_.substr(i + 1, close - i - 1)), start});
          i = close + 1;
          continue;
        }
        while (i < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[i])) || text_[i] == '_')) ++i;
        tokens_.push_back({TokenKind::kIdent, std::string(text_.substr(start, i - start)), start});
      } else if (c == '(') {
        tokens_.push_back({TokenKind::kLParen, "(", i++});
      } else if (c == ')') {
        tokens_.push_back({TokenKind::kRParen, ")", i++});
      } else if (c == ',') {
        tokens_.push_back({TokenKind::kComma, ",", i++});
      } else if (c == '=' || c == '<' || c == '>' || c == '!') {
        std::string op(1, c);
        if (i + 1 < text_.size() && (text_[i + 1] == '=' || (c == '<' && text_[i + 1] == '>'))) op.push_back(text_[i + 1]);
        if (op == "!") return Status::InvalidInput("cannot parse partition expression '{}': unexpected '!' at position {}", text_, i);
        i += op.size();
        tokens_.push_back({TokenKind::kOp, op, start});
      } else {
        return Status::InvalidInput("cannot parse partition expression '{}': unexpected '{}' at position {}", text_, c, i);
      }
    }
    tokens_.push_back({TokenKind::kEnd, "", text_.size()});
    return Status::OK();
  }

  const Token& Peek() const { return tokens_[pos_]; }
  bool IsKeyword(std::string_view word) const {
    return Peek().kind == TokenKind::kIdent && Upper(Peek().text) == word;
  }

  Result<std::string> Or(int depth) {
    if (depth > kMaxDepth) return Error(Peek(), "expression nested too deeply");
    EPOXY_ASSIGN_OR_RETURN(std::string left, And(depth));
    while (IsKeyword("OR")) {
      ++pos_;
      EPOXY_ASSIGN_OR_RETURN(std::string right, And(depth));
      left = "(" + left + " OR " + right + ")";
    }
    return left;
  }

  Result<std::string> And(int depth) {
    EPOXY_ASSIGN_OR_RETURN(std::string left, Not(depth));
    while (IsKeyword("AND")) {
      ++pos_;
      EPOXY_ASSIGN_OR_RETURN(std::string right, Not(depth));
      left = "(" + left + " AND " + right + ")";
    }
    return left;
  }

  Result<std::string> Not(int depth) {
    if (IsKeyword("NOT")) {
      ++pos_;
      EPOXY_ASSIGN_OR_RETURN(std::string inner, Not(depth + 1));
      return "(NOT " + inner + ")";
    }
    if (Peek().kind == TokenKind::kLParen) {
      ++pos_;
      EPOXY_ASSIGN_OR_RETURN(std::string inner, Or(depth + 1));
      if (Peek().kind != TokenKind::kRParen) return Error(Peek(), "expected ')'");
      ++pos_;
      return inner;
    }
    return Predicate();
  }

  /// The column expression of key `index`, typed for comparison.
  std::string Column(size_t index) const {
    const std::string& type = keys_[index].type;
    std::string col = fmt::format("v{}", index);
    if (type == "int" || type == "bigint" || type == "long" || type == "tinyint" || type == "smallint" || type == "integer") {
      return "CAST(" + col + " AS INTEGER)";
    }
    if (type.rfind("decimal", 0) == 0 || type == "double" || type == "float") return "CAST(" + col + " AS REAL)";
    return col;
  }

  bool NumericKey(size_t index) const { return Column(index).rfind("CAST", 0) == 0; }

  Result<std::string> Literal(size_t key) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kString || t.kind == TokenKind::kNumber) {
      if (NumericKey(key) && t.kind == TokenKind::kString) {
        // A quoted number against a numeric key compares as a number.
        char* end = nullptr;
        std::strtod(t.text.c_str(), &end);
        if (t.text.empty() || *end != '\0') return Error(t, fmt::format("'{}' is not a number for {} key '{}'", t.text, keys_[key].type, keys_[key].name));
      }
      ++pos_;
      params_.push_back(t.text);
      return NumericKey(key) ? std::string(Column(key).find("INTEGER") != std::string::npos ? "CAST(? AS INTEGER)" : "CAST(? AS REAL)")
                             : std::string("?");
    }
    if (t.kind == TokenKind::kIdent && (Upper(t.text) == "DATE" || Upper(t.text) == "TIMESTAMP") &&
        tokens_[pos_ + 1].kind == TokenKind::kString) {
      pos_ += 1;
      return Literal(key);
    }
    return Error(t, "expected a literal");
  }

  Result<std::string> Predicate() {
    const Token& name = Peek();
    if (name.kind != TokenKind::kIdent) return Error(name, "expected a partition key");
    size_t key = keys_.size();
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i].name == name.text || Upper(keys_[i].name) == Upper(name.text)) key = i;
    }
    if (key == keys_.size()) {
      std::string names;
      for (const auto& k : keys_) names += (names.empty() ? "" : ", ") + k.name;
      return Error(name, fmt::format("'{}' is not a partition key (keys: {})", name.text, names));
    }
    ++pos_;
    std::string col = Column(key);
    bool negated = false;
    if (IsKeyword("NOT")) {
      negated = true;
      ++pos_;
    }
    if (IsKeyword("IS")) {
      ++pos_;
      bool not_null = false;
      if (IsKeyword("NOT")) {
        not_null = true;
        ++pos_;
      }
      if (!IsKeyword("NULL")) return Error(Peek(), "expected NULL");
      ++pos_;
      return fmt::format("(v{} IS {}NULL)", key, not_null ? "NOT " : "");
    }
    std::string prefix = negated ? "NOT " : "";
    if (IsKeyword("BETWEEN")) {
      ++pos_;
      EPOXY_ASSIGN_OR_RETURN(std::string lo, Literal(key));
      if (!IsKeyword("AND")) return Error(Peek(), "expected AND in BETWEEN");
      ++pos_;
      EPOXY_ASSIGN_OR_RETURN(std::string hi, Literal(key));
      return fmt::format("({} {}BETWEEN {} AND {})", col, prefix, lo, hi);
    }
    if (IsKeyword("IN")) {
      ++pos_;
      if (Peek().kind != TokenKind::kLParen) return Error(Peek(), "expected '(' after IN");
      ++pos_;
      std::string list;
      do {
        EPOXY_ASSIGN_OR_RETURN(std::string v, Literal(key));
        list += (list.empty() ? "" : ", ") + v;
      } while (Peek().kind == TokenKind::kComma && (++pos_, true));
      if (Peek().kind != TokenKind::kRParen) return Error(Peek(), "expected ')' to close IN");
      ++pos_;
      return fmt::format("({} {}IN ({}))", col, prefix, list);
    }
    if (IsKeyword("LIKE")) {
      ++pos_;
      if (Peek().kind != TokenKind::kString) return Error(Peek(), "LIKE needs a string pattern");
      params_.push_back(Peek().text);
      ++pos_;
      // Glue's LIKE is case-sensitive with % and _ wildcards: SQLite's GLOB-free LIKE, made
      // case-sensitive with a pragma on the connection.
      return fmt::format("(v{} {}LIKE ?)", key, prefix);
    }
    if (negated) return Error(Peek(), "expected BETWEEN, IN or LIKE after NOT");
    if (Peek().kind != TokenKind::kOp) return Error(Peek(), "expected a comparison");
    std::string op = Peek().text;
    ++pos_;
    if (op == "!=") op = "<>";
    if (op == "==") op = "=";
    if (op != "=" && op != "<>" && op != "<" && op != ">" && op != "<=" && op != ">=") {
      return Error(tokens_[pos_ - 1], fmt::format("unknown operator '{}'", op));
    }
    EPOXY_ASSIGN_OR_RETURN(std::string value, Literal(key));
    return fmt::format("({} {} {})", col, op, value);
  }

  std::string_view text_;
  const std::vector<PartitionKey>& keys_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::vector<std::string> params_;
};

}  // namespace

Result<SqlFilter> TranslatePartitionExpression(std::string_view expression,
                                               const std::vector<PartitionKey>& keys) {
  return Translator(expression, keys).Run();
}

}  // namespace epoxy::catalog
