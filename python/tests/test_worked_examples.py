# SPDX-License-Identifier: Apache-2.0
"""The worked examples of ../shared/reference/worked-examples.md as Glue scripts run by `epoxy run`."""
import json
import os
import subprocess

import pytest

PREAMBLE = """
import sys
from awsglue.context import GlueContext
from awsglue.dynamicframe import DynamicFrame
from awsglue.job import Job
from awsglue.transforms import *
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
from pyspark.sql import functions as F
from pyspark.sql.window import Window

args = getResolvedOptions(sys.argv, ["JOB_NAME", "input", "output"])
sc = SparkContext()
glueContext = GlueContext(sc)
spark = glueContext.spark_session
job = Job(glueContext)
job.init(args["JOB_NAME"], args)
"""


def write_lines(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def read_output(spark, path):
    return spark.read.parquet(str(path))


def test_drifting_column_cast_long(run_script, tmp_path, spark):
    """2: user_id drifts to a string; the DynamicFrame sees choice<bigint,string>; cast:long gives 42, 43, null."""
    raw = tmp_path / "raw"
    write_lines(raw / "part-000.json", [{"user_id": 42}])
    write_lines(raw / "part-001.json", [{"user_id": 43}])
    write_lines(raw / "part-002.json", [{"user_id": "N/A"}])
    script = PREAMBLE + """
users = glueContext.create_dynamic_frame.from_options("s3", {"paths": [args["input"]]}, "json")
users.printSchema()
resolved = ResolveChoice.apply(frame=users, specs=[("user_id", "cast:long")])
glueContext.write_dynamic_frame.from_options(frame=resolved, connection_type="s3",
    connection_options={"path": args["output"]}, format="parquet")
job.commit()
"""
    result = run_script(script, "--JOB_NAME", "drift", "--input", str(raw), "--output", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "|-- user_id: choice\n|    |-- long\n|    |-- string" in result.stdout
    values = sorted((r.user_id for r in read_output(spark, tmp_path / "out").collect()), key=lambda v: (v is None, v))
    assert values == [42, 43, None]


def test_resolve_choice_three_ways(run_script, tmp_path):
    """3: amount holds 1200, "12.50", "N/A", 3400."""
    raw = tmp_path / "payments"
    write_lines(raw / "p.json", [{"id": 1, "amount": 1200}, {"id": 2, "amount": "12.50"}, {"id": 3, "amount": "N/A"},
                                 {"id": 4, "amount": 3400}])
    script = PREAMBLE + """
payments = glueContext.create_dynamic_frame.from_options("s3", {"paths": [args["input"]]}, "json")
for action in ["cast:long", "make_cols", "make_struct", "project:string"]:
    out = payments.resolveChoice(specs=[("amount", action)]).toDF().orderBy("id")
    print(action, [list(r) for r in out.collect()], out.columns)
job.commit()
"""
    result = run_script(script, "--JOB_NAME", "pay", "--input", str(raw), "--output", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert lines["cast:long"] == "[[1, 1200], [2, None], [3, None], [4, 3400]] ['id', 'amount']"
    assert lines["make_cols"] == ("[[1, 1200, None], [2, None, '12.50'], [3, None, 'N/A'], [4, 3400, None]] "
                                  "['id', 'amount_long', 'amount_string']")
    assert "[2, Row(long=None, string='12.50')]" in lines["make_struct"]
    assert lines["project:string"] == "[[1, '1200'], [2, '12.50'], [3, 'N/A'], [4, '3400']] ['id', 'amount']"


def test_relationalize_then_window(run_script, tmp_path):
    """6: Relationalize nested clickstream into root and root_items; a running count per page by ts."""
    raw = tmp_path / "clicks"
    write_lines(raw / "c.json", [
        {"event_id": "e1", "payload": {"page": "/home", "referrer": "g"}, "items": [{"sku": "A", "qty": 1}], "ts": "09:00"},
        {"event_id": "e2", "payload": {"page": "/home", "referrer": "b"},
         "items": [{"sku": "B", "qty": 1}, {"sku": "C", "qty": 2}], "ts": "09:05"},
        {"event_id": "e3", "payload": {"page": "/cart", "referrer": "g"}, "items": [{"sku": "A", "qty": 1}], "ts": "09:07"}])
    script = PREAMBLE + """
events = glueContext.create_dynamic_frame.from_options("s3", {"paths": [args["input"]]}, "json")
tables = Relationalize.apply(frame=events, staging_path=args["output"], name="root")
print(sorted(tables.keys()))
root = tables.select("root").toDF()
print(root.columns)
items = tables.select("root_items").toDF().orderBy("id", "index")
print([list(r) for r in items.collect()])
w = Window.partitionBy(F.col("`payload.page`")).orderBy("ts")
counts = root.withColumn("n", F.count(F.lit(1)).over(w)).orderBy("event_id")
print([(r.event_id, r["payload.page"], r.n) for r in counts.collect()])
job.commit()
"""
    result = run_script(script, "--JOB_NAME", "clicks", "--input", str(raw), "--output", str(tmp_path / "tmp"))
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0] == "['root', 'root_items']"
    assert out[1] == "['event_id', 'payload.page', 'payload.referrer', 'items', 'ts']"
    assert out[2] == "[[1, 0, 'A', 1], [2, 0, 'B', 1], [2, 1, 'C', 2], [3, 0, 'A', 1]]"
    assert out[3] == "[('e1', '/home', 1), ('e2', '/home', 2), ('e3', '/cart', 1)]"


def test_sessions_across_a_broadcast_join(run_script, tmp_path, spark):
    """7: drifting events, ResolveChoice and ApplyMapping, a broadcast join to users, gap_min with lag."""
    raw = tmp_path / "events"
    write_lines(raw / "e.json", [
        {"user_id": "u1", "amount": 10, "ts": "2026-08-17 09:00:00", "dt": "2026-08-17"},
        {"user_id": "u1", "amount": "12", "ts": "2026-08-17 09:10:00", "dt": "2026-08-17"},
        {"user_id": "u1", "amount": 5, "ts": "2026-08-17 10:00:00", "dt": "2026-08-17"},
        {"user_id": "u2", "amount": 7, "ts": "2026-08-18 08:00:00", "dt": "2026-08-18"}])
    users = tmp_path / "users"
    write_lines(users / "u.json", [{"user_id": "u1", "country": "DE"}, {"user_id": "u2", "country": "FR"}])
    script = PREAMBLE + """
events = glueContext.create_dynamic_frame.from_options("s3", {"paths": [args["input"]]}, "json")
events = ResolveChoice.apply(frame=events, specs=[("amount", "cast:long")])
events = ApplyMapping.apply(frame=events, mappings=[("user_id", "string", "user_id", "string"),
    ("amount", "long", "amount", "long"), ("ts", "string", "ts", "timestamp"), ("dt", "string", "dt", "string")])
users = spark.read.json(args["users"])
df = events.toDF().join(F.broadcast(users), "user_id", "left")
w = Window.partitionBy("user_id").orderBy("ts")
df = df.withColumn("gap_min", (F.unix_timestamp("ts") - F.unix_timestamp(F.lag("ts").over(w))) / 60)
df = df.withColumn("new_session", F.when(F.col("gap_min") > 30, 1).otherwise(0))
df.write.mode("overwrite").partitionBy("dt").parquet(args["output"])
job.commit()
"""
    script = script.replace('["JOB_NAME", "input", "output"]', '["JOB_NAME", "input", "output", "users"]')
    result = run_script(script, "--JOB_NAME", "sessions", "--input", str(raw), "--output", str(tmp_path / "out"),
                        "--users", str(users))
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["dt=2026-08-17", "dt=2026-08-18"]
    rows = read_output(spark, tmp_path / "out").orderBy("user_id", "ts").collect()
    assert [(r.user_id, r.country, r.amount, r.gap_min, r.new_session) for r in rows] == [
        ("u1", "DE", 10, None, 0), ("u1", "DE", 12, 10.0, 0), ("u1", "DE", 5, 50.0, 1), ("u2", "FR", 7, None, 0)]


def test_console_generated_script_styles(run_script, tmp_path, spark):
    """The shapes the Glue console generates: ApplyMapping, ResolveChoice(choice=...), DropNullFields
    and a Parquet sink; and Glue Studio's getSink with setCatalogInfo and EvaluateDataQuality."""
    raw = tmp_path / "trades"
    (raw / "dt=2026-08-17").mkdir(parents=True)
    (raw / "dt=2026-08-17" / "t.csv").write_text("cusip,price,security_type,note\nA1,10.5,1,\nB2,11.25,2,\n")
    binary = os.environ["EPOXY_BIN"]
    subprocess.run([binary, "crawl", str(raw), "--database", "markets"], check=True, capture_output=True,
                   env=dict(os.environ, EPOXY_HOME=os.environ["EPOXY_HOME"]))
    script = PREAMBLE + """
from awsgluedq.transforms import EvaluateDataQuality
datasource0 = glueContext.create_dynamic_frame.from_catalog(database = "markets", table_name = "trades", transformation_ctx = "datasource0")
applymapping1 = ApplyMapping.apply(frame = datasource0, mappings = [("cusip", "string", "cusip", "string"), ("price", "double", "price", "double"), ("security_type", "long", "security_type", "long"), ("note", "string", "note", "string"), ("dt", "string", "dt", "string")], transformation_ctx = "applymapping1")
resolvechoice2 = ResolveChoice.apply(frame = applymapping1, choice = "make_struct", transformation_ctx = "resolvechoice2")
dropnullfields3 = DropNullFields.apply(frame = resolvechoice2, transformation_ctx = "dropnullfields3")
datasink4 = glueContext.write_dynamic_frame.from_options(frame = dropnullfields3, connection_type = "s3", connection_options = {"path": args["output"]}, format = "parquet", transformation_ctx = "datasink4")
EvaluateDataQuality().process_rows(frame=dropnullfields3, ruleset=\"\"\"Rules = [ ColumnCount > 0 ]\"\"\",
    publishing_options={"dataQualityEvaluationContext": "EvaluateDataQuality_node1", "enableDataQualityResultsPublishing": True},
    additional_options={"dataQualityResultsPublishing.strategy": "BEST_EFFORT", "observations.scope": "ALL"})
sink = glueContext.getSink(path=args["output"] + "_catalog", connection_type="s3", updateBehavior="UPDATE_IN_DATABASE",
                           partitionKeys=["dt"], enableUpdateCatalog=True, transformation_ctx="sink")
sink.setCatalogInfo(catalogDatabase="markets", catalogTableName="trades_pq")
sink.setFormat("glueparquet", compression="snappy")
sink.writeFrame(dropnullfields3)
job.commit()
"""
    result = run_script(script, "--JOB_NAME", "console", "--input", "-", "--output", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "null_fields ['note']" in result.stdout
    written = read_output(spark, tmp_path / "out")
    assert written.columns == ["cusip", "price", "security_type", "dt"]
    assert sorted(r.price for r in written.collect()) == [10.5, 11.25]
    assert spark.table("markets.trades_pq").count() == 2
