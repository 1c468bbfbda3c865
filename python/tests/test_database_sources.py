# SPDX-License-Identifier: Apache-2.0
"""Database sources over a live PostgreSQL and SQLite: types map as the README's table says, filters,
projections and limits reach the SQL the server runs, parallel reads share one snapshot and read
every row once, connections live in the catalog with their passwords masked, and a crawl of a
connection puts its tables into the catalog for from_catalog."""
import datetime
import decimal
import json
import re
import sqlite3

import pytest

from dbjobs import copied, create_connection, run_copy, source_report
from postgres import PASSWORD, USER
from pyspark.sql import functions as F


def ok(result):
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def jdbc(spark, pg, table, **options):
    reader = spark.read.format("jdbc").option("url", pg.url()).option("dbtable", table) \
        .option("user", USER).option("password", PASSWORD)
    for key, value in options.items():
        reader = reader.option(key, value)
    return reader.load()


def statements_since(pg, mark):
    """The statements the server logged after `mark` (a length of its log)."""
    return pg.logged()[mark:]


def test_postgres_types_map_as_documented(pg, spark):
    pg.sql("DROP TABLE IF EXISTS typed; DROP TYPE IF EXISTS mood; CREATE TYPE mood AS ENUM ('sad', 'happy');"
           "CREATE TABLE typed(i2 smallint, i4 integer, i8 bigint, n numeric(12,3), nu numeric, r real, "
           "d double precision, t text, vc varchar(10), c char(3), b bytea, bo boolean, dt date, tm time, "
           "ts timestamp, tz timestamptz, iv interval, u uuid, j json, jb jsonb, ai integer[], at text[], m mood)",
           db="shop")
    pg.sql("INSERT INTO typed VALUES (-2, 40000, 9000000000, 123456789.125, 1.5, 0.25, 2.5, 'héllo', 'v', 'ab', "
           "'\\x00ff', true, '2024-02-29', '13:14:15', '2024-03-01 04:05:06.789', '2024-03-01 04:05:06+02', "
           "'1 day 2 hours', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{\"a\": 1}', '{\"b\": 2}', "
           "'{1,NULL,3}', '{x,y}', 'happy'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
           "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)", db="shop")
    df = jdbc(spark, pg, "typed")
    types = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    assert types == {"i2": "smallint", "i4": "int", "i8": "bigint", "n": "decimal(12,3)", "nu": "decimal(38,18)",
                     "r": "float", "d": "double", "t": "string", "vc": "string", "c": "string", "b": "binary",
                     "bo": "boolean", "dt": "date", "tm": "string", "ts": "timestamp", "tz": "timestamp",
                     "iv": "string", "u": "string", "j": "string", "jb": "string", "ai": "array<int>",
                     "at": "array<string>", "m": "string"}
    full, empty = sorted(df.collect(), key=lambda r: r["i2"] is None)
    assert (full["i2"], full["i4"], full["i8"]) == (-2, 40000, 9000000000)
    assert full["n"] == decimal.Decimal("123456789.125") and full["nu"] == decimal.Decimal("1.5")
    assert (full["r"], full["d"], full["t"], full["vc"], full["c"]) == (0.25, 2.5, "héllo", "v", "ab ")
    assert bytes(full["b"]) == b"\x00\xff" and full["bo"] is True and full["dt"] == datetime.date(2024, 2, 29)
    assert full["tm"] == "13:14:15" and full["ts"] == datetime.datetime(2024, 3, 1, 4, 5, 6, 789000)
    assert full["tz"] == datetime.datetime(2024, 3, 1, 2, 5, 6)  # timestamptz read as UTC
    assert full["iv"] == "1 day 02:00:00" and full["u"] == "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
    assert json.loads(full["j"]) == {"a": 1} and json.loads(full["jb"]) == {"b": 2}
    assert list(full["ai"]) == [1, None, 3] and list(full["at"]) == ["x", "y"] and full["m"] == "happy"
    assert all(v is None for v in empty)


def test_sqlite_types_map_by_declared_type(spark, tmp_path):
    path = str(tmp_path / "t.db")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t(a INTEGER, b TEXT, c REAL, d BLOB, e BOOLEAN, f DATE, g DATETIME, "
                   "h DECIMAL(10,2), k)")
        db.execute("INSERT INTO t VALUES (7, 'x', 1.25, x'0102', 1, '2024-01-02', '2024-01-02 03:04:05', "
                   "'12.34', 'free')")
    df = spark.read.format("jdbc").option("url", "jdbc:sqlite:" + path).option("dbtable", "t").load()
    assert [f.dataType.simpleString() for f in df.schema.fields] == [
        "bigint", "string", "double", "binary", "boolean", "date", "timestamp", "decimal(10,2)", "string"]
    row = df.collect()[0]
    assert (row["a"], row["b"], row["c"], bytes(row["d"]), row["e"]) == (7, "x", 1.25, b"\x01\x02", True)
    assert row["f"] == datetime.date(2024, 1, 2) and row["g"] == datetime.datetime(2024, 1, 2, 3, 4, 5)
    assert row["h"] == decimal.Decimal("12.34") and row["k"] == "free"


