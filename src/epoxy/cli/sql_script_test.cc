// SPDX-License-Identifier: Apache-2.0
#include "epoxy/cli/sql_script.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace epoxy::cli {
namespace {

std::vector<std::string> Texts(std::string_view script) {
  std::vector<std::string> out;
  for (const auto& s : SplitSqlScript(script)) out.push_back(s.text);
  return out;
}

TEST(SqlScriptTest, SplitsAtSemicolons) {
  EXPECT_THAT(Texts("SELECT 1; SELECT 2;"), ::testing::ElementsAre("SELECT 1", "SELECT 2"));
  EXPECT_THAT(Texts("SELECT 1"), ::testing::ElementsAre("SELECT 1"));
  EXPECT_THAT(Texts(" ;; \n ; "), ::testing::IsEmpty());
}

TEST(SqlScriptTest, QuotesBackticksAndCommentsHideSemicolons) {
  EXPECT_THAT(Texts("SELECT 'a;b', \"c;d\", `e;f` FROM t; SELECT 2"),
              ::testing::ElementsAre("SELECT 'a;b', \"c;d\", `e;f` FROM t", "SELECT 2"));
  EXPECT_THAT(Texts("SELECT 'it\\'s;' ; SELECT 2"),
              ::testing::ElementsAre("SELECT 'it\\'s;' ", "SELECT 2"));
  EXPECT_THAT(Texts("SELECT `a``;b`; SELECT 2"), ::testing::ElementsAre("SELECT `a``;b`", "SELECT 2"));
  EXPECT_THAT(Texts("SELECT 1 -- no; split\n, 2; SELECT 3"),
              ::testing::ElementsAre("SELECT 1 -- no; split\n, 2", "SELECT 3"));
  EXPECT_THAT(Texts("SELECT /* a; /* nested; */ still; */ 1; SELECT 2"),
              ::testing::ElementsAre("SELECT /* a; /* nested; */ still; */ 1", "SELECT 2"));
}

TEST(SqlScriptTest, CommentOnlyStatementsAreDropped) {
  EXPECT_THAT(Texts("-- heading\nSELECT 1;\n/* trailing */\n-- done"),
              ::testing::ElementsAre("SELECT 1"));
  EXPECT_THAT(Texts("/*+ BROADCAST(t) */ SELECT 1"),
              ::testing::ElementsAre("/*+ BROADCAST(t) */ SELECT 1"));
}

TEST(SqlScriptTest, StatementsKnowTheirLine) {
  auto statements = SplitSqlScript("SELECT 1;\n\nSELECT 'x\ny';\nSELECT 3");
  ASSERT_EQ(statements.size(), 3u);
  EXPECT_EQ(statements[0].line, 1);
  EXPECT_EQ(statements[1].line, 3);
  EXPECT_EQ(statements[2].line, 5);  // the literal spans lines 3 and 4
}

TEST(SqlScriptTest, UnterminatedLiteralRunsToTheEnd) {
  EXPECT_THAT(Texts("SELECT 'abc; SELECT 2"), ::testing::ElementsAre("SELECT 'abc; SELECT 2"));
}

}  // namespace
}  // namespace epoxy::cli
