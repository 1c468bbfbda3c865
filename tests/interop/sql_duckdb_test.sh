#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `epoxy sql` against DuckDB on the same files: filters, projections, functions, aggregates,
# UNION ALL and LIMIT over a Hive-partitioned Parquet set and JSON Lines, compared row for row;
# and partition pruning seen in --profile (one day of 30 read). DuckDB is the oracle only.
# Usage: sql_duckdb_test.sh EPOXY_BINARY MODULES_DIR
set -euo pipefail
epoxy=$1
modules_dir=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/duckdb_env.sh" "$modules_dir" || exit 1
source "$here/../integration/checks.sh"
duck() { node "$here/duckdb_tool.mjs" "$@"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export EPOXY_HOME=$work/home

# 30 days of events, one Parquet file a day, written by DuckDB with Hive partitioning.
duck sql "COPY (SELECT i AS id, 'user' || (i % 97) AS name, (i % 1000) / 8.0 AS amount,
  CASE WHEN i % 7 = 0 THEN NULL ELSE i % 13 END AS qty, ['web','ios','android'][i % 3 + 1] AS device,
  TIMESTAMP '2026-08-01 00:00:00' + (i * 37) * INTERVAL 1 SECOND AS ts,
  strftime(DATE '2026-08-01' + (i % 30)::INTEGER, '%Y-%m-%d') AS dt
  FROM range(0, 30000) t(i)) TO '$work/pq' (FORMAT PARQUET, PARTITION_BY (dt))"
pq="$work/pq"
duck sql "COPY (SELECT * FROM read_parquet('$pq/**/*.parquet', hive_partitioning=true) WHERE dt <= '2026-08-03') TO '$work/events.jsonl' (FORMAT JSON)"

# compare NAME EPOXY_SQL DUCKDB_SQL: the same rows in the same order.
compare() {
  "$epoxy" sql "$2" --output jsonl > "$work/epoxy.jsonl"
  duck query "$3" > "$work/duck.jsonl"
  if cmp -s "$work/epoxy.jsonl" "$work/duck.jsonl"; then check "$1" same same; else
    check "$1" "$(head -c 300 "$work/duck.jsonl")" "$(head -c 300 "$work/epoxy.jsonl")"; fi
}
# Row order is not defined (DISTINCT, UNION): compare the sorted lines.
compare_sorted() {
  "$epoxy" sql "$2" --output jsonl | sort > "$work/epoxy.jsonl"
  duck query "$3" | sort > "$work/duck.jsonl"
  if cmp -s "$work/epoxy.jsonl" "$work/duck.jsonl"; then check "$1" same same; else
    check "$1" "$(head -c 300 "$work/duck.jsonl")" "$(head -c 300 "$work/epoxy.jsonl")"; fi
}
dpq="read_parquet('$pq/**/*.parquet', hive_partitioning=true, hive_types_autocast=false)"
compare "pruned aggregate" \
  "SELECT count(*) AS n, sum(amount) AS s, min(id) AS lo, max(name) AS hi FROM parquet.\`$pq\` WHERE dt = '2026-08-17'" \
  "SELECT count(*) AS n, sum(amount) AS s, min(id) AS lo, max(name) AS hi FROM $dpq WHERE dt = '2026-08-17'"
