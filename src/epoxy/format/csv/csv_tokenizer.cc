// SPDX-License-Identifier: Apache-2.0
// CSV tokenizing. Quotes open a field only at its first byte (", " j "" is data), a doubled quote
// inside quotes is one quote, and a lone quote inside a quoted field that is not followed by a
// separator or line end is kept as data (the lenient reading of bare inner quotes).
#include "epoxy/format/csv/csv_tokenizer.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace epoxy {

void CsvTokens::Clear() {
  field_begin.clear();
  field_end.clear();
  field_flags.clear();
  record_first_field.clear();
  record_offset.clear();
  unterminated.clear();
}

namespace {

/// Advances `pos` to the first byte in [pos, n) that may end an unquoted field (separator, CR,
/// LF or the escape), 16 bytes at a time; stops early near the end, where the byte loop finishes.
inline size_t SkipPlainBytes(const char* base, size_t pos, size_t n, const CsvDialect& d) {
#if defined(__SSE2__)
  const __m128i sep = _mm_set1_epi8(d.separator);
  const __m128i lf = _mm_set1_epi8('\n');
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i esc = _mm_set1_epi8(static_cast<char>(d.escape >= 0 ? d.escape : '\n'));
  while (pos + 16 <= n) {
    __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + pos));
    __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, sep), _mm_cmpeq_epi8(chunk, lf)),
                                _mm_or_si128(_mm_cmpeq_epi8(chunk, cr), _mm_cmpeq_epi8(chunk, esc)));
    int mask = _mm_movemask_epi8(hits);
    if (mask != 0) return pos + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    pos += 16;
  }
#else
  (void)base;
  (void)n;
  (void)d;
#endif
  return pos;
}

/// 256-entry table of bytes that end an unquoted field.
struct StopTable {
  bool stop[256] = {};
  StopTable(const CsvDialect& d) {
    stop[static_cast<uint8_t>(d.separator)] = true;
    stop[static_cast<uint8_t>('\n')] = true;
    stop[static_cast<uint8_t>('\r')] = true;
    if (d.escape >= 0) stop[static_cast<uint8_t>(d.escape)] = true;
  }
};

}  // namespace

Status TokenizeCsv(std::string_view data, const CsvDialect& dialect, int64_t max_records,
                   CsvTokens* t) {
  if (data.size() >= (uint64_t{1} << 32)) {
    return Status::InvalidData("a single CSV block exceeds 4 GiB (one record this long?)");
  }
  t->Clear();
  // A rough guess (a field per 8 bytes) saves most regrowth of the arrays.
  size_t guess = max_records > 0 ? static_cast<size_t>(max_records) * 16 : data.size() / 8;
  t->field_begin.reserve(guess);
  t->field_end.reserve(guess);
  t->field_flags.reserve(guess);
  const char* base = data.data();
  const size_t n = data.size();
  const StopTable table(dialect);
  const char sep = dialect.separator;
  const int quote = dialect.quote;
  const int escape = dialect.escape;
  size_t pos = 0;

  while (pos < n) {
    if (max_records > 0 && t->num_records() >= max_records) break;
    // Skip blank lines.
    if (base[pos] == '\n') {
      ++pos;
      continue;
    }
    if (base[pos] == '\r') {
      pos += (pos + 1 < n && base[pos + 1] == '\n') ? 2 : 1;
      continue;
    }
    t->record_offset.push_back(static_cast<uint32_t>(pos));
    t->record_first_field.push_back(static_cast<uint32_t>(t->field_begin.size()));
    bool record_done = false;
    while (!record_done) {
      uint8_t flags = 0;
      size_t begin, end;
      if (quote >= 0 && pos < n && base[pos] == static_cast<char>(quote)) {
        flags |= CsvTokens::kQuoted;
        begin = ++pos;
        bool closed = false;
        while (pos < n) {
          char c = base[pos];
          if (escape >= 0 && c == static_cast<char>(escape) && escape != quote) {
            flags |= CsvTokens::kNeedsUnescape;
            pos += 2;
            continue;
          }
          if (c != static_cast<char>(quote)) {
            const void* q = std::memchr(base + pos, quote, n - pos);
            size_t next = q ? static_cast<size_t>(static_cast<const char*>(q) - base) : n;
            if (escape >= 0 && escape != quote) {
              const void* e = std::memchr(base + pos, escape, next - pos);
              if (e != nullptr) next = static_cast<size_t>(static_cast<const char*>(e) - base);
            }
            pos = next;
            continue;
          }
          // A quote: doubled, closing, or bare data.
          if (pos + 1 < n && base[pos + 1] == static_cast<char>(quote)) {
            flags |= CsvTokens::kNeedsUnescape;
            pos += 2;
            continue;
          }
          if (pos + 1 >= n || base[pos + 1] == sep || base[pos + 1] == '\n' ||
              base[pos + 1] == '\r') {
            closed = true;
            break;
          }
          flags |= CsvTokens::kNeedsUnescape;  // bare inner quote, kept as data
          ++pos;
        }
        end = std::min(pos, n);
        if (!closed) {
          // No closing quote in the rest of the block: report this record and resume after the
          // line the quote opened on, so the records that follow are not swallowed.
          t->unterminated.push_back(static_cast<uint32_t>(t->num_records() - 1));
          const void* nl = std::memchr(base + begin, '\n', n - begin);
          pos = nl ? static_cast<size_t>(static_cast<const char*>(nl) - base) : n;
          end = pos;
        } else {
          ++pos;  // past the closing quote
        }
      } else {
        begin = pos;
        pos = SkipPlainBytes(base, pos, n, dialect);
        while (pos < n) {
          char c = base[pos];
          if (!table.stop[static_cast<uint8_t>(c)]) {
            ++pos;
            continue;
          }
          if (escape >= 0 && c == static_cast<char>(escape)) {
            flags |= CsvTokens::kNeedsUnescape;
            pos += 2;
            continue;
          }
          break;
        }
        pos = std::min(pos, n);
        end = pos;
      }
      t->field_begin.push_back(static_cast<uint32_t>(begin));
      t->field_end.push_back(static_cast<uint32_t>(end));
      t->field_flags.push_back(flags);
      if (pos >= n) {
        record_done = true;
      } else if (base[pos] == sep) {
        ++pos;
        if (pos >= n) {
          // A trailing separator at the very end: one more, empty field.
          t->field_begin.push_back(static_cast<uint32_t>(pos));
          t->field_end.push_back(static_cast<uint32_t>(pos));
          t->field_flags.push_back(0);
          record_done = true;
        }
      } else if (base[pos] == '\n') {
        ++pos;
        record_done = true;
      } else if (base[pos] == '\r') {
        pos += (pos + 1 < n && base[pos + 1] == '\n') ? 2 : 1;
        record_done = true;
      } else {
        record_done = true;  // cannot happen: fields stop only at the bytes above
      }
    }
  }
  t->record_first_field.push_back(static_cast<uint32_t>(t->field_begin.size()));
  return Status::OK();
}

