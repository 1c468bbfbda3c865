# SPDX-License-Identifier: Apache-2.0
"""Column operators and the pyspark.sql.functions the README lists, checked on their values."""
import datetime as dt

import pytest
from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.sql.window import Window


@pytest.fixture
def df(spark):
    return spark.createDataFrame(
        [(1, "apple pie", "2024-03-05", [1, 2, 3], {"k": 1}), (2, None, "2024-12-31", [], {}),
         (3, "banana", None, None, None)],
        "id int, s string, d string, a array<int>, m map<string,int>")


def one(df, column):
    return [r[0] for r in df.orderBy("id").select(column).collect()]


def test_operators(df):
    assert one(df, (F.col("id") + 1) * 2 - 1) == [3, 5, 7]
    assert one(df, F.col("id") / 2) == [0.5, 1.0, 1.5]
    assert one(df, F.col("id") % 2) == [1, 0, 1]
    assert one(df, (F.col("id") > 1) & ~(F.col("id") == 3)) == [False, True, False]
    assert one(df, (F.col("id") == 1) | F.col("s").isNull()) == [True, True, False]


def test_column_methods(df):
    assert one(df, F.col("s").isNull()) == [False, True, False]
    assert one(df, F.col("s").isNotNull()) == [True, False, True]
    assert one(df, F.col("id").isin(1, 3)) == [True, False, True]
    assert one(df, F.col("id").between(2, 3)) == [False, True, True]
    assert one(df, F.col("s").like("%pie")) == [True, None, False]
    assert one(df, F.col("s").rlike("^ban")) == [False, None, True]
    assert one(df, F.col("s").contains("ana")) == [False, None, True]
    assert one(df, F.col("s").startswith("app")) == [True, None, False]
    assert one(df, F.col("s").endswith("pie")) == [True, None, False]
    assert one(df, F.col("s").substr(1, 3)) == ["app", None, "ban"]
    assert one(df, F.col("id").cast("string")) == ["1", "2", "3"]
    assert one(df, F.col("a").getItem(0)) == [1, None, None]
    assert one(df, F.col("m").getItem("k")) == [1, None, None]
    assert one(df, F.when(F.col("id") == 1, "one").when(F.col("id") == 2, "two").otherwise("many")) == ["one", "two", "many"]


def test_column_names_follow_spark(df):
    assert df.select(F.col("id") + 1, F.col("s").substr(1, 2)).columns == ["(id + 1)", "substr(s, 1, 2)"]
    assert df.select(F.count(F.lit(1)), F.sum("id")).columns == ["count(1)", "sum(id)"]
    assert df.select(F.col("a")[0]).columns == ["a[0]"]
    assert df.groupBy().avg("id").columns == ["avg(id)"]


def test_string_functions(df):
    assert one(df, F.upper("s")) == ["APPLE PIE", None, "BANANA"]
    assert one(df, F.concat_ws("-", F.col("s"), F.lit("x"))) == ["apple pie-x", "x", "banana-x"]
    assert one(df, F.regexp_extract("s", r"(\w+) (\w+)", 2)) == ["pie", None, ""]
    assert one(df, F.regexp_replace("s", "a", "A")) == ["Apple pie", None, "bAnAnA"]
    assert one(df, F.length("s")) == [9, None, 6]
    assert one(df, F.split("s", " ")) == [["apple", "pie"], None, ["banana"]]
    assert one(df, F.lpad("s", 3, "*")) == ["app", None, "ban"]
    assert one(df, F.hex(F.lit("a"))) == ["61", "61", "61"]


def test_math_functions(df):
    assert one(df, F.sqrt(F.col("id") * 4)) == [2.0, 2.8284271247461903, 3.4641016151377544]
    assert one(df, F.pow("id", 2)) == [1.0, 4.0, 9.0]
    assert one(df, F.log(10.0, F.col("id") * 10)) == [1.0, 1.301029995663981, 1.4771212547196624]  # ln(x) / ln(base)
    assert one(df, F.log(F.col("id") - 1)) == [None, 0.0, 0.6931471805599453]  # ln(0) is null
    assert one(df, F.pmod(F.col("id") - 3, F.lit(2))) == [0, 1, 0]
    assert one(df, F.factorial("id")) == [1, 2, 6]
    assert one(df, F.round(F.pi() * F.col("id"), 2)) == [3.14, 6.28, 9.42]


def test_more_string_functions(df):
    assert one(df, F.substring_index("s", " ", 1)) == ["apple", None, "banana"]
    assert one(df, F.split_part("s", F.lit(" "), F.lit(-1))) == ["pie", None, "banana"]
    assert one(df, F.left("s", F.lit(3))) == ["app", None, "ban"]
    assert one(df, F.levenshtein("s", F.lit("banana"))) == [9, None, 0]