compare "filter and projection with functions" \
  "SELECT id, upper(name) AS u, amount * 2 AS twice, coalesce(qty, -1) AS q, CASE WHEN device = 'ios' THEN 1 ELSE 0 END AS ios
   FROM parquet.\`$pq\` WHERE dt BETWEEN '2026-08-05' AND '2026-08-06' AND amount > 100 AND name LIKE 'user1%' AND id < 3000" \
  "SELECT id, upper(name) AS u, amount * 2 AS twice, coalesce(qty, -1) AS q, CASE WHEN device = 'ios' THEN 1 ELSE 0 END AS ios
   FROM $dpq WHERE dt BETWEEN '2026-08-05' AND '2026-08-06' AND amount > 100 AND name LIKE 'user1%' AND id < 3000 ORDER BY dt, id"
compare "null handling and IN" \
  "SELECT count(qty) AS with_qty, count(*) AS all_rows, sum(qty) AS total, min(qty) AS lo, max(qty) AS hi FROM parquet.\`$pq\` WHERE qty IN (1, 2, 3) OR qty IS NULL" \
  "SELECT count(qty) AS with_qty, count(*) AS all_rows, sum(qty) AS total, min(qty) AS lo, max(qty) AS hi FROM $dpq WHERE qty IN (1, 2, 3) OR qty IS NULL"
compare "dates and casts" \
  "SELECT id, year(ts) AS y, month(ts) AS m, hour(ts) AS h, CAST(amount AS INT) AS a FROM parquet.\`$pq\` WHERE dt = '2026-08-02' AND id < 400" \
  "SELECT id, year(ts) AS y, month(ts) AS m, hour(ts) AS h, CAST(trunc(amount) AS INT) AS a FROM $dpq WHERE dt = '2026-08-02' AND id < 400 ORDER BY id"
compare "union all over parquet and json" \
  "SELECT count(*) AS n FROM parquet.\`$pq\` WHERE dt <= '2026-08-03' UNION ALL SELECT count(*) FROM json.\`$work/events.jsonl\`" \
  "SELECT count(*) AS n FROM $dpq WHERE dt <= '2026-08-03' UNION ALL SELECT count(*) FROM read_json('$work/events.jsonl')"

compare_sorted "distinct over 30 files, nulls as one value" \
  "SELECT DISTINCT device, qty FROM parquet.\`$pq\`" \
  "SELECT DISTINCT device, qty FROM $dpq"
compare_sorted "union removes repeats, union all keeps them" \
  "SELECT name FROM parquet.\`$pq\` WHERE dt = '2026-08-01' UNION SELECT name FROM parquet.\`$pq\` WHERE dt = '2026-08-02'
   UNION ALL SELECT name FROM parquet.\`$pq\` WHERE id < 5" \
  "(SELECT name FROM $dpq WHERE dt = '2026-08-01' UNION SELECT name FROM $dpq WHERE dt = '2026-08-02')
   UNION ALL SELECT name FROM $dpq WHERE id < 5"
compare_sorted "explode and posexplode_outer of arrays built per row" \
  "SELECT id, explode(array(qty, id % 3)) AS v FROM parquet.\`$pq\` WHERE id < 50" \
  "SELECT id, unnest([qty, id % 3]) AS v FROM $dpq WHERE id < 50"
compare_sorted "array functions over grouped lists" \
  "SELECT device, size(l) AS n, element_at(l, 1) AS smallest, array_contains(l, 12) AS has12
   FROM (SELECT device, sort_array(collect_list(qty)) AS l FROM parquet.\`$pq\` WHERE dt = '2026-08-02' GROUP BY device)" \
  "SELECT device, len(l) AS n, l[1] AS smallest, list_contains(l, 12) AS has12
   FROM (SELECT device, list_sort(list(qty) FILTER (WHERE qty IS NOT NULL)) AS l FROM $dpq WHERE dt = '2026-08-02' GROUP BY device)"

# Pruning: one day's file is listed and read, the other 29 partitions are pruned unlisted.
"$epoxy" sql "SELECT count(*) AS n FROM parquet.\`$pq\` WHERE dt = '2026-08-17'" --output jsonl --profile --json \
  > /dev/null 2> "$work/profile.json"
check "pruned scan reads one file of 30" "30 29 1 1" \
  "$(python3 -c "import json; d=json.load(open('$work/profile.json')); print(d['partitions listed'], d['partitions pruned'], d['files listed'], d['files read'])")"
# Row-group statistics: a filter on id skips the row groups (of sorted ids) that cannot hold it.
duck sql "COPY (SELECT * FROM range(0, 30000) t(id)) TO '$work/sorted.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)"
"$epoxy" sql "SELECT count(*) AS n FROM parquet.\`$work/sorted.parquet\` WHERE id = 12345" --output jsonl --profile --json \
  > "$work/one.jsonl" 2> "$work/profile.json"
groups=$("$epoxy" parquet-meta "$work/sorted.parquet" | grep -c '^row group [0-9]')
check "statistics prune row groups" "{\"n\":1} 1 $((groups - 1))" \
  "$(cat "$work/one.jsonl") $(python3 -c "import json; d=json.load(open('$work/profile.json')); print(d['row groups read'], d['row groups pruned'])")"

# Partitioned writes, read back by DuckDB: the same rows, one folder per day, files of bounded size.
"$epoxy" sql "SELECT id, name, amount, qty, device, ts, dt FROM parquet.\`$pq\` WHERE dt <= '2026-08-10'" \
  --write "$work/out" --partition-by dt --target-file-size 16K 2> "$work/write.log"
duck query "SELECT id, name, amount, qty, device, ts, dt FROM $dpq WHERE dt <= '2026-08-10' ORDER BY id" > "$work/expected.jsonl"
duck query "SELECT id, name, amount, qty, device, ts, dt FROM read_parquet('$work/out/**/*.parquet', hive_partitioning=true, hive_types_autocast=false) ORDER BY id" > "$work/back.jsonl"
if cmp -s "$work/expected.jsonl" "$work/back.jsonl"; then check "partitioned Parquet read back by DuckDB" same same; else
  check "partitioned Parquet read back by DuckDB" "$(head -c 300 "$work/expected.jsonl")" "$(head -c 300 "$work/back.jsonl")"; fi
check "one folder a day, no staging left" "10 0" "$(ls "$work/out" | grep -c '^dt=') $(ls -a "$work/out" | grep -c _temporary)"
files=$(find "$work/out" -name '*.parquet' | wc -l)
check "the target size splits days into several files" "yes" "$([ "$files" -gt 10 ] && echo yes || echo "no: $files")"
code=0
"$epoxy" sql "SELECT id FROM parquet.\`$pq\`" --write "$work/out" 2> "$work/err" || code=$?
check "mode error refuses an existing folder before writing" "10 1 $files" \
  "$code $(grep -c 'already exists' "$work/err") $(find "$work/out" -name '*.parquet' | wc -l)"
"$epoxy" sql "SELECT id, dt FROM parquet.\`$pq\` WHERE dt = '2026-08-01'" --write "$work/out" --mode overwrite \
  --partition-by dt --to json 2> /dev/null
check "overwrite replaces the old contents" "1000 1" \
  "$(cat "$work"/out/dt=*/*.json | wc -l | tr -d ' ') $(find "$work/out" -type f | wc -l)"

# Crawled table: the same answer through the catalog.
"$epoxy" crawl "$pq" --database lake > /dev/null
compare "catalog table" \
  "SELECT count(*) AS n, sum(qty) AS q FROM lake.pq WHERE dt = '2026-08-09' AND device = 'web'" \
  "SELECT count(*) AS n, sum(qty) AS q FROM $dpq WHERE dt = '2026-08-09' AND device = 'web'"
finish
