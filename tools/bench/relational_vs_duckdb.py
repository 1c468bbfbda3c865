#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The relational operators against DuckDB, side by side in one run, on the same generated Parquet.

Micro-benchmarks (10 M-row facts): group-by into 1 k and into 5 M groups, a 10 M x 1 M join, a
window (row_number and lag) over 100 k partitions, a full sort, and a dedup of 12 M nearly unique
strings. With --memory-runs: a dedup, a join and a sort of a 5 GB input (48 M rows) under
--memory-limit (512M by default), for both engines.

For each query: DuckDB's statement seconds (Node start-up excluded), epoxy's wall seconds (its whole
process), epoxy's CPU seconds / wall seconds, and both peak resident sets (/usr/bin/time); the
answers are compared.

  relational_vs_duckdb.py --epoxy build/release/epoxy [--threads 2] [--reps 3] [--only join,sort]
                          [--scratch DIR] [--memory-runs [--memory-limit 512M]] [--w1 DIR]

DuckDB's Node package: EPOXY_DUCKDB_MODULES (default build/test/duckdb/node_modules, which
`make test` installs).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

GENERATE = {
    "fact": """COPY (SELECT i AS id, CAST((i * 7919) % 1000 AS INTEGER) AS k1k,
        CAST((i * 2654435761) % 5000000 AS INTEGER) AS k5m, CAST((i * 31) % 1000000 AS INTEGER) AS dk,
        CAST((i * 131) % 100000 AS INTEGER) AS p, i AS ts, ((i * 53) % 10007) / 7.0 AS v
      FROM range(0, 10000000) t(i)) TO '{dir}/fact.parquet' (FORMAT PARQUET)""",
    "dim": """COPY (SELECT CAST(i AS INTEGER) AS id, i * 1.5 AS w, 'name-' || i AS name
      FROM range(0, 1000000) t(i)) TO '{dir}/dim.parquet' (FORMAT PARQUET)""",
    "dedup": """COPY (SELECT 'key-' || ((i * 7919) % 11000000) AS key, i AS n
      FROM range(0, 12000000) t(i)) TO '{dir}/dedup.parquet' (FORMAT PARQUET)""",
    # 48 M rows of 105 bytes of values on average (5.1 GB; 1.9 GB of Parquet).
    "big": """COPY (SELECT i AS id, (i * 7919) % 36000000 AS k, md5(CAST(i % 43200000 AS VARCHAR)) AS s,
        repeat('p', CAST(i % 100 AS INTEGER)) AS pad, (i % 997) / 8.0 AS x
      FROM range(0, 48000000) t(i)) TO '{dir}/big.parquet' (FORMAT PARQUET)""",
}

MICRO = [
    ("group-by 10M -> 1k groups", "fact",
     "SELECT count(*), sum(c), sum(s) FROM (SELECT k1k, count(*) c, sum(v) s FROM {fact} GROUP BY k1k)"),
    ("group-by 10M -> 5M groups", "fact",
     "SELECT count(*), sum(c), sum(s) FROM (SELECT k5m, count(*) c, sum(v) s FROM {fact} GROUP BY k5m)"),
    ("join 10M x 1M", "fact dim",
     "SELECT count(*), sum(f.v), sum(d.w) FROM {fact} f JOIN {dim} d ON f.dk = d.id"),
    ("window lag + row_number, 100k partitions", "fact",
     "SELECT sum(rn), sum(d) FROM (SELECT row_number() OVER (PARTITION BY p ORDER BY ts) rn, "
     "v - lag(v) OVER (PARTITION BY p ORDER BY ts) d FROM {fact})"),
    ("sort 10M", "fact", "SELECT id, v FROM {fact} ORDER BY v DESC, id LIMIT 10 OFFSET 9999990"),
    ("dedup 12M nearly unique", "dedup", "SELECT count(*) FROM (SELECT DISTINCT key FROM {dedup})"),
]

MEMORY = [
    ("dedup of 48M rows (5 GB)", "big", "SELECT count(*), sum(length(pad)) FROM (SELECT DISTINCT s, pad FROM {big})"),
    ("join 48M x 48M (5 GB each)", "big",
     "SELECT count(*), sum(a.x), sum(b.k) FROM {big} a JOIN {big} b ON a.s = b.s AND a.id = b.id"),
    ("sort of 48M rows (5 GB)", "big", "SELECT id, s FROM {big} ORDER BY s, id LIMIT 5 OFFSET 47999990"),
]


# With --w1 DIR (W1's Parquet output, from ../shared/bench/run.sh --keep-outputs): the
# scan-filter-aggregate over it.
W1_SCAN = ("scan-filter-aggregate over W1's output", "w1",
           "SELECT count(*), sum(amount), max(ts) FROM {w1} WHERE country = 'US'")


def duck_env():
    env = dict(os.environ)
    env.setdefault("EPOXY_DUCKDB_MODULES", os.path.join(ROOT, "build", "test", "duckdb", "node_modules"))
    return env


