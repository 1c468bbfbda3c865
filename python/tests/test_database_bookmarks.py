# SPDX-License-Identifier: Apache-2.0
"""Key bookmarks over a live PostgreSQL (and SQLite): rows past the stored keys are read once, ties at
the boundary are neither lost nor read twice, and a row whose transaction commits after a newer
row's is read by a later run."""
import collections
import random
import sqlite3
import threading
import time

import pytest

from dbjobs import copied, create_connection, run_copy, source_report


@pytest.fixture
def shop(pg, epoxy):
    create_connection(epoxy, pg.url())
    return pg


def ok(result):
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def test_worked_example_5_growing_id(shop, epoxy, spark, tmp_path):
    shop.sql("DROP TABLE IF EXISTS orders; CREATE TABLE orders(id bigserial PRIMARY KEY, amount int)", db="shop")
    shop.sql("INSERT INTO orders(amount) SELECT i FROM generate_series(1, 8123) i", db="shop")
    dst = str(tmp_path / "out")
    ok(run_copy(epoxy, "orders_job", "public.orders", dst, keys=["id"], order="asc"))
    report = source_report(epoxy, "orders_job")
    assert report["RowsRead"] == 8123 and report["To"] == ["8123"]
    shop.sql("INSERT INTO orders(amount) SELECT i FROM generate_series(1, 17) i", db="shop")
    ok(run_copy(epoxy, "orders_job", "public.orders", dst, keys=["id"], order="asc"))
    report = source_report(epoxy, "orders_job")
    assert report["From"] == ["8123"] and report["RowsRead"] == 17 and report["To"] == ["8140"]
    # The stored key is bound as a parameter, never spliced into the SQL.
    assert "parameters: $1 = '8123'" in shop.logged()
    shop.sql("INSERT INTO orders(amount) SELECT i FROM generate_series(1, 5) i", db="shop")
    ok(run_copy(epoxy, "orders_job", "public.orders", dst, keys=["id"], order="asc"))
    assert source_report(epoxy, "orders_job")["RowsRead"] == 5
    ids = copied(spark, dst)
    assert len(ids) == 8145 and set(ids.values()) == {1}
    ok(run_copy(epoxy, "orders_job", "public.orders", dst, keys=["id"], order="asc"))
    assert source_report(epoxy, "orders_job")["RowsRead"] == 0
    shown = ok(epoxy("bookmark", "show", "orders_job")).stdout
    assert "source read 17 row(s), mark [8140]" in shown


def test_default_key_is_the_primary_key(shop, epoxy, spark, tmp_path):
    shop.sql("DROP TABLE IF EXISTS items; CREATE TABLE items(sku text, n int PRIMARY KEY)", db="shop")
    shop.sql("INSERT INTO items VALUES ('a', 1), ('b', 2)", db="shop")
    dst = str(tmp_path / "out")
    ok(run_copy(epoxy, "items_job", "items", dst))
    shop.sql("INSERT INTO items VALUES ('c', 3)", db="shop")
    ok(run_copy(epoxy, "items_job", "items", dst))
    assert source_report(epoxy, "items_job")["Keys"] == ["n"]
    assert copied(spark, dst, "n") == collections.Counter({1: 1, 2: 1, 3: 1})


def test_late_commit_below_a_newer_row_is_read_by_the_next_run(shop, epoxy, spark, tmp_path):
    shop.sql("DROP TABLE IF EXISTS late; CREATE TABLE late(id bigserial PRIMARY KEY, who text)", db="shop")
    shop.sql("INSERT INTO late(who) VALUES ('before'), ('before')", db="shop")  # ids 1, 2
    a = shop.connect()
    b = shop.connect()
    try:
        with a.cursor() as cur:  # A begins and inserts id 3, and stays open
            cur.execute("INSERT INTO late(who) VALUES ('A') RETURNING id")
            assert cur.fetchone()[0] == 3
        with b.cursor() as cur:  # B inserts id 4 and commits
            cur.execute("INSERT INTO late(who) VALUES ('B') RETURNING id")
            assert cur.fetchone()[0] == 4
        b.commit()
        dst = str(tmp_path / "out")
        ok(run_copy(epoxy, "late_job", "late", dst, keys=["id"]))
        first = source_report(epoxy, "late_job")
        assert first["OpenTransactions"] >= 1 and first["TransactionsAwaited"] >= 1 and first["To"] == ["4"]
        assert copied(spark, dst) == collections.Counter({1: 1, 2: 1, 4: 1})
        a.commit()
    finally:
        a.close()
        b.close()
    ok(run_copy(epoxy, "late_job", "late", dst, keys=["id"]))
    assert copied(spark, dst) == collections.Counter({1: 1, 2: 1, 3: 1, 4: 1})
    assert source_report(epoxy, "late_job")["To"] == ["4"]
    ok(run_copy(epoxy, "late_job", "late", dst, keys=["id"]))
    assert source_report(epoxy, "late_job")["RowsRead"] == 0


