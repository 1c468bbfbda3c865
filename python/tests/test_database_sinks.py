# SPDX-License-Identifier: Apache-2.0
"""Database sinks over a live PostgreSQL and SQLite: rows go in by COPY (or batched inserts) inside
one transaction that commits with the run, a missing table is created, an upsert key makes a rerun
change nothing, and a run that fails leaves the table as it was."""
import sqlite3

import pytest

from dbjobs import create_connection
from jobrun import job_script
from postgres import PASSWORD, USER

# Writes `--n` rows (id, name, price, version) into `--table` through connection_options `--options`
# (JSON, with the password from the environment), then fails on purpose when `--fail` is "yes".
WRITE_JOB = job_script("table", "n", "version", "options", "fail") + r'''
import json, os
from awsglue.dynamicframe import DynamicFrame
from pyspark.sql import functions as F
n, version = int(args["n"]), int(args["version"])
df = glue.spark_session.range(1, n + 1).select(
    F.col("id"), F.concat(F.lit("item-"), F.col("id").cast("string")).alias("name"),
    (F.col("id") * F.lit(1.5)).alias("price"), F.lit(version).alias("version"))
options = json.loads(args["options"])
options["dbtable"] = args["table"]
if "password" in options:
    options["password"] = os.environ["SHOP_PASSWORD"]
kind = options.pop("connection_type", "postgresql")
if options.pop("jdbc_conf", None):
    glue.write_dynamic_frame.from_jdbc_conf(DynamicFrame.fromDF(df, glue, "rows"), catalog_connection="shop",
                                            connection_options=options)
else:
    glue.write_dynamic_frame.from_options(DynamicFrame.fromDF(df, glue, "rows"), connection_type=kind,
                                          connection_options=options)
if args["fail"] == "yes":
    raise RuntimeError("failing on purpose after the write, before job.commit()")
job.commit()
'''


def write_job(epoxy, job, table, n, version=1, options=None, fail=False):
    import json
    import os
    script = os.path.join(epoxy.tmp, "write_job.py")
    options = dict(options or {})
    if "password" in options:
        options["password"] = "from-the-environment"  # the script reads SHOP_PASSWORD
    with open(script, "w") as f:
        f.write(WRITE_JOB)
    return epoxy("run", script, "--JOB_NAME", job, "--table", table, "--n", str(n), "--version", str(version),
                 "--options", json.dumps(options), "--fail", "yes" if fail else "no",
                 env={"SHOP_PASSWORD": PASSWORD})


def ok(result):
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def rows(pg, query):
    return pg.sql(query, db="shop", fetch=True)


def test_copy_creates_the_table_and_commits_with_the_run(pg, epoxy):
    pg.sql("DROP TABLE IF EXISTS sink_new", db="shop")
    ok(write_job(epoxy, "sink_job", "sink_new", 5000, options=pg.options()))
    assert rows(pg, "SELECT count(*), count(DISTINCT id), sum(price) FROM sink_new") == [(5000, 5000, 1.5 * 5000 * 5001 / 2)]
    types = rows(pg, "SELECT column_name, data_type FROM information_schema.columns "
                     "WHERE table_name = 'sink_new' ORDER BY ordinal_position")
    assert types == [("id", "bigint"), ("name", "text"), ("price", "double precision"), ("version", "integer")]
    assert "COPY" in pg.logged()  # rows go in by COPY, not row by row
    # A second run appends.
    ok(write_job(epoxy, "sink_job", "sink_new", 10, options=pg.options()))
    assert rows(pg, "SELECT count(*) FROM sink_new") == [(5010,)]
    # The password is neither in the run's arguments nor in what the run reports.
    for run in epoxy.runs("sink_job"):
        assert PASSWORD not in str(epoxy.run_details(run["Id"]))


