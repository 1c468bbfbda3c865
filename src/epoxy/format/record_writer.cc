// SPDX-License-Identifier: Apache-2.0
// JSON Lines, CSV and table writers.
#include "epoxy/format/record_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "epoxy/format/spark_row_writer.h"
#include "epoxy/types/value_text.h"

namespace epoxy {
namespace {

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendBase64(std::string_view bytes, std::string* out) {
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                 static_cast<uint8_t>(bytes[i + 2]);
    out->push_back(kBase64[v >> 18]);
    out->push_back(kBase64[(v >> 12) & 63]);
    out->push_back(kBase64[(v >> 6) & 63]);
    out->push_back(kBase64[v & 63]);
  }
  if (i + 1 == bytes.size()) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    out->push_back(kBase64[v >> 18]);
    out->push_back(kBase64[(v >> 12) & 63]);
    out->append("==");
  } else if (i + 2 == bytes.size()) {
    uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out->push_back(kBase64[v >> 18]);
    out->push_back(kBase64[(v >> 12) & 63]);
    out->push_back(kBase64[(v >> 6) & 63]);
    out->push_back('=');
  }
}

__int128 DecimalAt(const Array& a, int64_t row) {
  __int128 v;
  std::memcpy(&v, a.values<__int128>() + row, sizeof(v));
  return v;
}

