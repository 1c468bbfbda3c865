// SPDX-License-Identifier: Apache-2.0
// Fuzzes the SigV4 verifier with arbitrary requests: line 1 the method, line 2 the target
// (path?query), then "name: value" header lines up to a blank line, then the body. An input
// starting with '!' is signed first (so the whole verification runs) and then has one byte
// changed at the position its second byte names.
#include <cstddef>
#include <cstdint>
#include <string>

#include "epoxy/api/sigv4.h"

namespace {

constexpr int64_t kNow = 1796234400;

epoxy::api::SignedRequest Parse(std::string_view text) {
  epoxy::api::SignedRequest r;
  auto line = [&]() {
    size_t nl = text.find('\n');
    std::string_view out = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    return out;
  };
  r.method = std::string(line());
  std::string_view target = line();
  size_t q = target.find('?');
  r.path = std::string(target.substr(0, q));
  if (q != std::string_view::npos) r.query = std::string(target.substr(q + 1));
  while (!text.empty()) {
    std::string_view h = line();
    if (h.empty()) break;
    size_t colon = h.find(':');
    std::string name(h.substr(0, colon));
    for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    r.headers.emplace(name, colon == std::string_view::npos ? "" : std::string(h.substr(colon + 1)));
  }
  r.body = std::string(text);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool sign = !text.empty() && text[0] == '!';
  size_t flip = text.size() > 1 ? static_cast<unsigned char>(text[1]) : 0;
  if (sign) text.remove_prefix(std::min<size_t>(2, text.size()));
  epoxy::api::SignedRequest request = Parse(text);
  auto lookup = [](const std::string& id) -> std::optional<std::string> {
    if (id == "FOOBARKEY") return std::string("FOOBARSECRET");
    return std::nullopt;
  };
  if (sign) {
    request.headers.emplace("host", "127.0.0.1");
    epoxy::api::SignSigV4(&request, "FOOBARKEY", "FOOBARSECRET", "us-east-1", "glue", kNow);
    if (flip > 0) {
      std::string& auth = request.headers.find("authorization")->second;
      auth[flip % auth.size()] ^= 1;
    }
  }
  epoxy::api::VerifyOptions options;
  epoxy::api::AuthResult result = epoxy::api::VerifySigV4(request, lookup, options, kNow);
  bool plain_names = true;
  for (const auto& [name, value] : request.headers) {
    for (char c : name) plain_names = plain_names && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  }
  if (sign && flip == 0 && result.failure && plain_names) {
    // A request we signed ourselves, with ordinary header names, must not fail on its signature.
    if (result.failure->type == "InvalidSignatureException" &&
        result.failure->message.rfind("The request signature", 0) == 0) {
      __builtin_trap();
    }
  }
  return 0;
}
