// SPDX-License-Identifier: Apache-2.0
// The runner's own pieces: ordering, comparison, the known-failures list, a case in a child.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "case_runner.h"
#include "epoxy/testing/test_util.h"
#include "gold_corpus.h"

namespace epoxy::conformance {
namespace {

TEST(GoldCorpusTest, OnlyATopLevelOrderByOrdersTheRows) {
  EXPECT_TRUE(HasTopLevelOrderBy("SELECT a FROM t ORDER BY a;"));
  EXPECT_TRUE(HasTopLevelOrderBy("select a from t order\n by a desc"));
  EXPECT_FALSE(HasTopLevelOrderBy("SELECT a FROM t"));
  EXPECT_FALSE(HasTopLevelOrderBy("SELECT row_number() OVER (ORDER BY a) FROM t"));
  EXPECT_FALSE(HasTopLevelOrderBy("SELECT * FROM (SELECT a FROM t ORDER BY a)"));
  EXPECT_FALSE(HasTopLevelOrderBy("SELECT 'ORDER BY' FROM t"));
  EXPECT_FALSE(HasTopLevelOrderBy("SELECT a FROM t -- ORDER BY a"));
  EXPECT_FALSE(HasTopLevelOrderBy("SELECT a FROM t ORDER BY a UNION ALL SELECT 1"));
  EXPECT_TRUE(HasTopLevelOrderBy("SELECT a FROM t UNION ALL SELECT 1 ORDER BY 1"));
}

TEST(GoldCorpusTest, RowsMatchInOrderOrAsMultisets) {
  EXPECT_TRUE(RowsMatch({"1", "2"}, {"1", "2"}, true, false));
  EXPECT_FALSE(RowsMatch({"1", "2"}, {"2", "1"}, true, false));
  EXPECT_TRUE(RowsMatch({"1", "2"}, {"2", "1"}, false, false));
  EXPECT_FALSE(RowsMatch({"1", "1"}, {"1"}, false, false));
  EXPECT_FALSE(RowsMatch({"a"}, {"a  "}, false, false));
  EXPECT_TRUE(RowsMatch({"a"}, {"  a  "}, false, true));
  EXPECT_FALSE(RowsMatch({"a\tb"}, {"a b"}, false, true));
}

TEST(GoldCorpusTest, KnownFailuresRoundTrip) {
  testing::TempDir dir;
  std::string path = dir.path() + "/known.txt";
  std::vector<KnownFailure> failures = {{"function/a.json", "SELECT 'x\ty\\n'", "not implemented yet"},
                                        {"function/b.json", "SELECT 1", "Spark 4: why"}};
  ASSERT_OK(WriteKnownFailures(path, "# header\n", failures));
  ASSERT_OK_AND_ASSIGN(auto read, ReadKnownFailures(path));
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].query, "SELECT 'x\ty\\n'");
  EXPECT_EQ(read[1].reason, "Spark 4: why");
  EXPECT_EQ(KnownFailureLine(failures[0]), "function/a.json\tSELECT 'x\\ty\\\\n'\tnot implemented yet");
}

TEST(GoldCorpusTest, LoadsCasesWithTheirSchemas) {
  testing::TempDir dir;
  dir.Write("function/m.json",
            R"json({"cases": [{"query": "SELECT 1;", "result": ["1"], "schema": {"type": "struct",
            "fields": [{"name": "1", "type": "integer"}, {"name": "d", "type": "decimal(2, 1)"},
            {"name": "a", "type": {"type": "array", "elementType": "long", "containsNull": true}},
            {"name": "m", "type": {"type": "map", "keyType": "string", "valueType": "byte"}},
            {"name": "s", "type": {"type": "struct", "fields": [{"name": "x y", "type": "short"}]}}]}}]})json");
  ASSERT_OK_AND_ASSIGN(auto cases, LoadGoldCases(dir.path()));
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].file, "function/m.json");
  EXPECT_THAT(cases[0].column_types,
              ::testing::ElementsAre("int", "decimal(2,1)", "array<bigint>", "map<string,tinyint>",
                                     "struct<`x y`:smallint>"));
}

TEST(CaseRunnerTest, RunsACaseInAChild) {
  CaseOutput out = RunScriptIsolated("SELECT 1 AS a, 'x' AS b; SELECT array(1, 2) AS c", {});
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_THAT(out.rows, ::testing::ElementsAre("1\tx", "[1,2]"));
  EXPECT_THAT(out.column_names, ::testing::ElementsAre("c"));
  EXPECT_THAT(out.column_types, ::testing::ElementsAre("array<int>"));
  CaseOutput bad = RunScriptIsolated("SELECT nosuchfunction(1)", {});
  EXPECT_FALSE(bad.ok);
  EXPECT_THAT(bad.error, ::testing::HasSubstr("nosuchfunction"));
}

}  // namespace
}  // namespace epoxy::conformance
