#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reads every file of ../shared/conformance/parquet in place: valid files give DuckDB's values,
# corrupt ones a clear error, encrypted ones a refusal that says so; nothing crashes or hangs.
# Exits 77 (skipped) without ../shared. Usage: parquet_conformance_test.sh EPOXY SHARED MODULES_DIR
set -uo pipefail
epoxy=$1
corpus=$2/conformance/parquet
modules_dir=$3
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$corpus" ]; then echo "skipped: $corpus is not present"; exit 77; fi
source "$here/duckdb_env.sh" "$modules_dir" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() {  # run FILE [options...] -> sets code, writes $work/out and $work/err
  timeout 60 "$epoxy" cat "$@" > "$work/out" 2> "$work/err"
  code=$?
}

# Files DuckDB cannot be the oracle for, with what is expected instead.
declare -A rows_expected=([hadoop_lz4_compressed.parquet]=4 [non_hadoop_lz4_compressed.parquet]=4
                          [map_no_value.parquet]=3)

checked=0
while IFS= read -r -d '' f; do
  name=${f#"$corpus"/}
  base=$(basename "$f")
  checked=$((checked + 1))
  case "$name" in
    *.encrypted)
      run "$f"
      if [ $code -eq 7 ] && grep -q "encrypted" "$work/err"; then echo "ok: $name refused as encrypted"
      else fail "$name: code $code, $(head -c 200 "$work/err")"; fi
      continue ;;
    bad_data/ARROW-GH-43605.parquet)  # decoding or refusing are both fine; crashing is not
      run "$f"
      if [ $code -eq 0 ] || [ $code -eq 4 ]; then echo "ok: $name (code $code)"; else fail "$name: code $code"; fi
      continue ;;
    bad_data/*|data/nation.dict-malformed.parquet)
      run "$f"
      if [ $code -eq 4 ] && [ -s "$work/err" ]; then echo "ok: $name refused: $(head -c 120 "$work/err")"
      else fail "$name: code $code, $(head -c 200 "$work/err")"; fi
      continue ;;
    data/datapage_v1-corrupt-checksum.parquet)
      run "$f"
      if [ $code -eq 4 ] && grep -q "CRC" "$work/err"; then echo "ok: $name fails its CRC check"
      else fail "$name: code $code"; fi
      run "$f" --option verifyChecksums=false
      if [ $code -eq 0 ] && [ "$(wc -l < "$work/out")" -eq 5120 ]; then echo "ok: $name reads without verification"
      else fail "$name without verification: code $code"; fi
      continue ;;
  esac
  run "$f"
  if [ $code -ne 0 ]; then fail "$name: code $code, $(head -c 200 "$work/err")"; continue; fi
  if [ -n "${rows_expected[$base]:-}" ]; then
    if [ "$(wc -l < "$work/out")" -eq "${rows_expected[$base]}" ]; then echo "ok: $name (${rows_expected[$base]} rows)"
    else fail "$name: $(wc -l < "$work/out") rows"; fi
    continue
  fi
  case "$name" in
    data/geospatial/*)  # DuckDB turns GEOMETRY/GEOGRAPHY into its own types; compare the rest
      cols=$(node "$here/duckdb_tool.mjs" columns "$f" | grep -vE '^(geometry|geography)$' | paste -sd, -)
      node "$here/duckdb_tool.mjs" read "$f" "$cols" > "$work/duck"
      "$epoxy" cat "$f" --option "columns=$cols" > "$work/out" ;;
    data/nested_structs.rust.parquet)  # UINT_64 reads as decimal(20,0) (as Spark); DuckDB as UBIGINT
      node "$here/duckdb_tool.mjs" read "$f" > "$work/duck"
      sed -E 's/"count":"([0-9]+)"/"count":\1/g' -i "$work/out" ;;
    *) node "$here/duckdb_tool.mjs" read "$f" > "$work/duck" ;;
  esac
  if cmp -s "$work/duck" "$work/out"; then echo "ok: $name matches DuckDB ($(wc -l < "$work/out") rows)"
  else fail "$name differs from DuckDB"; diff <(head -n 3 "$work/duck") <(head -n 3 "$work/out") | cut -c1-300; fi
done < <(find "$corpus" -type f \( -name '*.parquet' -o -name '*.encrypted' \) -print0 | sort -z)

echo "$checked files checked"
if [ $failures -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
