#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every libFuzzer target of a fuzz build for a bounded time, starting from the seeds (and past
# crashes, kept as regression inputs) in tests/fuzz/<target>/. Usage: run_fuzzers.sh BUILD SECONDS
set -euo pipefail
build=$1
seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
gold="$root/../shared/conformance/spark-gold/cases"
status=0
# Every Spark gold query, one seed file each, for the SQL and expression fuzzers (read in place from
# the shared corpus, never copied into the repository).
gold_seeds() {
  [ -d "$gold" ] || return 0
  python3 - "$gold" "$1" "$2" <<'PY'
import glob, json, os, sys
cases, out, strip_select = sys.argv[1], sys.argv[2], sys.argv[3] == "expression"
n = 0
for f in sorted(glob.glob(os.path.join(cases, "**", "*.json"), recursive=True)):
    for case in json.load(open(f))["cases"]:
        q = case["query"].strip().rstrip(";")
        if strip_select:  # the expression fuzzer takes one expression: the first select item's text
            if not q.upper().startswith("SELECT ") or " FROM " in q.upper():
                continue
            q = q[7:]
        with open(os.path.join(out, "gold_%04d" % n), "w") as seed:
            seed.write(q)
        n += 1
PY
}
for fuzzer in "$build"/src/epoxy/*/*_fuzzer; do
  name=$(basename "$fuzzer")
  seeds="$root/tests/fuzz/$name"
  work=$(mktemp -d)
  cp -r "$seeds"/. "$work"/ 2>/dev/null || true
  case "$name" in
    sql_fuzzer) gold_seeds "$work" sql ;;
    expression_fuzzer) gold_seeds "$work" expression ;;
  esac
  echo "fuzz: $name for ${seconds}s"
  if ! UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$fuzzer" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$work/" -print_final_stats=0 "$work" > "$work/log" 2>&1; then
    echo "fuzz: $name FAILED; crash inputs in $work (copy them to tests/fuzz/$name/):"
    tail -n 40 "$work/log"
    status=1
  else
    grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs" "$work/log" | tail -n 1 || true
    rm -rf "$work"
  fi
done
if [ $status -eq 0 ]; then echo "fuzz: all targets ran clean"; fi
exit $status