/// Text of a scalar value that is neither null nor nested.
void AppendScalarText(const Array& a, int64_t row, bool iso, std::string* out) {
  switch (a.type_id()) {
    case TypeId::kBoolean: out->append(a.GetBool(row) ? "true" : "false"); break;
    case TypeId::kTinyInt: out->append(std::to_string(a.values<int8_t>()[row])); break;
    case TypeId::kSmallInt: out->append(std::to_string(a.values<int16_t>()[row])); break;
    case TypeId::kInt: out->append(std::to_string(a.values<int32_t>()[row])); break;
    case TypeId::kBigInt: out->append(std::to_string(a.values<int64_t>()[row])); break;
    case TypeId::kFloat: out->append(FormatDouble(a.values<float>()[row])); break;
    case TypeId::kDouble: out->append(FormatDouble(a.values<double>()[row])); break;
    case TypeId::kDecimal: out->append(FormatDecimal(DecimalAt(a, row), a.type()->scale())); break;
    case TypeId::kDate: out->append(FormatDate(a.values<int32_t>()[row])); break;
    case TypeId::kTimestamp: out->append(FormatTimestamp(a.values<int64_t>()[row], iso)); break;
    case TypeId::kString: out->append(a.GetView(row)); break;
    case TypeId::kBinary: AppendBase64(a.GetView(row), out); break;
    default: break;
  }
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (char c : text) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out->append(fmt::format("\\u{:04x}", static_cast<int>(c)));
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void AppendJsonValue(const Array& a, int64_t row, std::string* out) {
  if (a.IsNull(row)) {
    out->append("null");
    return;
  }
  switch (a.type_id()) {
    case TypeId::kNull: out->append("null"); return;
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt: AppendScalarText(a, row, true, out); return;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double v = a.type_id() == TypeId::kFloat ? a.values<float>()[row] : a.values<double>()[row];
      if (std::isfinite(v)) {
        AppendScalarText(a, row, true, out);
      } else {
        AppendJsonString(FormatDouble(v), out);
      }
      return;
    }
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string text;
      AppendScalarText(a, row, true, &text);
      AppendJsonString(text, out);
      return;
    }
    case TypeId::kArray: {
      const int32_t* o = a.offsets();
      out->push_back('[');
      for (int32_t i = o[row]; i < o[row + 1]; ++i) {
        if (i > o[row]) out->push_back(',');
        AppendJsonValue(*a.child(0), i, out);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kMap: {
      const int32_t* o = a.offsets();
      const Array& entries = *a.child(0);
      out->push_back('{');
      for (int32_t i = o[row]; i < o[row + 1]; ++i) {
        if (i > o[row]) out->push_back(',');
        std::string key;
        AppendPlainValue(*entries.child(0), i, &key);
        AppendJsonString(key, out);
        out->push_back(':');
        AppendJsonValue(*entries.child(1), i, out);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kStruct: {
      out->push_back('{');
      const auto& fields = a.type()->fields();
      for (size_t f = 0; f < fields.size(); ++f) {
        if (f > 0) out->push_back(',');
        AppendJsonString(fields[f].name, out);
        out->push_back(':');
        AppendJsonValue(*a.child(static_cast<int>(f)), row, out);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kChoice: {
      int k = a.choice_index(row);
      AppendJsonValue(*a.child(k), row, out);
      return;
    }
  }
}

void AppendPlainValue(const Array& a, int64_t row, std::string* out) {
  if (a.IsNull(row)) return;
  if (a.type_id() == TypeId::kChoice) {
    AppendPlainValue(*a.child(a.choice_index(row)), row, out);
    return;
  }
  if (a.type()->is_nested()) {
    AppendJsonValue(a, row, out);
    return;
  }
  AppendScalarText(a, row, false, out);
}

namespace {

class JsonLinesWriter final : public RecordWriter {
 public:
  explicit JsonLinesWriter(Sink sink) : sink_(std::move(sink)) {}

  Status Write(const Batch& batch) override {
    std::string out;
    out.reserve(static_cast<size_t>(batch.num_rows()) * 64);
    std::vector<std::string> keys;
    for (const auto& f : batch.schema()->fields()) {
      std::string key;
      AppendJsonString(f.name, &key);
      key.push_back(':');
      keys.push_back(std::move(key));
    }
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      out.push_back('{');
      for (int c = 0; c < batch.num_columns(); ++c) {
        if (c > 0) out.push_back(',');
        out.append(keys[c]);
        AppendJsonValue(*batch.column(c), r, &out);
      }
      out.append("}\n");
      if (out.size() > (1 << 20)) {
        EPOXY_RETURN_NOT_OK(sink_(out));
        out.clear();
      }
    }
    return sink_(out);
  }
  Status Finish() override { return Status::OK(); }

 private:
  Sink sink_;
};

class CsvTextWriter final : public RecordWriter {
 public:
  explicit CsvTextWriter(Sink sink) : sink_(std::move(sink)) {}

  Status Write(const Batch& batch) override {
    std::string out;
    if (!header_written_) {
      for (int c = 0; c < batch.num_columns(); ++c) {
        if (c > 0) out.push_back(',');
        AppendField(batch.schema()->field(c).name, false, &out);
      }
      out.push_back('\n');
      header_written_ = true;
    }
    std::string value;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      for (int c = 0; c < batch.num_columns(); ++c) {
        if (c > 0) out.push_back(',');
        const Array& column = *batch.column(c);
        if (column.IsNull(r)) continue;  // an empty unquoted field reads back as null
        value.clear();
        AppendPlainValue(column, r, &value);
        AppendField(value, true, &out);
      }
      out.push_back('\n');
      if (out.size() > (1 << 20)) {
        EPOXY_RETURN_NOT_OK(sink_(out));
        out.clear();
      }
    }
    return sink_(out);
  }
  Status Finish() override { return Status::OK(); }

 private:
  /// Quotes when needed; an empty non-null value is written "" so it stays distinct from null.
  static void AppendField(std::string_view text, bool quote_empty, std::string* out) {
    bool needs = (quote_empty && text.empty()) ||
                 text.find_first_of(",\"\n\r") != std::string_view::npos;
    if (!needs) {
      out->append(text);
      return;
    }
    out->push_back('"');
    for (char c : text) {
      if (c == '"') out->push_back('"');
      out->push_back(c);
    }
    out->push_back('"');
  }

  Sink sink_;
  bool header_written_ = false;
};

class TableWriter final : public RecordWriter {
 public:
  TableWriter(Sink sink, int64_t max_rows) : sink_(std::move(sink)), max_rows_(max_rows) {}

  Status Write(const Batch& batch) override {
    if (names_.empty()) {
      for (const auto& f : batch.schema()->fields()) names_.push_back(f.name);
    }
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      if (static_cast<int64_t>(rows_.size()) >= max_rows_) {
        more_ = true;
        return Status::OK();
      }
      std::vector<std::string> row;
      for (int c = 0; c < batch.num_columns(); ++c) {
        std::string cell;
        if (batch.column(c)->IsNull(r)) {
          cell = "null";
        } else {
          AppendPlainValue(*batch.column(c), r, &cell);
        }
        for (char& ch : cell) {
          if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
        }
        if (cell.size() > kMaxCell) cell = cell.substr(0, kMaxCell - 3) + "...";
        row.push_back(std::move(cell));
      }
      rows_.push_back(std::move(row));
    }
    return Status::OK();
  }

  Status Finish() override {
    if (names_.empty()) return sink_("(no columns)\n");
    std::vector<size_t> width(names_.size());
    for (size_t c = 0; c < names_.size(); ++c) width[c] = names_[c].size();
    for (const auto& row : rows_) {
      for (size_t c = 0; c < row.size() && c < width.size(); ++c) {
        width[c] = std::max(width[c], row[c].size());
      }
    }
    std::string rule = "+";
    for (size_t w : width) rule += std::string(w + 2, '-') + "+";
    rule += '\n';
    std::string out = rule + Line(names_, width) + rule;
    for (const auto& row : rows_) out += Line(row, width);
    out += rule;
    if (more_) out += fmt::format("only showing the first {} rows\n", max_rows_);
    return sink_(out);
  }

 private:
  static constexpr size_t kMaxCell = 40;

  static std::string Line(const std::vector<std::string>& cells, const std::vector<size_t>& width) {
    std::string out = "|";
    for (size_t c = 0; c < width.size(); ++c) {
      const std::string& cell = c < cells.size() ? cells[c] : std::string();
      out += ' ' + cell + std::string(width[c] - cell.size(), ' ') + " |";
    }
    return out + '\n';
  }

  Sink sink_;
  int64_t max_rows_;
  std::vector<std::string> names_;
  std::vector<std::vector<std::string>> rows_;
  bool more_ = false;
};

}  // namespace

std::unique_ptr<RecordWriter> RecordWriter::Make(TextFormat format, Sink sink, int64_t max_rows) {
  switch (format) {
    case TextFormat::kJsonLines: return std::make_unique<JsonLinesWriter>(std::move(sink));
    case TextFormat::kCsv: return std::make_unique<CsvTextWriter>(std::move(sink));
    case TextFormat::kTable:
      return std::make_unique<TableWriter>(std::move(sink), max_rows < 0 ? 20 : max_rows);
    case TextFormat::kSpark: return MakeSparkRowWriter(std::move(sink));
  }
  return nullptr;
}

}  // namespace epoxy