def test_date_functions(df):
    d = F.to_date("d")
    assert one(df, d) == [dt.date(2024, 3, 5), dt.date(2024, 12, 31), None]
    assert one(df, F.date_format(d, "yyyy/MM")) == ["2024/03", "2024/12", None]
    assert one(df, F.to_timestamp(F.lit("2024-01-02 03:04:05"))) == [dt.datetime(2024, 1, 2, 3, 4, 5)] * 3
    assert one(df, F.add_months(d, 2)) == [dt.date(2024, 5, 5), dt.date(2025, 2, 28), None]
    assert one(df, F.last_day(d)) == [dt.date(2024, 3, 31), dt.date(2024, 12, 31), None]
    assert one(df, F.datediff(F.lit("2024-03-10"), d)) == [5, -296, None]
    assert isinstance(one(df, F.current_timestamp())[0], dt.datetime)


def test_collection_functions(df):
    assert one(df, F.size("a")) == [3, 0, -1]
    assert one(df, F.element_at("a", -1)) == [3, None, None]
    assert one(df, F.array_contains("a", 2)) == [True, False, None]
    assert one(df, F.array(F.col("id"), F.lit(7))) == [[1, 7], [2, 7], [3, 7]]
    assert one(df, F.struct("id", F.lit("x").alias("tag"))) == [Row(id=1, tag="x"), Row(id=2, tag="x"), Row(id=3, tag="x")]
    assert one(df, F.create_map(F.lit("id"), F.col("id"))) == [{"id": 1}, {"id": 2}, {"id": 3}]
    assert one(df, F.sort_array(F.array(F.lit(3), F.lit(1)))) == [[1, 3]] * 3


def test_aggregates_and_windows(spark):
    df = spark.createDataFrame([("a", 1), ("a", 3), ("b", 5)], ["k", "v"])
    agg = df.groupBy("k").agg(F.collect_list("v").alias("l"), F.countDistinct("v").alias("n"), F.max("v").alias("m"))
    assert agg.orderBy("k").collect() == [Row(k="a", l=[1, 3], n=2, m=3), Row(k="b", l=[5], n=1, m=5)]
    w = Window.partitionBy("k").orderBy("v")
    rows = df.select("k", "v", F.row_number().over(w).alias("rn"), F.lag("v").over(w).alias("prev"),
                     F.sum("v").over(w.rowsBetween(Window.unboundedPreceding, Window.currentRow)).alias("run"))
    assert rows.orderBy("k", "v").collect() == [Row(k="a", v=1, rn=1, prev=None, run=1), Row(k="a", v=3, rn=2, prev=1, run=4),
                                               Row(k="b", v=5, rn=1, prev=None, run=5)]


def test_broadcast_hint_keeps_the_answer(spark):
    facts = spark.createDataFrame([(1, 10), (2, 20), (1, 30)], ["k", "v"])
    dim = spark.createDataFrame([(1, "one"), (2, "two")], ["k", "name"])
    joined = facts.join(F.broadcast(dim), "k").groupBy("name").sum("v").orderBy("name")
    assert joined.collect() == [Row(name="one", **{"sum(v)": 40}), Row(name="two", **{"sum(v)": 20})]


def test_ids_are_unique(spark):
    ids = [r[0] for r in spark.range(1000).select(F.monotonically_increasing_id()).collect()]
    assert len(set(ids)) == 1000 and ids == sorted(ids)
    with pytest.raises(NotImplementedError, match="input_file_name"):
        spark.range(1).select(F.input_file_name()).collect()


def test_expr_and_lit(df):
    assert one(df, F.expr("id * 10")) == [10, 20, 30]
    assert one(df, F.lit(None)) == [None, None, None]


def test_explode_and_posexplode(df):
    rows = df.select("id", F.explode("a").alias("x")).orderBy("id", "x").collect()
    assert [tuple(r) for r in rows] == [(1, 1), (1, 2), (1, 3)]
    outer = df.select("id", F.explode_outer("a")).orderBy("id", "col").collect()
    assert [tuple(r) for r in outer] == [(1, 1), (1, 2), (1, 3), (2, None), (3, None)]
    assert df.select(F.posexplode("a")).columns == ["pos", "col"]
    assert df.withColumn("kv", F.lit(1)).select(F.explode("m")).collect() == [Row(key="k", value=1)]


def test_python_udfs(spark, df):
    from pyspark.errors import PythonException
    from pyspark.sql.types import IntegerType
    plus = F.udf(lambda v: v + 100, IntegerType())

    @F.udf("string")
    def shout(s):
        return None if s is None else s.upper() + "!"

    @F.udf(returnType="date")
    def next_day(d):
        return None if d is None else d + dt.timedelta(days=1)
    out = df.select(plus("id"), shout(df.s).alias("loud"), next_day(F.to_date("d")).alias("next")).orderBy("loud")
    assert out.columns == ["<lambda>(id)", "loud", "next"]
    assert [tuple(r) for r in out.collect()] == [(102, None, dt.date(2025, 1, 1)), (101, "APPLE PIE!", dt.date(2024, 3, 6)),
                                                 (103, "BANANA!", None)]
    spark.udf.register("triple", lambda v: v * 3, "bigint")
    assert spark.sql("SELECT triple(5) AS t").collect() == [Row(t=15)]
    broken = F.udf(lambda v: 1 // 0, "int")
    with pytest.raises(PythonException, match="ZeroDivisionError"):
        df.select(broken("id")).collect()


def test_not_supported_functions_say_so(df):
    with pytest.raises(NotImplementedError, match="pandas_udf"):
        F.pandas_udf(lambda x: x)
