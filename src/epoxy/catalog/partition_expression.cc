// SPDX-License-Identifier: Apache-2.0
// A recursive-descent parser for Glue partition expressions that emits SQL directly.
#include "epoxy/catalog/partition_expression.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "epoxy/types/value_text.h"

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

/// How a key's declared type compares (Glue's partition key types).
enum class KeyClass { kString, kInteger, kDecimal, kDate, kTimestamp, kUnsupported };

KeyClass ClassOf(const std::string& type) {
  if (type == "string" || type.rfind("char", 0) == 0 || type.rfind("varchar", 0) == 0) return KeyClass::kString;
  if (type == "int" || type == "integer" || type == "bigint" || type == "long" || type == "tinyint" ||
      type == "smallint") {
    return KeyClass::kInteger;
  }
  if (type.rfind("decimal", 0) == 0) return KeyClass::kDecimal;
  if (type == "date") return KeyClass::kDate;
  if (type == "timestamp") return KeyClass::kTimestamp;
  return KeyClass::kUnsupported;
}

const char* KindName(KeyClass c) {
  switch (c) {
    case KeyClass::kInteger: return "int";
    case KeyClass::kDecimal: return "decimal";
    case KeyClass::kDate: return "date";
    case KeyClass::kTimestamp: return "timestamp";
    default: return "string";
  }
}

/// Glue's name of a type family in "... data type doesn't support operation 'LIKE'".
const char* FamilyName(KeyClass c) {
  switch (c) {
    case KeyClass::kInteger: return "Integral";
    case KeyClass::kDecimal: return "Decimal";
    case KeyClass::kDate: return "Date";
    default: return "Timestamp";
  }
}

