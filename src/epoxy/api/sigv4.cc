// SPDX-License-Identifier: Apache-2.0
#include "epoxy/api/sigv4.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace epoxy::api {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";

std::string Hex(const unsigned char* data, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out(n * 2, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[data[i] >> 4];
    out[2 * i + 1] = digits[data[i] & 15];
  }
  return out;
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &n);
  return std::string(reinterpret_cast<const char*>(out), n);
}

bool Unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == '.' || c == '~';
}

std::string Encode(std::string_view s, bool keep_slash) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (Unreserved(c) || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += digits[c >> 4];
      out += digits[c & 15];
    }
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexValue(s[i + 1]) >= 0 && HexValue(s[i + 2]) >= 0) {
      out += static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

/// The path with dot segments and repeated slashes removed, then encoded once more (services other
/// than S3 sign the already-encoded path, encoded again).
std::string CanonicalUri(std::string_view path) {
  if (path.empty()) return "/";
  std::vector<std::string_view> segments;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view segment = path.substr(start, slash - start);
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
    } else if (!segment.empty() && segment != ".") {
      segments.push_back(segment);
    }
    start = slash + 1;
  }
  std::string normalized = "/";
  for (size_t i = 0; i < segments.size(); ++i) normalized += std::string(segments[i]) + (i + 1 < segments.size() ? "/" : "");
  if (path.size() > 1 && path.back() == '/' && normalized.size() > 1) normalized += '/';
  return Encode(normalized, true);
}

std::string CanonicalQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> pairs;
  size_t start = 0;
  while (start < query.size()) {
    size_t amp = query.find('&', start);
    if (amp == std::string_view::npos) amp = query.size();
    std::string_view item = query.substr(start, amp - start);
    if (!item.empty()) {
      size_t eq = item.find('=');
      std::string key = Decode(item.substr(0, eq));
      std::string value = eq == std::string_view::npos ? "" : Decode(item.substr(eq + 1));
      if (key != "X-Amz-Signature") pairs.emplace_back(Encode(key, false), Encode(value, false));
    }
    start = amp + 1;
  }
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const auto& [k, v] : pairs) out += (out.empty() ? "" : "&") + k + "=" + v;
  return out;
}

std::string TrimAll(std::string_view v) {
  std::string out;
  bool space = false;
  for (char c : v) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      space = false;
      out += c;
    }
  }
  return out;
}

struct Authorization {
  std::string access_key_id, date, region, service, terminal;
  std::vector<std::string> signed_headers;
  std::string signed_headers_text, signature;
};

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<AuthFailure> ParseAuthorization(std::string_view header, Authorization* out) {
  auto incomplete = [](const std::string& why) {
    return AuthFailure{"IncompleteSignatureException", why};
  };
  if (header.substr(0, kAlgorithm.size()) != kAlgorithm || header.size() == kAlgorithm.size() ||
      header[kAlgorithm.size()] != ' ') {
    return incomplete("Authorization header requires the AWS4-HMAC-SHA256 algorithm");
  }
  std::string_view rest = header.substr(kAlgorithm.size() + 1);
  std::string credential;
  bool have_signed = false, have_signature = false;
  for (std::string_view part : Split(rest, ',')) {
    part = Trim(part);
    size_t eq = part.find('=');
    if (eq == std::string_view::npos) return incomplete("Authorization header component '" + std::string(part) + "' has no '='");
    std::string_view name = part.substr(0, eq), value = part.substr(eq + 1);
    if (name == "Credential") {
      credential = std::string(value);
    } else if (name == "SignedHeaders") {
      have_signed = true;
      out->signed_headers_text = std::string(value);
      for (std::string_view h : Split(value, ';')) out->signed_headers.emplace_back(h);
    } else if (name == "Signature") {
      have_signature = true;
      out->signature = std::string(value);
    }
  }
  if (credential.empty()) return incomplete("Authorization header requires 'Credential' parameter");
  if (!have_signed) return incomplete("Authorization header requires 'SignedHeaders' parameter");
  if (!have_signature) return incomplete("Authorization header requires 'Signature' parameter");
  auto scope = Split(credential, '/');
  if (scope.size() != 5) return incomplete("Credential '" + credential + "' is not KEY/date/region/service/aws4_request");
  out->access_key_id = std::string(scope[0]);
  out->date = std::string(scope[1]);
  out->region = std::string(scope[2]);
  out->service = std::string(scope[3]);
  out->terminal = std::string(scope[4]);
  return std::nullopt;
}

