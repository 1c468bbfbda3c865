// SPDX-License-Identifier: Apache-2.0
// spark-sql's row text.
#include "epoxy/format/spark_row_writer.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "epoxy/format/java_number_text.h"
#include "epoxy/types/value_text.h"

namespace epoxy {
namespace {

__int128 DecimalAt(const Array& a, int64_t row) {
  __int128 v;
  std::memcpy(&v, a.values<__int128>() + row, sizeof(v));
  return v;
}

/// Appends `bytes` as Java reads them into a String (new String(bytes, UTF_8)): valid UTF-8 as it
/// is, each malformed sequence (its longest valid prefix, or one bad byte) as one U+FFFD, and so
/// is an encoded surrogate (three bytes) as Java's decoder reports it.
void AppendUtf8Text(std::string_view bytes, std::string* out) {
  static constexpr char kReplacement[] = "\xEF\xBF\xBD";
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char lead = b[i];
    if (lead < 0x80) {
      size_t start = i;
      while (i < n && b[i] < 0x80) ++i;
      out->append(bytes.substr(start, i - start));
      continue;
    }
    int continuation;
    unsigned char low = 0x80, high = 0xBF;  // the second byte's range (RFC 3629)
    if (lead >= 0xC2 && lead <= 0xDF) {
      continuation = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      continuation = 2;
      if (lead == 0xE0) low = 0xA0;  // no overlong forms
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      continuation = 3;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;  // nothing past U+10FFFF
    } else {
      out->append(kReplacement);
      ++i;
      continue;
    }
    int valid = 0;
    while (valid < continuation && i + 1 + valid < n) {
      unsigned char next = b[i + 1 + valid];
      if (valid == 0 ? (next < low || next > high) : (next < 0x80 || next > 0xBF)) break;
      ++valid;
    }
    const bool surrogate = lead == 0xED && i + 1 < n && b[i + 1] >= 0xA0;  // U+D800..U+DFFF
    if (valid == continuation && !surrogate) {
      out->append(bytes.substr(i, static_cast<size_t>(continuation) + 1));
    } else {
      out->append(kReplacement);
    }
    i += static_cast<size_t>(valid) + 1;
  }
}

/// Types newer than the switch below, kept in this one function: as the types layer adds them,
/// each gets its line here. Spark prints year-month intervals as `1-2`, day-time intervals as
/// `1 02:03:04.000000000` (the Hive style, whatever the type's fields), calendar intervals as
/// `1 months 2 days 3.5 seconds`, and timestamp_ntz as its wall-clock time with no time zone. A
/// type nobody taught this writer prints as `<type>`, which no expected row contains.
void AppendNewerTypeValue(const Array& a, int64_t row, std::string* out) {
  (void)row;
  out->append("<" + a.type()->ToString() + ">");
}

void AppendSparkArray(const Array& a, int64_t row, const SparkTextOptions& options,
                      std::string* out) {
  const int32_t* o = a.offsets();
  out->push_back('[');
  for (int32_t i = o[row]; i < o[row + 1]; ++i) {
    if (i > o[row]) out->push_back(',');
    AppendSparkValue(*a.child(0), i, true, options, out);
  }
  out->push_back(']');
}

void AppendSparkMap(const Array& a, int64_t row, const SparkTextOptions& options,
                    std::string* out) {
  const int32_t* o = a.offsets();
  const Array& entries = *a.child(0);
  // Spark prints a map's entries sorted by their "key:value" text.
  std::vector<std::string> texts;
  texts.reserve(static_cast<size_t>(o[row + 1] - o[row]));
  for (int32_t i = o[row]; i < o[row + 1]; ++i) {
    std::string entry;
    AppendSparkValue(*entries.child(0), i, true, options, &entry);
    entry.push_back(':');
    AppendSparkValue(*entries.child(1), i, true, options, &entry);
    texts.push_back(std::move(entry));
  }
  std::sort(texts.begin(), texts.end());
  out->push_back('{');
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i > 0) out->push_back(',');
    out->append(texts[i]);
  }
  out->push_back('}');
}

void AppendSparkStruct(const Array& a, int64_t row, const SparkTextOptions& options,
                       std::string* out) {
  const auto& fields = a.type()->fields();
  out->push_back('{');
  for (size_t f = 0; f < fields.size(); ++f) {
    if (f > 0) out->push_back(',');
    out->push_back('"');
    out->append(fields[f].name);
    out->append("\":");
    AppendSparkValue(*a.child(static_cast<int>(f)), row, true, options, out);
  }
  out->push_back('}');
}

}  // namespace

void AppendSparkValue(const Array& a, int64_t row, bool nested, const SparkTextOptions& options,
                      std::string* out) {
  if (a.IsNull(row)) {
    out->append(nested ? "null" : "NULL");
    return;
  }
  switch (a.type_id()) {
    case TypeId::kNull: out->append(nested ? "null" : "NULL"); return;
    case TypeId::kBoolean: out->append(a.GetBool(row) ? "true" : "false"); return;
    case TypeId::kTinyInt: out->append(std::to_string(a.values<int8_t>()[row])); return;
    case TypeId::kSmallInt: out->append(std::to_string(a.values<int16_t>()[row])); return;
    case TypeId::kInt: out->append(std::to_string(a.values<int32_t>()[row])); return;
    case TypeId::kBigInt: out->append(std::to_string(a.values<int64_t>()[row])); return;
    case TypeId::kFloat: AppendJavaFloat(a.values<float>()[row], out); return;
    case TypeId::kDouble: AppendJavaDouble(a.values<double>()[row], out); return;
    case TypeId::kDecimal: out->append(FormatDecimal(DecimalAt(a, row), a.type()->scale())); return;
    case TypeId::kDate: out->append(FormatDate(a.values<int32_t>()[row])); return;
    case TypeId::kTimestamp: {
      int64_t micros = a.values<int64_t>()[row];
      if (options.to_session_time) micros = options.to_session_time(micros);
      out->append(FormatTimestamp(micros));
      return;
    }
    case TypeId::kString:
      if (nested) out->push_back('"');
      AppendUtf8Text(a.GetView(row), out);
      if (nested) out->push_back('"');
      return;
    case TypeId::kBinary: AppendUtf8Text(a.GetView(row), out); return;  // unquoted even nested
    case TypeId::kArray: AppendSparkArray(a, row, options, out); return;
    case TypeId::kMap: AppendSparkMap(a, row, options, out); return;
    case TypeId::kStruct: AppendSparkStruct(a, row, options, out); return;
    case TypeId::kChoice:
      AppendSparkValue(*a.child(a.choice_index(row)), row, nested, options, out);
      return;
    default: AppendNewerTypeValue(a, row, out); return;
  }
}

void AppendSparkRow(const Batch& batch, int64_t row, const SparkTextOptions& options,
                    std::string* out) {
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (c > 0) out->push_back('\t');
    AppendSparkValue(*batch.column(c), row, false, options, out);
  }
}

namespace {

class SparkRowWriter final : public RecordWriter {
 public:
  SparkRowWriter(Sink sink, SparkTextOptions options)
      : sink_(std::move(sink)), options_(std::move(options)) {}

  Status Write(const Batch& batch) override {
    std::string out;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      AppendSparkRow(batch, r, options_, &out);
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
  Sink sink_;
  SparkTextOptions options_;
};

}  // namespace

std::unique_ptr<RecordWriter> MakeSparkRowWriter(RecordWriter::Sink sink,
                                                 SparkTextOptions options) {
  return std::make_unique<SparkRowWriter>(std::move(sink), std::move(options));
}

}  // namespace epoxy
