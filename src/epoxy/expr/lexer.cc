// SPDX-License-Identifier: Apache-2.0
// Spark SQL tokenizer.
#include "epoxy/expr/lexer.h"

#include <cctype>

namespace epoxy::expr {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

bool Token::IsKeyword(std::string_view keyword) const {
  if (kind != Kind::kIdentifier || text.size() != keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) != std::toupper(static_cast<unsigned char>(keyword[i]))) {
      return false;
    }
  }
  return true;
}

Result<std::vector<Token>> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  auto error = [&](size_t at, std::string_view what) {
    return Status::InvalidInput("{} at position {} of '{}'", what, at + 1, text);
  };
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (text.compare(i, 2, "--") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) return error(i, "unclosed comment");
      if (text.compare(i, 3, "/*+") == 0) {  // a hint: /*+ BROADCAST(t) */
        Token hint;
        hint.kind = Token::Kind::kHint;
        hint.position = i;
        hint.text = std::string(text.substr(i + 3, end - i - 3));
        tokens.push_back(std::move(hint));
      }
      i = end + 2;
      continue;
    }
    Token t;
    t.position = i;
    if (IsIdentStart(c)) {
      size_t start = i;
      while (i < text.size() && IsIdentChar(text[i])) ++i;
      t.kind = Token::Kind::kIdentifier;
      t.text = std::string(text.substr(start, i - start));
    } else if (c == '`') {
      t.kind = Token::Kind::kQuotedIdentifier;
      ++i;
      while (true) {
        if (i >= text.size()) return error(t.position, "unclosed `identifier`");
        if (text[i] == '`') {
          if (i + 1 < text.size() && text[i + 1] == '`') {
            t.text.push_back('`');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        t.text.push_back(text[i++]);
      }
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      size_t start = i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      }
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t e = i + 1;
        if (e < text.size() && (text[e] == '+' || text[e] == '-')) ++e;
        if (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) {
          i = e;
          while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
        }
      }
      // Spark's literal suffixes: 1L (bigint), 1S, 1Y, 1D (double), 1F, 1BD (decimal).
      if (i + 1 < text.size() && (text[i] == 'B' || text[i] == 'b') && (text[i + 1] == 'D' || text[i + 1] == 'd')) {
        i += 2;
      } else if (i < text.size() && std::strchr("LlSsYyDdFf", text[i]) != nullptr &&
                 (i + 1 >= text.size() || !IsIdentChar(text[i + 1]))) {
        ++i;
      }
      if (i < text.size() && IsIdentChar(text[i])) return error(start, "malformed number");
      t.kind = Token::Kind::kNumber;
      t.text = std::string(text.substr(start, i - start));
    } else if (c == '\'' || c == '"') {
      t.kind = Token::Kind::kString;
      char quote = c;
      ++i;
      while (true) {
        if (i >= text.size()) return error(t.position, "unclosed string");
        char ch = text[i];
        if (ch == quote) {
          ++i;
          break;
        }
        if (ch == '\\' && i + 1 < text.size()) {
          char e = text[i + 1];
          switch (e) {
            case 'n': t.text.push_back('\n'); break;
            case 't': t.text.push_back('\t'); break;
            case 'r': t.text.push_back('\r'); break;
            case '0': t.text.push_back('\0'); break;
            default: t.text.push_back(e); break;  // \\ \' \" and anything else: the character
          }
          i += 2;
          continue;
        }
        t.text.push_back(ch);
        ++i;
      }
    } else {
      static const char* kOperators[] = {"<=>", "<>", "!=", "<=", ">=", "==", "||", "&&", "::", "=", "<", ">", "+",
                                         "-",   "*",  "/",  "%",  "(",  ")",  ",",  ".",  "[",  "]", "!", ";", "&",
                                         "|",   "^",  "~"};
      bool found = false;
      for (const char* op : kOperators) {
        size_t n = std::strlen(op);
        if (text.compare(i, n, op) == 0) {
          t.kind = Token::Kind::kOperator;
          t.text = op;
          i += n;
          found = true;
          break;
        }
      }
      if (!found) return error(i, fmt::format("unexpected character '{}'", c));
    }
    tokens.push_back(std::move(t));
  }
  Token end;
  end.position = text.size();
  tokens.push_back(end);
  return tokens;
}

}  // namespace epoxy::expr
