// SPDX-License-Identifier: Apache-2.0
// CsvFormat: sniffing per file, tokenizing and typed column building per block.
#include "epoxy/format/csv/csv_reader.h"

#include <algorithm>
#include <mutex>

#include <simdjson.h>

#include "epoxy/format/csv/csv_inference.h"
#include "epoxy/format/csv/csv_tokenizer.h"
#include "epoxy/types/value_text.h"
#include "epoxy/vector/builder.h"

namespace epoxy {
namespace {

/// What StartFile learned about one file.
class CsvFileContext final : public FileContext {
 public:
  CsvDialect dialect;
  SchemaPtr schema;
  int64_t skip_bytes = 0;   // BOM, skipped first line and header in the first block
  int64_t skip_lines = 0;   // newlines inside skip_bytes
  std::string header_key;   // the header line and dialect, for sharing with the next file
};

bool IsNull(const CsvTokens& t, uint32_t f) {
  return t.field_begin[f] == t.field_end[f] && !(t.field_flags[f] & CsvTokens::kQuoted);
}

bool ParseInt32Text(std::string_view text, int32_t* out) {
  int64_t v;
  if (!ParseInt64(text, &v) || v < INT32_MIN || v > INT32_MAX) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

/// Builds one column of a block.
class ColumnBuilder {
 public:
  /// `text_bytes` bounds the bytes of this column's fields (for reserving string storage).
  ColumnBuilder(std::string_view data, const CsvTokens& tokens, const CsvDialect& dialect,
                const std::vector<uint32_t>& rows, int column, int64_t text_bytes)
      : data_(data),
        tokens_(tokens),
        dialect_(dialect),
        rows_(rows),
        column_(column),
        text_bytes_(text_bytes) {}

  /// The field index of row i in this column, or -1 when the record is short.
  int64_t FieldOf(size_t i) const {
    uint32_t r = rows_[i];
    if (static_cast<uint32_t>(column_) >= tokens_.num_fields(r)) return -1;
    return tokens_.record_first_field[r] + column_;
  }

  std::string_view Text(uint32_t f) { return CsvFieldText(data_, tokens_, f, dialect_, &scratch_); }

  Result<ArrayPtr> Build(const TypePtr& type) {
    switch (type->id()) {
      case TypeId::kBoolean: return BuildTyped<BooleanBuilder>(type, [](std::string_view s, BooleanBuilder* b, bool* ok) {
        bool v;
        *ok = ParseBoolean(s, &v);
        return *ok ? b->Append(v) : Status::OK();
      });
      case TypeId::kInt: return BuildTyped<Int32Builder>(type, [](std::string_view s, Int32Builder* b, bool* ok) {
        int32_t v;
        *ok = ParseInt32Text(s, &v);
        return *ok ? b->Append(v) : Status::OK();
      });
      case TypeId::kBigInt: return BuildTyped<Int64Builder>(type, [](std::string_view s, Int64Builder* b, bool* ok) {
        int64_t v;
        *ok = ParseInt64(s, &v);
        return *ok ? b->Append(v) : Status::OK();
      });
      case TypeId::kDouble: return BuildTyped<DoubleBuilder>(type, [](std::string_view s, DoubleBuilder* b, bool* ok) {
        double v;
        *ok = ParseDouble(s, &v);
        return *ok ? b->Append(v) : Status::OK();
      });
      case TypeId::kDate: return BuildTyped<Int32Builder>(type, [](std::string_view s, Int32Builder* b, bool* ok) {
        int32_t v;
        *ok = ParseDate(s, &v);
        return *ok ? b->Append(v) : Status::OK();
      });
      case TypeId::kTimestamp: return BuildTyped<Int64Builder>(type, [](std::string_view s, Int64Builder* b, bool* ok) {
        int64_t v;
        *ok = ParseTimestamp(s, &v);
        return *ok ? b->Append(v) : Status::OK();
      });
      case TypeId::kDecimal: {
        int p = type->precision(), sc = type->scale();
        return BuildTyped<DecimalBuilder>(type, [p, sc](std::string_view s, DecimalBuilder* b, bool* ok) {
          __int128 v;
          *ok = ParseDecimal(s, p, sc, &v);
          return *ok ? b->Append(v) : Status::OK();
        });
      }
      default: return BuildStrings();
    }
  }

 private:
  template <typename B, typename Fn>
  Result<ArrayPtr> BuildTyped(const TypePtr& type, Fn append) {
    MemoryPool* pool = &MemoryPool::Default();
    B builder = MakeTyped<B>(type, pool);
    if constexpr (!std::is_same_v<B, BooleanBuilder>) {
      EPOXY_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(rows_.size())));
    }
    for (size_t i = 0; i < rows_.size(); ++i) {
      int64_t f = FieldOf(i);
      if (f < 0 || IsNull(tokens_, static_cast<uint32_t>(f))) {
        EPOXY_RETURN_NOT_OK(builder.AppendNull());
        continue;
      }
      bool ok = false;
      EPOXY_RETURN_NOT_OK(append(Text(static_cast<uint32_t>(f)), &builder, &ok));
      if (!ok) return BuildChoice<B>(type, append);  // drift: this batch's column becomes a choice
    }
    return builder.Finish();
  }

