#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# TPC-H's 22 queries at SF 0.1 through the shared harness (../shared/bench/tpch): every answer of
# `epoxy sql` must be DuckDB's. Skips (exit 77) when ../shared is absent.
# Usage: tpch_test.sh EPOXY_BINARY SHARED_DIR MODULES_DIR SCRATCH_DIR
set -euo pipefail
epoxy=$1
shared=$2
modules_dir=$3
scratch=$4
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$shared/bench/tpch/run.py" ]; then
  echo "../shared/bench/tpch is not present; TPC-H test skipped"
  exit 77
fi
source "$here/duckdb_env.sh" "$modules_dir" || exit 1
source "$here/../integration/checks.sh"
mkdir -p "$scratch"
BENCH_NODE_MODULES=$EPOXY_DUCKDB_MODULES python3 "$shared/bench/tpch/run.py" --sf 0.1 --threads 2 --reps 1 \
  --epoxy "$epoxy" --scratch "$scratch" --json "$scratch/results.json" > "$scratch/table.txt" 2> "$scratch/log.txt" || {
  tail -20 "$scratch/log.txt"; exit 1; }
cat "$scratch/table.txt"
check "all 22 TPC-H queries give DuckDB's answers at SF 0.1" "22" \
  "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(q['match'] == 'yes' for q in d['queries']))" "$scratch/results.json")"
finish
