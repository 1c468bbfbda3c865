// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/grok/grok_pattern.h"

#include <gtest/gtest.h>

namespace epoxy::grok {
namespace {

struct Matched {
  bool ok = false;
  std::vector<std::string> values;  // "<null>" for a capture that took no part
};

Matched MatchLine(const GrokPattern& g, std::string_view line) {
  Matched m;
  std::vector<std::string_view> values;
  std::vector<bool> matched;
  m.ok = g.Match(line, &values, &matched);
  for (size_t i = 0; i < values.size(); ++i) m.values.push_back(matched[i] ? std::string(values[i]) : "<null>");
  return m;
}

TEST(GrokPatternTest, NamedFieldsWithTypes) {
  auto g = GrokPattern::Compile("%{IPORHOST:client} %{WORD:verb} %{NUMBER:bytes:int} %{NUMBER:ratio:double}");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  ASSERT_EQ(g->fields().size(), 4u);
  EXPECT_EQ(g->fields()[0].name, "client");
  EXPECT_EQ(g->fields()[0].type->ToString(), "string");
  EXPECT_EQ(g->fields()[2].type->ToString(), "int");
  EXPECT_EQ(g->fields()[3].type->ToString(), "double");
  Matched m = MatchLine(*g, "10.0.0.1 GET 512 0.5");
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.values, (std::vector<std::string>{"10.0.0.1", "GET", "512", "0.5"}));
  EXPECT_FALSE(MatchLine(*g, "10.0.0.1 GET x 0.5").ok);
  EXPECT_FALSE(MatchLine(*g, "10.0.0.1 GET 512 0.5 trailing").ok) << "the whole line must match";
}

TEST(GrokPatternTest, StandardApacheLog) {
  auto g = GrokPattern::Compile("%{COMBINEDAPACHELOG}");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  std::vector<std::string> names;
  for (const auto& f : g->fields()) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"clientip", "ident", "auth", "timestamp", "verb", "request",
                                             "httpversion", "rawrequest", "response", "bytes", "referrer", "agent"}));
  Matched m = MatchLine(*g, R"(127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326 "http://x/" "Mozilla/4.08")");
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.values[0], "127.0.0.1");
  EXPECT_EQ(m.values[3], "10/Oct/2000:13:55:36 -0700");
  EXPECT_EQ(m.values[5], "/a.gif");
  EXPECT_EQ(m.values[7], "<null>");
  EXPECT_EQ(m.values[9], "2326");
  EXPECT_EQ(m.values[11], "\"Mozilla/4.08\"");
}

TEST(GrokPatternTest, TimestampsAndLevels) {
  auto g = GrokPattern::Compile("%{TIMESTAMP_ISO8601:ts} \\[%{LOGLEVEL:level}\\] %{GREEDYDATA:message}");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  Matched m = MatchLine(*g, "2026-11-29T12:30:01.250Z [WARN] disk almost full: 91%");
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.values, (std::vector<std::string>{"2026-11-29T12:30:01.250Z", "WARN", "disk almost full: 91%"}));
}

TEST(GrokPatternTest, CustomPatternsOverrideAndCompose) {
  auto g = GrokPattern::Compile("%{ORDERID:order} %{MONEY:amount:double}",
                                "# orders\nORDERID ORD-[0-9]{6}\n\nMONEY %{NUMBER}\nWORD [a-z]+\n");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_TRUE(MatchLine(*g, "ORD-123456 19.99").ok);
  EXPECT_FALSE(MatchLine(*g, "ORD-12345 19.99").ok);
}

TEST(GrokPatternTest, RepeatedFieldTakesTheAlternativeThatMatched) {
  auto g = GrokPattern::Compile("(?:%{INT:id}|id=%{WORD:id})");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  ASSERT_EQ(g->fields().size(), 1u);
  EXPECT_EQ(MatchLine(*g, "42").values[0], "42");
  EXPECT_EQ(MatchLine(*g, "id=abc").values[0], "abc");
}

TEST(GrokPatternTest, OnigurumaNamedGroups) {
  auto g = GrokPattern::Compile("(?<user>[a-z]+)@%{HOSTNAME:host}");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(MatchLine(*g, "ann@example.org").values, (std::vector<std::string>{"ann", "example.org"}));
}

TEST(GrokPatternTest, BadPatternsAreNamed) {
  auto unknown = GrokPattern::Compile("%{NOPE:x}");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("unknown pattern 'NOPE'"), std::string::npos);
  auto cycle = GrokPattern::Compile("%{A:x}", "A %{B}\nB x%{A}");
  ASSERT_FALSE(cycle.ok());
  EXPECT_NE(cycle.status().message().find("refers to itself"), std::string::npos) << cycle.status().ToString();
  auto type = GrokPattern::Compile("%{INT:x:bigint}");
  ASSERT_FALSE(type.ok());
  EXPECT_NE(type.status().message().find("unknown grok type 'bigint'"), std::string::npos);
  auto regex = GrokPattern::Compile("%{INT:x}(");
  ASSERT_FALSE(regex.ok());
  EXPECT_NE(regex.status().message().find("missing )"), std::string::npos) << regex.status().ToString();
  auto lookahead = GrokPattern::Compile("%{INT:x}(?=a)");
  EXPECT_FALSE(lookahead.ok());
  auto no_field = GrokPattern::Compile("%{INT} %{WORD}");
  ASSERT_FALSE(no_field.ok());
  EXPECT_NE(no_field.status().message().find("names no field"), std::string::npos);
  auto bad_def = GrokPattern::Compile("%{A:x}", "A");
  ASSERT_FALSE(bad_def.ok());
  EXPECT_NE(bad_def.status().message().find("line 1"), std::string::npos);
  auto unclosed = GrokPattern::Compile("%{INT:x");
  EXPECT_FALSE(unclosed.ok());
}

TEST(GrokPatternTest, ExponentialDefinitionsAreBounded) {
  std::string defs = "A0 x\n";
  for (int i = 1; i < 40; ++i) defs += "A" + std::to_string(i) + " %{A" + std::to_string(i - 1) + "}%{A" + std::to_string(i - 1) + "}\n";
  auto g = GrokPattern::Compile("%{A39:x}", defs);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("beyond 1 MB"), std::string::npos) << g.status().ToString();
}

}  // namespace
}  // namespace epoxy::grok
