// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/column_decoder.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "epoxy/expr/cast.h"
#include "epoxy/vector/builder.h"

namespace epoxy::database {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// "\x0a1b" into bytes.
Result<std::string> DecodeBytea(std::string_view text, const std::string& column) {
  if (text.size() < 2 || text[0] != '\\' || text[1] != 'x' || text.size() % 2 != 0) {
    return Status::InvalidData("column {}: bytea value is not in hex form", column);
  }
  std::string out;
  out.reserve(text.size() / 2 - 1);
  for (size_t i = 2; i < text.size(); i += 2) {
    int hi = HexDigit(text[i]), lo = HexDigit(text[i + 1]);
    if (hi < 0 || lo < 0) return Status::InvalidData("column {}: bytea value is not in hex form", column);
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

/// The text of one (element) value as the builder takes it.
Status AppendText(StringBuilder* builder, std::string_view text, Decoding decoding, const std::string& column) {
  switch (decoding) {
    case Decoding::kPgBytea: {
      EPOXY_ASSIGN_OR_RETURN(std::string bytes, DecodeBytea(text, column));
      return builder->Append(bytes);
    }
    case Decoding::kPgTimestampTz:
      if (text.size() > 3 && text.substr(text.size() - 3) == "+00") text.remove_suffix(3);
      return builder->Append(text);
    default:
      return builder->Append(text);
  }
}

/// The elements of a one-dimensional PostgreSQL array literal ({1,2,NULL}, {"a b","c\"d"}).
Status ParseArray(std::string_view text, const std::string& column, std::vector<std::optional<std::string>>* out) {
  out->clear();
  if (!text.empty() && text[0] == '[') {  // explicit bounds: [0:2]={...}
    size_t eq = text.find('=');
    if (eq == std::string_view::npos) return Status::InvalidData("column {}: malformed array '{}'", column, text);
    text.remove_prefix(eq + 1);
  }
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') {
    return Status::InvalidData("column {}: malformed array '{}'", column, text);
  }
  text = text.substr(1, text.size() - 2);
  if (text.empty()) return Status::OK();
  size_t i = 0;
  while (i <= text.size()) {
    if (i < text.size() && text[i] == '{') {
      return Status::NotSupported("column {} holds a multi-dimensional array, which epoxy (like Spark) does not read", column);
    }
    std::string value;
    bool quoted = false;
    if (i < text.size() && text[i] == '"') {
      quoted = true;
      ++i;
      while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        value.push_back(text[i++]);
      }
      if (i >= text.size()) return Status::InvalidData("column {}: unterminated quote in array", column);
      ++i;
    } else {
      while (i < text.size() && text[i] != ',') value.push_back(text[i++]);
    }
    if (!quoted && value == "NULL") {
      out->push_back(std::nullopt);
    } else {
      out->push_back(std::move(value));
    }
    if (i >= text.size()) break;
    if (text[i] != ',') return Status::InvalidData("column {}: malformed array", column);
    ++i;
  }
  return Status::OK();
}

/// `text` (strings) cast to `type`; a value the cast turns into null is an error.
Result<ArrayPtr> CastChecked(const ArrayPtr& text, const TypePtr& type, const ColumnMapping& mapping, MemoryPool* pool) {
  if (text->type()->Equals(*type)) return text;
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr typed, expr::CastArray(text, type, pool));
  if (typed->null_count() == text->null_count()) return typed;
  for (int64_t i = 0; i < text->length(); ++i) {
    if (text->IsValid(i) && typed->IsNull(i)) {
      return Status::InvalidData("column {} ({}): value '{}' does not convert to {}", mapping.name, mapping.source_type,
                                 text->GetView(i), type->ToString());
    }
  }
  return typed;
}

}  // namespace

Result<ArrayPtr> DecodeColumn(const RowBlock& block, int column, const std::vector<int32_t>* rows,
                              const ColumnMapping& mapping, MemoryPool* pool) {
  const int64_t n = rows ? static_cast<int64_t>(rows->size()) : block.num_rows();
  auto row_at = [&](int64_t i) { return rows ? static_cast<int64_t>((*rows)[static_cast<size_t>(i)]) : i; };
  const bool binary = mapping.decoding == Decoding::kPgBytea || mapping.decoding == Decoding::kBlob;
  if (!mapping.array) {
    StringBuilder text(binary ? DataType::Binary() : DataType::String(), pool);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = row_at(i);
      if (block.IsNull(r, column)) {
        EPOXY_RETURN_NOT_OK(text.AppendNull());
      } else {
        EPOXY_RETURN_NOT_OK(AppendText(&text, block.Value(r, column), mapping.decoding, mapping.name));
      }
    }
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr strings, text.Finish());
    return CastChecked(strings, mapping.type, mapping, pool);
  }
  // Arrays: the elements as text under list offsets, then the element column cast on its own.
  const TypePtr element_type = mapping.type->element();
  auto child = std::make_unique<StringBuilder>(binary ? DataType::Binary() : DataType::String(), pool);
  StringBuilder* elements = child.get();
  ListBuilder lists(DataType::Array(binary ? DataType::Binary() : DataType::String()), std::move(child), pool);
  std::vector<std::optional<std::string>> parsed;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = row_at(i);
    if (block.IsNull(r, column)) {
      EPOXY_RETURN_NOT_OK(lists.AppendNull());
      continue;
    }
    EPOXY_RETURN_NOT_OK(ParseArray(block.Value(r, column), mapping.name, &parsed));
    for (const auto& e : parsed) {
      if (e) {
        EPOXY_RETURN_NOT_OK(AppendText(elements, *e, mapping.decoding, mapping.name));
      } else {
        EPOXY_RETURN_NOT_OK(elements->AppendNull());
      }
    }
    EPOXY_RETURN_NOT_OK(lists.AppendList());
  }
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr list, lists.Finish());
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr typed_elements, CastChecked(list->child(0), element_type, mapping, pool));
  return Array::Make(mapping.type, list->length(), list->buffers(), {typed_elements}, list->null_count());
}

uint64_t RowIdentity(const RowBlock& block, int64_t row, int first, int count) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  for (int c = first; c < first + count; ++c) {
    if (block.IsNull(row, c)) {
      XXH3_64bits_update(&state, "\x1e", 1);
    } else {
      std::string_view v = block.Value(row, c);
      uint64_t size = v.size();
      XXH3_64bits_update(&state, &size, sizeof(size));
      XXH3_64bits_update(&state, v.data(), v.size());
    }
  }
  return XXH3_64bits_digest(&state);
}

}  // namespace epoxy::database
