#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Spilling: aggregation, deduplication, joins, sorts and windows under a memory limit far below
# their input must spill to temporary files, give DuckDB's answers, and leave no temporary file;
# running out of temporary space is a clear error; an interrupted query leaves nothing behind.
# Usage: spill_duckdb_test.sh EPOXY_BINARY MODULES_DIR
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
export EPOXY_TMPDIR=$work/tmp
mkdir -p "$EPOXY_TMPDIR"

# 2.5 million rows, about 200 MB in memory: nearly unique string keys and a wide payload.
duck sql "COPY (SELECT i AS id, (i * 7919) % 1000000 AS k, 'key-' || md5(CAST(i % 2400000 AS VARCHAR)) AS s,
    (i % 997) / 8.0 AS x, repeat('p', CAST(i % 40 AS INTEGER)) AS pad
  FROM range(0, 2500000) t(i)) TO '$work/big.parquet' (FORMAT PARQUET)"
ef="parquet.\`$work/big.parquet\`"; df="read_parquet('$work/big.parquet')"
limit=128M

# spilled NAME EPOXY_SQL DUCKDB_SQL: the same answer under the limit, with bytes spilled.
spilled() {
  local e=${2//\{t\}/$ef} d=${3//\{t\}/$df}
  if ! "$epoxy" sql "$e" --output jsonl --memory-limit $limit --profile --json > "$work/e.jsonl" 2> "$work/profile"; then
    check "$1" "same" "epoxy failed: $(head -c 300 "$work/profile")"; return
  fi
  duck query "$d" > "$work/d.jsonl"
  check "$1: DuckDB's answer" "same" "$(python3 "$here/compare_rows.py" "$work/e.jsonl" "$work/d.jsonl")"
  check "$1: spilled" "yes" "$(python3 -c "import json,sys; print('yes' if json.load(open(sys.argv[1]))['spilled bytes'] > 0 else 'no')" "$work/profile")"
  check "$1: no temporary file left" "0" "$(find "$EPOXY_TMPDIR" -mindepth 1 | wc -l)"
}

spilled "aggregation into 1,000,000 groups" "SELECT count(*), sum(c), sum(t) FROM (SELECT k, count(*) c, sum(x) t FROM {t} GROUP BY k)" \
  "SELECT count(*), sum(c), sum(t) FROM (SELECT k, count(*) c, sum(x) t FROM {t} GROUP BY k)"
spilled "dedup of nearly unique keys" "SELECT count(*), sum(h) FROM (SELECT DISTINCT s, k % 2 AS h, pad FROM {t})" \
  "SELECT count(*), sum(h) FROM (SELECT DISTINCT s, k % 2 AS h, pad FROM {t})"
spilled "inner join" "SELECT count(*), sum(a.x), sum(b.id) FROM {t} a JOIN {t} b ON a.s = b.s AND a.k = b.k" \
  "SELECT count(*), sum(a.x), sum(b.id) FROM {t} a JOIN {t} b ON a.s = b.s AND a.k = b.k"
spilled "full outer join" "SELECT count(*) n, count(a.pad) l, count(b.pad) r FROM (SELECT * FROM {t} WHERE id % 3 > 0) a FULL JOIN (SELECT * FROM {t} WHERE id % 5 > 0) b ON a.s = b.s AND a.id = b.id" \
  "SELECT count(*) n, count(a.pad) l, count(b.pad) r FROM (SELECT * FROM {t} WHERE id % 3 > 0) a FULL JOIN (SELECT * FROM {t} WHERE id % 5 > 0) b ON a.s = b.s AND a.id = b.id"
spilled "sort" "SELECT id, s, pad FROM {t} ORDER BY s DESC, id LIMIT 5 OFFSET 1999990" \
  "SELECT id, s, pad FROM {t} ORDER BY s DESC, id LIMIT 5 OFFSET 1999990"
# Far below the input, the sorted runs are too many to merge at once: merged in several passes.
limit=32M spilled "sort merged in several passes" "SELECT id, s FROM {t} ORDER BY s, id LIMIT 3 OFFSET 2499995" \
  "SELECT id, s FROM {t} ORDER BY s, id LIMIT 3 OFFSET 2499995"
spilled "window over partitions" "SELECT sum(r), max(l) FROM (SELECT row_number() OVER (PARTITION BY k % 5000 ORDER BY s) r, length(lag(s) OVER (PARTITION BY k % 5000 ORDER BY s)) l FROM {t})" \
  "SELECT sum(r), max(l) FROM (SELECT row_number() OVER (PARTITION BY k % 5000 ORDER BY s) r, length(lag(s) OVER (PARTITION BY k % 5000 ORDER BY s)) l FROM {t})"

# No room to spill: a clear error, and nothing left behind.
code=0
EPOXY_MAX_TEMP_SIZE=1M "$epoxy" sql "SELECT count(*) FROM (SELECT DISTINCT s, id FROM $ef)" --memory-limit $limit > /dev/null 2> "$work/err" || code=$?
check "out of temporary space fails clearly" "yes 0" \
  "$(grep -q 'temporary files would exceed EPOXY_MAX_TEMP_SIZE' "$work/err" && [ $code -ne 0 ] && echo yes || cat "$work/err") $(find "$EPOXY_TMPDIR" -mindepth 1 | wc -l)"

# Interrupted while spilling (Ctrl-C): no temporary file survives.
"$epoxy" sql "SELECT count(*) FROM (SELECT DISTINCT s, id, pad FROM $ef)" --memory-limit $limit > /dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid 2> /dev/null || true
wait $pid 2> /dev/null || true
check "an interrupted query leaves no temporary file" "0" "$(find "$EPOXY_TMPDIR" -mindepth 1 | wc -l)"
finish
