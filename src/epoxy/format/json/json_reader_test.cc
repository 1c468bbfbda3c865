// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/json/json_reader.h"

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

using ::epoxy::testing::ReadOutcome;
using ::epoxy::testing::ReadText;
using ::testing::ElementsAre;

ReadOutcome Json(std::string_view text, const FormatOptions& options = {},
                 int64_t block_size = 8 << 20) {
  return ReadText(FileFormat::kJson, text, options, "input.json", block_size);
}

TEST(JsonReaderTest, JsonLinesWithNestedValues) {
  auto out = Json(
      R"({"event_id":"e1","user_id":42,"payload":{"page":"/home","referrer":null},"items":[{"sku":"A","qty":1}]}
{"event_id":"e2","user_id":43,"payload":{"page":"/cart"},"items":[]}
)");
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  EXPECT_EQ(out.schema->ToString(),
            "event_id: string\nuser_id: bigint\npayload: struct<page:string,referrer:null>\n"
            "items: array<struct<sku:string,qty:bigint>>\n");
  EXPECT_THAT(out.rows,
              ElementsAre(
                  R"({"event_id":"e1","user_id":42,"payload":{"page":"/home","referrer":null},"items":[{"sku":"A","qty":1}]})",
                  R"({"event_id":"e2","user_id":43,"payload":{"page":"/cart","referrer":null},"items":[]})"));
}

TEST(JsonReaderTest, ConflictingTypesBecomeChoices) {
  auto out = Json("{\"user_id\":42}\n{\"user_id\":43}\n{\"user_id\":\"N/A\"}\n");
  EXPECT_EQ(out.schema->ToString(), "user_id: choice<bigint,string>\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"user_id":42})", R"({"user_id":43})",
                                    R"({"user_id":"N/A"})"));
}

TEST(JsonReaderTest, BadLinesAreErrorRecordsWithLineNumbers) {
  auto out = Json("{\"a\":1}\n{\"a\":\n\n{\"a\":3} {\"a\":4}\n[1,2\n{\"a\":5}\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":1})", R"({"a":5})"));
  ASSERT_EQ(out.errors.size(), 3u);
  EXPECT_EQ(out.errors[0].line, 2);
  EXPECT_EQ(out.errors[1].line, 4);  // two values on one line
  EXPECT_EQ(out.errors[2].line, 5);
  EXPECT_NE(out.errors[0].reason.find("invalid JSON"), std::string::npos);
}

TEST(JsonReaderTest, AValueAcrossLinesIsTwoBadLines) {
  // Valid JSON as a document, but JSON Lines reads line by line (as Spark does).
  auto out = Json("{\"a\":1}\n{\"a\":\n2}\n  \n{\"a\":3}\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":1})", R"({"a":3})"));
  ASSERT_EQ(out.errors.size(), 2u);
  EXPECT_EQ(out.errors[0].line, 2);
  EXPECT_EQ(out.errors[1].line, 3);
}

TEST(JsonReaderTest, LineNumbersCountEarlierBlocks) {
  // Good blocks go through the whole-block path; the bad line's number must still count them.
  std::string text;
  for (int i = 0; i < 500; ++i) text += "{\"a\":" + std::to_string(i) + "}\n\n";
  text += "{\"a\" 1}\n{\"a\":2}\n";
  auto out = Json(text, {}, /*block_size=*/256);
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  EXPECT_EQ(out.rows.size(), 501u);
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].line, 1001);
}

TEST(JsonReaderTest, TopLevelShapes) {
  // An array of objects: a record per element; scalars and arrays of scalars: {"value": ...}.
  EXPECT_THAT(Json("[{\"a\":1},{\"a\":2}]\n").rows, ElementsAre(R"({"a":1})", R"({"a":2})"));
  EXPECT_THAT(Json("[1,2,3]\n").rows, ElementsAre(R"({"value":[1,2,3]})"));
  EXPECT_THAT(Json("7\n\"x\"\n").rows, ElementsAre(R"({"value":7})", R"({"value":"x"})"));
}

