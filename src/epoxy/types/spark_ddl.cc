// SPDX-License-Identifier: Apache-2.0
// A recursive-descent parser for Spark's DDL types and column lists, and Spark's SQL type text.
#include "epoxy/types/spark_ddl.h"

#include <algorithm>
#include <cctype>

namespace epoxy {
namespace {

constexpr int kMaxDepth = 100;

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class DdlParser {
 public:
  DdlParser(std::string_view text, const DdlParseOptions& options) : text_(text), options_(options) {}

  Result<TypePtr> ParseSingleType() {
    EPOXY_ASSIGN_OR_RETURN(TypePtr type, Type(0));
    SkipSpaces();
    if (pos_ != text_.size()) return Error("unexpected text after the type");
    return type;
  }

  Result<TypePtr> ParseColumns() {
    std::vector<Field> fields;
    SkipSpaces();
    if (pos_ == text_.size()) return Error("expected a column");
    do {
      EPOXY_ASSIGN_OR_RETURN(Field f, Column(0, /*colon_allowed=*/false));
      fields.push_back(std::move(f));
    } while (Consume(','));
    SkipSpaces();
    if (pos_ != text_.size()) return Error("unexpected text after the columns");
    return DataType::Struct(std::move(fields));
  }

  size_t error_pos() const { return error_pos_; }

 private:
  Status Error(std::string_view what) {
    error_pos_ = std::max(error_pos_, pos_);
    return Status::InvalidInput("cannot parse the schema '{}': {} at position {}", text_, what, pos_);
  }

  void SkipSpaces() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '-') {  // -- comment
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
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

  /// A bare word, lower-cased; empty when there is none.
  std::string Word() {
    SkipSpaces();
    size_t start = pos_;
    while (pos_ < text_.size() && IsWordChar(text_[pos_])) ++pos_;
    std::string word(text_.substr(start, pos_ - start));
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return word;
  }

  /// Consumes `keyword` (any case) when it is the next word.
  bool Keyword(std::string_view keyword) {
    size_t saved = pos_;
    if (Word() == keyword) return true;
    pos_ = saved;
    return false;
  }

  Result<int> Integer() {
    SkipSpaces();
    size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      value = value * 10 + (text_[pos_] - '0');
      if (value > 1'000'000) return Error("number too large");
      ++pos_;
    }
    if (pos_ == start) return Error("expected a number");
    return static_cast<int>(value);
  }

