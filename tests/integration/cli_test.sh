#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `epoxy schema` and `epoxy cat` on the project's own sample data, as a user runs them.
# Usage: cli_test.sh EPOXY_BINARY REPO_ROOT
set -euo pipefail
epoxy=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/checks.sh"

python3 "$root/tools/gen_sample.py" "$work/plain" --days 2 --rows 300
python3 "$root/tools/gen_sample.py" "$work/drift" --days 2 --rows 300 --drift --gzip

check "version" "epoxy 0.1.0" "$("$epoxy" --version)"

check "csv schema" "event_id: string
user_id: bigint
ts: string
page: string
referrer: string
amount: double
country: string" "$("$epoxy" schema "$work/plain/csv")"

check "json schema" "event_id: string
user_id: bigint
ts: string
page: string
referrer: string
amount: double
country: string
device: struct<os:string,version:string>
items: array<struct<sku:string,qty:bigint>>" "$("$epoxy" schema "$work/plain/json")"

check "drifting gzip json schema shows choices" "event_id: string
user_id: choice<bigint,string>
ts: string
page: string
referrer: string
amount: choice<double,string>
country: string
device: struct<os:string,version:string>
items: array<struct<sku:string,qty:bigint>>" "$("$epoxy" schema "$work/drift/json")"

check "catalog view widens choices" "user_id: string" \
  "$("$epoxy" schema --catalog "$work/drift/json" | grep '^user_id')"

check "cat counts every record" "600" "$("$epoxy" cat "$work/plain/json" | wc -l | tr -d ' ')"
check "cat --limit" "5" "$("$epoxy" cat "$work/plain/csv" --limit 5 | wc -l | tr -d ' ')"
check "csv and json hold the same rows" \
  "$("$epoxy" cat "$work/plain/csv" --output csv | sort | md5sum)" \
  "$("$epoxy" cat "$work/plain/json" --output csv | cut -d, -f1-7 | sort | md5sum)"
check "glob input" "300" "$("$epoxy" cat "$work/plain/csv/dt=2026-08-16/*.csv" | wc -l | tr -d ' ')"
check "options after the paths, and --threads after the subcommand" "2" \
  "$("$epoxy" cat "$work/plain/csv" --threads 1 --format csv --option withHeader=true --limit 2 | wc -l | tr -d ' ')"

# Malformed input: good records print, errors go to stderr with file and line, exit code 1.
printf 'id,name\n1,alice\n2,bob,extra\n3,carol\n' > "$work/bad.csv"
set +e
out=$("$epoxy" cat "$work/bad.csv" 2> "$work/err")
code=$?
set -e
check "malformed: exit code" "1" "$code"
check "malformed: good records" '{"id":1,"name":"alice"}
{"id":3,"name":"carol"}' "$out"
check "malformed: error names file and line" "1" "$(grep -c "bad.csv:3: record has 3 fields, the header has 2" "$work/err")"

# Errors that stop a command: clear message, distinct exit codes.
set +e
"$epoxy" cat "$work/missing" > /dev/null 2> "$work/err"; code=$?
set -e
check "missing path exit code" "3" "$code"
check "missing path message" "1" "$(grep -c "missing" "$work/err")"
set +e
"$epoxy" cat "$work/bad.csv" --option separator=xx > /dev/null 2> "$work/err"; code=$?
set -e
check "bad option exit code" "2" "$code"
printf '' > "$work/empty.json"
check "empty file prints nothing" "" "$("$epoxy" cat "$work/empty.json")"
head -c 100000 /dev/urandom > "$work/garbage.csv" 2>/dev/null || true
set +e
"$epoxy" cat "$work/garbage.csv" > /dev/null 2>&1; code=$?
set -e
check "binary garbage does not crash" "yes" "$([ $code -le 1 ] && echo yes || echo "no ($code)")"
set +e
"$epoxy" cat "$work/plain/json" --memory-limit 16K > /dev/null 2> "$work/err"; code=$?
set -e
check "memory limit is enforced" "6" "$code"
check "memory limit message" "1" "$(grep -c "exceeds the memory limit" "$work/err")"

check "table output" "1" "$("$epoxy" cat "$work/plain/json" --output table --limit 3 | grep -c '^| event_id')"

finish