def test_filters_projections_and_limits_reach_the_server(pg, spark):
    pg.sql("DROP TABLE IF EXISTS pushed; CREATE TABLE pushed(id int, amount int, note text, unused text)",
           db="shop")
    pg.sql("INSERT INTO pushed SELECT i, i % 100, 'n' || i, 'u' FROM generate_series(1, 5000) i", db="shop")
    mark = len(pg.logged())
    got = jdbc(spark, pg, "pushed").filter((F.col("amount") > 95) & F.col("note").isNotNull()) \
        .select("id", "amount").collect()
    assert len(got) == 200 and all(r["amount"] > 95 for r in got)
    sent = statements_since(pg, mark)
    select = [s for s in re.findall(r"(?:statement|execute <unnamed>): (.*)", sent) if "FROM pushed" in s]
    assert select, sent
    query = select[-1]
    # The conjuncts go into the WHERE with their constants bound; a column nothing reads is not fetched
    # (the filter's own columns are, as the scan applies the whole filter again).
    assert '("amount" > $1 AND "note" IS NOT NULL)' in query and "$1 = '95'" in sent, query
    assert '"unused"' not in query, query
    mark = len(pg.logged())
    assert len(jdbc(spark, pg, "pushed").limit(7).collect()) == 7
    assert re.search(r"LIMIT 7", statements_since(pg, mark)), statements_since(pg, mark)


def test_query_option_and_missing_table(pg, spark):
    pg.sql("DROP TABLE IF EXISTS q; CREATE TABLE q(id int)", db="shop")
    pg.sql("INSERT INTO q SELECT generate_series(1, 10)", db="shop")
    df = spark.read.format("jdbc").option("url", pg.url()).option("user", USER).option("password", PASSWORD) \
        .option("query", "SELECT id * 2 AS twice FROM q WHERE id <= 3").load()
    assert sorted(r["twice"] for r in df.collect()) == [2, 4, 6]
    with pytest.raises(Exception, match="no_such_table"):
        jdbc(spark, pg, "no_such_table").collect()


def test_parallel_reads_share_one_snapshot_and_read_each_row_once(pg, spark):
    pg.sql("DROP TABLE IF EXISTS wide; CREATE TABLE wide(id bigint PRIMARY KEY, grp text)", db="shop")
    pg.sql("INSERT INTO wide SELECT i, 'g' || (i % 7) FROM generate_series(1, 20000) i", db="shop")
    mark = len(pg.logged())
    ranged = jdbc(spark, pg, "wide", partitionColumn="id", lowerBound="1", upperBound="20000", numPartitions="4",
                  fetchsize="500")
    ids = [r["id"] for r in ranged.collect()]
    assert len(ids) == 20000 and len(set(ids)) == 20000
    sent = statements_since(pg, mark)
    assert "pg_export_snapshot" in sent and sent.count("SET TRANSACTION SNAPSHOT") >= 3, sent[-4000:]
    assert "FETCH FORWARD 500" in sent


def test_glue_hash_partitions(pg, epoxy, spark, tmp_path):
    create_connection(epoxy, pg.url())
    pg.sql("DROP TABLE IF EXISTS hashed; CREATE TABLE hashed(id bigint PRIMARY KEY, grp text)", db="shop")
    pg.sql("INSERT INTO hashed SELECT i, 'g' || (i % 7) FROM generate_series(1, 9000) i", db="shop")
    for extra, name in (({"hashfield": "grp", "hashpartitions": "4"}, "by_field"),
                        ({"hashexpression": "id", "hashpartitions": "3"}, "by_expression")):
        dst = str(tmp_path / name)
        ok(run_copy(epoxy, name, "hashed", dst, keys=["id"], extra=extra))
        assert copied(spark, dst) == {i: 1 for i in range(1, 9001)}
        assert source_report(epoxy, name)["RowsRead"] == 9000