  template <typename B>
  static B MakeTyped(const TypePtr& type, MemoryPool* pool) {
    if constexpr (std::is_same_v<B, BooleanBuilder>) {
      (void)type;
      return B(pool);
    } else {
      return B(type, pool);
    }
  }

  /// choice<type,string>: values that convert go to member 0, the rest stay text in member 1.
  template <typename B, typename Fn>
  Result<ArrayPtr> BuildChoice(const TypePtr& type, Fn append) {
    MemoryPool* pool = &MemoryPool::Default();
    TypePtr choice = DataType::Choice({type, DataType::String()});
    EPOXY_ASSIGN_OR_RETURN(auto generic, MakeBuilder(choice, pool));
    auto* builder = static_cast<ChoiceBuilder*>(generic.get());
    auto* typed = static_cast<B*>(builder->member(0));
    auto* text = static_cast<StringBuilder*>(builder->member(1));
    for (size_t i = 0; i < rows_.size(); ++i) {
      int64_t f = FieldOf(i);
      if (f < 0 || IsNull(tokens_, static_cast<uint32_t>(f))) {
        EPOXY_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      std::string_view value = Text(static_cast<uint32_t>(f));
      bool ok = false;
      EPOXY_RETURN_NOT_OK(append(value, typed, &ok));
      if (ok) {
        EPOXY_RETURN_NOT_OK(builder->AppendMember(0));
      } else {
        EPOXY_RETURN_NOT_OK(text->Append(value));
        EPOXY_RETURN_NOT_OK(builder->AppendMember(1));
      }
    }
    return builder->Finish();
  }

  Result<ArrayPtr> BuildStrings() {
    StringBuilder builder(DataType::String(), &MemoryPool::Default());
    EPOXY_RETURN_NOT_OK(builder.ReserveData(text_bytes_));
    EPOXY_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(rows_.size())));
    for (size_t i = 0; i < rows_.size(); ++i) {
      int64_t f = FieldOf(i);
      if (f < 0 || IsNull(tokens_, static_cast<uint32_t>(f))) {
        EPOXY_RETURN_NOT_OK(builder.AppendNull());
      } else {
        EPOXY_RETURN_NOT_OK(builder.Append(Text(static_cast<uint32_t>(f))));
      }
    }
    return builder.Finish();
  }

  std::string_view data_;
  const CsvTokens& tokens_;
  const CsvDialect& dialect_;
  const std::vector<uint32_t>& rows_;
  int column_;
  int64_t text_bytes_;
  std::string scratch_;
};

class CsvFormat final : public BlockFormat {
 public:
  CsvFormat(CsvOptions options, std::vector<std::string> columns) : options_(options), columns_(std::move(columns)) {
    boundary_dialect_.quote = options.quote;
    boundary_dialect_.escape = options.escape;
  }

  RecordBoundaryFn Boundary() const override {
    CsvDialect d = boundary_dialect_;
    return [d](std::string_view data) { return CsvRecordBoundary(data, d); };
  }

