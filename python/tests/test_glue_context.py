# SPDX-License-Identifier: Apache-2.0
"""GlueContext's sources and sinks with their connection and format options, the catalog paths,
Job, getResolvedOptions and the helpers."""
import json
import os
import subprocess
import time

import pytest
from awsglue.job import Job
from awsglue.utils import GlueArgumentError, getResolvedOptions
from pyspark.errors import AnalysisException
from pyspark.sql import Row


def write_lines(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.fixture
def orders(tmp_path):
    """Three days of JSON orders in dt= folders."""
    root = tmp_path / "orders"
    for day, amounts in (("2026-08-16", [1, 2]), ("2026-08-17", [3]), ("2026-08-18", [4, 5, 6])):
        write_lines(root / ("dt=" + day) / "part-0.json", [{"order_id": "%s-%d" % (day, a), "amount": a} for a in amounts])
    return root


def crawl(path, database):
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    subprocess.run([binary, "crawl", str(path), "--database", database], check=True, capture_output=True)


def test_from_options_json_recurse_and_exclusions(glue, orders, tmp_path):
    nested = tmp_path / "nested"
    write_lines(nested / "top.json", [{"a": 1}])
    write_lines(nested / "sub" / "deeper.json", [{"a": 2}])
    flat = glue.create_dynamic_frame.from_options("s3", {"paths": [str(nested)]}, "json")
    assert flat.count() == 1  # recurse defaults to false, as Glue's: plain subfolders are not read
    assert glue.create_dynamic_frame.from_options("s3", {"paths": [str(nested)], "recurse": True}, "json").count() == 2
    deep = glue.create_dynamic_frame.from_options("s3", {"paths": [str(orders)], "recurse": True}, "json")
    assert deep.count() == 6
    assert sorted(deep.toDF().columns) == ["amount", "dt", "order_id"]
    some = glue.create_dynamic_frame.from_options(
        "s3", {"paths": [str(orders)], "recurse": True, "exclusions": '["dt=2026-08-18/**"]'}, "json")
    assert some.count() == 3
    grouped = glue.create_dynamic_frame.from_options(
        "s3", {"paths": [str(orders)], "recurse": True, "groupFiles": "inPartition", "groupSize": "1048576"}, "json")
    assert grouped.count() == 6


def test_from_options_csv_format_options(glue, tmp_path):
    path = tmp_path / "people.csv"
    path.write_text("name;age\nann;30\nbob;41\n")
    frame = glue.create_dynamic_frame.from_options("s3", {"paths": [str(path)]}, "csv",
                                                   {"withHeader": True, "separator": ";"})
    assert sorted(tuple(r) for r in frame.toDF().collect()) == [("ann", 30), ("bob", 41)]
    headerless = glue.create_dynamic_frame.from_options("s3", {"paths": [str(path)]}, "csv", {"separator": ";"})
    assert headerless.count() == 3  # withHeader defaults to false, as Glue's


def test_push_down_predicate_on_from_options(glue, orders):
    frame = glue.create_dynamic_frame.from_options("s3", {"paths": [str(orders)], "recurse": True}, "json",
                                                   push_down_predicate="dt = '2026-08-17'")
    assert [r.amount for r in frame.toDF().collect()] == [3]


def test_formats_not_yet_supported_say_so(glue, tmp_path):
    for fmt in ("orc", "avro"):
        with pytest.raises(NotImplementedError, match=fmt):
            glue.create_dynamic_frame.from_options("s3", {"paths": [str(tmp_path)]}, fmt)


def test_write_partitioned_parquet_and_read_back(glue, orders, tmp_path, spark):
    frame = glue.create_dynamic_frame.from_options("s3", {"paths": [str(orders)], "recurse": True}, "json")
    out = tmp_path / "out"
    glue.write_dynamic_frame.from_options(frame=frame, connection_type="s3",
                                          connection_options={"path": str(out), "partitionKeys": ["dt"]},
                                          format="glueparquet", format_options={"compression": "snappy"})
    assert sorted(os.listdir(out)) == ["dt=2026-08-16", "dt=2026-08-17", "dt=2026-08-18"]
    assert spark.read.parquet(str(out)).count() == 6
    # A Glue S3 sink appends: a second write adds files.
    glue.write_dynamic_frame.from_options(frame=frame, connection_type="s3",
                                          connection_options={"path": str(out), "partitionKeys": ["dt"]}, format="parquet")
    assert spark.read.parquet(str(out)).count() == 12


def test_from_catalog_with_predicates(glue, orders):
    crawl(orders, "shop")
    everything = glue.create_dynamic_frame.from_catalog(database="shop", table_name="orders")
    assert everything.count() == 6
    two_days = glue.create_dynamic_frame.from_catalog(database="shop", table_name="orders",
                                                      push_down_predicate="dt >= '2026-08-17'")
    assert two_days.count() == 4
    one_day = glue.create_data_frame.from_catalog(
        database="shop", table_name="orders", additional_options={"catalogPartitionPredicate": "dt = '2026-08-18'"})
    assert one_day.count() == 3
    legacy = glue.create_dynamic_frame.from_catalog(name_space="shop", table_name="orders")
    assert legacy.count() == 6
    with pytest.raises(ValueError):
        glue.create_dynamic_frame.from_catalog(database="shop", name_space="shop", table_name="orders")
    with pytest.raises(AnalysisException, match="amount"):
        glue.create_dynamic_frame.from_catalog(database="shop", table_name="orders", push_down_predicate="amount > 1").count()


def test_sink_updates_the_catalog(glue, orders, tmp_path, spark):
    frame = glue.create_dynamic_frame.from_options("s3", {"paths": [str(orders)], "recurse": True}, "json")
    sink = glue.getSink(connection_type="s3", path=str(tmp_path / "lake"), enableUpdateCatalog=True,
                        updateBehavior="UPDATE_IN_DATABASE", partitionKeys=["dt"])
    sink.setCatalogInfo(catalogDatabase="lake", catalogTableName="orders_pq")
    sink.setFormat("glueparquet", compression="snappy")
    errors = sink.writeFrame(frame)
    assert errors.name.endswith("_errors")
    assert spark.table("lake.orders_pq").count() == 6
    assert spark.sql("SELECT count(*) AS n FROM lake.orders_pq WHERE dt = '2026-08-17'").collect() == [Row(n=1)]
    # write_dynamic_frame.from_catalog adds new partitions
    more = spark.createDataFrame([("x-1", 9, "2026-08-19")], ["order_id", "amount", "dt"])
    from awsglue.dynamicframe import DynamicFrame
    glue.write_dynamic_frame.from_catalog(frame=DynamicFrame.fromDF(more, glue, "more"), database="lake",
                                          table_name="orders_pq")
    assert spark.table("lake.orders_pq").count() == 7


def test_purge_s3_path(glue, tmp_path):
    old = tmp_path / "purge" / "old.json"
    write_lines(old, [{"a": 1}])
    past = time.time() - 10 * 3600
    os.utime(old, (past, past))
    write_lines(tmp_path / "purge" / "new.json", [{"a": 2}])
    glue.purge_s3_path(str(tmp_path / "purge"), {"retentionPeriod": 1})
    assert os.listdir(tmp_path / "purge") == ["new.json"]


def test_helpers(glue, spark):
    assert abs(glue.currentTimeMillis() - time.time() * 1000) < 60000
    glue.get_logger().info("hello from a test")
    df = spark.createDataFrame([(1,)], ["x"])
    with_time = glue.add_ingestion_time_columns(df, "hour")
    assert with_time.columns == ["x", "ingest_year", "ingest_month", "ingest_day", "ingest_hour"]
    assert glue.spark_session is spark


def test_job_and_resolved_options(glue):
    args = getResolvedOptions(["job.py", "--JOB_NAME", "j", "--day", "2026-01-01", "--unknown", "x"], ["JOB_NAME", "day"])
    assert args["JOB_NAME"] == "j" and args["day"] == "2026-01-01"
    assert args["job_bookmark_option"] == "job-bookmark-disable"
    with pytest.raises(GlueArgumentError, match="required: --JOB_NAME"):
        getResolvedOptions(["job.py"], ["JOB_NAME"])
    with pytest.raises(GlueArgumentError, match="expected one argument"):
        getResolvedOptions(["job.py", "--JOB_NAME", "--day", "x"], ["JOB_NAME"])
    with pytest.raises(GlueArgumentError, match="invalid choice"):
        getResolvedOptions(["job.py", "--JOB_NAME", "j", "--job-bookmark-option", "sometimes"], ["JOB_NAME"])
    spelled = getResolvedOptions(["job.py", "--JOB_NAME=j", "--offset", "-5", "--TempDir", "/tmp/t"], ["JOB_NAME", "offset"])
    assert (spelled["JOB_NAME"], spelled["offset"], spelled["RedshiftTempDir"]) == ("j", "-5", "/tmp/t")
    with pytest.raises(GlueArgumentError):
        getResolvedOptions(["job.py", "--JOB"], ["JOB_NAME"])  # abbreviations only with allow_abbrev
    assert getResolvedOptions(["job.py", "--JOB_N", "j"], ["JOB_NAME"], allow_abbrev=True)["JOB_NAME"] == "j"
    job = Job(glue)
    assert not job.isInitialized()
    job.init(args["JOB_NAME"], args)
    assert job.isInitialized()
    job.commit()
    with pytest.raises(TypeError):
        Job("not a context")