def test_connection_cli(pg, epoxy, tmp_path):
    ok(epoxy("connection", "create", "shop", "--url", pg.url(), "--user", USER, "--password-env", "SHOP_PW",
             env={"SHOP_PW": PASSWORD}))
    shown = ok(epoxy("connection", "show", "shop")).stdout
    assert PASSWORD not in shown and "********" in shown and pg.url() in shown
    listed = json.loads(ok(epoxy("connection", "list", "--json")).stdout)
    assert [c["Name"] for c in listed["ConnectionList"]] == ["shop"]
    assert PASSWORD not in json.dumps(listed)
    tested = ok(epoxy("connection", "test", "shop"))
    assert PASSWORD not in tested.stdout + tested.stderr
    ok(epoxy("connection", "update", "shop", "--url", pg.url(), "--user", USER, "--password-env", "SHOP_PW",
             env={"SHOP_PW": "wrong"}))
    failed = epoxy("connection", "test", "shop")
    assert failed.returncode != 0 and "password" in failed.stderr.lower() and "wrong" not in failed.stderr
    # A SECRET_ID names a local secret file in place of USERNAME and PASSWORD.
    secrets = tmp_path / "home" / "secrets"
    secrets.mkdir(parents=True, exist_ok=True)
    (secrets / "shop-secret.json").write_text(json.dumps({"username": USER, "password": PASSWORD}))
    ok(epoxy("connection", "update", "shop", "--url", pg.url(), "--secret-id", "shop-secret"))
    ok(epoxy("connection", "test", "shop"))
    ok(epoxy("connection", "delete", "shop"))
    gone = epoxy("connection", "show", "shop")
    assert gone.returncode != 0 and "shop" in gone.stderr
    bad = epoxy("connection", "create", "x", "--url", "mysql://h/db")
    assert bad.returncode != 0 and "jdbc:postgresql" in bad.stderr


def test_crawl_a_connection_then_read_from_catalog_with_bookmarks(pg, epoxy, spark, tmp_path):
    create_connection(epoxy, pg.url())
    pg.sql("DROP SCHEMA IF EXISTS sales CASCADE; CREATE SCHEMA sales;"
           "CREATE TABLE sales.orders(id bigint PRIMARY KEY, amount numeric(10,2), placed date);"
           "CREATE TABLE sales.audit(at timestamp, what text); CREATE VIEW sales.big AS "
           "SELECT * FROM sales.orders WHERE amount > 100", db="shop")
    pg.sql("INSERT INTO sales.orders SELECT i, i * 10, date '2024-01-01' + i FROM generate_series(1, 30) i", db="shop")
    ok(epoxy("crawl", "shop/sales/%", "--connection", "shop", "--database", "crm", "--exclude", "shop/sales/audit"))
    tables = json.loads(ok(epoxy("catalog", "tables", "crm", "--json")).stdout)["TableList"]
    by_name = {t["Name"]: t for t in tables}
    assert sorted(by_name) == ["shop_sales_big", "shop_sales_orders"]
    orders = by_name["shop_sales_orders"]
    assert orders["Parameters"]["classification"] == "postgresql"
    assert orders["Parameters"]["connectionName"] == "shop"
    assert orders["StorageDescriptor"]["Location"] == "shop.sales.orders"
    assert [(c["Name"], c["Type"]) for c in orders["StorageDescriptor"]["Columns"]] == [
        ("id", "bigint"), ("amount", "decimal(10,2)"), ("placed", "date")]
    assert by_name["shop_sales_big"]["Parameters"]["typeOfData"] == "view"

    script = tmp_path / "from_catalog.py"
    script.write_text(
        "import sys\nfrom awsglue.context import GlueContext\nfrom awsglue.job import Job\n"
        "from awsglue.utils import getResolvedOptions\nfrom pyspark.context import SparkContext\n"
        "args = getResolvedOptions(sys.argv, ['JOB_NAME', 'dst'])\n"
        "glue = GlueContext(SparkContext.getOrCreate())\njob = Job(glue)\njob.init(args['JOB_NAME'], args)\n"
        "frame = glue.create_dynamic_frame.from_catalog(database='crm', table_name='shop_sales_orders',\n"
        "    transformation_ctx='orders')\n"
        "glue.write_dynamic_frame.from_options(frame, 's3', {'path': args['dst']}, 'parquet')\njob.commit()\n")
    dst = str(tmp_path / "out")
    run = ["run", str(script), "--JOB_NAME", "catalog_job", "--dst", dst, "--job-bookmark-option",
           "job-bookmark-enable"]
    ok(epoxy(*run))
    pg.sql("INSERT INTO sales.orders SELECT i, i, date '2024-06-01' FROM generate_series(31, 35) i", db="shop")
    ok(epoxy(*run))
    assert source_report(epoxy, "catalog_job", "orders")["RowsRead"] == 5
    assert copied(spark, dst) == {i: 1 for i in range(1, 36)}