  Result<std::shared_ptr<const FileContext>> StartFile(const std::string& path,
                                                       const Block* first) override {
    auto ctx = std::make_shared<CsvFileContext>();
    ctx->dialect = boundary_dialect_;
    if (first == nullptr) {
      ctx->schema = Schema::Make({});
      return std::shared_ptr<const FileContext>(ctx);
    }
    std::string_view data = first->data->view();
    size_t start = 0;
    if (data.substr(0, 3) == "\xEF\xBB\xBF") start = 3;  // UTF-8 byte order mark
    if (options_.skip_first) {
      size_t nl = data.find('\n', start);
      start = nl == std::string_view::npos ? data.size() : nl + 1;
      ctx->skip_lines = 1;
    }
    std::string_view body = data.substr(start);
    ctx->dialect.separator =
        options_.separator.has_value() ? *options_.separator : SniffSeparator(body, ctx->dialect);

    CsvTokens sample;
    EPOXY_RETURN_NOT_OK(TokenizeCsv(body, ctx->dialect, options_.sample_rows + 1, &sample));
    bool header = options_.with_header.has_value() ? *options_.with_header
                                                   : DetectHeader(body, sample, ctx->dialect);
    std::string header_line;
    std::vector<std::string> names;
    std::string scratch;
    int64_t first_data_record = 0;
    if (header && sample.num_records() > 0) {
      for (uint32_t c = 0; c < sample.num_fields(0); ++c) {
        names.emplace_back(
            CsvFieldText(body, sample, sample.record_first_field[0] + c, ctx->dialect, &scratch));
      }
      size_t header_end = sample.num_records() > 1 ? sample.record_offset[1] : body.size();
      header_line = std::string(body.substr(0, header_end));
      ctx->skip_lines += std::count(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(header_end), '\n');
      start += header_end;
      first_data_record = 1;
    } else {
      uint32_t width = 0;
      for (int64_t r = 0; r < sample.num_records(); ++r) width = std::max(width, sample.num_fields(r));
      for (uint32_t c = 0; c < width; ++c) names.push_back("col" + std::to_string(c));
      header_line = fmt::format("#{}", width);
    }
    ctx->skip_bytes = static_cast<int64_t>(start);
    ctx->header_key = fmt::format("{}\x1f{}\x1f{}\x1f{}", header_line, ctx->dialect.separator,
                                  ctx->dialect.quote, ctx->dialect.escape);
    {
      std::lock_guard lock(mu_);
      if (last_ != nullptr && last_->header_key == ctx->header_key) {
        ctx->schema = last_->schema;  // same header as the previous file: same types
        last_ = ctx;
        return std::shared_ptr<const FileContext>(ctx);
      }
    }
    names = NormalizeColumnNames(std::move(names));
    std::vector<Field> fields;
    for (size_t c = 0; c < names.size(); ++c) {
      CsvTypeGuess guess;
      for (int64_t r = first_data_record; r < sample.num_records(); ++r) {
        if (c >= sample.num_fields(r)) continue;
        uint32_t f = sample.record_first_field[r] + static_cast<uint32_t>(c);
        if (IsNull(sample, f)) continue;
        guess.Observe(CsvFieldText(body, sample, f, ctx->dialect, &scratch));
      }
      fields.push_back({names[c], options_.infer_types ? guess.Type() : DataType::String()});
    }
    ctx->schema = Schema::Make(std::move(fields));
    (void)path;
    std::lock_guard lock(mu_);
    last_ = ctx;
    return std::shared_ptr<const FileContext>(ctx);
  }