  Result<std::string> Identifier() {
    SkipSpaces();
    if (pos_ < text_.size() && text_[pos_] == '`') {
      ++pos_;
      std::string name;
      while (true) {
        if (pos_ >= text_.size()) return Error("unterminated backquoted name");
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
    while (pos_ < text_.size() && IsWordChar(text_[pos_])) ++pos_;
    if (pos_ == start) return Error("expected a name");
    return std::string(text_.substr(start, pos_ - start));
  }

  /// A quoted string ('x' or "x", backslash escapes), for COMMENT.
  Status StringLiteral() {
    SkipSpaces();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return Error("expected a string");
    char quote = text_[pos_++];
    while (pos_ < text_.size() && text_[pos_] != quote) pos_ += text_[pos_] == '\\' ? 2 : 1;
    if (pos_ >= text_.size()) return Error("unterminated string");
    ++pos_;
    return Status::OK();
  }

  /// `name [:] type [NOT NULL] [COMMENT 'text']`.
  Result<Field> Column(int depth, bool colon_allowed) {
    EPOXY_ASSIGN_OR_RETURN(std::string name, Identifier());
    if (colon_allowed) Consume(':');
    EPOXY_ASSIGN_OR_RETURN(TypePtr type, Type(depth + 1));
    if (Keyword("not")) {
      if (!Keyword("null")) return Error("expected NULL after NOT");
    }
    if (Keyword("comment")) EPOXY_RETURN_NOT_OK(StringLiteral());
    return Field{std::move(name), std::move(type)};
  }

  Result<TypePtr> Type(int depth) {
    if (depth > kMaxDepth) return Error("type nested too deeply");
    size_t start = pos_;
    std::string word = Word();
    if (word.empty()) return Error("expected a type");
    if (word == "boolean") return DataType::Boolean();
    if (word == "tinyint" || word == "byte") return DataType::TinyInt();
    if (word == "smallint" || word == "short") return DataType::SmallInt();
    if (word == "int" || word == "integer") return DataType::Int();
    if (word == "bigint" || word == "long") return DataType::BigInt();
    if (word == "float" || word == "real") return DataType::Float();
    if (word == "double") return DataType::Double();
    if (word == "date") return DataType::Date();
    if (word == "timestamp" || word == "timestamp_ltz") return DataType::Timestamp();
    if (word == "string") return DataType::String();
    if (word == "binary") return DataType::Binary();
    if (word == "void") return DataType::Null();
    if (word == "char" || word == "character" || word == "varchar") {
      EPOXY_RETURN_NOT_OK(Expect('('));
      EPOXY_ASSIGN_OR_RETURN(int length, Integer());
      (void)length;
      EPOXY_RETURN_NOT_OK(Expect(')'));
      if (!options_.char_varchar_as_string) {
        error_pos_ = pos_;
        return Status::InvalidInput(
            "[UNSUPPORTED_CHAR_OR_VARCHAR_AS_STRING] The char/varchar type can't be used in the "
            "table schema ('{}'); set spark.sql.legacy.charVarcharAsString to true to read it as "
            "string",
            text_);
      }
      return DataType::String();
    }
    if (word == "decimal" || word == "dec" || word == "numeric") {
      int precision = 10, scale = 0;
      if (Consume('(')) {
        EPOXY_ASSIGN_OR_RETURN(precision, Integer());
        if (Consume(',')) {
          EPOXY_ASSIGN_OR_RETURN(scale, Integer());
        }
        EPOXY_RETURN_NOT_OK(Expect(')'));
      }
      if (precision < 1 || precision > 38) return Error("decimal precision must be 1 to 38");
      if (scale > precision) return Error("decimal scale must not exceed its precision");
      return DataType::Decimal(precision, scale);
    }
    if (word == "array") {
      EPOXY_RETURN_NOT_OK(Expect('<'));
      EPOXY_ASSIGN_OR_RETURN(TypePtr element, Type(depth + 1));
      EPOXY_RETURN_NOT_OK(Expect('>'));
      return DataType::Array(std::move(element));
    }
    if (word == "map") {
      EPOXY_RETURN_NOT_OK(Expect('<'));
      EPOXY_ASSIGN_OR_RETURN(TypePtr key, Type(depth + 1));
      EPOXY_RETURN_NOT_OK(Expect(','));
      EPOXY_ASSIGN_OR_RETURN(TypePtr value, Type(depth + 1));
      EPOXY_RETURN_NOT_OK(Expect('>'));
      return DataType::Map(std::move(key), std::move(value));
    }
    if (word == "struct") {
      EPOXY_RETURN_NOT_OK(Expect('<'));
      std::vector<Field> fields;
      if (!Consume('>')) {
        do {
          EPOXY_ASSIGN_OR_RETURN(Field f, Column(depth, /*colon_allowed=*/true));
          fields.push_back(std::move(f));
        } while (Consume(','));
        EPOXY_RETURN_NOT_OK(Expect('>'));
      }
      return DataType::Struct(std::move(fields));
    }
    error_pos_ = pos_;
    return Status::InvalidInput("[UNSUPPORTED_DATATYPE] Unsupported data type \"{}\" in the schema '{}'",
                                word, text_);
  }

  std::string_view text_;
  const DdlParseOptions& options_;
  size_t pos_ = 0;
  size_t error_pos_ = 0;  // where the first error was found
};

bool IsPlainIdentifier(std::string_view name) {
  if (name.empty()) return false;
  bool all_digits = true;
  for (char c : name) {
    if (!IsWordChar(c)) return false;
    if (!std::isdigit(static_cast<unsigned char>(c))) all_digits = false;
  }
  return !all_digits;
}

}  // namespace

Result<TypePtr> ParseDdlType(std::string_view text, const DdlParseOptions& options) {
  return DdlParser(text, options).ParseSingleType();
}

Result<TypePtr> ParseDdlColumns(std::string_view text, const DdlParseOptions& options) {
  return DdlParser(text, options).ParseColumns();
}

Result<TypePtr> ParseDdlSchema(std::string_view text, const DdlParseOptions& options) {
  DdlParser single_parser(text, options);
  auto single = single_parser.ParseSingleType();
  if (single.ok()) return single;
  DdlParser columns_parser(text, options);
  auto columns = columns_parser.ParseColumns();
  if (columns.ok()) return columns;
  // The error of the reading that got further.
  return columns_parser.error_pos() > single_parser.error_pos() ? columns : single;
}

std::string QuoteIdentifierIfNeeded(std::string_view name) {
  if (IsPlainIdentifier(name)) return std::string(name);
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  out += '`';
  return out;
}

std::string SparkSqlTypeText(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull: return "VOID";
    case TypeId::kBoolean: return "BOOLEAN";
    case TypeId::kTinyInt: return "TINYINT";
    case TypeId::kSmallInt: return "SMALLINT";
    case TypeId::kInt: return "INT";
    case TypeId::kBigInt: return "BIGINT";
    case TypeId::kFloat: return "FLOAT";
    case TypeId::kDouble: return "DOUBLE";
    case TypeId::kDecimal: return fmt::format("DECIMAL({},{})", type.precision(), type.scale());
    case TypeId::kString: return "STRING";
    case TypeId::kBinary: return "BINARY";
    case TypeId::kDate: return "DATE";
    case TypeId::kTimestamp: return "TIMESTAMP";
    case TypeId::kArray: return "ARRAY<" + SparkSqlTypeText(*type.element()) + ">";
    case TypeId::kMap:
      return "MAP<" + SparkSqlTypeText(*type.key()) + ", " + SparkSqlTypeText(*type.value()) + ">";
    case TypeId::kStruct: {
      std::string out = "STRUCT<";
      for (size_t i = 0; i < type.fields().size(); ++i) {
        if (i > 0) out += ", ";
        out += QuoteIdentifierIfNeeded(type.fields()[i].name) + ": " + SparkSqlTypeText(*type.fields()[i].type);
      }
      return out + ">";
    }
    case TypeId::kChoice: return type.ToString();
  }
  return type.ToString();
}

}  // namespace epoxy