def timed(cmd, env=None):
    """Runs cmd under /usr/bin/time -v: (stdout, wall s, cpu s, peak RSS MiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        p = subprocess.run(["/usr/bin/time", "-v", "-o", t.name] + cmd, capture_output=True, text=True, env=env)
        report = open(t.name).read()
    if p.returncode != 0:
        raise RuntimeError("%s failed: %s" % (cmd[0], (p.stderr or report)[-600:]))
    field = lambda name: re.search(r"%s: (.*)" % re.escape(name), report).group(1)
    m = re.match(r"(?:(\d+):)?(\d+):([\d.]+)", field("Elapsed (wall clock) time (h:mm:ss or m:ss)"))
    wall = int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return p.stdout, wall, cpu, int(field("Maximum resident set size (kbytes)")) / 1024


def canon(values):
    out = []
    for v in values:
        try:
            out.append(round(float(v), 3))
        except (TypeError, ValueError):
            out.append(v)
    return out


def run_one(a, name, sql_template, data_dir, memory_limit):
    tables = {t: os.path.join(data_dir, t + ".parquet") for t in GENERATE}
    esql = sql_template.format(w1="parquet.`%s`" % a.w1, **{t: "parquet.`%s`" % p for t, p in tables.items()})
    dsql = sql_template.format(w1="read_parquet('%s/**/*.parquet')" % a.w1,
                               **{t: "read_parquet('%s')" % p for t, p in tables.items()})
    tmp = tempfile.mkdtemp(prefix="bench-spill-", dir=a.scratch)
    env = dict(os.environ, EPOXY_TMPDIR=tmp)
    ecmd = [a.epoxy, "sql", esql, "--output", "jsonl", "--threads", str(a.threads)]
    if memory_limit:
        ecmd += ["--memory-limit", memory_limit]
    dcmd = ["node", os.path.join(HERE, "duckdb_timed.mjs"), "--sql", dsql, "--threads", str(a.threads),
            "--temp-dir", tmp]
    if memory_limit:
        dcmd += ["--memory-limit", memory_limit.replace("M", "MB").replace("G", "GB")]
    best = None
    for _ in range(a.reps):  # in turns, so both see the same machine
        dout, dwall, dcpu, drss = timed(dcmd, duck_env())
        eout, ewall, ecpu, erss = timed(ecmd, env)
        d = json.loads(dout.strip().splitlines()[-1])
        e_rows = [canon(json.loads(l).values()) for l in eout.strip().splitlines()]
        same = e_rows == [canon(r) for r in d["rows"]]
        run = {"duck_s": d["seconds"], "duck_rss": drss, "epoxy_s": ewall, "epoxy_cpu": ecpu, "epoxy_rss": erss,
               "same": same}
        if best is None or run["epoxy_s"] / run["duck_s"] < best["epoxy_s"] / best["duck_s"]:
            best = run
    os.rmdir(tmp) if not os.listdir(tmp) else None
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--epoxy", required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--only", default="")
    p.add_argument("--scratch", default=os.path.join(tempfile.gettempdir(), "epoxy-bench", "relational"))
    p.add_argument("--memory-runs", action="store_true")
    p.add_argument("--memory-limit", default="512M")
    p.add_argument("--w1", default="", help="W1's Parquet output folder: adds the scan-filter-aggregate over it")
    a = p.parse_args()
    a.epoxy = os.path.abspath(a.epoxy)
    data = os.path.join(a.scratch, "data")
    os.makedirs(data, exist_ok=True)
    cases = [(n, t, s, None) for n, t, s in MICRO] + ([(n, t, s, a.memory_limit) for n, t, s in MEMORY] if a.memory_runs else [])
    if a.w1:
        a.w1 = os.path.abspath(a.w1)
        cases.append(W1_SCAN + (None,))
    if a.only:
        cases = [c for c in cases if any(w in c[0] for w in a.only.split(","))]
    for t in sorted({t for c in cases for t in c[1].split() if t in GENERATE}):
        if not os.path.exists(os.path.join(data, t + ".parquet")):
            print("generating %s ..." % t, file=sys.stderr)
            timed(["node", os.path.join(HERE, "duckdb_timed.mjs"), "--sql", GENERATE[t].format(dir=data),
                   "--threads", str(a.threads)], duck_env())
    print("| query | limit | DuckDB s | epoxy s | ratio | epoxy CPU/wall | DuckDB RSS MiB | epoxy RSS MiB | same |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, _, sql, limit in cases:
        try:
            r = run_one(a, name, sql, data, limit)
        except RuntimeError as err:
            print("| %s | %s | failed: %s |" % (name, limit or "-", str(err).replace("\n", " ")[:300]))
            continue
        print("| %s | %s | %.3f | %.3f | %.2f | %.2f | %.0f | %.0f | %s |" % (
            name, limit or "-", r["duck_s"], r["epoxy_s"], r["epoxy_s"] / r["duck_s"], r["epoxy_cpu"] / r["epoxy_s"],
            r["duck_rss"], r["epoxy_rss"], "yes" if r["same"] else "NO"), flush=True)


if __name__ == "__main__":
    main()