TEST(JsonReaderTest, MultiLineDocumentsAreDetected) {
  auto out = Json("[\n  {\"a\": 1,\n   \"b\": [1, 2]},\n  {\"a\": 2}\n]\n");
  ASSERT_TRUE(out.errors.empty()) << out.errors[0].ToString();
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":1,"b":[1,2]})", R"({"a":2,"b":null})"));
  auto concatenated = Json("{\n \"a\": 1\n}\n{\n \"a\": 2\n}\n");
  EXPECT_THAT(concatenated.rows, ElementsAre(R"({"a":1})", R"({"a":2})"));
  auto forced = Json("{\"a\": 1}\n", {{"multiLine", "true"}});
  EXPECT_THAT(forced.rows, ElementsAre(R"({"a":1})"));
}

TEST(JsonReaderTest, JsonPathSelectsRecords) {
  std::string doc = R"({"meta":{"n":2},"records":[{"id":1},{"id":2}]})";
  EXPECT_THAT(Json(doc + "\n", {{"jsonPath", "$.records[*]"}}).rows,
              ElementsAre(R"({"id":1})", R"({"id":2})"));
  EXPECT_THAT(Json(doc + "\n", {{"jsonPath", "$['records'][1]"}}).rows, ElementsAre(R"({"id":2})"));
  EXPECT_EQ(Json(doc, {{"jsonPath", "records"}}).status.code(), StatusCode::kInvalidInput);
}

TEST(JsonReaderTest, ParallelBlocksKeepOrder) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "{\"i\":" + std::to_string(i) + ",\"s\":\"x\"}\n";
  auto out = Json(text, {}, 1024);
  ASSERT_EQ(out.rows.size(), 5000u);
  EXPECT_GT(out.num_batches, 50);
  for (int i = 0; i < 5000; i += 777) {
    EXPECT_EQ(out.rows[i], "{\"i\":" + std::to_string(i) + ",\"s\":\"x\"}");
  }
}

TEST(JsonReaderTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep(10000, '[');
  deep += std::string(10000, ']');
  auto out = Json("{\"ok\":1}\n" + deep + "\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"ok":1})"));
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].line, 2);
  auto whole = Json(deep, {{"multiLine", "true"}});
  EXPECT_EQ(whole.errors.size(), 1u);
}

TEST(JsonReaderTest, InvalidUtf8AndGarbage) {
  auto out = Json("{\"a\":\"\xff\"}\n{\"a\":\"ok\"}\n\x01\x02\x03\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"a":"ok"})"));
  EXPECT_EQ(out.errors.size(), 2u);
}

TEST(JsonReaderTest, OneHugeLine) {
  std::string text = "{\"big\":\"" + std::string(100 << 20, 'x') + "\"}\n{\"big\":\"y\"}\n";
  auto out = Json(text, {}, 1 << 20);
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  ASSERT_EQ(out.rows.size(), 2u);
  EXPECT_EQ(out.rows[1], R"({"big":"y"})");
}

TEST(JsonReaderTest, EmptyInputsGiveNothing) {
  EXPECT_TRUE(Json("").rows.empty());
  EXPECT_TRUE(Json("\n\n  \n").rows.empty());
  EXPECT_TRUE(Json("").errors.empty());
}

TEST(JsonReaderTest, NumbersKeepTheirKinds) {
  auto out = Json("{\"n\":18446744073709551615}\n{\"d\":1.5e300,\"neg\":-0.0}\n");
  EXPECT_EQ(out.schema->ToString(), "n: decimal(20,0)\nd: double\nneg: double\n");
  EXPECT_THAT(out.rows, ElementsAre(R"({"n":"18446744073709551615","d":null,"neg":null})",
                                    R"({"n":null,"d":1.5e+300,"neg":-0})"));
}

}  // namespace
}  // namespace epoxy
