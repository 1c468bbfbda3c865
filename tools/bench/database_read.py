#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Reading a PostgreSQL table into Parquet, beside psql's \\copy of the same rows (not part of make test).

    tools/bench/database_read.py --epoxy build/release/epoxy [--rows 10000000] [--partitions 1,4] [--repeat 2]

Starts a PostgreSQL server of its own (as the tests do), fills `orders` (bigint id, int customer,
numeric(10,2) amount, timestamp, text note) with ROWS rows, then in turns: `psql -c "\\copy (SELECT
...) TO file CSV"` (the floor: the server's own text out, no conversion) and a Glue job copying the
table to Parquet with hashpartitions N, for each N. Prints rows per second and the ratio to psql.
Then the bookmarked incremental case: a full bookmarked run, 10,000 new rows, and a second run
that must read exactly those rows (asserted)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python", "tests"))

from postgres import PASSWORD, USER, PgServer  # noqa: E402

JOB = r'''
import json, sys
from awsglue.context import GlueContext
from awsglue.job import Job
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
args = getResolvedOptions(sys.argv, ["JOB_NAME", "dst", "partitions"])
glue = GlueContext(SparkContext.getOrCreate())
job = Job(glue)
job.init(args["JOB_NAME"], args)
options = {"connectionName": "bench", "dbtable": "orders", "jobBookmarkKeys": ["id"]}
if int(args["partitions"]) > 1:
    options.update({"hashfield": "id", "hashpartitions": args["partitions"]})
frame = glue.create_dynamic_frame.from_options("postgresql", options, transformation_ctx="orders")
glue.write_dynamic_frame.from_options(frame, "s3", {"path": args["dst"]}, "parquet")
job.commit()
'''


def timed(command, env=None):
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(command), result.stderr[-3000:]))
    return time.monotonic() - start, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epoxy", required=True)
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--partitions", default="1,4")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--work", default=None)
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="epoxy-dbbench-")
    server = PgServer()
    try:
        print("filling orders with %d rows ..." % args.rows, flush=True)
        server.sql("CREATE TABLE orders(id bigint PRIMARY KEY, customer_id int, amount numeric(10,2), "
                   "placed timestamp, note text)", db="shop")
        server.sql("INSERT INTO orders SELECT i, i %% 100000, (i %% 100000) / 100.0, "
                   "timestamp '2024-01-01' + i * interval '1 second', 'order ' || i "
                   "FROM generate_series(1, %d) i" % args.rows, db="shop")
        server.sql("VACUUM ANALYZE orders", db="shop")
        env = dict(os.environ, PGPASSWORD=PASSWORD, EPOXY_HOME=os.path.join(work, "home"))
        psql = os.path.join(server.bin, "psql")
        timed([args.epoxy, "connection", "create", "bench", "--url", server.url(), "--user", USER,
               "--password-env", "PGPASSWORD"], env)
        script = os.path.join(work, "copy.py")
        with open(script, "w") as f:
            f.write(JOB)
        partitions = [int(p) for p in args.partitions.split(",")]
        results = {"psql": []}
        for p in partitions:
            results[p] = []
        for round_ in range(args.repeat):
            csv = os.path.join(work, "orders.csv")
            seconds, _ = timed([psql, "-h", "127.0.0.1", "-p", str(server.port), "-U", USER, "-d", "shop", "-c",
                                "\\copy (SELECT id, customer_id, amount, placed, note FROM orders) TO '%s' CSV" % csv],
                               env)
            results["psql"].append(seconds)
            os.remove(csv)
            for p in partitions:
                dst = os.path.join(work, "out-%d" % p)
                shutil.rmtree(dst, ignore_errors=True)
                seconds, _ = timed([args.epoxy, "run", script, "--JOB_NAME", "bench_%d_%d" % (p, round_),
                                    "--dst", dst, "--partitions", str(p)], env)
                results[p].append(seconds)
            print("round %d: %s" % (round_ + 1, ", ".join("%s %.2f s" % (k, v[-1]) for k, v in results.items())),
                  flush=True)
        floor = min(results["psql"])
        print("\n%-22s %10s %14s %10s" % ("reader", "best s", "rows/s", "vs psql"))
        print("%-22s %10.2f %14.0f %10s" % ("psql \\copy to CSV", floor, args.rows / floor, "1.00"))
        for p in partitions:
            best = min(results[p])
            print("%-22s %10.2f %14.0f %10.2f" % ("epoxy, %d partition(s)" % p, best, args.rows / best, floor / best))

        # Incremental: a bookmarked full run, then 10,000 new rows, then a run that reads only those.
        dst = os.path.join(work, "incremental")
        shutil.rmtree(dst, ignore_errors=True)
        run = [args.epoxy, "run", script, "--JOB_NAME", "incremental", "--dst", dst, "--partitions", "1",
               "--job-bookmark-option", "job-bookmark-enable"]
        timed(run, env)
        server.sql("INSERT INTO orders SELECT i, 1, 1, now(), 'new' FROM generate_series(%d, %d) i"
                   % (args.rows + 1, args.rows + 10_000), db="shop")
        seconds, result = timed(run, env)
        runs = subprocess.run([args.epoxy, "runs", "incremental", "--json"], capture_output=True, text=True, env=env)
        import json
        newest = json.loads(runs.stdout)["JobRuns"][0]["Id"]
        details = json.loads(subprocess.run([args.epoxy, "run-show", newest], capture_output=True, text=True,
                                            env=env).stdout)
        read = details["Epoxy"]["Sources"]["orders"]["RowsRead"]
        assert read == 10_000, "the incremental run read %d rows, not 10000" % read
        print("\nincremental run after 10,000 new rows: read %d rows in %.2f s" % (read, seconds))
    finally:
        server.stop()
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
