#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Twenty functions common in ETL against DuckDB's equivalents, side by side in one run.

Each query applies one function to every row of a generated 10 M-row Parquet file and folds the
results into one row (a sum of lengths, a count), so the function dominates and the answers of
both engines can be compared. Both engines read the same file; runs alternate between them.

  functions_vs_duckdb.py --epoxy build/release/epoxy [--threads 2] [--reps 3] [--rows 10000000]
                         [--only regexp,cast] [--scratch DIR]

Reports DuckDB's statement seconds (Node start-up excluded), epoxy's wall seconds (its whole
process), the ratio, and whether the answers agree. DuckDB's Node package: EPOXY_DUCKDB_MODULES
(default build/test/duckdb/node_modules, which `make test` installs).
"""
import argparse
import json
import os
import sys
import tempfile

from relational_vs_duckdb import HERE, canon, duck_env, timed

GENERATE = """COPY (SELECT i AS id,
    'Order-' || i || ', item ' || (i % 1000) || ', Qty ' || (i % 7) || '  ' AS s,
    strftime(TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i), '%Y-%m-%d %H:%M:%S') AS ts_str,
    TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i) AS ts,
    CAST(i % 100000 AS VARCHAR) AS num_str,
    printf('%.2f', (i % 100000) / 100.0) AS dec_str,
    strftime(DATE '2000-01-01' + CAST(i % 9000 AS INTEGER), '%Y-%m-%d') AS date_str,
    '{{"a":' || i || ',"b":"v' || (i % 100) || '","c":[1,2]}}' AS js,
    [CAST(i % 5 AS INTEGER), CAST(i % 7 AS INTEGER), CAST(i % 11 AS INTEGER)] AS arr,
    CASE WHEN i % 3 = 0 THEN NULL ELSE CAST(i AS INTEGER) END AS maybe
  FROM range(0, {rows}) t(i)) TO '{path}' (FORMAT PARQUET)"""

# (name, epoxy's Spark SQL, DuckDB's SQL); {t} is the table.
QUERIES = [
    ("regexp_extract", "SELECT sum(length(regexp_extract(s, '([0-9]+)', 1))) FROM {t}",
     "SELECT sum(length(regexp_extract(s, '([0-9]+)', 1))) FROM {t}"),
    ("regexp_replace", "SELECT sum(length(regexp_replace(s, '[0-9]', 'X'))) FROM {t}",
     "SELECT sum(length(regexp_replace(s, '[0-9]', 'X', 'g'))) FROM {t}"),
    ("split", "SELECT sum(size(split(s, ','))) FROM {t}", "SELECT sum(len(string_split(s, ','))) FROM {t}"),
    ("concat_ws", "SELECT sum(length(concat_ws('-', num_str, dec_str, date_str))) FROM {t}",
     "SELECT sum(length(concat_ws('-', num_str, dec_str, date_str))) FROM {t}"),
    ("date_format", "SELECT sum(length(date_format(ts, 'yyyy-MM-dd HH'))) FROM {t}",
     "SELECT sum(length(strftime(ts, '%Y-%m-%d %H'))) FROM {t}"),
    ("to_timestamp", "SELECT count(to_timestamp(ts_str, 'yyyy-MM-dd HH:mm:ss')) FROM {t}",
     "SELECT count(strptime(ts_str, '%Y-%m-%d %H:%M:%S')) FROM {t}"),
    ("from_json", "SELECT sum(from_json(js, 'a BIGINT, b STRING').a) FROM {t}",
     "SELECT sum(json_transform(js, '{{\"a\":\"BIGINT\",\"b\":\"VARCHAR\"}}').a) FROM {t}"),
    ("get_json_object", "SELECT sum(length(get_json_object(js, '$.b'))) FROM {t}",
     "SELECT sum(length(json_extract_string(js, '$.b'))) FROM {t}"),
    ("to_json", "SELECT sum(length(to_json(named_struct('a', id, 'b', num_str)))) FROM {t}",
     "SELECT sum(length(to_json({{'a': id, 'b': num_str}}))) FROM {t}"),
    ("lower", "SELECT sum(length(lower(s))) FROM {t}", "SELECT sum(length(lower(s))) FROM {t}"),
    ("trim", "SELECT sum(length(trim(s))) FROM {t}", "SELECT sum(length(trim(s))) FROM {t}"),
    ("substring", "SELECT sum(length(substring(s, 3, 8))) FROM {t}", "SELECT sum(length(substring(s, 3, 8))) FROM {t}"),
    ("md5", "SELECT count(DISTINCT substring(md5(s), 1, 2)) FROM {t}",
     "SELECT count(DISTINCT substring(md5(s), 1, 2)) FROM {t}"),
    ("sha2", "SELECT count(DISTINCT substring(sha2(s, 256), 1, 2)) FROM {t}",
     "SELECT count(DISTINCT substring(sha256(s), 1, 2)) FROM {t}"),
    ("coalesce", "SELECT sum(coalesce(maybe, 0)) FROM {t}", "SELECT sum(coalesce(maybe, 0)) FROM {t}"),
    ("when", "SELECT sum(CASE WHEN id % 3 = 0 THEN 1 WHEN id % 3 = 1 THEN 2 ELSE 3 END) FROM {t}",
     "SELECT sum(CASE WHEN id % 3 = 0 THEN 1 WHEN id % 3 = 1 THEN 2 ELSE 3 END) FROM {t}"),
    ("cast string to int", "SELECT sum(CAST(num_str AS INT)) FROM {t}", "SELECT sum(CAST(num_str AS INTEGER)) FROM {t}"),
    ("cast string to date", "SELECT max(CAST(date_str AS DATE)) FROM {t}", "SELECT max(CAST(date_str AS DATE)) FROM {t}"),
    ("cast string to decimal", "SELECT sum(CAST(dec_str AS DECIMAL(10,2))) FROM {t}",
     "SELECT sum(CAST(dec_str AS DECIMAL(10,2))) FROM {t}"),
    ("array_contains", "SELECT count_if(array_contains(arr, 3)) FROM {t}",
     "SELECT count(*) FILTER (WHERE list_contains(arr, 3)) FROM {t}"),
    ("transform", "SELECT sum(aggregate(transform(arr, x -> x + 1), 0, (a, x) -> a + x)) FROM {t}",
     "SELECT sum(list_sum(list_transform(arr, x -> x + 1))) FROM {t}"),
    ("explode", "SELECT count(*), sum(v) FROM (SELECT explode(arr) AS v FROM {t})",
     "SELECT count(*), sum(v) FROM (SELECT unnest(arr) AS v FROM {t})"),
]


def run_one(a, epoxy_sql, duck_sql):
    ecmd = [a.epoxy, "sql", epoxy_sql, "--output", "jsonl", "--threads", str(a.threads)]
    dcmd = ["node", os.path.join(HERE, "duckdb_timed.mjs"), "--sql", duck_sql, "--threads", str(a.threads)]
    best = None
    for _ in range(a.reps):  # in turns, so both see the same machine
        dout, _, _, _ = timed(dcmd, duck_env())
        eout, ewall, _, erss = timed(ecmd)
        d = json.loads(dout.strip().splitlines()[-1])
        e_rows = [canon(json.loads(line).values()) for line in eout.strip().splitlines()]
        run = {"duck_s": d["seconds"], "epoxy_s": ewall, "epoxy_rss": erss,
               "same": e_rows == [canon(r) for r in d["rows"]], "epoxy": e_rows, "duck": d["rows"]}
        if best is None or run["epoxy_s"] / run["duck_s"] < best["epoxy_s"] / best["duck_s"]:
            best = run
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--epoxy", required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--rows", type=int, default=10_000_000)
    p.add_argument("--only", default="")
    p.add_argument("--scratch", default=os.path.join(tempfile.gettempdir(), "epoxy-bench", "functions"))
    a = p.parse_args()
    a.epoxy = os.path.abspath(a.epoxy)
    os.makedirs(a.scratch, exist_ok=True)
    path = os.path.join(a.scratch, "etl_%d.parquet" % a.rows)
    if not os.path.exists(path):
        print("generating %s ..." % path, file=sys.stderr)
        timed(["node", os.path.join(HERE, "duckdb_timed.mjs"), "--sql", GENERATE.format(rows=a.rows, path=path),
               "--threads", str(a.threads)], duck_env())
    queries = [q for q in QUERIES if not a.only or any(w in q[0] for w in a.only.split(","))]
    print("| function | DuckDB s | epoxy s | ratio | epoxy RSS MiB | same answer |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for name, esql, dsql in queries:
        try:
            r = run_one(a, esql.format(t="parquet.`%s`" % path), dsql.format(t="read_parquet('%s')" % path))
        except RuntimeError as err:
            print("| %s | failed: %s |" % (name, str(err).replace("\n", " ")[:300]), flush=True)
            continue
        ratio = r["epoxy_s"] / r["duck_s"]
        ratios.append(ratio)
        same = "yes" if r["same"] else "NO (%s vs %s)" % (r["epoxy"], r["duck"])
        print("| %s | %.3f | %.3f | %.2f | %.0f | %s |" % (name, r["duck_s"], r["epoxy_s"], ratio, r["epoxy_rss"], same),
              flush=True)
    if ratios:
        geo = 1.0
        for x in ratios:
            geo *= x
        print("\ngeometric mean ratio over %d functions: %.2f" % (len(ratios), geo ** (1.0 / len(ratios))))


if __name__ == "__main__":
    main()
