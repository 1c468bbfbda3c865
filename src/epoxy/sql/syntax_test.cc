// SPDX-License-Identifier: Apache-2.0
// Query syntax beyond the plain SELECT: inline tables, generators, PIVOT, named windows and the
// other clauses of Spark 3.5's query grammar, planned and run. Expected rows are Spark's (its SQL
// reference's examples where it has them).
#include <gtest/gtest.h>

#include "epoxy/exec/executor.h"
#include "epoxy/sql/parser.h"
#include "epoxy/sql/sql_planner.h"
#include "epoxy/testing/test_util.h"

namespace epoxy::sql {
namespace {

using Lines = std::vector<std::string>;

/// The rows `query` gives as JSON lines (in order), or one "error: ..." line.
Lines Rows(const std::string& query) {
  SqlContext context;
  Lines out;
  auto plan = PlanSql(query, context);
  if (!plan.ok()) return {"error: " + plan.status().message()};
  auto run = exec::Execute(*plan, [&](const BatchPtr& b) {
    for (auto& line : testing::ToJsonLines(*b)) out.push_back(line);
    return Status::OK();
  });
  if (!run.ok()) return {"error: " + run.status().message()};
  return out;
}

/// The output columns of `query`: "name type, ...", or "error: ...".
std::string Columns(const std::string& query) {
  SqlContext context;
  auto plan = PlanSql(query, context);
  if (!plan.ok()) return "error: " + plan.status().message();
  std::string out;
  for (const auto& f : (*plan)->schema->fields()) out += (out.empty() ? "" : ", ") + f.name + " " + f.type->ToString();
  return out;
}

/// The error of `query` (planning or running), or "ok".
std::string Error(const std::string& query) {
  Lines rows = Rows(query);
  if (rows.size() == 1 && rows[0].rfind("error: ", 0) == 0) return rows[0].substr(7);
  return "ok";
}

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(InlineTableTest, RowsAliasesAndDefaultNames) {
  EXPECT_EQ(Rows("SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(a, b)"), (Lines{R"({"a":1,"b":"a"})", R"({"a":2,"b":"b"})"}));
  // Without parentheses around single values; without an alias the columns are col1, col2, ...
  EXPECT_EQ(Rows("SELECT * FROM VALUES 1, 2"), (Lines{R"({"col1":1})", R"({"col1":2})"}));
  EXPECT_EQ(Rows("SELECT * FROM VALUES ('one', 1), ('two', 2), ('three', NULL)"),
            (Lines{R"({"col1":"one","col2":1})", R"({"col1":"two","col2":2})", R"({"col1":"three","col2":null})"}));
  // AS is optional; the alias qualifies the columns.
  EXPECT_EQ(Rows("SELECT tab.col FROM VALUES (1), (2) tab(col) WHERE col > 1"), (Lines{R"({"col":2})"}));
  EXPECT_EQ(Rows("SELECT t.col1 FROM VALUES (7) AS t"), (Lines{R"({"col1":7})"}));
  // A whole statement, in set operations, in WITH and in subqueries.
  EXPECT_EQ(Rows("VALUES (1), (2)"), (Lines{R"({"col1":1})", R"({"col1":2})"}));
  EXPECT_EQ(Rows("VALUES ('one', 1), ('two', 2) AS data(a, b)"), (Lines{R"({"a":"one","b":1})", R"({"a":"two","b":2})"}));
  EXPECT_EQ(Rows("SELECT 1 AS x UNION ALL VALUES (2)"), (Lines{R"({"x":1})", R"({"x":2})"}));
  EXPECT_EQ(Rows("WITH t(a) AS (VALUES 1, 2) SELECT sum(a) AS s FROM t"), (Lines{R"({"s":3})"}));
  EXPECT_EQ(Rows("SELECT * FROM (VALUES (1, 2)) AS t(x, y)"), (Lines{R"({"x":1,"y":2})"}));
  EXPECT_EQ(Rows("SELECT a, b FROM VALUES (1, 2) AS t(a, b) JOIN VALUES (1, 3) AS u(a, c) USING (a)"),
            (Lines{R"({"a":1,"b":2})"}));
  EXPECT_EQ(Rows("VALUES (3), (1), (2) ORDER BY col1 DESC LIMIT 2"), (Lines{R"({"col1":3})", R"({"col1":2})"}));
}

TEST(InlineTableTest, ColumnsTakeTheRowsWiderType) {
  // An int and a decimal meet at decimal(11,1) (int is decimal(10,0)); int and bigint at bigint.
  EXPECT_EQ(Columns("VALUES (1), (2.5)"), "col1 decimal(11,1)");
  EXPECT_EQ(Rows("VALUES (1), (2.5)"), (Lines{R"({"col1":"1.0"})", R"({"col1":"2.5"})"}));
  EXPECT_EQ(Columns("VALUES (1, 1.5D), (2L, 2)"), "col1 bigint, col2 double");
  EXPECT_EQ(Columns("VALUES (NULL), (NULL)"), "col1 null");
  EXPECT_EQ(Columns("VALUES (NULL, 'x'), (1, NULL)"), "col1 int, col2 string");
  EXPECT_EQ(Columns("VALUES (DATE '2024-01-01'), (TIMESTAMP '2024-01-02 03:04:05')"), "col1 timestamp");
  // A number is never promoted to a string (Spark: INCOMPATIBLE_TYPES_IN_INLINE_TABLE).
  EXPECT_TRUE(StartsWith(Error("VALUES (1), ('a')"), "[INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE] the values of column `col1`"))
      << Error("VALUES (1), ('a')");
}

TEST(InlineTableTest, NestedConstructorsAndNulls) {
  EXPECT_EQ(Rows("SELECT * FROM VALUES (array(1, 2), named_struct('a', 1, 'b', 'x')), (array(3), named_struct('a', 2, 'b', NULL)) AS t(arr, s)"),
            (Lines{R"({"arr":[1,2],"s":{"a":1,"b":"x"}})", R"({"arr":[3],"s":{"a":2,"b":null}})"}));
  EXPECT_EQ(Columns("VALUES (array(1)), (array(2.5)), (NULL)"), "col1 array<decimal(11,1)>");
  EXPECT_EQ(Rows("VALUES (map('a', 1)), (map('b', 2L))"), (Lines{R"({"col1":{"a":1}})", R"({"col1":{"b":2}})"}));
  EXPECT_EQ(Rows("SELECT count(*) AS n, count(col) AS c FROM VALUES (NULL), (5), (5), (20) AS tab(col)"), (Lines{R"({"n":4,"c":3})"}));
  // Constant expressions are computed: casts, arithmetic, functions.
  EXPECT_EQ(Rows("VALUES (CAST('2' AS INT) + 1, upper('x'))"), (Lines{R"({"col1":3,"col2":"X"})"}));
}

TEST(InlineTableTest, ErrorsSayWhatIsWrong) {
  EXPECT_EQ(Error("VALUES (1, 2), (3)"), "[INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH] an inline table of 2 columns has a row (1) of 1 values");
  EXPECT_EQ(Error("SELECT * FROM VALUES (1, 2) AS t(a)"),
            "[INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH] an inline table of 1 columns has a row (0) of 2 values");
  EXPECT_TRUE(StartsWith(Error("VALUES (x)"), "[INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE] cannot evaluate 'x'"))
      << Error("VALUES (x)");
  EXPECT_TRUE(StartsWith(Error("VALUES ()"), "syntax error: expected a value in the inline table's row")) << Error("VALUES ()");
}

}  // namespace
}  // namespace epoxy::sql
