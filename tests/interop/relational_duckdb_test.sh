#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The relational operators of `epoxy sql` against DuckDB on the same generated Parquet data:
# aggregation (every aggregate, grouping sets), deduplication, every join type, sorts, top-n,
# windows, set operations and subqueries, over keys with nulls, heavy skew, duplicates, strings,
# decimals, dates and nested values. Results are compared as multisets (in order where the query
# orders). Where Spark and DuckDB differ, epoxy follows Spark and the difference is pinned below.
# Usage: relational_duckdb_test.sh EPOXY_BINARY MODULES_DIR
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

# 200,000 facts: int keys with nulls, string keys with nulls, a 70%-one-value skewed key, decimals,
# doubles, dates, booleans, a struct and an array; 900 dimension rows whose keys cover part of them.
duck sql "COPY (SELECT i AS id,
    CASE WHEN i % 97 = 0 THEN NULL ELSE CAST((i * 7919) % 1000 AS INTEGER) END AS k1,
    CASE WHEN i % 13 = 0 THEN NULL ELSE 'g' || ((i * 31) % 50) END AS k2,
    CAST(((i * 37) % 100000) / 100.0 AS DECIMAL(12,2)) AS d,
    ((i * 53) % 1000) / 8.0 AS x,
    DATE '2024-01-01' + CAST((i * 11) % 365 AS INTEGER) AS dt,
    (i % 3 = 0) AS flag,
    CASE WHEN i % 10 < 7 THEN 0 ELSE i % 100 END AS skew,
    {'a': i % 5, 'b': 'v' || (i % 3)} AS s,
    [i % 4, i % 7] AS arr
  FROM range(0, 200000) t(i)) TO '$work/facts.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 20000)"
duck sql "COPY (SELECT CAST(j AS INTEGER) AS k1, 'name' || j AS name,
    CASE WHEN j % 5 = 0 THEN NULL ELSE 'r' || (j % 7) END AS region,
    CAST(j AS BIGINT) AS kb, CAST(j AS DECIMAL(10,0)) AS kd, 'g' || (j % 60) AS k2
  FROM range(0, 1200) t(j) WHERE j % 4 <> 1) TO '$work/dim.parquet' (FORMAT PARQUET)"

ef="parquet.\`$work/facts.parquet\`"; ed="parquet.\`$work/dim.parquet\`"
df="read_parquet('$work/facts.parquet')"; dd="read_parquet('$work/dim.parquet')"

