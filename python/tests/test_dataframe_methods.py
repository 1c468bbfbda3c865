# SPDX-License-Identifier: Apache-2.0
"""One test per DataFrame method the README lists, each checking its rows."""
import json
import os

import pytest
from pyspark.errors import AnalysisException, PySparkNotImplementedError
from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.sql.types import IntegerType, LongType, StringType, StructField, StructType


@pytest.fixture
def people(spark):
    return spark.createDataFrame([("ann", "eng", 30, 100.0), ("bob", "eng", None, 80.0), ("cid", "ops", 25, None)],
                                 ["name", "dept", "age", "pay"])


def names(rows):
    return [r.name for r in rows]


def test_select_and_generated_names(people):
    df = people.select("name", F.col("age") + 1, (F.col("pay") * 2).alias("double_pay"))
    assert df.columns == ["name", "(age + 1)", "double_pay"]
    assert df.orderBy("name").collect()[0] == Row(name="ann", **{"(age + 1)": 31}, double_pay=200.0)


def test_selectExpr(people):
    assert people.selectExpr("upper(name) AS n", "age * 2").orderBy("n").first() == Row(n="ANN", **{"(age * 2)": 60})


def test_filter_and_where(people):
    assert names(people.filter(F.col("age") > 26).collect()) == ["ann"]
    assert names(people.where("dept = 'ops'").collect()) == ["cid"]
    assert names(people.filter(people.age.isNull()).collect()) == ["bob"]


def test_withColumn_replaces_in_place_and_appends(people):
    df = people.withColumn("age", F.col("age") * 10).withColumn("x", F.lit(1))
    assert df.columns == ["name", "dept", "age", "pay", "x"]
    assert df.orderBy("name").first().age == 300


def test_withColumns(people):
    df = people.withColumns({"a": F.lit(1), "b": F.col("age") + 1})
    assert df.orderBy("name").first()[-2:] == (1, 31)


def test_withColumnRenamed_and_withColumnsRenamed(people):
    assert people.withColumnRenamed("name", "who").columns[0] == "who"
    assert people.withColumnsRenamed({"name": "n", "dept": "d"}).columns[:2] == ["n", "d"]


def test_drop(people):
    assert people.drop("pay", "age").columns == ["name", "dept"]
    assert people.drop(people.dept).columns == ["name", "age", "pay"]


def test_dropDuplicates_distinct(spark):
    df = spark.createDataFrame([(1, "a"), (1, "a"), (1, "b"), (2, "a")], ["k", "v"])
    assert df.distinct().count() == 3
    assert sorted(r.k for r in df.dropDuplicates(["k"]).collect()) == [1, 2]
    assert df.drop_duplicates().count() == 3


def test_groupBy_agg(people):
    rows = people.groupBy("dept").agg(F.count("*").alias("n"), F.sum("pay"), F.avg("age")).orderBy("dept").collect()
    assert rows == [Row(dept="eng", n=2, **{"sum(pay)": 180.0, "avg(age)": 30.0}),
                    Row(dept="ops", n=1, **{"sum(pay)": None, "avg(age)": 25.0})]
    assert people.groupBy("dept").count().orderBy("dept").collect() == [Row(dept="eng", count=2), Row(dept="ops", count=1)]
    assert people.agg({"age": "max"}).collect() == [Row(**{"max(age)": 30})]


def test_join_kinds(spark, people):
    depts = spark.createDataFrame([("eng", "Engineering"), ("fin", "Finance")], ["dept", "title"])
    assert people.join(depts, "dept").count() == 2
    assert people.join(depts, "dept", "left").count() == 3
    assert people.join(depts, "dept", "full").count() == 4
    assert people.join(depts, "dept", "left_anti").collect()[0].name == "cid"
    assert people.join(depts, "dept", "semi").count() == 2
    rows = people.join(depts, people.dept == depts.dept, "inner").select(people.name, depts.title).orderBy("name").collect()
    assert rows == [Row(name="ann", title="Engineering"), Row(name="bob", title="Engineering")]