def test_rows_sharing_the_boundary_value_are_read_once(shop, epoxy, spark, tmp_path):
    shop.sql("DROP TABLE IF EXISTS changes; CREATE TABLE changes(id serial PRIMARY KEY, updated_at timestamp)", db="shop")
    shop.sql("INSERT INTO changes(updated_at) SELECT timestamp '2026-12-01 10:00:00' FROM generate_series(1, 1500)",
             db="shop")
    dst = str(tmp_path / "out")
    extra = {"fetchsize": "1000"}
    ok(run_copy(epoxy, "ties_job", "changes", dst, keys=["updated_at"], extra=extra))
    assert source_report(epoxy, "ties_job")["RowsRead"] == 1500
    shop.sql("INSERT INTO changes(updated_at) SELECT timestamp '2026-12-01 10:00:00' FROM generate_series(1, 10)",
             db="shop")
    ok(run_copy(epoxy, "ties_job", "changes", dst, keys=["updated_at"], extra=extra))
    assert source_report(epoxy, "ties_job")["RowsRead"] == 10
    ids = copied(spark, dst)
    assert len(ids) == 1510 and set(ids.values()) == {1}


def test_rows_inserted_during_a_run_are_never_lost(shop, epoxy, spark, tmp_path):
    shop.sql("DROP TABLE IF EXISTS stream; CREATE TABLE stream(id bigserial PRIMARY KEY, w int)", db="shop")
    shop.sql("INSERT INTO stream(w) SELECT 0 FROM generate_series(1, 2000)", db="shop")
    stop = threading.Event()

    def writer(seed):
        rnd = random.Random(seed)
        conn = shop.connect()
        try:
            while not stop.is_set():
                with conn.cursor() as cur:  # transactions of a few rows, some held open a while
                    for _ in range(rnd.randint(1, 5)):
                        cur.execute("INSERT INTO stream(w) VALUES (%s)", (seed,))
                        time.sleep(rnd.random() * 0.01)
                conn.commit()
        finally:
            conn.close()
    threads = [threading.Thread(target=writer, args=(s,)) for s in range(3)]
    for t in threads:
        t.start()
    dst = str(tmp_path / "out")
    try:
        for _ in range(4):
            ok(run_copy(epoxy, "stream_job", "stream", dst, keys=["id"], extra={"hashfield": "id", "hashpartitions": "3"}))
    finally:
        stop.set()
        for t in threads:
            t.join()
    ok(run_copy(epoxy, "stream_job", "stream", dst, keys=["id"]))
    ok(run_copy(epoxy, "stream_job", "stream", dst, keys=["id"]))
    total = shop.sql("SELECT count(*) FROM stream", db="shop", fetch=True)[0][0]
    ids = copied(spark, dst)
    assert len(ids) == total and set(ids.values()) == {1}


def test_descending_and_composite_keys(shop, epoxy, spark, tmp_path):
    shop.sql("DROP TABLE IF EXISTS countdown; CREATE TABLE countdown(k int PRIMARY KEY)", db="shop")
    shop.sql("INSERT INTO countdown SELECT generate_series(91, 100)", db="shop")
    dst = str(tmp_path / "down")
    ok(run_copy(epoxy, "down_job", "countdown", dst, keys=["k"], order="desc"))
    shop.sql("INSERT INTO countdown SELECT generate_series(86, 90)", db="shop")
    ok(run_copy(epoxy, "down_job", "countdown", dst, keys=["k"], order="desc"))
    assert source_report(epoxy, "down_job")["RowsRead"] == 5
    assert copied(spark, dst, "k") == collections.Counter(range(86, 101))

    shop.sql("DROP TABLE IF EXISTS daily; CREATE TABLE daily(day date, seq int, PRIMARY KEY (day, seq))", db="shop")
    shop.sql("INSERT INTO daily VALUES ('2026-12-01', 1), ('2026-12-01', 2), ('2026-12-02', 1)", db="shop")
    dst = str(tmp_path / "daily")
    ok(run_copy(epoxy, "daily_job", "daily", dst, keys=["day", "seq"]))
    shop.sql("INSERT INTO daily VALUES ('2026-12-02', 2), ('2026-12-03', 1)", db="shop")
    ok(run_copy(epoxy, "daily_job", "daily", dst, keys=["day", "seq"]))
    report = source_report(epoxy, "daily_job")
    assert report["RowsRead"] == 2 and report["To"] == ["2026-12-03", "1"]
    rows = collections.Counter((str(r["day"]), r["seq"]) for r in spark.read.parquet(dst).collect())
    assert rows == collections.Counter({("2026-12-01", 1): 1, ("2026-12-01", 2): 1, ("2026-12-02", 1): 1,
                                        ("2026-12-02", 2): 1, ("2026-12-03", 1): 1})


