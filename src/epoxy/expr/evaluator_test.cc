// SPDX-License-Identifier: Apache-2.0
#include "epoxy/expr/evaluator.h"

#include <gtest/gtest.h>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/cast.h"
#include "epoxy/expr/parser.h"
#include "epoxy/format/record_writer.h"
#include "epoxy/testing/test_util.h"
#include "epoxy/vector/take.h"

namespace epoxy::expr {
namespace {

/// The rows of a small JSON Lines table, as one batch.
BatchPtr Table(std::string_view json_lines) { return testing::JsonBatch(json_lines); }

const char* kRows = R"({"a": 1, "b": 2.5, "s": "Hello", "n": null, "ts": "2026-08-17 09:05:00", "d": {"os": "ios"}}
{"a": 2, "b": -1.0, "s": " x ", "n": 3, "ts": "2026-12-31 23:59:59", "d": {"os": "android"}}
{"a": null, "b": 0.0, "s": null, "n": null, "ts": null, "d": null}
)";

/// `expr` over kRows, one JSON value per row joined by '|', or "error: ...".
std::string Eval(std::string_view expr, std::string_view rows = kRows) {
  BatchPtr batch = Table(rows);
  auto parsed = ParseExpression(expr);
  if (!parsed.ok()) return "error: " + parsed.status().message();
  auto bound = Bind(*parsed, *batch->schema());
  if (!bound.ok()) return "error: " + bound.status().message();
  auto out = EvaluateToArray(**bound, *batch);
  if (!out.ok()) return "error: " + out.status().message();
  std::string text;
  for (int64_t i = 0; i < (*out)->length(); ++i) {
    if (i > 0) text += "|";
    AppendJsonValue(**out, i, &text);
  }
  return text;
}

std::string TypeOf(std::string_view expr) {
  BatchPtr batch = Table(kRows);
  auto bound = Bind(*ParseExpression(expr), *batch->schema());
  return bound.ok() ? (*bound)->type->ToString() : "error: " + bound.status().message();
}

TEST(EvaluatorTest, ArithmeticAndNulls) {
  EXPECT_EQ(Eval("a + 1"), "2|3|null");
  EXPECT_EQ(Eval("a * b"), "2.5|-2|null");  // the JSON writer prints -2.0 as -2
  EXPECT_EQ(Eval("a / 0"), "null|null|null") << "division by zero is null (non-ANSI)";
  EXPECT_EQ(Eval("7 % a"), "0|1|null");
  EXPECT_EQ(Eval("a / 2"), "0.5|1|null");
  EXPECT_EQ(TypeOf("a / 2"), "double") << "/ is always double";
  EXPECT_EQ(Eval("7 div a"), "7|3|null");
  EXPECT_EQ(Eval("-a"), "-1|-2|null");
  EXPECT_EQ(Eval("2147483647 + CAST(a AS INT)"), "-2147483648|-2147483647|null") << "int overflow wraps";
  EXPECT_EQ(TypeOf("a + 1"), "bigint") << "JSON integers read as bigint here";
  EXPECT_EQ(TypeOf("1 + 1.5"), "decimal(3,1)") << "1.5 is a decimal literal, as in Spark";
  EXPECT_EQ(TypeOf("1 + 1.5D"), "double");
}

TEST(EvaluatorTest, ComparisonsAndLogic) {
  EXPECT_EQ(Eval("a > 1"), "false|true|null");
  EXPECT_EQ(Eval("a = n"), "null|false|null");
  EXPECT_EQ(Eval("a <=> n"), "false|false|true");
  EXPECT_EQ(Eval("a > 1 AND n IS NULL"), "false|false|null");
  EXPECT_EQ(Eval("a > 1 OR n IS NULL"), "true|true|true");
  EXPECT_EQ(Eval("NOT (a > 1)"), "true|false|null");
  EXPECT_EQ(Eval("a IN (2, 3)"), "false|true|null");
  EXPECT_EQ(Eval("a IN (2, NULL)"), "null|true|null");
  EXPECT_EQ(Eval("a BETWEEN 1 AND 1"), "true|false|null");
  EXPECT_EQ(Eval("s LIKE 'H%o'"), "true|false|null");
  EXPECT_EQ(Eval("s LIKE '_ello'"), "true|false|null");
  EXPECT_EQ(Eval("s RLIKE '^H.l'"), "true|false|null");
  EXPECT_EQ(Eval("a = '1'"), "true|false|null") << "a string meets the other side's type";
  EXPECT_EQ(Eval("ts > '2026-09-01'"), "false|true|null");
  EXPECT_EQ(Eval("d.os = 'ios'"), "true|false|null");
}

TEST(EvaluatorTest, SparkCasts) {
  EXPECT_EQ(Eval("CAST('12.50' AS BIGINT)"), "12|12|12");
  EXPECT_EQ(Eval("CAST('abc' AS INT)"), "null|null|null");
  EXPECT_EQ(Eval("CAST(' 42 ' AS INT)"), "42|42|42");
  EXPECT_EQ(Eval("CAST('3000000000' AS INT)"), "null|null|null");
  EXPECT_EQ(Eval("CAST(3000000000 AS INT)"), "-1294967296|-1294967296|-1294967296") << "numbers wrap";
  EXPECT_EQ(Eval("CAST(b AS INT)"), "2|-1|0");
  EXPECT_EQ(Eval("CAST(a AS STRING)"), "\"1\"|\"2\"|null");
  EXPECT_EQ(Eval("CAST(b AS STRING)"), "\"2.5\"|\"-1.0\"|\"0.0\"");
  EXPECT_EQ(Eval("CAST('yes' AS BOOLEAN)"), "true|true|true");
  EXPECT_EQ(Eval("CAST('2026-02-30' AS DATE)"), "null|null|null");
  EXPECT_EQ(Eval("CAST(ts AS DATE)"), "\"2026-08-17\"|\"2026-12-31\"|null");
  EXPECT_EQ(Eval("CAST('1.005' AS DECIMAL(5,2))"), "\"1.01\"|\"1.01\"|\"1.01\"");
  // A DynamicFrame choice column converts member by member.
  EXPECT_EQ(Eval("CAST(v AS STRING)", "{\"v\": 1}\n{\"v\": \"x\"}\n{\"v\": null}\n"), "\"1\"|\"x\"|null");
  EXPECT_EQ(Eval("CAST(v AS DOUBLE)", "{\"v\": 1}\n{\"v\": \"2.5\"}\n{\"v\": \"x\"}\n"), "1|2.5|null");
  EXPECT_EQ(Eval("CAST(a AS nonsense)"), "error: unknown type 'nonsense' in 'CAST(a AS nonsense)'");
}

TEST(EvaluatorTest, GlueResolveChoiceCastsDifferFromSpark) {
  // worked-examples.md §3: amount holds 1200, "12.50", "N/A", 3400; cast:long gives 1200, null, null, 3400.
  BatchPtr batch = Table("{\"amount\": 1200}\n{\"amount\": \"12.50\"}\n{\"amount\": \"N/A\"}\n{\"amount\": 3400}\n");
  ASSERT_EQ(batch->column(0)->type()->ToString(), "choice<bigint,string>");
  auto text = [](const ArrayPtr& a) {
    std::string out;
    for (int64_t i = 0; i < a->length(); ++i) {
      if (i > 0) out += "|";
      AppendJsonValue(*a, i, &out);
    }
    return out;
  };
  auto glue = CastArray(batch->column(0), DataType::BigInt(), nullptr, CastRules::kGlueResolveChoice);
  ASSERT_TRUE(glue.ok());
  EXPECT_EQ(text(*glue), "1200|null|null|3400");
  auto spark = CastArray(batch->column(0), DataType::BigInt());
  ASSERT_TRUE(spark.ok());
  EXPECT_EQ(text(*spark), "1200|12|null|3400");
}

TEST(EvaluatorTest, Functions) {
  EXPECT_EQ(Eval("coalesce(n, a, 0)"), "1|3|0");
  EXPECT_EQ(Eval("nvl(s, 'none')"), "\"Hello\"|\" x \"|\"none\"");
  EXPECT_EQ(Eval("if(a > 1, 'big', 'small')"), "\"small\"|\"big\"|\"small\"");
  EXPECT_EQ(Eval("nullif(a, 1)"), "null|2|null");
  EXPECT_EQ(Eval("CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' END"), "\"one\"|\"two\"|null");
  EXPECT_EQ(Eval("abs(b)"), "2.5|1|0");
  EXPECT_EQ(Eval("round(b)"), "3|-1|0");
  EXPECT_EQ(Eval("round(2.345, 2)"), "\"2.35\"|\"2.35\"|\"2.35\"") << "a decimal literal rounds as a decimal";
  EXPECT_EQ(Eval("round(2.345D, 2)"), "2.35|2.35|2.35");
  EXPECT_EQ(Eval("floor(b)"), "2|-1|0");
  EXPECT_EQ(Eval("ceil(b)"), "3|-1|0");
  EXPECT_EQ(Eval("greatest(a, 2)"), "2|2|2");
  EXPECT_EQ(Eval("least(a, n)"), "1|2|null");
  EXPECT_EQ(Eval("upper(s)"), "\"HELLO\"|\" X \"|null");
  EXPECT_EQ(Eval("trim(s)"), "\"Hello\"|\"x\"|null");
  EXPECT_EQ(Eval("length(s)"), "5|3|null");
  EXPECT_EQ(Eval("substring(s, 2, 3)"), "\"ell\"|\"x \"|null");
  EXPECT_EQ(Eval("substring(s, -2)"), "\"lo\"|\"x \"|null");
  EXPECT_EQ(Eval("concat(s, '!', a)"), "\"Hello!1\"|\" x !2\"|null");
  EXPECT_EQ(Eval("concat_ws('-', s, n, 'z')"), "\"Hello-z\"|\" x -3-z\"|\"z\"");
  EXPECT_EQ(Eval("split('a,b,,c', ',')"), "[\"a\",\"b\",\"\",\"c\"]|[\"a\",\"b\",\"\",\"c\"]|[\"a\",\"b\",\"\",\"c\"]");
  EXPECT_EQ(Eval("regexp_extract(s, '(l+)(o)', 1)"), "\"ll\"|\"\"|null");
  EXPECT_EQ(Eval("regexp_replace(s, 'l', 'L')"), "\"HeLLo\"|\" x \"|null");
  EXPECT_EQ(Eval("regexp_replace('2026-08-17', '(\\\\d+)-(\\\\d+)-(\\\\d+)', '$3/$2/$1')"),
            "\"17/08/2026\"|\"17/08/2026\"|\"17/08/2026\"");
  EXPECT_EQ(Eval("md5('abc')"), "\"900150983cd24fb0d6963f7d28e17f72\"|\"900150983cd24fb0d6963f7d28e17f72\"|\"900150983cd24fb0d6963f7d28e17f72\"");
  EXPECT_EQ(Eval("sha2('abc', 256)").substr(0, 20), "\"ba7816bf8f01cfea414");
  // Spark's values: hash(1) is -559580957; its documented hash('Spark', array(123), 2) is
  // -1321691492 with an array of int, and JSON reads [123] as an array of bigint.
  EXPECT_EQ(Eval("hash(CAST(1 AS INT))", "{\"v\": 1}\n"), "-559580957");
  EXPECT_EQ(Eval("hash(1L)", "{\"v\": 1}\n"), "-1712319331");
  EXPECT_EQ(Eval("hash('Spark', v, CAST(2 AS INT))", "{\"v\": [123]}\n"), "-512353587");
  EXPECT_EQ(Eval("hash('Spark', CAST(123 AS INT), CAST(2 AS INT))", "{\"v\": 1}\n"), "-1321691492");
  EXPECT_EQ(Eval("hash(n)"), "42|519220707|42") << "a null leaves the seed";
}

TEST(EvaluatorTest, DatesAndTimes) {
  EXPECT_EQ(Eval("year(ts)"), "2026|2026|null");
  EXPECT_EQ(Eval("month(ts)"), "8|12|null");
  EXPECT_EQ(Eval("dayofmonth(ts)"), "17|31|null");
  EXPECT_EQ(Eval("hour(ts)"), "9|23|null");
  EXPECT_EQ(Eval("minute(ts)"), "5|59|null");
  EXPECT_EQ(Eval("date_add(ts, 15)"), "\"2026-09-01\"|\"2027-01-15\"|null");
  EXPECT_EQ(Eval("date_sub(DATE '2026-03-01', 1)"), "\"2026-02-28\"|\"2026-02-28\"|\"2026-02-28\"");
  EXPECT_EQ(Eval("datediff(ts, '2026-08-01')"), "16|152|null");
  EXPECT_EQ(Eval("to_date('17/08/2026', 'dd/MM/yyyy')"), "\"2026-08-17\"|\"2026-08-17\"|\"2026-08-17\"");
  EXPECT_EQ(Eval("to_date('garbage', 'dd/MM/yyyy')"), "null|null|null");
  EXPECT_EQ(Eval("to_timestamp('2026-08-17 10:11:12', 'yyyy-MM-dd HH:mm:ss')"),
            "\"2026-08-17T10:11:12\"|\"2026-08-17T10:11:12\"|\"2026-08-17T10:11:12\"");
  EXPECT_EQ(Eval("date_format(ts, 'yyyy/MM/dd HH:mm')"), "\"2026/08/17 09:05\"|\"2026/12/31 23:59\"|null");
  EXPECT_EQ(Eval("unix_timestamp('1970-01-02 00:00:00')"), "86400|86400|86400");
  EXPECT_EQ(Eval("from_unixtime(86400)"), "\"1970-01-02 00:00:00\"|\"1970-01-02 00:00:00\"|\"1970-01-02 00:00:00\"");
  EXPECT_EQ(Eval("date_trunc('month', ts)"), "\"2026-08-01T00:00:00\"|\"2026-12-01T00:00:00\"|null");
  EXPECT_EQ(TypeOf("current_date()"), "date");
  EXPECT_EQ(Eval("CAST(ts AS TIMESTAMP) + INTERVAL 1 DAY 2 HOURS"), "\"2026-08-18T11:05:00\"|\"2027-01-02T01:59:59\"|null");
  EXPECT_EQ(Eval("CAST(ts AS TIMESTAMP) - INTERVAL '30' MINUTES"), "\"2026-08-17T08:35:00\"|\"2026-12-31T23:29:59\"|null");
  EXPECT_EQ(Eval("DATE '2026-01-31' + INTERVAL 1 MONTH"), "\"2026-02-28\"|\"2026-02-28\"|\"2026-02-28\"");
  EXPECT_EQ(Eval("DATE '2024-02-29' - INTERVAL 1 YEAR"), "\"2023-02-28\"|\"2023-02-28\"|\"2023-02-28\"");
  EXPECT_EQ(TypeOf("DATE '2026-01-31' + INTERVAL 1 HOUR"), "timestamp");
  EXPECT_EQ(TypeOf("coalesce(INTERVAL 1 DAY)"), "error: an INTERVAL can only be added to or subtracted from a date or timestamp ('coalesce(INTERVAL 86400000000 MICROSECONDS)')");
  EXPECT_EQ(TypeOf("a + INTERVAL 1 DAY"), "error: type error in '(a + INTERVAL 86400000000 MICROSECONDS)': an INTERVAL is added to a date or timestamp, not to bigint");
}

TEST(EvaluatorTest, ErrorsNameWhatIsWrong) {
  EXPECT_EQ(Eval("nope > 1"), "error: column 'nope' not found; available columns: a, b, s, n, ts, d");
  EXPECT_EQ(Eval("d.model = 'x'"), "error: field 'model' not found in 'd'; its fields: os");
  EXPECT_EQ(Eval("a AND 1"), "error: type error in '(a AND 1)': and needs a boolean, got bigint (a)");
  EXPECT_EQ(Eval("d + 1"), "error: type error in '(d + 1)': + needs numbers, got struct<os:string>, int");
  EXPECT_EQ(Eval("nofunc(a)"), "error: [UNRESOLVED_ROUTINE] unknown function 'nofunc' in 'nofunc(a)'");
  EXPECT_EQ(Eval("uper(s)"), "error: [UNRESOLVED_ROUTINE] unknown function 'uper' in 'uper(s)'; did you mean upper?");
  EXPECT_EQ(Eval("substring(s)"),
            "error: [WRONG_NUM_ARGS] the function substring requires 2 to 3 parameter(s) but the actual number is 1 in "
            "'substring(s)'");
  EXPECT_EQ(Eval("sum(a)"), "error: aggregate function sum is not allowed here ('sum(a)')");
  EXPECT_EQ(Eval("s RLIKE '('"),
            "error: type error in 'rlike(s, ()': [INVALID_PARAMETER_VALUE.PATTERN] invalid regular expression '(': "
            "missing ): (");
}

TEST(EvaluatorTest, ConstantsFoldAtBindTime) {
  BatchPtr batch = Table(kRows);
  auto bound = Bind(*ParseExpression("a > 1 + 2 * 3"), *batch->schema());
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ((*bound)->args[1]->kind, ExprKind::kLiteral);
  EXPECT_EQ((*bound)->args[1]->ToString(), "7");
}

TEST(EvaluatorTest, FilterSelectsTrueRows) {
  BatchPtr batch = Table(kRows);
  auto bound = Bind(*ParseExpression("a >= 1"), *batch->schema());
  auto datum = Evaluate(**bound, *batch);
  ASSERT_TRUE(datum.ok());
  auto rows = SelectTrue(*datum, batch->num_rows());
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(*rows, (std::vector<int32_t>{0, 1}));
  auto taken = TakeBatch(batch, *rows);
  ASSERT_TRUE(taken.ok());
  EXPECT_EQ(testing::ToJsonLines(**taken)[1], R"({"a":2,"b":-1,"s":" x ","n":3,"ts":"2026-12-31 23:59:59","d":{"os":"android"}})");
}

TEST(EvaluatorTest, FilterOverManyRowsNullsAndSlices) {
  // 150 rows (two whole 64-row words and a part), every third null, a string equal to a constant
  // on either side; then the same over a slice starting inside a byte.
  std::string lines, expected;
  for (int i = 0; i < 150; ++i) {
    lines += i % 3 == 0 ? R"({"s": null})" : i % 5 == 0 ? R"({"s": "US"})" : i % 7 == 0 ? R"({"s": "USA"})" : R"({"s": "DE"})";
    lines += "\n";
  }
  BatchPtr batch = Table(lines);
  for (const char* text : {"s = 'US'", "'US' = s"}) {
    auto bound = Bind(*ParseExpression(text), *batch->schema());
    ASSERT_TRUE(bound.ok());
    auto datum = Evaluate(**bound, *batch);
    ASSERT_TRUE(datum.ok());
    auto rows = SelectTrue(*datum, batch->num_rows());
    ASSERT_TRUE(rows.ok());
    std::vector<int32_t> want;
    for (int i = 0; i < 150; ++i) {
      if (i % 3 != 0 && i % 5 == 0) want.push_back(i);
    }
    EXPECT_EQ(*rows, want) << text;
    // A slice of the predicate from row 3: the word path does not apply, the answer is the same.
    Datum sliced = *datum;
    sliced.array = datum->array->Slice(3, 140);
    auto from_three = SelectTrue(sliced, 140);
    ASSERT_TRUE(from_three.ok());
    std::vector<int32_t> shifted;
    for (int32_t r : want) {
      if (r >= 3 && r < 143) shifted.push_back(r - 3);
    }
    EXPECT_EQ(*from_three, shifted) << text;
  }
  EXPECT_EQ(Eval("s != 'Hello'"), "false|true|null");
}

}  // namespace
}  // namespace epoxy::expr