def test_crossJoin(spark):
    a = spark.createDataFrame([(1,), (2,)], ["x"])
    b = spark.createDataFrame([("p",), ("q",), ("r",)], ["y"])
    assert a.crossJoin(b).count() == 6


def test_orderBy_sort_nulls(people):
    assert [r.age for r in people.orderBy("age").collect()] == [None, 25, 30]
    assert [r.age for r in people.sort(F.desc("age")).collect()] == [30, 25, None]
    assert [r.age for r in people.orderBy(F.col("age").asc_nulls_last()).collect()] == [25, 30, None]
    assert [r.age for r in people.orderBy("age", ascending=False).collect()] == [30, 25, None]


def test_limit(people):
    assert people.orderBy("name").limit(2).count() == 2


def test_union_unionAll_unionByName(spark):
    a = spark.createDataFrame([(1, "x")], ["id", "v"])
    b = spark.createDataFrame([("y", 2)], ["v", "id"])
    assert a.union(a).count() == 2
    assert a.unionAll(a).count() == 2
    assert a.unionByName(b).collect() == [Row(id=1, v="x"), Row(id=2, v="y")]
    c = spark.createDataFrame([(3,)], ["id"])
    assert a.unionByName(c, allowMissingColumns=True).collect()[1] == Row(id=3, v=None)


def test_intersect_subtract_exceptAll(spark):
    a = spark.createDataFrame([(1,), (1,), (2,), (3,)], ["x"])
    b = spark.createDataFrame([(1,), (3,)], ["x"])
    assert sorted(r.x for r in a.intersect(b).collect()) == [1, 3]
    assert [r.x for r in a.subtract(b).collect()] == [2]
    assert sorted(r.x for r in a.exceptAll(b).collect()) == [1, 2]


def test_repartition_and_coalesce_keep_rows(people):
    assert people.repartition(4).count() == 3
    assert people.repartition("dept").count() == 3
    assert people.coalesce(1).count() == 3


def test_count_collect_take_first_head(people):
    ordered = people.orderBy("name")
    assert people.count() == 3
    assert len(ordered.collect()) == 3
    assert names(ordered.take(2)) == ["ann", "bob"]
    assert ordered.first().name == "ann"
    assert ordered.head().name == "ann"
    assert names(ordered.head(2)) == ["ann", "bob"]


def test_show_prints_sparks_table(people, capsys):
    people.orderBy("name").select("name", "age", "pay").show()
    assert capsys.readouterr().out == (
        "+----+----+-----+\n"
        "|name| age|  pay|\n"
        "+----+----+-----+\n"
        "| ann|  30|100.0|\n"
        "| bob|null| 80.0|\n"
        "| cid|  25| null|\n"
        "+----+----+-----+\n")
    people.orderBy("name").select("name").show(1)
    assert capsys.readouterr().out.endswith("only showing top 1 row\n")


def test_show_truncates_long_values(spark, capsys):
    spark.createDataFrame([("x" * 30,)], ["s"]).show()
    assert "|xxxxxxxxxxxxxxxxx...|" in capsys.readouterr().out
    spark.createDataFrame([("x" * 30,)], ["s"]).show(truncate=False)
    assert "|" + "x" * 30 + "|" in capsys.readouterr().out


def test_printSchema_schema_columns_dtypes(people, capsys):
    people.printSchema()
    assert capsys.readouterr().out == ("root\n |-- name: string (nullable = true)\n |-- dept: string (nullable = true)\n"
                                       " |-- age: long (nullable = true)\n |-- pay: double (nullable = true)\n")
    assert people.schema["age"].dataType == LongType()
    assert people.columns == ["name", "dept", "age", "pay"]
    assert people.dtypes == [("name", "string"), ("dept", "string"), ("age", "bigint"), ("pay", "double")]


def test_cache_persist_unpersist(spark, tmp_path):
    path = tmp_path / "events"
    spark.createDataFrame([(1, "a"), (2, "b")], ["id", "v"]).write.parquet(str(path))
    df = spark.read.parquet(str(path)).filter("id > 0")
    cached = df.cache()
    assert cached is df and cached.is_cached
    for f in path.iterdir():  # the cached rows are read, not the files
        f.unlink()
    assert cached.count() == 2
    assert sorted(r.v for r in cached.filter("id = 2").collect()) == ["b"]
    assert df.persist() is df
    assert not df.unpersist().is_cached


