#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Parquet round trips against DuckDB, both ways, for every type, nulls, nesting, every codec,
# several row groups, and an empty file. DuckDB (npm @duckdb/node-api) is installed into the build
# folder when missing; it is a test oracle only.
# Usage: parquet_duckdb_test.sh EPOXY_BINARY MODULES_DIR
set -euo pipefail
epoxy=$1
modules_dir=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/duckdb_env.sh" "$modules_dir" || exit 1
duck() { node "$here/duckdb_tool.mjs" "$@"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
same() {  # same NAME FILE_A FILE_B
  if cmp -s "$2" "$3"; then echo "ok: $1 ($(wc -l < "$2") rows)"; else
    echo "FAIL: $1"; diff <(head -n 5 "$2") <(head -n 5 "$3") || true; failures=$((failures + 1)); fi
}

all_types="SELECT (i % 200 - 100)::TINYINT AS t8, (i - 1500)::SMALLINT AS t16, i::INTEGER AS t32,
  (i * 1000000007)::BIGINT AS t64, (i / 3)::FLOAT AS f32, (i / 7)::DOUBLE AS f64,
  (i * 1.25)::DECIMAL(9,2) AS d9, (i * 123456789.5)::DECIMAL(18,3) AS d18,
  (i * 1234567890123456789.0)::DECIMAL(38,4) AS d38, 'str' || i AS s, ('bin' || i)::BLOB AS b,
  DATE '2024-01-01' + i::INTEGER AS dt, TIMESTAMP '2024-01-01 00:00:00' + i * INTERVAL 1 SECOND AS ts,
  i % 2 = 0 AS bo, [i, i + 1] AS li, {'a': i, 'b': 'x' || i} AS st, map(['k' || i], [i]) AS mp,
  CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS sometimes_null,
  CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN [] ELSE [[i], NULL, []] END AS nested,
  CASE WHEN i % 4 = 0 THEN NULL ELSE {'x': CASE WHEN i % 8 = 1 THEN NULL ELSE i END} END AS st_null
  FROM range(0, 3000) t(i)"

# DuckDB writes, epoxy reads: every codec, 1000-row row groups.
for codec in snappy zstd gzip uncompressed lz4 brotli; do
  duck sql "COPY ($all_types) TO '$work/duck_$codec.parquet' (FORMAT PARQUET, COMPRESSION $codec, ROW_GROUP_SIZE 1000)"
  duck read "$work/duck_$codec.parquet" > "$work/duck_$codec.jsonl"
  "$epoxy" cat "$work/duck_$codec.parquet" > "$work/epoxy_$codec.jsonl"
  same "DuckDB $codec file read by epoxy" "$work/duck_$codec.jsonl" "$work/epoxy_$codec.jsonl"
done

# epoxy writes, DuckDB reads: every codec, several row groups.
for codec in snappy zstd gzip none lz4_raw brotli; do
  "$epoxy" convert "$work/duck_snappy.parquet" "$work/epoxy_$codec.parquet" --compression "$codec" \
    --row-group-bytes 65536 2> /dev/null
  duck read "$work/epoxy_$codec.parquet" > "$work/back_$codec.jsonl"
  same "epoxy $codec file read by DuckDB" "$work/duck_snappy.jsonl" "$work/back_$codec.jsonl"
done
groups=$("$epoxy" parquet-meta "$work/epoxy_snappy.parquet" | grep -c '^row group')
if [ "$groups" -gt 1 ]; then echo "ok: several row groups ($groups)"; else echo "FAIL: one row group"; failures=$((failures + 1)); fi

# An empty file keeps its schema.
printf 'id,name\n' > "$work/empty.csv"
"$epoxy" convert "$work/empty.csv" "$work/empty.parquet" 2> /dev/null
duck sql "CREATE TABLE t AS SELECT * FROM read_parquet('$work/empty.parquet'); SELECT CASE WHEN (SELECT count(*) FROM t) = 0 AND (SELECT count(*) FROM (DESCRIBE t)) = 2 THEN 1 ELSE error('empty file lost its schema') END"
echo "ok: empty file with schema"

if [ $failures -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
