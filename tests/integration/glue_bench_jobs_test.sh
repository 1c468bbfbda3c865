#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The bench's Glue job scripts (../shared/bench/jobs: W1, W2, W3, W5, W6) run unchanged under
# `epoxy run` on small generated data and write DuckDB's rows. Skips (77) without ../shared.
set -euo pipefail
epoxy=$1 shared=$2 duckdb_dir=$3 scratch=$4
if [ ! -x "$shared/bench/run.sh" ]; then
  echo "skipped: $shared/bench is absent"
  exit 77
fi
here=$(cd "$(dirname "$0")/../interop" && pwd)
# shellcheck source=../interop/duckdb_env.sh
source "$here/duckdb_env.sh" "$duckdb_dir"
mkdir -p "$scratch"
export BENCH_NODE_MODULES=$EPOXY_DUCKDB_MODULES
"$shared/bench/run.sh" --epoxy "$epoxy" --mode run --size-mb 8 --w6-files 400 --w5-days 30 --reps 1 \
  --workloads W1,W2,W3,W5,W6 --scratch "$scratch" --json "$scratch/results.json" --node-modules "$EPOXY_DUCKDB_MODULES"
python3 - "$scratch/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
rows = results["workloads"]
bad = [r["id"] for r in rows if r["rows_match"] is not True]
for r in rows:
    print(r["id"], "rows match" if r["rows_match"] else "ROWS DIFFER", r.get("ratio_epoxy_over_duckdb"))
sys.exit(1 if bad or len(rows) != 5 else 0)
PY
