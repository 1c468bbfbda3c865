#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `epoxy schema` and `epoxy cat` on ../shared/bench/gen.py output, including --drift data.
# Exits 77 (skipped) when ../shared is absent, as it is in a user's clone.
# Usage: shared_generator_test.sh EPOXY_BINARY SHARED_DIR
set -euo pipefail
epoxy=$1
shared=$2
if [ ! -f "$shared/bench/gen.py" ]; then
  echo "skipped: $shared/bench/gen.py is not present"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen() { python3 "$shared/bench/gen.py" --quiet --days 2 --files-per-day 2 --rows-per-file 3000 "$@" > /dev/null; }
gen --format csv --out "$work/csv"
gen --format jsonl --out "$work/jsonl"
gen --format jsonl --out "$work/drift" --drift --drift-rate 0.01
gen --format csv --out "$work/driftcsv" --drift --drift-rate 0.01
gen --format jsonl --out "$work/gz" --gzip
source "$(dirname "$0")/checks.sh"
check "csv schema" "event_id: string
user_id: bigint
ts: string
page: string
referrer: string
amount: double
country: string" "$("$epoxy" schema "$work/csv")"
check "jsonl nested columns" "device: struct<os:string,version:string>
items: array<struct<sku:string,qty:bigint>>" "$("$epoxy" schema "$work/jsonl" | tail -n 2)"
check "jsonl drift" "user_id: choice<bigint,string>
amount: choice<double,string>" "$("$epoxy" schema "$work/drift" | grep -E '^(user_id|amount):')"
check "csv drift" "user_id: choice<bigint,string>" "$("$epoxy" schema "$work/driftcsv" | grep -E '^user_id:')"
check "csv rows" "12000" "$("$epoxy" cat "$work/csv" | wc -l | tr -d ' ')"
check "jsonl rows" "12000" "$("$epoxy" cat "$work/jsonl" | wc -l | tr -d ' ')"
check "gzip jsonl rows" "12000" "$("$epoxy" cat "$work/gz" | wc -l | tr -d ' ')"
check "drift rows all read" "12000" "$("$epoxy" cat "$work/drift" | wc -l | tr -d ' ')"
finish