/// Seconds since the epoch of an ISO-8601 basic time (20261202T184500Z), or nothing.
std::optional<int64_t> ParseAmzDate(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  for (size_t i = 0; i < 15; ++i) {
    if (i != 8 && (text[i] < '0' || text[i] > '9')) return std::nullopt;
  }
  auto num = [&](size_t at, size_t n) {
    int v = 0;
    for (size_t i = at; i < at + n; ++i) v = v * 10 + (text[i] - '0');
    return v;
  };
  std::tm tm{};
  tm.tm_year = num(0, 4) - 1900;
  tm.tm_mon = num(4, 2) - 1;
  tm.tm_mday = num(6, 2);
  tm.tm_hour = num(9, 2);
  tm.tm_min = num(11, 2);
  tm.tm_sec = num(13, 2);
  if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60) {
    return std::nullopt;
  }
  return static_cast<int64_t>(timegm(&tm));
}

std::string FormatAmzDate(int64_t t) {
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

/// Every value of a header, joined by commas, each trimmed.
std::optional<std::string> HeaderValues(const SignedRequest& request, const std::string& name) {
  auto [begin, end] = request.headers.equal_range(name);
  if (begin == end) return std::nullopt;
  std::string out;
  for (auto it = begin; it != end; ++it) out += (it == begin ? "" : ",") + TrimAll(it->second);
  return out;
}

std::string StringToSign(const SignedRequest& request, const std::vector<std::string>& signed_headers,
                         const std::string& signed_text, const std::string& amz_date, const std::string& scope,
                         const std::string& payload_hash) {
  std::string canonical = request.method + "\n" + CanonicalUri(request.path) + "\n" + CanonicalQuery(request.query) + "\n";
  for (const auto& h : signed_headers) canonical += h + ":" + HeaderValues(request, h).value_or("") + "\n";
  canonical += "\n" + signed_text + "\n" + payload_hash;
  return std::string(kAlgorithm) + "\n" + amz_date + "\n" + scope + "\n" + Sha256Hex(canonical);
}

std::string Signature(const std::string& secret, const std::string& date, const std::string& region,
                      const std::string& service, const std::string& string_to_sign) {
  std::string key = Hmac("AWS4" + secret, date);
  key = Hmac(key, region);
  key = Hmac(key, service);
  key = Hmac(key, "aws4_request");
  std::string mac = Hmac(key, string_to_sign);
  return Hex(reinterpret_cast<const unsigned char*>(mac.data()), mac.size());
}

}  // namespace

std::string Sha256Hex(std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), out, &n, EVP_sha256(), nullptr);
  return Hex(out, n);
}