def test_a_failed_run_leaves_the_table_as_it_was(pg, epoxy):
    pg.sql("DROP TABLE IF EXISTS sink_fail; CREATE TABLE sink_fail(id bigint, name text, price float8, version int)",
           db="shop")
    pg.sql("INSERT INTO sink_fail VALUES (0, 'kept', 0, 0)", db="shop")
    result = write_job(epoxy, "fail_job", "sink_fail", 300, options=pg.options(), fail=True)
    assert result.returncode != 0 and "failing on purpose" in result.stderr
    assert rows(pg, "SELECT id, name FROM sink_fail") == [(0, "kept")]
    assert epoxy.runs("fail_job")[0]["JobRunState"] == "FAILED"


def test_upsert_key_makes_a_rerun_idempotent(pg, epoxy):
    pg.sql("DROP TABLE IF EXISTS sink_upsert; CREATE TABLE sink_upsert(id bigint PRIMARY KEY, name text, "
           "price float8, version int)", db="shop")
    options = pg.options(upsertKey="id")
    ok(write_job(epoxy, "upsert_job", "sink_upsert", 100, version=1, options=options))
    ok(write_job(epoxy, "upsert_job", "sink_upsert", 100, version=1, options=options))
    assert rows(pg, "SELECT count(*), max(version) FROM sink_upsert") == [(100, 1)]
    ok(write_job(epoxy, "upsert_job", "sink_upsert", 150, version=2, options=options))
    assert rows(pg, "SELECT count(*), min(version), max(version) FROM sink_upsert") == [(150, 2, 2)]
    # Without the key the same rows collide with the primary key: the run fails and writes nothing.
    result = write_job(epoxy, "dup_job", "sink_upsert", 10, version=3, options=pg.options())
    assert result.returncode != 0 and "sink_upsert" in result.stderr
    assert rows(pg, "SELECT max(version) FROM sink_upsert") == [(2,)]


def test_from_jdbc_conf_writes_through_a_catalog_connection(pg, epoxy):
    create_connection(epoxy, pg.url())
    pg.sql("DROP TABLE IF EXISTS sink_conf", db="shop")
    ok(write_job(epoxy, "conf_job", "sink_conf", 42, options={"jdbc_conf": True, "database": "shop"}))
    assert rows(pg, "SELECT count(*) FROM sink_conf") == [(42,)]


def test_sqlite_sink(epoxy, tmp_path):
    path = str(tmp_path / "out.db")
    options = {"connection_type": "sqlite", "url": "jdbc:sqlite:" + path}
    ok(write_job(epoxy, "lite_job", "items", 2500, options=options))
    ok(write_job(epoxy, "lite_job", "items", 5, options=options))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*), sum(id) FROM items").fetchone() == (2505, 2500 * 2501 // 2 + 15)
        assert db.execute("SELECT name, price FROM items WHERE id = 7 LIMIT 1").fetchone() == ("item-7", 10.5)
    failed = write_job(epoxy, "lite_job", "items", 5, options=options, fail=True)
    assert failed.returncode != 0
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM items").fetchone() == (2505,)


def test_dataframe_write_jdbc_modes(pg, spark):
    pg.sql("DROP TABLE IF EXISTS sink_df", db="shop")
    props = {"user": USER, "password": PASSWORD}
    df = spark.createDataFrame([(1, "a"), (2, "b")], ["id", "tag"])
    df.write.jdbc(pg.url(), "sink_df", properties=props)  # Spark's default mode: the table must not exist
    with pytest.raises(Exception, match="already exists"):
        df.write.jdbc(pg.url(), "sink_df", properties=props)
    df.write.jdbc(pg.url(), "sink_df", mode="append", properties=props)
    assert rows(pg, "SELECT count(*) FROM sink_df") == [(4,)]
    df.write.format("jdbc").option("url", pg.url()).option("dbtable", "sink_df").option("user", USER) \
        .option("password", PASSWORD).mode("overwrite").save()
    assert rows(pg, "SELECT id, tag FROM sink_df ORDER BY id") == [(1, "a"), (2, "b")]
    df.write.jdbc(pg.url(), "sink_df", mode="ignore", properties=props)
    assert rows(pg, "SELECT count(*) FROM sink_df") == [(2,)]
    back = spark.read.jdbc(pg.url(), "sink_df", properties=props).orderBy("id").collect()
    assert [(r["id"], r["tag"]) for r in back] == [(1, "a"), (2, "b")]