# same NAME SQL [--ordered]: the query (with {f} and {d} for the tables) on both engines.
same() {
  local name=$1 sql=$2 ordered=${3:-}
  local e=${sql//\{f\}/$ef}; e=${e//\{d\}/$ed}
  local d=${sql//\{f\}/$df}; d=${d//\{d\}/$dd}
  if ! "$epoxy" sql "$e" --output jsonl > "$work/e.jsonl" 2> "$work/e.err"; then
    check "$name" "same" "epoxy failed: $(head -c 300 "$work/e.err")"; return
  fi
  duck query "$d" > "$work/d.jsonl"
  check "$name" "same" "$(python3 "$here/compare_rows.py" "$work/e.jsonl" "$work/d.jsonl" $ordered)"
}

# same2 NAME EPOXY_SQL DUCKDB_SQL: where the two dialects spell a function differently.
same2() {
  if ! "$epoxy" sql "$2" --output jsonl > "$work/e.jsonl" 2> "$work/e.err"; then
    check "$1" "same" "epoxy failed: $(head -c 300 "$work/e.err")"; return
  fi
  duck query "$3" > "$work/d.jsonl"
  check "$1" "same" "$(python3 "$here/compare_rows.py" "$work/e.jsonl" "$work/d.jsonl" ${4:-})"
}

# --- aggregation
same "group by int key with nulls: count, sum, avg, min, max" \
  "SELECT k1, count(*), count(k2), sum(d), avg(d), min(k2), max(x), sum(x), min(dt), max(flag) FROM {f} GROUP BY k1"
same "group by string key with nulls" "SELECT k2, count(*), sum(id), avg(x), count(DISTINCT k1) FROM {f} GROUP BY k2"
same "group by several keys of several types" "SELECT k1 % 7 AS a, k2, dt, flag, count(*), sum(d) FROM {f} GROUP BY k1 % 7, k2, dt, flag"
same "group by decimal and skewed keys" "SELECT d, skew, count(*) FROM {f} WHERE id < 50000 GROUP BY d, skew"
same "group by struct and array keys" "SELECT s, arr, count(*) FROM {f} GROUP BY s, arr"
same "global aggregates" "SELECT count(*), count(k1), sum(k1), avg(k1), min(d), max(d), sum(d), avg(d) FROM {f}"
same "global aggregates over no rows" "SELECT count(*), sum(d), min(k2), avg(x) FROM {f} WHERE id < 0"
same "grouped aggregates over no rows" "SELECT k1, count(*) FROM {f} WHERE id < 0 GROUP BY k1"
same "statistics" "SELECT k1 % 10, stddev_samp(x), stddev_pop(x), var_samp(x), var_pop(x), bool_and(flag), bool_or(flag) FROM {f} GROUP BY k1 % 10"
same "count distinct of several kinds" "SELECT count(DISTINCT k2), count(DISTINCT d), count(DISTINCT dt), count(DISTINCT s) FROM {f}"
same "sum and avg distinct" "SELECT k1 % 5, sum(DISTINCT k1), avg(DISTINCT d) FROM {f} GROUP BY k1 % 5"
same "having" "SELECT k2, sum(x) AS t FROM {f} GROUP BY k2 HAVING sum(x) > 500000 AND count(*) > 10"
same2 "rollup with grouping ids" \
  "SELECT k1 % 3 AS a, k2, count(*), sum(d), grouping_id() FROM $ef GROUP BY ROLLUP(k1 % 3, k2)" \
  "SELECT k1 % 3 AS a, k2, count(*), sum(d), grouping(k1 % 3, k2) FROM $df GROUP BY ROLLUP(k1 % 3, k2)"
same "cube" "SELECT flag, k1 % 2 AS p, count(*) FROM {f} GROUP BY CUBE(flag, k1 % 2)"
same "grouping sets" "SELECT k2, dt, count(*) FROM {f} WHERE id < 20000 GROUP BY GROUPING SETS ((k2), (dt), ())"
same "distinct over nullable and nested columns" "SELECT DISTINCT k2, flag, s FROM {f}"
same "distinct of nearly unique rows" "SELECT DISTINCT id % 150000, d FROM {f}"
check "approx_count_distinct is within 5% of the exact count" "yes" \
  "$("$epoxy" sql "SELECT approx_count_distinct(id) AS a, count(DISTINCT id) AS c FROM $ef" --output jsonl | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print("yes" if abs(r["a"]-r["c"]) <= 0.05*r["c"] else r)')"
same2 "collect_list and collect_set" \
  "SELECT k1 % 4, size(collect_list(k2)), sort_array(collect_set(k2)) FROM $ef GROUP BY k1 % 4" \
  "SELECT k1 % 4, len(list(k2) FILTER (WHERE k2 IS NOT NULL)), list_sort(list_distinct(list(k2))) FROM $df GROUP BY k1 % 4"

# --- joins
same "inner join, null keys on both sides" "SELECT f.id, f.k1, m.name FROM {f} f JOIN {d} m ON f.k1 = m.k1"
same "left outer join" "SELECT f.id, m.name, m.region FROM {f} f LEFT JOIN {d} m ON f.k1 = m.k1 WHERE f.id < 30000"
same "right outer join" "SELECT f.id, m.k1, m.name FROM {f} f RIGHT JOIN {d} m ON f.k1 = m.k1 AND f.id < 5000"
same "full outer join" "SELECT f.id, m.k1 FROM (SELECT * FROM {f} WHERE id < 3000) f FULL OUTER JOIN {d} m ON f.k1 = m.k1"
same2 "left semi and left anti joins" \
  "SELECT count(*) FROM $ef f LEFT SEMI JOIN $ed m ON f.k1 = m.k1 UNION ALL SELECT count(*) FROM $ef f LEFT ANTI JOIN $ed m ON f.k1 = m.k1" \
  "SELECT count(*) FROM $df f SEMI JOIN $dd m ON f.k1 = m.k1 UNION ALL SELECT count(*) FROM $df f ANTI JOIN $dd m ON f.k1 = m.k1"
same "join on string keys" "SELECT f.k2, m.name, count(*) FROM {f} f JOIN {d} m ON f.k2 = m.k2 GROUP BY f.k2, m.name"
same "keys of different types meet in a common type" \
  "SELECT count(*), sum(f.id) FROM {f} f JOIN {d} m ON f.k1 = m.kb UNION ALL SELECT count(*), sum(f.id) FROM {f} f JOIN {d} m ON f.k1 = m.kd"
same2 "null-safe equality matches nulls" \
  "SELECT count(*) FROM (SELECT k2 FROM $ef WHERE id < 300) a JOIN (SELECT k2 FROM $ef WHERE id < 300) b ON a.k2 <=> b.k2" \
  "SELECT count(*) FROM (SELECT k2 FROM $df WHERE id < 300) a JOIN (SELECT k2 FROM $df WHERE id < 300) b ON a.k2 IS NOT DISTINCT FROM b.k2"
same "residual condition beside the keys" "SELECT f.id, m.name FROM {f} f JOIN {d} m ON f.k1 = m.k1 AND f.x > m.k1 / 10.0 WHERE f.id < 20000"
same "theta join without keys" "SELECT a.k1, b.k1 FROM (SELECT k1 FROM {d} WHERE k1 < 40) a JOIN (SELECT k1 FROM {d} WHERE k1 < 40) b ON a.k1 < b.k1"
same "cross join" "SELECT count(*), sum(a.k1 * b.k1) FROM (SELECT k1 FROM {d} WHERE k1 < 100) a CROSS JOIN (SELECT k1 FROM {d} WHERE k1 < 50) b"
same "three-way join in the written order and reordered" \
  "SELECT m.region, count(*), sum(f.d) FROM {d} m, {f} f, {d} n WHERE f.k1 = m.k1 AND n.k1 = m.k1 + 2 GROUP BY m.region"
same "join using" "SELECT k1, name, id FROM {d} JOIN (SELECT k1, id FROM {f} WHERE id < 10000) USING (k1)"
same "join with many matches per key" "SELECT a.skew, count(*) FROM (SELECT skew FROM {f} WHERE id < 2000) a JOIN (SELECT skew FROM {f} WHERE id < 2000) b ON a.skew = b.skew GROUP BY a.skew"

# --- sorting
same "order by several keys, directions and null orders" \
  "SELECT k1, k2, d, id FROM {f} WHERE id < 20000 ORDER BY k2 DESC NULLS LAST, k1 ASC NULLS FIRST, d DESC, id" --ordered
same "top-n" "SELECT id, x, k2 FROM {f} ORDER BY x DESC, id LIMIT 25" --ordered
same "top-n with offset" "SELECT id FROM {f} ORDER BY d, id LIMIT 10 OFFSET 100" --ordered
same "order by strings, dates and decimals" "SELECT k2, dt, d FROM {f} WHERE id % 1000 = 0 ORDER BY k2 NULLS FIRST, dt DESC, d" --ordered
same "order by an expression not selected" "SELECT id FROM {f} WHERE id < 5000 ORDER BY x * -1, id" --ordered

# --- windows
same "ranking functions" \
  "SELECT id, row_number() OVER (PARTITION BY k1 ORDER BY id) rn, rank() OVER (PARTITION BY k1 ORDER BY d) rk,
          dense_rank() OVER (PARTITION BY k1 ORDER BY d) dr FROM {f} WHERE id < 40000"
same "percent_rank, cume_dist, ntile" \
  "SELECT id, percent_rank() OVER (PARTITION BY k2 ORDER BY x) pr, cume_dist() OVER (PARTITION BY k2 ORDER BY x) cd,
          ntile(4) OVER (PARTITION BY k2 ORDER BY id) nt FROM {f} WHERE id < 30000"
same "lag and lead" \
  "SELECT id, lag(x) OVER (PARTITION BY k1 ORDER BY id) l1, lead(x, 2, -1.0) OVER (PARTITION BY k1 ORDER BY id) l2 FROM {f} WHERE id < 30000"
same "running aggregates with the default frame" \
  "SELECT id, sum(d) OVER (PARTITION BY k2 ORDER BY id) s, count(*) OVER (PARTITION BY k2 ORDER BY id) c,
          min(x) OVER (PARTITION BY k2 ORDER BY id) mn FROM {f} WHERE id < 30000"
same "range frames over peers" "SELECT id, sum(x) OVER (PARTITION BY k1 ORDER BY d) s FROM {f} WHERE id < 30000"
same "rows frames" \
  "SELECT id, avg(x) OVER (PARTITION BY k1 ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) a,
          max(d) OVER (PARTITION BY k1 ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) m FROM {f} WHERE id < 30000"
same "range frames with offsets" \
  "SELECT id, count(*) OVER (PARTITION BY k2 ORDER BY skew RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) c FROM {f} WHERE id < 20000"
same "whole-partition aggregates and first/last values" \
  "SELECT id, sum(x) OVER (PARTITION BY k1) t, first_value(id) OVER (PARTITION BY k1 ORDER BY d, id) fv,
          last_value(id) OVER (PARTITION BY k1 ORDER BY d, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) lv FROM {f} WHERE id < 30000"
same "window without partitions" "SELECT id, row_number() OVER (ORDER BY x DESC, id) r FROM {f} WHERE id < 5000"
same "window over aggregates" "SELECT k2, sum(x) s, rank() OVER (ORDER BY sum(x) DESC) r FROM {f} GROUP BY k2"

# --- set operations and subqueries
same "union distinct" "SELECT k1 FROM {f} UNION SELECT k1 FROM {d}"
same "intersect and except" "SELECT k1 FROM {f} INTERSECT SELECT k1 FROM {d} UNION ALL SELECT -1 UNION ALL (SELECT k1 FROM {d} EXCEPT SELECT k1 FROM {f})"
same "intersect all and except all" \
  "(SELECT skew FROM {f} WHERE id < 100 INTERSECT ALL SELECT skew FROM {f} WHERE id < 50) UNION ALL (SELECT skew FROM {f} WHERE id < 100 EXCEPT ALL SELECT skew FROM {f} WHERE id < 50)"
same "exists and not exists, correlated" \
  "SELECT m.k1, m.name FROM {d} m WHERE EXISTS (SELECT 1 FROM {f} f WHERE f.k1 = m.k1 AND f.flag) AND NOT EXISTS (SELECT 1 FROM {f} f WHERE f.k1 = m.k1 AND f.skew = 99)"
same "in and not in (with nulls)" \
  "SELECT count(*) FROM {d} WHERE k1 IN (SELECT k1 FROM {f}) UNION ALL SELECT count(*) FROM {d} WHERE k1 NOT IN (SELECT k1 FROM {f} WHERE id < 1000)
   UNION ALL SELECT count(*) FROM {d} WHERE k1 NOT IN (SELECT k1 FROM {f} WHERE k1 IS NOT NULL AND id < 1000)"
same "scalar subqueries, correlated and not" \
  "SELECT m.k1, (SELECT count(*) FROM {f} f WHERE f.k1 = m.k1) c, (SELECT max(d) FROM {f}) top FROM {d} m WHERE m.k1 < 50"
same "correlated scalar subquery in a filter" \
  "SELECT f.id FROM {f} f WHERE f.d > (SELECT avg(g.d) * 1.9 FROM {f} g WHERE g.k2 = f.k2)"
# Grouped join inputs reduced by a semi join with the small side's keys (the optimizer's rewrite):
# a correlated subquery under a filtered join, an aggregate on either side of outer joins, string
# keys with nulls; a full join keeps every group.
same "correlated subquery over a filtered outer side" \
  "SELECT count(*), sum(f.x) FROM {f} f JOIN {d} m ON f.k1 = m.k1 WHERE m.region = 'r3' AND f.x < (SELECT 0.5 * avg(g.x) FROM {f} g WHERE g.k1 = m.k1)"
same "aggregate on the left of a right join, and in an inner join on strings" \
  "SELECT a.k1, a.c, m.name FROM (SELECT k1, count(*) c FROM {f} GROUP BY k1) a RIGHT JOIN (SELECT * FROM {d} WHERE k1 < 30) m ON a.k1 = m.k1
   UNION ALL SELECT NULL, a.s, m.name FROM (SELECT k2, count(*) s FROM {f} GROUP BY k2) a JOIN (SELECT * FROM {d} WHERE k1 < 10) m ON a.k2 = m.k2"
same "aggregate in a full join keeps every group" \
  "SELECT count(*), count(m.k1), sum(a.c) FROM (SELECT k1, count(*) c FROM {f} GROUP BY k1) a FULL JOIN (SELECT * FROM {d} WHERE k1 < 30) m ON a.k1 = m.k1"
same "IN subqueries over joins, pushed to the side their column comes from" \
  "SELECT count(*), sum(f.x) FROM {f} f JOIN {d} m ON f.k1 = m.k1 WHERE m.k2 IN (SELECT k2 FROM {f} WHERE id < 500)
   UNION ALL SELECT count(*), sum(f.x) FROM {f} f LEFT JOIN {d} m ON f.k1 = m.k1 WHERE f.k2 IN (SELECT k2 FROM {d} WHERE k1 < 100)
   UNION ALL SELECT count(*), count(m.name) FROM {f} f LEFT JOIN {d} m ON f.k1 = m.k1 WHERE m.name IN (SELECT name FROM {d} WHERE k1 < 300)"
check "an IN subquery above a join filters the table its column comes from" "yes" \
  "$("$epoxy" sql "EXPLAIN SELECT count(*) FROM $ef f JOIN $ed m ON f.k1 = m.k1 WHERE m.k2 IN (SELECT k2 FROM $ef WHERE id < 500)" | sed -n '/Optimized logical/,$p' | grep -A2 'Join left semi on \[k2 = k2\]' | grep -q 'Scan parquet .*dim.parquet' && echo yes)"
check "a correlated subquery's aggregate reads only the keys the outer side holds" "yes" \
  "$("$epoxy" sql "EXPLAIN SELECT m.k1, (SELECT count(*) FROM $ef f WHERE f.k1 = m.k1) FROM $ed m WHERE m.k1 < 50" | sed -n '/Optimized logical/,$p' | grep -A1 'Aggregate keys \[k1\]' | grep -q 'Join left semi on \[k1 = k1\]' && echo yes)"
same "with, subqueries in from, derived columns" \
  "WITH t AS (SELECT k2, sum(x) AS s FROM {f} GROUP BY k2), u AS (SELECT max(s) AS top FROM t) SELECT t.k2, t.s FROM t, u WHERE t.s > u.top * 0.9"

# --- where Spark and DuckDB differ, epoxy follows Spark
"$epoxy" sql "SELECT k1 FROM $ef ORDER BY k1" --output jsonl > "$work/asc.jsonl"
"$epoxy" sql "SELECT k1 FROM $ef ORDER BY k1 DESC" --output jsonl > "$work/desc.jsonl"
asc_first=$(head -1 "$work/asc.jsonl")
desc_last=$(tail -1 "$work/desc.jsonl")
check "nulls sort first ascending and last descending (DuckDB: last in both)" '{"k1":null} {"k1":null}' "$asc_first $desc_last"
check "avg of a decimal is a decimal with 4 more digits of scale (DuckDB: double)" '{"a":"499.995000"}' \
  "$("$epoxy" sql "SELECT avg(d) AS a FROM $ef WHERE id < 100000" --output jsonl)"
check "a string compared with a number is cast to the number (Spark's rule)" '{"n":1}' \
  "$("$epoxy" sql "SELECT count(*) AS n FROM $ed WHERE '10' = k1" --output jsonl)"
"$epoxy" sql "SELECT sum(d) AS s FROM $ef" --write "$work/sum" 2> /dev/null
check "sum of a decimal(12,2) is a decimal(22,2) (DuckDB: decimal(38,2))" "s: decimal(22,2)" "$("$epoxy" schema "$work/sum")"
check "grouping set columns keep their names, as Spark names them" \
  '{"k2":null,"(k1 % 2)":null,"count(1)":200000,"grouping(k2)":1,"grouping_id()":3}' \
  "$("$epoxy" sql "SELECT k2, k1 % 2, count(*), grouping(k2), grouping_id() FROM $ef GROUP BY ROLLUP(k2, k1 % 2) ORDER BY 5 DESC LIMIT 1" --output jsonl)"

# --- repartition and coalesce: each group writes its own files, as Spark's tasks do
"$epoxy" sql "SELECT /*+ REPARTITION(4) */ * FROM $ef" --write "$work/rp4" 2> /dev/null
"$epoxy" sql "SELECT /*+ COALESCE(1) */ * FROM $ef" --write "$work/co1" 2> /dev/null
"$epoxy" sql "SELECT /*+ REPARTITION(3, k2) */ id, k2 FROM $ef" --write "$work/rpk" --partition-by k2 2> /dev/null
check "repartition(4) writes 4 files, coalesce(1) one" "4 1" \
  "$(find "$work/rp4" -name '*.parquet' | wc -l) $(find "$work/co1" -name '*.parquet' | wc -l)"
check "repartition by the partition column: one file per folder" "0" \
  "$(for d in "$work"/rpk/k2=*; do find "$d" -name '*.parquet' | wc -l; done | grep -vc '^1$' || true)"
check "the repartitioned files hold every row once" '{"n":200000,"s":19999900000}' \
  "$(duck query "SELECT count(*) AS n, sum(id) AS s FROM read_parquet('$work/rp4/*.parquet')")"

# --- bad input
fails() {  # fails NAME EXPECTED_SUBSTRING SQL: a clear error, exit code 2, nothing printed
  local out code=0
  out=$("$epoxy" sql "$3" 2>&1 > "$work/out") || code=$?
  check "$1" "yes" "$([[ $code -ne 0 && $out == *"$2"* && ! -s $work/out ]] && echo yes || echo "$code: $out")"
}
fails "an ambiguous column in a join names both sides" "column 'k1' is ambiguous: it is in both f and m" \
  "SELECT k1 FROM $ef f JOIN $ed m ON f.k1 = m.k1"
fails "lag without ORDER BY names the function" "window function lag() needs an ORDER BY" \
  "SELECT lag(x) OVER (PARTITION BY k1) FROM $ef"
fails "row_number without ORDER BY names the function" "window function row_number() needs an ORDER BY" \
  "SELECT row_number() OVER () FROM $ef"
check "a non-equi join of two large inputs runs, and EXPLAIN says it is a cross product" "yes" \
  "$("$epoxy" sql "EXPLAIN SELECT count(*) FROM $ef f JOIN $ed m ON f.k1 < m.k1" | grep -q 'NestedLoop inner join.*a cross product of ~[0-9]*M row pairs' && echo yes)"
finish
