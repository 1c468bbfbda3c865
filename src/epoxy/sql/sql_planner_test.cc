// SPDX-License-Identifier: Apache-2.0
#include "epoxy/sql/sql_planner.h"

#include <gtest/gtest.h>

#include "epoxy/exec/executor.h"
#include "epoxy/sql/parser.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::sql {
namespace {

std::string Error(std::string_view text) {
  auto q = ParseStatement(text);
  return q.ok() ? "ok" : q.status().message();
}

/// The rows `query` gives, as JSON lines, or one "error: ..." line.
std::vector<std::string> Rows(const std::string& query, const SqlContext& context) {
  std::vector<std::string> out;
  auto plan = PlanSql(query, context);
  if (!plan.ok()) return {"error: " + plan.status().message()};
  auto run = exec::Execute(*plan, [&](const BatchPtr& b) {
    for (auto& line : testing::ToJsonLines(*b)) out.push_back(line);
    return Status::OK();
  });
  if (!run.ok()) return {"error: " + run.status().message()};
  return out;
}

TEST(SqlParserTest, ShapesAndErrors) {
  auto st = ParseStatement("SELECT a, b + 1 AS c, * FROM parquet.`/data/x` t WHERE a > 1 UNION ALL SELECT 1, 2, 3 FROM db.tbl LIMIT 5;");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  const Query& q = *st->query;
  ASSERT_EQ(q.kind, Query::Kind::kUnion);
  EXPECT_TRUE(q.all);
  const SelectCore& first = q.left->select;
  EXPECT_EQ(first.from[0]->kind, TableRef::Kind::kFiles);
  EXPECT_EQ(first.from[0]->path, "/data/x");
  EXPECT_EQ(first.from[0]->alias, "t");
  EXPECT_EQ(first.items[1].alias, "c");
  EXPECT_EQ(q.right->select.from[0]->database, "db");
  EXPECT_EQ(q.right->select.from[0]->table, "tbl");
  EXPECT_EQ(*q.limit, 5);
  auto j = ParseStatement("SELECT /*+ BROADCAST(u) */ a FROM t LEFT JOIN u ON t.a = u.a JOIN v USING (a) GROUP BY ROLLUP(a, b) ORDER BY 1 DESC");
  ASSERT_TRUE(j.ok()) << j.status().ToString();
  const SelectCore& core = j->query->select;
  EXPECT_EQ(core.broadcast, (std::vector<std::string>{"u"}));
  EXPECT_EQ(core.from[0]->kind, TableRef::Kind::kJoin);
  EXPECT_EQ(core.from[0]->using_columns, (std::vector<std::string>{"a"}));
  EXPECT_EQ(core.from[0]->left->join_type, plan::JoinType::kLeft);
  EXPECT_EQ(core.grouping_sets.size(), 3u) << "ROLLUP(a, b) is (a, b), (a), ()";
  EXPECT_FALSE(j->query->order_by[0].ascending);
  EXPECT_FALSE(j->query->order_by[0].nulls_first) << "Spark: nulls last when descending";
  EXPECT_EQ(Error("SELECT a FROM t LIMIT x"), "LIMIT needs a whole number, got 'x'");
  EXPECT_EQ(Error("SELECT a b c FROM t"), "syntax error: expected the end of the statement at position 12 of 'SELECT a b c FROM t', found 'c'");
  EXPECT_EQ(Error("SELECT FROM t"), "syntax error: expected an expression at position 8 of 'SELECT FROM t', found 'FROM'");
  EXPECT_EQ(Error("DELETE FROM t"), "only queries (SELECT, WITH, VALUES, TABLE, EXPLAIN) are supported by epoxy sql, not 'DELETE'");
  EXPECT_EQ(Error("SELECT a FROM t LEFT JOIN u"), "syntax error: expected ON or USING after left outer JOIN at position 28 of 'SELECT a FROM t LEFT JOIN u', found the end");
}

TEST(SqlPlannerTest, PushdownIsVisibleInExplain) {
  testing::TempDir dir;
  dir.Write("t/dt=2026-08-17/a.json", "{\"id\": 1, \"v\": 2.5}\n{\"id\": 2, \"v\": 3.5}\n");
  dir.Write("t/dt=2026-08-18/a.json", "{\"id\": 3, \"v\": 4.5}\n");
  SqlContext context;
  auto plan = PlanSql("SELECT id FROM json.`" + dir.path() + "/t` WHERE dt = '2026-08-18' AND v > 1", context);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  std::string explain = exec::Optimize(*plan)->Explain();
  EXPECT_NE(explain.find("partitioned by [dt] columns [id, v, dt] partition filter (dt = DATE '2026-08-18') filter (v > "),
            std::string::npos) << explain;
  std::vector<std::string> rows;
  auto metrics = exec::Execute(*plan, [&](const BatchPtr& b) {
    for (auto& line : testing::ToJsonLines(*b)) rows.push_back(line);
    return Status::OK();
  });
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  EXPECT_EQ(rows, (std::vector<std::string>{"{\"id\":3}"}));
  EXPECT_EQ(metrics->partitions_pruned, 1);
  EXPECT_EQ(metrics->files_read, 1);
}

TEST(SqlPlannerTest, DistinctAndUnionRemoveRepeats) {
  testing::TempDir dir;
  dir.Write("t/a.json", "{\"k\": 1, \"s\": \"x\"}\n{\"k\": 2, \"s\": null}\n{\"k\": 1, \"s\": \"x\"}\n"
                        "{\"k\": null, \"s\": null}\n{\"k\": null, \"s\": null}\n");
  SqlContext context;
  std::string t = "json.`" + dir.path() + "/t`";
  // Row order after DISTINCT is not defined (as in Spark): compare sorted.
  auto rows = [&](const std::string& q) {
    auto out = Rows(q, context);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(rows("SELECT DISTINCT k, s FROM " + t),
            (std::vector<std::string>{"{\"k\":1,\"s\":\"x\"}", "{\"k\":2,\"s\":null}", "{\"k\":null,\"s\":null}"}));
  EXPECT_EQ(rows("SELECT DISTINCT s FROM " + t + " ORDER BY s LIMIT 1"), (std::vector<std::string>{"{\"s\":null}"}));
  // UNION removes repeats across and within its inputs; UNION ALL after it keeps them.
  EXPECT_EQ(rows("SELECT k FROM " + t + " WHERE k = 1 UNION SELECT k FROM " + t + " UNION ALL SELECT 2L FROM " + t + " WHERE k = 2"),
            (std::vector<std::string>{"{\"k\":1}", "{\"k\":2}", "{\"k\":2}", "{\"k\":null}"}));
  auto plan = PlanSql("SELECT DISTINCT k FROM " + t, context);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ((*plan)->Explain().substr(0, 9), "Distinct\n");
}

TEST(SqlPlannerTest, BadInputIsNamed) {
  testing::TempDir dir;
  dir.Write("t/a.json", "{\"id\": 1}\n");
  SqlContext context;
  std::string t = "json.`" + dir.path() + "/t`";
  auto error = [&](const std::string& q) {
    auto plan = PlanSql(q, context);
    return plan.ok() ? std::string("ok") : plan.status().message();
  };
  EXPECT_EQ(error("SELECT nope FROM " + t), "column 'nope' not found; available columns: id");
  EXPECT_EQ(error("SELECT id FROM " + t + " WHERE id"), "a filter must be boolean; 'id' is bigint");
  EXPECT_EQ(error("SELECT id FROM " + t + " UNION ALL SELECT DATE '2026-01-01' FROM " + t),
            "UNION column 1 (id) is bigint in the first input and date in input 2");
  EXPECT_NE(error("SELECT id FROM json.`" + dir.path() + "/missing`").find("missing"), std::string::npos);
  EXPECT_EQ(error("SELECT id FROM db.t"), "no catalog to find table t");
}

TEST(SqlPlannerTest, FolderSchemasAreSampledAndNeverLoseValues) {
  testing::TempDir dir;
  dir.Write("t/dt=1/a.json", "{\"a\": 1}\n");
  dir.Write("t/dt=2/a.json", "{\"a\": \"text\", \"b\": [1]}\n");
  SqlContext context;
  auto rows = [&](const std::string& q) { return Rows(q, context); };
  // Files of several partitions are sampled and their schemas merged (bigint and string: string).
  EXPECT_EQ(rows("SELECT * FROM json.`" + dir.path() + "/t`"),
            (std::vector<std::string>{"{\"a\":\"1\",\"b\":null,\"dt\":1}", "{\"a\":\"text\",\"b\":[1],\"dt\":2}"}));
  // A file the sample missed, whose values do not fit: an error rather than nulls.
  testing::TempDir many;
  for (int d = 1; d <= 40; ++d) many.Write("t/dt=" + std::to_string(d) + "/a.json", "{\"a\": 1}\n");
  many.Write("t/dt=7/b.json", "{\"a\": \"zzz\"}\n");
  auto out = rows("SELECT sum(a) AS s FROM json.`" + many.path() + "/t`");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0].find("column a holds string values"), std::string::npos) << out[0];
}

}  // namespace
}  // namespace epoxy::sql
