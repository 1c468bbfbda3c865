// SPDX-License-Identifier: Apache-2.0
#include "epoxy/api/sigv4.h"

#include <gtest/gtest.h>

namespace epoxy::api {
namespace {

constexpr int64_t kNow = 1440938160;  // 2015-08-30T12:36:00Z

SecretLookup Keys() {
  return [](const std::string& id) -> std::optional<std::string> {
    if (id == "AKIDEXAMPLE") return std::string("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    return std::nullopt;
  };
}

SignedRequest GlueRequest() {
  SignedRequest r;
  r.method = "POST";
  r.path = "/";
  r.headers = {{"host", "127.0.0.1:8999"},
               {"content-type", "application/x-amz-json-1.1"},
               {"x-amz-target", "AWSGlue.GetDatabases"}};
  r.body = "{}";
  return r;
}

VerifyOptions Glue() { return VerifyOptions{}; }

TEST(SigV4, MatchesAwsPublishedVector) {
  // AWS's SigV4 test suite, "get-vanilla".
  SignedRequest r;
  r.method = "GET";
  r.path = "/";
  r.headers = {{"host", "example.amazonaws.com"}};
  SignSigV4(&r, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "service", kNow);
  EXPECT_EQ(r.headers.find("authorization")->second,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  VerifyOptions options;
  options.service = "service";
  EXPECT_FALSE(VerifySigV4(r, Keys(), options, kNow).failure);
}

TEST(SigV4, SignedRequestVerifies) {
  SignedRequest r = GlueRequest();
  SignSigV4(&r, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "glue", kNow);
  AuthResult result = VerifySigV4(r, Keys(), Glue(), kNow + 60);
  EXPECT_FALSE(result.failure) << result.failure->message;
  EXPECT_EQ(result.access_key_id, "AKIDEXAMPLE");
}

std::string Refusal(const SignedRequest& r, int64_t now = kNow, VerifyOptions options = Glue()) {
  AuthResult result = VerifySigV4(r, Keys(), options, now);
  return result.failure ? result.failure->type + ": " + result.failure->message : "verified";
}

TEST(SigV4, RefusesUnsignedForgedAndTampered) {
  EXPECT_EQ(Refusal(GlueRequest()), "MissingAuthenticationTokenException: Missing Authentication Token");
  SignedRequest r = GlueRequest();
  SignSigV4(&r, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "glue", kNow);
  SignedRequest forged = r;
  std::string& auth = forged.headers.find("authorization")->second;
  auth.back() = auth.back() == '0' ? '1' : '0';
  EXPECT_NE(Refusal(forged).find("InvalidSignatureException: The request signature we calculated"), std::string::npos);
  SignedRequest body = r;
  body.body = "{\"Name\": \"other\"}";
  EXPECT_NE(Refusal(body).find("InvalidSignatureException"), std::string::npos);
  SignedRequest target = r;
  target.headers.find("x-amz-target")->second = "AWSGlue.DeleteDatabase";
  EXPECT_NE(Refusal(target).find("InvalidSignatureException"), std::string::npos);
  SignedRequest unknown = GlueRequest();
  SignSigV4(&unknown, "AKIDUNKNOWN", "secret", "us-east-1", "glue", kNow);
  EXPECT_NE(Refusal(unknown).find("UnrecognizedClientException"), std::string::npos);
  SignedRequest wrong_secret = GlueRequest();
  SignSigV4(&wrong_secret, "AKIDEXAMPLE", "not-the-secret", "us-east-1", "glue", kNow);
  EXPECT_NE(Refusal(wrong_secret).find("InvalidSignatureException"), std::string::npos);
}

TEST(SigV4, RefusesExpiredFutureAndWrongScope) {
  SignedRequest r = GlueRequest();
  SignSigV4(&r, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "glue", kNow);
  EXPECT_EQ(Refusal(r, kNow + 15 * 60), "verified");
  EXPECT_NE(Refusal(r, kNow + 16 * 60).find("InvalidSignatureException: Signature expired: 20150830T123600Z"),
            std::string::npos);
  EXPECT_NE(Refusal(r, kNow - 16 * 60).find("Signature not yet current"), std::string::npos);
  SignedRequest region = GlueRequest();
  SignSigV4(&region, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "eu-west-1", "glue", kNow);
  EXPECT_NE(Refusal(region).find("scoped to a valid region"), std::string::npos);
  VerifyOptions both;
  both.other_regions = {"eu-west-1"};
  EXPECT_EQ(Refusal(region, kNow, both), "verified");
  SignedRequest service = GlueRequest();
  SignSigV4(&service, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "s3", kNow);
  EXPECT_NE(Refusal(service).find("scoped to correct service: 'glue'"), std::string::npos);
}

TEST(SigV4, RefusesMalformedHeaders) {
  SignedRequest r = GlueRequest();
  r.headers.emplace("authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/glue");
  EXPECT_NE(Refusal(r).find("IncompleteSignatureException"), std::string::npos);
  SignedRequest basic = GlueRequest();
  basic.headers.emplace("authorization", "Basic dXNlcjpwYXNz");
  EXPECT_NE(Refusal(basic).find("IncompleteSignatureException"), std::string::npos);
  // A signed header that the request does not carry, and host left unsigned.
  SignedRequest missing = GlueRequest();
  SignSigV4(&missing, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "glue", kNow);
  missing.headers.erase("x-amz-target");
  EXPECT_NE(Refusal(missing).find("does not carry"), std::string::npos);
  SignedRequest no_host = GlueRequest();
  no_host.headers.erase("host");
  SignSigV4(&no_host, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "glue", kNow);
  no_host.headers.emplace("host", "127.0.0.1");
  EXPECT_NE(Refusal(no_host).find("'Host' must be a signed header"), std::string::npos);
}

}  // namespace
}  // namespace epoxy::api
