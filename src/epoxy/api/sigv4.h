// SPDX-License-Identifier: Apache-2.0
// AWS Signature Version 4 as a server checks it: the canonical request rebuilt from what arrived,
// the string to sign, the signing key derived from the caller's secret, and the checks AWS makes
// before trusting a signature (scope, signed headers, clock skew). Pure functions of the request,
// the key lookup and the time, so the fuzzer and the tests drive them without a server.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace epoxy::api {

/// A request as received: the raw path and query (still percent-encoded), headers with lower-case
/// names (a repeated header keeps every value, in order), and the body.
struct SignedRequest {
  std::string method;
  std::string path;
  std::string query;
  std::multimap<std::string, std::string> headers;
  std::string body;
};

/// Why a request is refused, as AWS names it: MissingAuthenticationTokenException,
/// UnrecognizedClientException, InvalidSignatureException, IncompleteSignatureException.
struct AuthFailure {
  std::string type;
  std::string message;
};

struct AuthResult {
  std::optional<AuthFailure> failure;  // empty: verified
  std::string access_key_id;
};

struct VerifyOptions {
  std::string service = "glue";
  std::string region = "us-east-1";
  /// Region names accepted besides `region` (empty: `region` only).
  std::vector<std::string> other_regions;
  int64_t max_skew_seconds = 15 * 60;
};

/// The secret of an access key id, or nothing when the key is unknown.
using SecretLookup = std::function<std::optional<std::string>(const std::string& access_key_id)>;

/// Verifies the request's Authorization header (AWS4-HMAC-SHA256) at time `now` (seconds since
/// the epoch). Never throws; malformed input is a failure.
AuthResult VerifySigV4(const SignedRequest& request, const SecretLookup& lookup, const VerifyOptions& options,
                       int64_t now);

/// Signs `request` in place (adds x-amz-date, host must be present, and Authorization), as a
/// client does; for the tests and for epoxy's own clients.
void SignSigV4(SignedRequest* request, const std::string& access_key_id, const std::string& secret,
               const std::string& region, const std::string& service, int64_t now);

/// Lower-case hex of SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

}  // namespace epoxy::api
