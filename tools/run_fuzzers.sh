#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every libFuzzer target of a fuzz build for a bounded time, starting from the seeds (and past
# crashes, kept as regression inputs) in tests/fuzz/<target>/. Usage: run_fuzzers.sh BUILD SECONDS
set -euo pipefail
build=$1
seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for fuzzer in "$build"/src/epoxy/*/*_fuzzer; do
  name=$(basename "$fuzzer")
  seeds="$root/tests/fuzz/$name"
  work=$(mktemp -d)
  cp -r "$seeds"/. "$work"/ 2>/dev/null || true
  echo "fuzz: $name for ${seconds}s"
  if ! "$fuzzer" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
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