def test_sqlite_source_bookmarked(epoxy, spark, tmp_path):
    path = str(tmp_path / "shop.db")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE orders(id INTEGER PRIMARY KEY, amount DECIMAL(10,2), placed DATE, note TEXT)")
    db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)", [(i, i * 1.25, "2026-12-0%d" % (i % 9 + 1), "n%d" % i)
                                                              for i in range(1, 51)])
    db.commit()
    create_connection(epoxy, "jdbc:sqlite:" + path, user="", password="")
    dst = str(tmp_path / "out")
    extra = {"connection_type": "sqlite"}
    ok(run_copy(epoxy, "lite_job", "orders", dst, keys=["id"], extra=extra))
    db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)", [(i, 1, "2026-12-01", "late") for i in range(51, 61)])
    db.commit()
    ok(run_copy(epoxy, "lite_job", "orders", dst, keys=["id"], extra=extra))
    assert source_report(epoxy, "lite_job")["RowsRead"] == 10
    rows = spark.read.parquet(dst).collect()
    assert sorted(r["id"] for r in rows) == list(range(1, 61))
    assert {str(r["placed"]) for r in rows} >= {"2026-12-01", "2026-12-09"}


def test_bad_keys_fail_the_run_and_advance_nothing(shop, epoxy, spark, tmp_path):
    shop.sql("DROP TABLE IF EXISTS loose; CREATE TABLE loose(id int, doc jsonb, v int)", db="shop")
    shop.sql("INSERT INTO loose VALUES (1, '{}', 1), (NULL, '{}', 2)", db="shop")
    dst = str(tmp_path / "out")
    nulls = run_copy(epoxy, "loose_job", "loose", dst, keys=["id"])
    assert nulls.returncode != 0 and "is NULL in some rows" in nulls.stderr
    not_ordered = run_copy(epoxy, "loose_job", "loose", dst, keys=["doc"])
    assert not_ordered.returncode != 0 and "no order to bookmark by" in not_ordered.stderr
    no_key = run_copy(epoxy, "loose_job", "loose", dst)
    assert no_key.returncode != 0 and "has no primary key" in no_key.stderr
    missing = run_copy(epoxy, "loose_job", "no_such_table", dst, keys=["id"])
    assert missing.returncode != 0 and "no_such_table" in missing.stderr and "does not exist" in missing.stderr
    assert copied(spark, dst) == collections.Counter()
    assert all(r["JobRunState"] == "FAILED" for r in epoxy.runs("loose_job"))
    assert "no bookmark yet" in epoxy("bookmark", "show", "loose_job").stdout


def test_wrong_password_is_a_clear_error(pg, epoxy, tmp_path):
    create_connection(epoxy, pg.url(), password="not-the-password")
    result = run_copy(epoxy, "pw_job", "orders", str(tmp_path / "out"), keys=["id"])
    assert result.returncode != 0
    assert "password authentication failed" in result.stderr and "not-the-password" not in result.stderr
    tested = epoxy("connection", "test", "shop")
    assert tested.returncode != 0 and "password authentication failed" in tested.stderr


def test_database_gone_mid_read_fails_the_run_and_publishes_nothing(epoxy, spark, tmp_path):
    from postgres import PgServer
    server = PgServer()
    try:
        server.sql("CREATE TABLE big(id bigserial PRIMARY KEY, pad text)", db="shop")
        server.sql("INSERT INTO big(pad) SELECT repeat('x', 200) FROM generate_series(1, 600000)", db="shop")
        create_connection(epoxy, server.url())
        dst = str(tmp_path / "out")
        ok(run_copy(epoxy, "gone_job", "big", dst, keys=["id"], extra={"fetchsize": "1000"}, option="job-bookmark-pause"))
        import os
        import shutil
        shutil.rmtree(dst)
        import subprocess
        script = os.path.join(epoxy.tmp, "copy_job.py")
        run = subprocess.Popen([epoxy.binary, "run", script, "--JOB_NAME", "gone_job", "--dst", dst, "--table", "big",
                                "--keys", '["id"]', "--order", "-", "--extra", '{"fetchsize": "500"}',
                                "--job-bookmark-option", "job-bookmark-enable"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=epoxy.env())
        deadline = time.time() + 60
        while server.logged().count("FETCH FORWARD 500") < 20 and time.time() < deadline and run.poll() is None:
            time.sleep(0.02)
        server.kill()
        _, err = run.communicate(timeout=120)
        assert run.returncode != 0
        assert "lost the connection" in err or "terminat" in err or "connection" in err, err[-2000:]
        assert copied(spark, dst) == collections.Counter()
        assert epoxy.runs("gone_job")[0]["JobRunState"] == "FAILED"
        assert "no bookmark yet" in epoxy("bookmark", "show", "gone_job").stdout
    finally:
        server.stop()