def test_createOrReplaceTempView_and_sql(spark, people):
    people.createOrReplaceTempView("people_view")
    assert spark.sql("SELECT count(*) AS n FROM people_view WHERE dept = 'eng'").collect() == [Row(n=2)]
    assert spark.table("people_view").count() == 3


def test_alias_in_self_join(people):
    a, b = people.alias("a"), people.alias("b")
    rows = a.join(b, F.col("a.dept") == F.col("b.dept")).select(F.col("a.name"), F.col("b.name").alias("other"))
    assert rows.count() == 5


def test_explain_prints_the_plan(people, capsys):
    people.filter("age > 1").explain()
    assert "== Physical Plan ==" in capsys.readouterr().out


def test_write_parquet_json_csv(people, tmp_path, spark):
    people.write.mode("overwrite").partitionBy("dept").parquet(str(tmp_path / "p"))
    assert sorted(os.listdir(tmp_path / "p")) == ["dept=eng", "dept=ops"]
    back = spark.read.parquet(str(tmp_path / "p"))
    assert back.filter("dept = 'ops'").select("name").collect() == [Row(name="cid")]
    people.write.format("json").save(str(tmp_path / "j"))
    assert spark.read.json(str(tmp_path / "j")).count() == 3
    people.write.csv(str(tmp_path / "c"))
    with pytest.raises(AnalysisException):
        people.write.csv(str(tmp_path / "c"))  # errorifexists, as Spark
    people.write.mode("append").csv(str(tmp_path / "c"))


def test_saveAsTable_and_insertInto(spark, people):
    people.write.mode("overwrite").saveAsTable("people_tbl")
    assert spark.table("people_tbl").count() == 3
    assert spark.read.table("default.people_tbl").count() == 3
    people.write.insertInto("people_tbl")
    assert spark.table("people_tbl").count() == 6
    assert "people_tbl" in [t.name for t in spark.catalog.listTables()]


def test_fillna_dropna_na_replace(people):
    assert people.fillna(0).orderBy("name").collect()[1].age == 0
    assert people.fillna({"pay": 1.5}).orderBy("name").collect()[2].pay == 1.5
    assert people.na.fill("?").count() == 3
    assert people.dropna().count() == 1
    assert people.dropna(how="all").count() == 3
    assert people.dropna(subset=["age"]).count() == 2
    assert sorted(r.dept for r in people.replace("eng", "ENG").collect()) == ["ENG", "ENG", "ops"]
    assert people.na.replace({"ops": "OPS"}, subset=["dept"]).filter("dept = 'OPS'").count() == 1


def test_describe(people):
    rows = {r.summary: r for r in people.describe("age").collect()}
    assert rows["count"].age == "2" and rows["min"].age == "25" and rows["max"].age == "30"


def test_toDF_and_transform(people):
    assert people.toDF("a", "b", "c", "d").columns == ["a", "b", "c", "d"]
    assert people.transform(lambda df: df.filter("age > 26")).count() == 1


def test_unknown_column_is_an_analysis_error(people):
    with pytest.raises(AnalysisException, match="nope"):
        people.select("nope").collect()


def test_outside_the_subset_is_not_implemented(people):
    with pytest.raises(NotImplementedError, match="toPandas"):
        people.toPandas()
    with pytest.raises(NotImplementedError, match="rdd"):
        people.rdd


def test_createDataFrame_forms(spark):
    assert spark.createDataFrame([Row(a=1, b="x")]).collect() == [Row(a=1, b="x")]
    assert spark.createDataFrame([{"a": 1, "b": "x"}]).columns == ["a", "b"]
    schema = StructType([StructField("a", IntegerType()), StructField("b", StringType())])
    df = spark.createDataFrame([(1, "x")], schema)
    assert df.schema == schema
    assert spark.createDataFrame([(1, "x")], "a int, b string").dtypes == [("a", "int"), ("b", "string")]
    assert spark.range(3).collect() == [Row(id=0), Row(id=1), Row(id=2)]
