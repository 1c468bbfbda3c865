// SPDX-License-Identifier: Apache-2.0
#include "epoxy/expr/text_functions.h"

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <set>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/row_kernels_internal.h"
#include "epoxy/expr/type_visit.h"
#include "epoxy/vector/builder.h"

namespace epoxy::expr {
namespace {

const std::set<std::string> kFunctions = {"hex", "unhex", "sha1", "sha", "crc32", "base64", "unbase64", "ascii",
                                          "startswith", "endswith", "contains", "lpad", "rpad", "repeat", "instr",
                                          "locate", "translate", "substring_index", "left", "right",
                                          "levenshtein", "split_part", "bit_length", "octet_length", "chr", "char"};

std::string_view Text(const Datum& d, int64_t i) { return d.array->GetView(d.Row(i)); }

std::string HexOf(std::string_view bytes) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// UTF-8 code points of `s` as byte offsets (with s.size() at the end).
std::vector<size_t> CharStarts(std::string_view s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  starts.push_back(s.size());
  return starts;
}

std::string Pad(std::string_view s, int64_t len, std::string_view pad, bool left) {
  std::vector<size_t> chars = CharStarts(s);
  const int64_t have = static_cast<int64_t>(chars.size()) - 1;
  if (len <= 0) return "";
  if (have >= len) return std::string(s.substr(0, chars[static_cast<size_t>(len)]));
  if (pad.empty()) return std::string(s);
  std::vector<size_t> pchars = CharStarts(pad);
  const int64_t plen = static_cast<int64_t>(pchars.size()) - 1;
  std::string fill;
  for (int64_t k = 0; k < len - have; ++k) {
    size_t c = static_cast<size_t>(k % plen);
    fill.append(pad.substr(pchars[c], pchars[c + 1] - pchars[c]));
  }
  return left ? fill + std::string(s) : std::string(s) + fill;
}

}  // namespace

Result<ExprPtr> BindTextFunction(std::shared_ptr<Expr> call) {
  const std::string op = call->op;
  auto& args = call->args;
  auto arity = [&](size_t lo, size_t hi) { return CheckArity(*call, lo, hi); };
  auto done = [&](TypePtr type) -> Result<ExprPtr> {
    call->type = std::move(type);
    return ExprPtr(call);
  };
  // Rewrites onto existing operators.
  if (op == "nvl2") {
    EPOXY_RETURN_NOT_OK(arity(3, 3));
    EPOXY_ASSIGN_OR_RETURN(TypePtr t, CommonType(args[1]->type, args[2]->type));
    auto test = std::make_shared<Expr>(*Expr::Call("is_not_null", {args[0]}));
    test->type = DataType::Boolean();
    call->op = "case";
    call->args = {test, CastTo(args[1], t), CastTo(args[2], t)};
    return done(t);
  }
  if (op == "zeroifnull") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    TypePtr t = args[0]->type->id() == TypeId::kNull ? DataType::Int() : args[0]->type;
    call->op = "coalesce";
    call->args = {CastTo(args[0], t), CastTo(Expr::Literal(Scalar::Integer(DataType::Int(), 0)), t)};
    return done(t);
  }
  if (op == "nullifzero") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    TypePtr t = args[0]->type;
    auto test = std::make_shared<Expr>(*Expr::Call("=", {args[0], CastTo(Expr::Literal(Scalar::Integer(DataType::Int(), 0)), t)}));
    test->type = DataType::Boolean();
    call->op = "case";
    call->args = {test, Expr::Literal(Scalar::Null(t)), args[0]};
    return done(t);
  }
  if (op == "equal_null") {
    EPOXY_RETURN_NOT_OK(arity(2, 2));
    EPOXY_ASSIGN_OR_RETURN(TypePtr t, ComparisonType(args[0]->type, args[1]->type));
    call->op = "<=>";
    call->args = {CastTo(args[0], t), CastTo(args[1], t)};
    return done(DataType::Boolean());
  }
  if (kFunctions.count(op) == 0) return ExprPtr();
  auto strings = [&](size_t from, size_t to) {
    for (size_t i = from; i < to && i < args.size(); ++i) {
      if (args[i]->type->id() != TypeId::kString && args[i]->type->id() != TypeId::kBinary) args[i] = CastTo(args[i], DataType::String());
    }
  };
  if (op == "hex") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    if (!IsIntegral(args[0]->type->id())) strings(0, 1);
    else args[0] = CastTo(args[0], DataType::BigInt());
    return done(DataType::String());
  }
  if (op == "unhex" || op == "unbase64") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    strings(0, 1);
    return done(DataType::Binary());
  }
  if (op == "sha1" || op == "sha" || op == "base64") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    strings(0, 1);
    return done(DataType::String());
  }
  if (op == "crc32") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    strings(0, 1);
    return done(DataType::BigInt());
  }
  if (op == "ascii") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    strings(0, 1);
    return done(DataType::Int());
  }
  if (op == "startswith" || op == "endswith" || op == "contains") {
    EPOXY_RETURN_NOT_OK(arity(2, 2));
    strings(0, 2);
    return done(DataType::Boolean());
  }
  if (op == "lpad" || op == "rpad") {
    EPOXY_RETURN_NOT_OK(arity(2, 3));
    strings(0, 1);
    args[1] = CastTo(args[1], DataType::Int());
    if (args.size() == 3) strings(2, 3);
    return done(DataType::String());
  }
  if (op == "repeat") {
    EPOXY_RETURN_NOT_OK(arity(2, 2));
    strings(0, 1);
    args[1] = CastTo(args[1], DataType::Int());
    return done(DataType::String());
  }
  if (op == "instr" || op == "locate") {
    EPOXY_RETURN_NOT_OK(arity(2, op == "locate" ? 3 : 2));
    strings(0, 2);
    if (args.size() == 3) args[2] = CastTo(args[2], DataType::Int());
    return done(DataType::Int());
  }
  if (op == "translate") {
    EPOXY_RETURN_NOT_OK(arity(3, 3));
    strings(0, 3);
    return done(DataType::String());
  }
  if (op == "substring_index" || op == "split_part") {
    EPOXY_RETURN_NOT_OK(arity(3, 3));
    strings(0, 2);
    args[2] = CastTo(args[2], DataType::Int());
    return done(DataType::String());
  }
  if (op == "left" || op == "right") {
    EPOXY_RETURN_NOT_OK(arity(2, 2));
    strings(0, 1);
    args[1] = CastTo(args[1], DataType::Int());
    return done(DataType::String());
  }
  if (op == "levenshtein") {
    EPOXY_RETURN_NOT_OK(arity(2, 2));
    strings(0, 2);
    return done(DataType::Int());
  }
  if (op == "bit_length" || op == "octet_length") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    strings(0, 1);
    return done(DataType::Int());
  }
  if (op == "chr" || op == "char") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    args[0] = CastTo(args[0], DataType::BigInt());
    return done(DataType::String());
  }
  return ExprPtr();
}