bool AllDigits(std::string_view s) {
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

Result<TypedKeyValue> ParseTypedKeyValue(std::string_view kind, std::string_view text) {
  TypedKeyValue out;
  if (kind == "int") {
    std::string copy(text);
    size_t start = !copy.empty() && (copy[0] == '-' || copy[0] == '+') ? 1 : 0;
    if (copy.size() > start && AllDigits(std::string_view(copy).substr(start))) {
      errno = 0;
      long long v = std::strtoll(copy.c_str(), nullptr, 10);
      if (errno == 0) {
        out.kind = TypedKeyValue::Kind::kInteger;
        out.integer = v;
        return out;
      }
    }
    return Status::InvalidInput("\"{}\" is not an integer", text);
  }
  if (kind == "decimal") {
    std::string copy(text);
    char* end = nullptr;
    const bool starts_right = !copy.empty() && (std::isdigit(static_cast<unsigned char>(copy[0])) || copy[0] == '-' ||
                                                copy[0] == '+' || copy[0] == '.');
    double v = starts_right ? std::strtod(copy.c_str(), &end) : 0;
    if (!starts_right || end == copy.c_str() || *end != '\0' || !std::isfinite(v)) {
      return Status::InvalidInput("\"{}\" is not a decimal", text);
    }
    out.kind = TypedKeyValue::Kind::kReal;
    out.real = v;
    return out;
  }
  if (kind == "date") {
    int32_t days;
    if (!ParseDate(text, &days)) return Status::InvalidInput("\"{}\" is not a date", text);
    out.text = std::string(text);
    return out;
  }
  if (kind == "timestamp") {
    // YYYY-MM-DD HH:MM:SS with an optional fraction of 1 to 9 digits (kept to the nanosecond).
    int64_t micros;
    bool ok = text.size() >= 19 && ParseTimestamp(text.substr(0, 19), &micros);
    std::string fraction;
    if (ok && text.size() > 19) {
      fraction = std::string(text.substr(20));
      ok = text[19] == '.' && !fraction.empty() && fraction.size() <= 9 && AllDigits(fraction);
    }
    if (!ok) return Status::InvalidInput("\"{}\" is not a timestamp", text);
    fraction.resize(9, '0');
    out.text = std::string(text.substr(0, 19)) + "." + fraction;
    return out;
  }
  return Status::InvalidInput("Unknown type : '{}'", kind);
}

namespace {

class Translator {
 public:
  Translator(std::string_view text, const std::vector<PartitionKey>& keys) : text_(text), keys_(keys) {}

  Result<SqlFilter> Run() {
    if (text_.size() > kMaxExpression) {
      return Status::InvalidInput("Unsupported expression: it is {} characters; at most {}", text_.size(),
                                  kMaxExpression);
    }
    EPOXY_RETURN_NOT_OK(Tokenize());
    EPOXY_ASSIGN_OR_RETURN(std::string sql, Or(0));
    if (Peek().kind != TokenKind::kEnd) return Error(Peek(), "unexpected text");
    return SqlFilter{std::move(sql), std::move(params_)};
  }

 private:
  Status Error(const Token& t, std::string_view what) const { return ErrorAt(t.pos, what); }
  Status ErrorAt(size_t pos, std::string_view what) const {
    return Status::InvalidInput("Unsupported expression '{}': {} at position {}", text_, what, pos);
  }

  Status Tokenize() {
    size_t i = 0;
    auto digit = [&](size_t k) { return k < text_.size() && std::isdigit(static_cast<unsigned char>(text_[k])); };
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
          if (i >= text_.size()) return ErrorAt(start, "unterminated string");
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
      } else if (digit(i) || ((c == '-' || c == '.') && (digit(i + 1) || (i + 1 < text_.size() && text_[i + 1] == '.' && digit(i + 2))))) {
        ++i;
        while (digit(i) || (i < text_.size() && text_[i] == '.')) ++i;
        if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {  // an exponent: 3e10, 1.5E-3
          size_t k = i + 1;
          if (k < text_.size() && (text_[k] == '+' || text_[k] == '-')) ++k;
          if (digit(k)) {
            i = k;
            while (digit(i)) ++i;
          }
        }
        tokens_.push_back({TokenKind::kNumber, std::string(text_.substr(start, i - start)), start});
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '`') {
        if (c == '`') {
          size_t close = text_.find('`', i + 1);
          if (close == std::string_view::npos) return ErrorAt(start, "unterminated name");
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
        if (op == "!") return ErrorAt(i, "unexpected '!'");
        i += op.size();
        tokens_.push_back({TokenKind::kOp, op, start});
      } else {
        return ErrorAt(i, fmt::format("unexpected '{}'", c));
      }
    }
    tokens_.push_back({TokenKind::kEnd, "", text_.size()});
    return Status::OK();
  }

  const Token& Peek(size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  bool IsKeyword(std::string_view word, size_t ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kIdent && Upper(Peek(ahead).text) == word;
  }
  /// AND or OR, bare or in parentheses ("(OR)"), which Glue accepts too.
  bool TakeConnective(std::string_view word) {
    if (IsKeyword(word)) {
      ++pos_;
      return true;
    }
    if (Peek().kind == TokenKind::kLParen && IsKeyword(word, 1) && Peek(2).kind == TokenKind::kRParen) {
      pos_ += 3;
      return true;
    }
    return false;
  }

  Result<std::string> Or(int depth) {
    if (depth > kMaxDepth) return Error(Peek(), "expression nested too deeply");
    EPOXY_ASSIGN_OR_RETURN(std::string left, And(depth));
    while (TakeConnective("OR")) {
      EPOXY_ASSIGN_OR_RETURN(std::string right, And(depth));
      left = "(" + left + " OR " + right + ")";
    }
    return left;
  }

  Result<std::string> And(int depth) {
    EPOXY_ASSIGN_OR_RETURN(std::string left, Not(depth));
    while (TakeConnective("AND")) {
      EPOXY_ASSIGN_OR_RETURN(std::string right, Not(depth));
      left = "(" + left + " AND " + right + ")";
    }
    return left;
  }

  Result<std::string> Not(int depth) {
    if (depth > kMaxDepth) return Error(Peek(), "expression nested too deeply");
    if (IsKeyword("NOT")) {
      ++pos_;
      EPOXY_ASSIGN_OR_RETURN(std::string inner, Not(depth + 1));
      return "(NOT " + inner + ")";
    }
    if (Peek().kind == TokenKind::kLParen) {
      // "(key) = 2" is a predicate whose operand is in parentheses; "(key = 2)" a group.
      const size_t saved_pos = pos_, saved_params = params_.size();
      auto predicate = Predicate(depth);
      if (predicate.ok()) return predicate;
      pos_ = saved_pos;
      params_.resize(saved_params);
      ++pos_;
      auto inner = Or(depth + 1);
      if (inner.ok() && Peek().kind != TokenKind::kRParen) inner = Error(Peek(), "expected ')'");
      if (!inner.ok()) {
        // Both readings failed: a type error found by the first says more than a parse error.
        const bool parse_error = predicate.status().message().rfind("Unsupported expression", 0) == 0;
        return parse_error ? inner.status() : predicate.status();
      }
      ++pos_;
      return inner;
    }
    return Predicate(depth);
  }

  /// The column expression of key `index`, typed for comparison.
  std::string Column(size_t index) const {
    const KeyClass c = ClassOf(keys_[index].type);
    if (c == KeyClass::kString) return fmt::format("v{}", index);
    return fmt::format("{}('{}', v{})", kPartitionKeyFunction, KindName(c), index);
  }

  /// Consumes `n` opening parentheses' closing partners.
  Status CloseParens(int n) {
    for (; n > 0; --n) {
      if (Peek().kind != TokenKind::kRParen) return Error(Peek(), "expected ')'");
      ++pos_;
    }
    return Status::OK();
  }

  int OpenParens(int depth) {
    int n = 0;
    while (Peek().kind == TokenKind::kLParen && depth + n <= kMaxDepth) {
      ++pos_;
      ++n;
    }
    return n;
  }

  Result<std::string> Literal(size_t key, int depth) {
    const int parens = OpenParens(depth);
    const Token& t = Peek();
    if (t.kind == TokenKind::kIdent && (Upper(t.text) == "DATE" || Upper(t.text) == "TIMESTAMP") &&
        Peek(1).kind == TokenKind::kString) {
      ++pos_;
    }
    const Token& v = Peek();
    if (v.kind != TokenKind::kString && v.kind != TokenKind::kNumber) return Error(v, "expected a literal");
    const KeyClass c = ClassOf(keys_[key].type);
    std::string sql = "?";
    if (c == KeyClass::kString) {
      params_.push_back(v.text);
    } else {
      auto typed = ParseTypedKeyValue(KindName(c), v.text);
      if (!typed.ok()) return typed.status();
      switch (typed->kind) {
        case TypedKeyValue::Kind::kInteger:
          params_.push_back(std::to_string(typed->integer));
          sql = "CAST(? AS INTEGER)";
          break;
        case TypedKeyValue::Kind::kReal:
          params_.push_back(fmt::format("{:.17g}", typed->real));
          sql = "CAST(? AS REAL)";
          break;
        case TypedKeyValue::Kind::kText:
          params_.push_back(typed->text);
          break;
      }
    }
    ++pos_;
    EPOXY_RETURN_NOT_OK(CloseParens(parens));
    return sql;
  }

  Result<std::string> Predicate(int depth) {
    const int parens = OpenParens(depth);
    const Token& name = Peek();
    if (name.kind != TokenKind::kIdent) return Error(name, "expected a partition key");
    size_t key = keys_.size();
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i].name == name.text || Upper(keys_[i].name) == Upper(name.text)) key = i;
    }
    if (key == keys_.size()) return Status::InvalidInput("Invalid partition expression!");
    const KeyClass c = ClassOf(keys_[key].type);
    if (c == KeyClass::kUnsupported) return Status::InvalidInput("Unknown type : '{}'", keys_[key].type);
    ++pos_;
    EPOXY_RETURN_NOT_OK(CloseParens(parens));
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
      EPOXY_ASSIGN_OR_RETURN(std::string lo, Literal(key, depth));
      if (!IsKeyword("AND")) return Error(Peek(), "expected AND in BETWEEN");
      ++pos_;
      EPOXY_ASSIGN_OR_RETURN(std::string hi, Literal(key, depth));
      return fmt::format("({} {}BETWEEN {} AND {})", col, prefix, lo, hi);
    }
    if (IsKeyword("IN")) {
      ++pos_;
      if (Peek().kind != TokenKind::kLParen) return Error(Peek(), "expected '(' after IN");
      ++pos_;
      std::string list;
      do {
        EPOXY_ASSIGN_OR_RETURN(std::string v, Literal(key, depth));
        list += (list.empty() ? "" : ", ") + v;
      } while (Peek().kind == TokenKind::kComma && (++pos_, true));
      if (Peek().kind != TokenKind::kRParen) return Error(Peek(), "expected ')' to close IN");
      ++pos_;
      return fmt::format("({} {}IN ({}))", col, prefix, list);
    }
    if (IsKeyword("LIKE")) {
      if (c != KeyClass::kString) {
        return Status::InvalidInput("{} data type doesn't support operation 'LIKE'", FamilyName(c));
      }
      ++pos_;
      const int like_parens = OpenParens(depth);
      if (Peek().kind != TokenKind::kString) return Error(Peek(), "LIKE needs a string pattern");
      params_.push_back(Peek().text);
      ++pos_;
      EPOXY_RETURN_NOT_OK(CloseParens(like_parens));
      // Glue's LIKE is case-sensitive with % and _ wildcards: the store's connection sets
      // case_sensitive_like.
      return fmt::format("(v{} {}LIKE ?)", key, prefix);
    }
    if (negated) return Error(Peek(), "expected BETWEEN, IN or LIKE after NOT");
    if (Peek().kind != TokenKind::kOp) return Error(Peek(), "expected a comparison");
    std::string op = Peek().text;
    ++pos_;
    if (op == "!=") op = "<>";
    if (op == "==") op = "=";
    if (op != "=" && op != "<>" && op != "<" && op != ">" && op != "<=" && op != ">=") {
      return Error(Peek(), fmt::format("unknown operator '{}'", op));
    }
    EPOXY_ASSIGN_OR_RETURN(std::string value, Literal(key, depth));
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