AuthResult VerifySigV4(const SignedRequest& request, const SecretLookup& lookup, const VerifyOptions& options,
                       int64_t now) {
  AuthResult result;
  auto fail = [&](std::string type, std::string message) {
    result.failure = AuthFailure{std::move(type), std::move(message)};
    return result;
  };
  auto header = request.headers.find("authorization");
  if (header == request.headers.end()) {
    if (request.query.find("X-Amz-Signature=") != std::string::npos) {
      return fail("IncompleteSignatureException", "query-string (presigned) authentication is not accepted; sign the "
                                                  "Authorization header");
    }
    return fail("MissingAuthenticationTokenException", "Missing Authentication Token");
  }
  Authorization auth;
  if (auto bad = ParseAuthorization(header->second, &auth)) {
    result.failure = *bad;
    return result;
  }
  result.access_key_id = auth.access_key_id;
  std::optional<std::string> secret = lookup(auth.access_key_id);
  if (!secret) return fail("UnrecognizedClientException", "The security token included in the request is invalid.");
  if (auth.terminal != "aws4_request") {
    return fail("InvalidSignatureException", "Credential should be scoped with a valid terminator: 'aws4_request', not '" +
                                                 auth.terminal + "'.");
  }
  if (auth.service != options.service) {
    return fail("InvalidSignatureException", "Credential should be scoped to correct service: '" + options.service + "'.");
  }
  const bool region_ok = auth.region == options.region ||
                         std::find(options.other_regions.begin(), options.other_regions.end(), auth.region) !=
                             options.other_regions.end();
  if (!region_ok) {
    return fail("InvalidSignatureException", "Credential should be scoped to a valid region, not '" + auth.region + "'.");
  }
  // The signed headers: lower case, sorted, and including host and the date.
  if (auth.signed_headers.empty() || !std::is_sorted(auth.signed_headers.begin(), auth.signed_headers.end())) {
    return fail("InvalidSignatureException", "SignedHeaders must be sorted lower-case header names");
  }
  auto signs = [&](const char* name) {
    return std::find(auth.signed_headers.begin(), auth.signed_headers.end(), name) != auth.signed_headers.end();
  };
  for (const auto& h : auth.signed_headers) {
    if (h.empty() || std::any_of(h.begin(), h.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
      return fail("InvalidSignatureException", "SignedHeaders must be sorted lower-case header names");
    }
    if (request.headers.find(h) == request.headers.end()) {
      return fail("InvalidSignatureException", "SignedHeaders names '" + h + "', which the request does not carry");
    }
  }
  if (!signs("host")) return fail("InvalidSignatureException", "'Host' must be a signed header");
  std::string amz_date;
  if (auto d = HeaderValues(request, "x-amz-date")) {
    if (!signs("x-amz-date")) return fail("InvalidSignatureException", "'X-Amz-Date' must be a signed header");
    amz_date = *d;
  } else {
    return fail("IncompleteSignatureException", "the request needs an X-Amz-Date header");
  }
  std::optional<int64_t> at = ParseAmzDate(amz_date);
  if (!at) return fail("IncompleteSignatureException", "X-Amz-Date '" + amz_date + "' is not YYYYMMDDTHHMMSSZ");
  if (auth.date != amz_date.substr(0, 8)) {
    return fail("InvalidSignatureException", "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of "
                                             "date from HTTP: '" + auth.date + "' != '" + amz_date.substr(0, 8) + "'");
  }
  if (*at < now - options.max_skew_seconds) {
    return fail("InvalidSignatureException", "Signature expired: " + amz_date + " is now earlier than " +
                                                 FormatAmzDate(now - options.max_skew_seconds) + " (" +
                                                 FormatAmzDate(now) + " - 15 min.)");
  }
  if (*at > now + options.max_skew_seconds) {
    return fail("InvalidSignatureException", "Signature not yet current: " + amz_date + " is still later than " +
                                                 FormatAmzDate(now + options.max_skew_seconds) + " (" +
                                                 FormatAmzDate(now) + " + 15 min.)");
  }
  const std::string payload_hash = Sha256Hex(request.body);
  if (auto declared = HeaderValues(request, "x-amz-content-sha256"); declared && *declared != payload_hash) {
    return fail("InvalidSignatureException", "x-amz-content-sha256 does not match the body (unsigned payloads are not "
                                             "accepted)");
  }
  const std::string scope = auth.date + "/" + auth.region + "/" + auth.service + "/aws4_request";
  const std::string expected = Signature(*secret, auth.date, auth.region, auth.service,
                                         StringToSign(request, auth.signed_headers, auth.signed_headers_text, amz_date,
                                                      scope, payload_hash));
  if (expected.size() != auth.signature.size() ||
      CRYPTO_memcmp(expected.data(), auth.signature.data(), expected.size()) != 0) {
    return fail("InvalidSignatureException",
                "The request signature we calculated does not match the signature you provided. Check your AWS Secret "
                "Access Key and signing method. Consult the service documentation for details.");
  }
  return result;
}

void SignSigV4(SignedRequest* request, const std::string& access_key_id, const std::string& secret,
               const std::string& region, const std::string& service, int64_t now) {
  const std::string amz_date = FormatAmzDate(now);
  request->headers.erase("x-amz-date");
  request->headers.erase("authorization");
  request->headers.emplace("x-amz-date", amz_date);
  std::vector<std::string> names;
  for (const auto& [name, value] : request->headers) {
    if (names.empty() || names.back() != name) names.push_back(name);
  }
  std::string signed_text;
  for (size_t i = 0; i < names.size(); ++i) signed_text += (i ? ";" : "") + names[i];
  const std::string date = amz_date.substr(0, 8);
  const std::string scope = date + "/" + region + "/" + service + "/aws4_request";
  const std::string signature =
      Signature(secret, date, region, service,
                StringToSign(*request, names, signed_text, amz_date, scope, Sha256Hex(request->body)));
  request->headers.emplace("authorization", std::string(kAlgorithm) + " Credential=" + access_key_id + "/" + scope +
                                                ", SignedHeaders=" + signed_text + ", Signature=" + signature);
}

}  // namespace epoxy::api