std::string_view CsvFieldText(std::string_view data, const CsvTokens& t, uint32_t f,
                              const CsvDialect& dialect, std::string* scratch) {
  std::string_view raw = data.substr(t.field_begin[f], t.field_end[f] - t.field_begin[f]);
  if (!(t.field_flags[f] & CsvTokens::kNeedsUnescape)) return raw;
  scratch->clear();
  bool quoted = t.field_flags[f] & CsvTokens::kQuoted;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (dialect.escape >= 0 && c == static_cast<char>(dialect.escape) && i + 1 < raw.size() &&
        dialect.escape != dialect.quote) {
      scratch->push_back(raw[++i]);
      continue;
    }
    if (quoted && dialect.quote >= 0 && c == static_cast<char>(dialect.quote) &&
        i + 1 < raw.size() && raw[i + 1] == c) {
      scratch->push_back(c);
      ++i;
      continue;
    }
    scratch->push_back(c);
  }
  return *scratch;
}

namespace {

/// Occurrences of `c`, stepping with memchr: quotes are rare in most files, and memchr skips the
/// bytes between them with vector instructions.
int64_t CountByte(std::string_view data, char c) {
  int64_t n = 0;
  const char* p = data.data();
  const char* end = p + data.size();
  while (p < end) {
    const void* hit = std::memchr(p, c, static_cast<size_t>(end - p));
    if (hit == nullptr) break;
    ++n;
    p = static_cast<const char*>(hit) + 1;
  }
  return n;
}

}  // namespace

int64_t CsvRecordBoundary(std::string_view data, const CsvDialect& dialect) {
  if (dialect.quote < 0 && dialect.escape < 0) {
    const void* p = memrchr(data.data(), '\n', data.size());
    return p ? static_cast<const char*>(p) - data.data() + 1 : 0;
  }
  if (dialect.escape >= 0 && dialect.escape != dialect.quote) {
    // Escapes break quote parity: scan with the full state machine.
    bool in_quotes = false;
    int64_t last = 0;
    const char quote = static_cast<char>(dialect.quote);
    const char escape = static_cast<char>(dialect.escape);
    for (size_t i = 0; i < data.size(); ++i) {
      char c = data[i];
      if (c == escape) {
        ++i;
      } else if (dialect.quote >= 0 && c == quote) {
        in_quotes = !in_quotes;
      } else if (c == '\n' && !in_quotes) {
        last = static_cast<int64_t>(i) + 1;
      }
    }
    return last;
  }
  // Quotes only: a newline ends a record when an even number of quotes precede it (doubled quotes
  // count twice). Count all quotes once, then walk back over newlines from the end.
  const char quote = static_cast<char>(dialect.quote);
  int64_t total = CountByte(data, quote);
  int64_t after = 0;  // quotes after the newline being considered
  size_t end = data.size();
  while (true) {
    const void* p = memrchr(data.data(), '\n', end);
    if (p == nullptr) return 0;
    size_t nl = static_cast<size_t>(static_cast<const char*>(p) - data.data());
    after += CountByte(data.substr(nl, end - nl), quote);
    if ((total - after) % 2 == 0) return static_cast<int64_t>(nl) + 1;
    end = nl;
  }
}

}  // namespace epoxy
