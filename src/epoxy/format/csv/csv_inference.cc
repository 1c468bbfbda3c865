// SPDX-License-Identifier: Apache-2.0
// CSV sniffing and type inference.
#include "epoxy/format/csv/csv_inference.h"

#include <algorithm>
#include <map>
#include <set>

#include "epoxy/types/value_text.h"

namespace epoxy {
namespace {

bool HasLeadingZero(std::string_view text) {
  size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  return text.size() > i + 1 && text[i] == '0' && text[i + 1] >= '0' && text[i + 1] <= '9';
}

constexpr int kMaxExactDoubleDigits = 15;

}  // namespace

bool CsvTypeGuess::IsTyped(std::string_view text) {
  bool b;
  int64_t i;
  double d;
  int32_t days;
  int64_t micros;
  if (ParseBoolean(text, &b) || ParseDate(text, &days) || ParseTimestamp(text, &micros)) return true;
  if (HasLeadingZero(text)) return false;
  return ParseInt64(text, &i) || ParseDouble(text, &d);
}

void CsvTypeGuess::Observe(std::string_view text) {
  if (!IsTyped(text)) {
    ++num_text_;
    return;
  }
  ++num_typed_;
  bool b;
  if (could_bool_ && !ParseBoolean(text, &b)) could_bool_ = false;
  if (could_int64_ || could_decimal_) {
    if (HasLeadingZero(text)) {
      could_int64_ = could_int32_ = could_decimal_ = false;
    } else {
      int64_t v = 0;
      if (could_int64_ && !ParseInt64(text, &v)) could_int64_ = could_int32_ = false;
      if (could_int32_ && (v < INT32_MIN || v > INT32_MAX)) could_int32_ = false;
      int int_digits, frac_digits;
      if (could_decimal_ && DecimalShape(text, &int_digits, &frac_digits)) {
        max_integer_digits_ = std::max(max_integer_digits_, int_digits);
        max_fraction_digits_ = std::max(max_fraction_digits_, frac_digits);
      } else {
        could_decimal_ = false;
      }
    }
  }
  double d;
  if (could_double_ && (HasLeadingZero(text) || !ParseDouble(text, &d))) could_double_ = false;
  int32_t days;
  if (could_date_ && !ParseDate(text, &days)) could_date_ = false;
  int64_t micros;
  if (could_timestamp_ && !ParseTimestamp(text, &micros)) could_timestamp_ = false;
}

TypePtr CsvTypeGuess::Type() const {
  if (num_typed_ == 0 || num_text_ * 10 > num_text_ + num_typed_) return DataType::String();
  if (could_bool_) return DataType::Boolean();
  if (could_int32_) return DataType::Int();
  if (could_int64_) return DataType::BigInt();
  if (could_decimal_) {
    int precision = max_integer_digits_ + max_fraction_digits_;
    if (precision > kMaxExactDoubleDigits) {
      if (precision <= 38) return DataType::Decimal(precision, max_fraction_digits_);
      return DataType::String();  // no numeric type holds it exactly
    }
    return DataType::Double();
  }
  if (could_double_) return DataType::Double();
  if (could_date_) return DataType::Date();
  if (could_timestamp_) return DataType::Timestamp();
  return DataType::String();
}

char SniffSeparator(std::string_view data, const CsvDialect& base) {
  char best = ',';
  int64_t best_score = 0;
  CsvTokens tokens;
  for (char candidate : kCandidateSeparators) {
    CsvDialect dialect = base;
    dialect.separator = candidate;
    if (!TokenizeCsv(data, dialect, 20, &tokens).ok()) continue;
    std::map<uint32_t, int64_t> widths;
    for (int64_t r = 0; r < tokens.num_records(); ++r) ++widths[tokens.num_fields(r)];
    for (const auto& [width, count] : widths) {
      // Wider splits that are just as consistent win ties (", " inside a "|" file is rarer).
      int64_t score = width >= 2 ? count * 1000 + width : 0;
      if (score > best_score) {
        best_score = score;
        best = candidate;
      }
    }
  }
  return best;
}

bool DetectHeader(std::string_view data, const CsvTokens& sample, const CsvDialect& dialect) {
  if (sample.num_records() == 0) return false;
  std::string scratch;
  uint32_t width = sample.num_fields(0);
  for (uint32_t c = 0; c < width; ++c) {
    uint32_t f = sample.record_first_field[0] + c;
    std::string_view text = CsvFieldText(data, sample, f, dialect, &scratch);
    bool last = c + 1 == width;
    if (text.empty()) {
      if (!last) return false;
      continue;
    }
    if (!last && text.size() >= 150) return false;
    CsvTypeGuess guess;
    guess.Observe(text);
    if (!guess.only_strings()) return false;
  }
  if (sample.num_records() == 1) return true;
  for (uint32_t c = 0; c < width; ++c) {
    CsvTypeGuess guess;
    for (int64_t r = 1; r < sample.num_records(); ++r) {
      if (c >= sample.num_fields(r)) continue;
      uint32_t f = sample.record_first_field[r] + c;
      if (sample.field_begin[f] == sample.field_end[f] && !(sample.field_flags[f] & CsvTokens::kQuoted)) {
        continue;  // null
      }
      guess.Observe(CsvFieldText(data, sample, f, dialect, &scratch));
    }
    if (guess.Type()->id() != TypeId::kString) return true;
  }
  return false;
}

std::vector<std::string> NormalizeColumnNames(std::vector<std::string> names) {
  std::set<std::string> used;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) names[i] = "col" + std::to_string(i);
  }
  for (auto& name : names) {
    if (used.insert(name).second) continue;
    for (int k = 1;; ++k) {
      std::string candidate = name + "_" + std::to_string(k);
      if (used.insert(candidate).second) {
        name = candidate;
        break;
      }
    }
  }
  return names;
}

}  // namespace epoxy