Result<std::optional<Datum>> CallTextFunction(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                              MemoryPool* pool) {
  const std::string& op = call.op;
  if (kFunctions.count(op) == 0) return std::optional<Datum>();
  auto any_null = [&](int64_t i) {
    for (const auto& a : args) {
      if (a.IsNull(i)) return true;
    }
    return false;
  };
  auto str = [](ArrayBuilder* b, std::string_view s) { return static_cast<StringBuilder*>(b)->Append(s); };
  return PerRow(call.type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
    if (any_null(i)) return b->AppendNull();
    if (op == "hex") {
      if (args[0].type()->id() == TypeId::kBigInt) {
        uint64_t v = static_cast<uint64_t>(args[0].array->values<int64_t>()[args[0].Row(i)]);
        std::string out;
        do {
          out.insert(out.begin(), "0123456789ABCDEF"[v & 15]);
          v >>= 4;
        } while (v != 0);
        return str(b, out);
      }
      return str(b, HexOf(Text(args[0], i)));
    }
    if (op == "unhex") {
      std::string_view s = Text(args[0], i);
      std::string out;
      size_t k = 0;
      if (s.size() % 2 == 1) {  // an odd length reads as a leading 0
        int d = HexDigit(s[0]);
        if (d < 0) return b->AppendNull();
        out.push_back(static_cast<char>(d));
        k = 1;
      }
      for (; k + 1 < s.size() + 1 && k < s.size(); k += 2) {
        int hi = HexDigit(s[k]), lo = HexDigit(s[k + 1]);
        if (hi < 0 || lo < 0) return b->AppendNull();
        out.push_back(static_cast<char>(hi * 16 + lo));
      }
      return str(b, out);
    }
    if (op == "sha1" || op == "sha") {
      std::string_view s = Text(args[0], i);
      unsigned char digest[EVP_MAX_MD_SIZE];
      unsigned len = 0;
      EVP_Digest(s.data(), s.size(), digest, &len, EVP_sha1(), nullptr);
      std::string hex = HexOf(std::string_view(reinterpret_cast<char*>(digest), len));
      for (char& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return str(b, hex);
    }
    if (op == "crc32") {
      std::string_view s = Text(args[0], i);
      uLong crc = ::crc32(0L, reinterpret_cast<const Bytef*>(s.data()), static_cast<uInt>(s.size()));
      return static_cast<Int64Builder*>(b)->Append(static_cast<int64_t>(crc));
    }
    if (op == "base64" || op == "unbase64") {
      std::string_view s = Text(args[0], i);
      std::string out((s.size() / 3 + 2) * 4 + 4, '\0');
      int len = op == "base64"
                    ? EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(s.data()), static_cast<int>(s.size()))
                    : EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(s.data()), static_cast<int>(s.size()));
      if (len < 0) return b->AppendNull();
      if (op == "unbase64") {  // DecodeBlock counts the padding's zero bytes too
        size_t pad = 0;
        while (pad < s.size() && s[s.size() - 1 - pad] == '=') ++pad;
        len -= static_cast<int>(std::min<size_t>(pad, 2));
      }
      out.resize(static_cast<size_t>(len));
      return str(b, out);
    }
    if (op == "ascii") {
      std::string_view s = Text(args[0], i);
      return static_cast<Int32Builder*>(b)->Append(s.empty() ? 0 : static_cast<unsigned char>(s[0]));
    }
    if (op == "startswith" || op == "endswith" || op == "contains") {
      std::string_view s = Text(args[0], i), p = Text(args[1], i);
      bool r = op == "startswith" ? s.substr(0, p.size()) == p
               : op == "endswith" ? (s.size() >= p.size() && s.substr(s.size() - p.size()) == p)
                                  : s.find(p) != std::string_view::npos;
      return static_cast<BooleanBuilder*>(b)->Append(r);
    }
    if (op == "lpad" || op == "rpad") {
      std::string_view pad = args.size() == 3 ? Text(args[2], i) : std::string_view(" ");
      return str(b, Pad(Text(args[0], i), IntAt(args[1], i), pad, op == "lpad"));
    }
    if (op == "repeat") {
      std::string out;
      const int64_t times = IntAt(args[1], i);
      std::string_view s = Text(args[0], i);
      if (times > 0 && static_cast<double>(s.size()) * static_cast<double>(times) > (1 << 30)) {
        return Status::InvalidInput("repeat: the result would exceed 1 GiB");
      }
      for (int64_t k = 0; k < times; ++k) out.append(s);
      return str(b, out);
    }
    if (op == "instr" || op == "locate") {
      std::string_view hay = op == "instr" ? Text(args[0], i) : Text(args[1], i);
      std::string_view needle = op == "instr" ? Text(args[1], i) : Text(args[0], i);
      int64_t start = args.size() == 3 ? IntAt(args[2], i) : 1;
      if (start < 1) return static_cast<Int32Builder*>(b)->Append(0);
      std::vector<size_t> chars = CharStarts(hay);
      if (static_cast<size_t>(start - 1) >= chars.size()) return static_cast<Int32Builder*>(b)->Append(0);
      size_t at = hay.find(needle, chars[static_cast<size_t>(start - 1)]);
      if (at == std::string_view::npos) return static_cast<Int32Builder*>(b)->Append(0);
      int32_t pos = 0;
      while (chars[static_cast<size_t>(pos)] < at) ++pos;
      return static_cast<Int32Builder*>(b)->Append(pos + 1);
    }
    if (op == "substring_index") {  // before the count-th delimiter (after it, from the end, when negative)
      std::string_view s = Text(args[0], i), delim = Text(args[1], i);
      int64_t count = IntAt(args[2], i);
      if (count == 0 || delim.empty()) return str(b, "");
      if (count > 0) {
        size_t at = 0;
        for (int64_t k = 0; k < count; ++k) {
          size_t found = s.find(delim, k == 0 ? 0 : at + delim.size());
          if (found == std::string_view::npos) return str(b, s);
          at = found;
        }
        return str(b, s.substr(0, at));
      }
      size_t at = s.size();
      for (int64_t k = 0; k < -count; ++k) {
        if (at == 0) return str(b, s);
        size_t found = s.rfind(delim, at - 1);
        if (found == std::string_view::npos) return str(b, s);
        at = found;
      }
      return str(b, s.substr(at + delim.size()));
    }
    if (op == "split_part") {  // 1-based part (negative from the end); past the parts: empty
      std::string_view s = Text(args[0], i), delim = Text(args[1], i);
      int64_t part = IntAt(args[2], i);
      if (part == 0) return Status::InvalidInput("split_part: the part index must not be 0");
      std::vector<std::string_view> parts;
      if (delim.empty()) {
        parts.push_back(s);
      } else {
        size_t start = 0;
        while (true) {
          size_t found = s.find(delim, start);
          if (found == std::string_view::npos) {
            parts.push_back(s.substr(start));
            break;
          }
          parts.push_back(s.substr(start, found - start));
          start = found + delim.size();
        }
      }
      int64_t index = part > 0 ? part - 1 : static_cast<int64_t>(parts.size()) + part;
      if (index < 0 || index >= static_cast<int64_t>(parts.size())) return str(b, "");
      return str(b, parts[static_cast<size_t>(index)]);
    }
    if (op == "left" || op == "right") {
      std::string_view s = Text(args[0], i);
      const int64_t len = IntAt(args[1], i);
      std::vector<size_t> chars = CharStarts(s);
      const int64_t have = static_cast<int64_t>(chars.size()) - 1;
      if (len <= 0) return str(b, "");
      if (len >= have) return str(b, s);
      if (op == "left") return str(b, s.substr(0, chars[static_cast<size_t>(len)]));
      return str(b, s.substr(chars[static_cast<size_t>(have - len)]));
    }
    if (op == "levenshtein") {
      std::string_view x = Text(args[0], i), y = Text(args[1], i);
      std::vector<int32_t> row(y.size() + 1);
      for (size_t j = 0; j <= y.size(); ++j) row[j] = static_cast<int32_t>(j);
      for (size_t a = 1; a <= x.size(); ++a) {
        int32_t diagonal = row[0];
        row[0] = static_cast<int32_t>(a);
        for (size_t j = 1; j <= y.size(); ++j) {
          int32_t above = row[j];
          row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (x[a - 1] == y[j - 1] ? 0 : 1)});
          diagonal = above;
        }
      }
      return static_cast<Int32Builder*>(b)->Append(row[y.size()]);
    }
    if (op == "bit_length" || op == "octet_length") {
      const int64_t bytes = static_cast<int64_t>(Text(args[0], i).size());
      return static_cast<Int32Builder*>(b)->Append(static_cast<int32_t>(op == "bit_length" ? bytes * 8 : bytes));
    }
    if (op == "chr" || op == "char") {  // Spark: the code modulo 256, as one character; negative gives ""
      const int64_t code = args[0].array->values<int64_t>()[args[0].Row(i)];
      if (code < 0) return str(b, "");
      const unsigned c = static_cast<unsigned>(code % 256);
      std::string out;
      if (c < 0x80) {
        out.push_back(static_cast<char>(c));
      } else {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
      }
      return str(b, out);
    }
    if (op == "translate") {
      std::string_view s = Text(args[0], i), from = Text(args[1], i), to = Text(args[2], i);
      std::string out;
      for (char c : s) {  // byte-wise: ASCII replacement sets, as almost every use has
        size_t k = from.find(c);
        if (k == std::string_view::npos) out.push_back(c);
        else if (k < to.size()) out.push_back(to[k]);
      }
      return str(b, out);
    }
    return Status::Internal("text function {} has no evaluation", op);
  });
}

}  // namespace epoxy::expr