  Result<BatchPtr> ParseBlock(const std::string& path, const Block& block, const FileContext& base,
                              std::vector<RecordError>* errors,
                              int64_t* num_newlines) const override {
    const auto& ctx = static_cast<const CsvFileContext&>(base);
    std::string_view data = block.data->view();
    *num_newlines = std::count(data.begin(), data.end(), '\n');
    int64_t line = 1;
    int64_t offset = block.byte_offset;
    if (block.first_in_file) {
      data.remove_prefix(static_cast<size_t>(std::min<int64_t>(ctx.skip_bytes, data.size())));
      line += ctx.skip_lines;
      offset += ctx.skip_bytes;
    }
    CsvTokens tokens;
    EPOXY_RETURN_NOT_OK(TokenizeCsv(data, ctx.dialect, 0, &tokens));
    const int num_columns = ctx.schema->num_fields();
    bool utf8_ok = simdjson::validate_utf8(data.data(), data.size());

    // Keep the good records; report the rest with their line numbers.
    std::vector<uint32_t> rows;
    rows.reserve(static_cast<size_t>(tokens.num_records()));
    size_t next_unterminated = 0;
    int64_t counted_to = 0;  // newlines counted up to this byte of data
    auto line_of = [&](uint32_t record) {
      int64_t at = tokens.record_offset[record];
      line += std::count(data.begin() + counted_to, data.begin() + at, '\n');
      counted_to = at;
      return line;
    };
    for (int64_t r = 0; r < tokens.num_records(); ++r) {
      auto record = static_cast<uint32_t>(r);
      std::string reason;
      if (next_unterminated < tokens.unterminated.size() &&
          tokens.unterminated[next_unterminated] == record) {
        ++next_unterminated;
        reason = "unterminated quoted field";
      } else if (num_columns > 0 && tokens.num_fields(record) > static_cast<uint32_t>(num_columns)) {
        reason = fmt::format("record has {} fields, the header has {}", tokens.num_fields(record),
                             num_columns);
      } else if (!utf8_ok) {
        uint32_t end = r + 1 < tokens.num_records() ? tokens.record_offset[r + 1]
                                                     : static_cast<uint32_t>(data.size());
        if (!simdjson::validate_utf8(data.data() + tokens.record_offset[r], end - tokens.record_offset[r])) {
          reason = "invalid UTF-8";
        }
      }
      if (reason.empty()) {
        rows.push_back(record);
      } else {
        errors->push_back({path, line_of(record), offset + tokens.record_offset[r], std::move(reason)});
      }
    }
    if (num_columns == 0) return BatchPtr();

    // Bytes per column in one pass over the field arrays (unescaping only shortens a field).
    std::vector<int64_t> text_bytes(static_cast<size_t>(num_columns), 0);
    for (uint32_t r : rows) {
      uint32_t first = tokens.record_first_field[r];
      uint32_t n = std::min<uint32_t>(tokens.num_fields(r), static_cast<uint32_t>(num_columns));
      for (uint32_t c = 0; c < n; ++c) {
        text_bytes[c] += tokens.field_end[first + c] - tokens.field_begin[first + c];
      }
    }
    std::vector<ArrayPtr> columns;
    std::vector<Field> fields;
    bool drifted = false;
    for (int c = 0; c < num_columns; ++c) {
      // Projection: columns not asked for are never built.
      if (!columns_.empty() &&
          std::find(columns_.begin(), columns_.end(), ctx.schema->field(c).name) == columns_.end()) {
        drifted = true;  // the batch's schema is a subset of the file's
        continue;
      }
      ColumnBuilder builder(data, tokens, ctx.dialect, rows, c, text_bytes[c]);
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, builder.Build(ctx.schema->field(c).type));
      drifted = drifted || column->type_id() == TypeId::kChoice;
      fields.push_back({ctx.schema->field(c).name, column->type()});
      columns.push_back(std::move(column));
    }
    SchemaPtr schema = drifted ? Schema::Make(std::move(fields)) : ctx.schema;
    return Batch::Make(std::move(schema), std::move(columns), static_cast<int64_t>(rows.size()));
  }

 private:
  CsvOptions options_;
  CsvDialect boundary_dialect_;
  std::mutex mu_;
  std::shared_ptr<const CsvFileContext> last_;  // guarded by mu_
  std::vector<std::string> columns_;  // projection: the only columns built (empty: all)
};

}  // namespace

Result<std::unique_ptr<BlockFormat>> MakeCsvFormat(const FormatOptions& options) {
  // "columns" (the engine's projection) is the reader's, not the dialect's.
  FormatOptions dialect_options = options;
  std::vector<std::string> columns = ListOption(options, "columns");
  dialect_options.erase("columns");
  EPOXY_ASSIGN_OR_RETURN(CsvOptions csv, CsvOptions::FromFormatOptions(dialect_options));
  return std::unique_ptr<BlockFormat>(new CsvFormat(csv, std::move(columns)));
}

}  // namespace epoxy
