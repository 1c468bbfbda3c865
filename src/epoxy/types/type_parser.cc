// SPDX-License-Identifier: Apache-2.0
// ParseType: a recursive-descent parser for Glue type strings.
#include <cctype>

#include "epoxy/types/data_type.h"

namespace epoxy {
namespace {

constexpr int kMaxTypeDepth = 100;

class TypeParser {
 public:
  explicit TypeParser(std::string_view text) : text_(text) {}

  Result<TypePtr> ParseAll() {
    EPOXY_ASSIGN_OR_RETURN(TypePtr type, ParseOne(0));
    SkipSpaces();
    if (pos_ != text_.size()) return Error("unexpected text after the type");
    return type;
  }

 private:
  Status Error(std::string_view what) const {
    return Status::InvalidInput("cannot parse type '{}': {} at position {}", text_, what, pos_);
  }

  void SkipSpaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool Consume(char c) {
    SkipSpaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Status Expect(char c) {
    if (!Consume(c)) return Error(fmt::format("expected '{}'", c));
    return Status::OK();
  }

  std::string Word() {
    SkipSpaces();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    std::string word(text_.substr(start, pos_ - start));
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return word;
  }

  Result<int> Integer() {
    SkipSpaces();
    size_t start = pos_;
    int value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (value > 1000) return Error("number too large");
      value = value * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == start) return Error("expected a number");
    return value;
  }

  Result<std::string> FieldName() {
    SkipSpaces();
    if (Consume('`')) {
      std::string name;
      while (true) {
        if (pos_ >= text_.size()) return Error("unterminated backtick-quoted name");
        char c = text_[pos_++];
        if (c == '`') {
          if (pos_ < text_.size() && text_[pos_] == '`') {
            name += '`';
            ++pos_;
            continue;
          }
          return name;
        }
        name += c;
      }
    }
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ':' && text_[pos_] != ',' &&
           text_[pos_] != '<' && text_[pos_] != '>' &&
           !std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
    if (pos_ == start) return Error("expected a field name");
    return std::string(text_.substr(start, pos_ - start));
  }

  Result<TypePtr> ParseOne(int depth) {
    if (depth > kMaxTypeDepth) return Error("type nested too deeply");
    size_t word_start = pos_;
    std::string word = Word();
    if (word.empty()) return Error("expected a type name");
    if (word == "boolean") return DataType::Boolean();
    if (word == "tinyint" || word == "byte") return DataType::TinyInt();
    if (word == "smallint" || word == "short") return DataType::SmallInt();
    if (word == "int" || word == "integer") return DataType::Int();
    if (word == "bigint" || word == "long") return DataType::BigInt();
    if (word == "float") return DataType::Float();
    if (word == "double") return DataType::Double();
    if (word == "string" || word == "varchar" || word == "char") {
      // varchar(n) / char(n) read as string, as Glue's catalog treats them.
      if (Consume('(')) {
        EPOXY_ASSIGN_OR_RETURN(int ignored, Integer());
        (void)ignored;
        EPOXY_RETURN_NOT_OK(Expect(')'));
      }
      return DataType::String();
    }
    if (word == "binary") return DataType::Binary();
    if (word == "date") return DataType::Date();
    if (word == "timestamp") return DataType::Timestamp();
    if (word == "null" || word == "void") return DataType::Null();
    if (word == "decimal") {
      if (!Consume('(')) return DataType::Decimal(10, 0);
      EPOXY_ASSIGN_OR_RETURN(int precision, Integer());
      int scale = 0;
      if (Consume(',')) {
        EPOXY_ASSIGN_OR_RETURN(scale, Integer());
      }
      EPOXY_RETURN_NOT_OK(Expect(')'));
      if (precision < 1 || precision > 38) return Error("decimal precision must be 1 to 38");
      if (scale > precision) return Error("decimal scale must not exceed its precision");
      return DataType::Decimal(precision, scale);
    }
    if (word == "array") {
      EPOXY_RETURN_NOT_OK(Expect('<'));
      EPOXY_ASSIGN_OR_RETURN(TypePtr element, ParseOne(depth + 1));
      EPOXY_RETURN_NOT_OK(Expect('>'));
      return DataType::Array(std::move(element));
    }
    if (word == "map") {
      EPOXY_RETURN_NOT_OK(Expect('<'));
      EPOXY_ASSIGN_OR_RETURN(TypePtr key, ParseOne(depth + 1));
      EPOXY_RETURN_NOT_OK(Expect(','));
      EPOXY_ASSIGN_OR_RETURN(TypePtr value, ParseOne(depth + 1));
      EPOXY_RETURN_NOT_OK(Expect('>'));
      return DataType::Map(std::move(key), std::move(value));
    }
    if (word == "struct") {
      EPOXY_RETURN_NOT_OK(Expect('<'));
      std::vector<Field> fields;
      if (!Consume('>')) {
        do {
          EPOXY_ASSIGN_OR_RETURN(std::string name, FieldName());
          EPOXY_RETURN_NOT_OK(Expect(':'));
          EPOXY_ASSIGN_OR_RETURN(TypePtr type, ParseOne(depth + 1));
          fields.push_back({std::move(name), std::move(type)});
        } while (Consume(','));
        EPOXY_RETURN_NOT_OK(Expect('>'));
      }
      return DataType::Struct(std::move(fields));
    }
    if (word == "choice") {
      EPOXY_RETURN_NOT_OK(Expect('<'));
      std::vector<TypePtr> members;
      do {
        EPOXY_ASSIGN_OR_RETURN(TypePtr member, ParseOne(depth + 1));
        members.push_back(std::move(member));
      } while (Consume(','));
      EPOXY_RETURN_NOT_OK(Expect('>'));
      return DataType::Choice(std::move(members));
    }
    pos_ = word_start;
    SkipSpaces();
    return Error(fmt::format("unknown type '{}'", word));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Result<TypePtr> ParseType(std::string_view text) { return TypeParser(text).ParseAll(); }

}  // namespace epoxy
