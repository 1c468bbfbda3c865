#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `epoxy catalog` end to end: the Glue response shapes of --json, Glue error names, several
# processes adding partitions to one table at once (none lost), a locked catalog.
# Usage: catalog_test.sh EPOXY_BINARY
set -uo pipefail
epoxy=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export EPOXY_HOME=$work/home
source "$(dirname "$0")/checks.sh"
c() { "$epoxy" catalog "$@"; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

c create-database Sales
check "catalog file under EPOXY_HOME" "yes" "$([ -f "$EPOXY_HOME/catalog.db" ] && echo yes)"
check "databases" "sales" "$(c databases)"
check "DatabaseList shape" "sales" "$(c databases --json | json 'd["DatabaseList"][0]["Name"]')"
c create-table sales orders --location /data/orders --columns "id:bigint,amount:decimal(10,2),tags:array<string>" \
  --partition-keys "dt:string,region:string" --format parquet
check "tables" "orders" "$(c tables sales)"
check "TableList shape" "orders" "$(c tables sales --json | json 'd["TableList"][0]["Name"]')"
check "Table shape" "decimal(10,2) dt parquet" \
  "$(c table sales orders --json | json '" ".join([d["Table"]["StorageDescriptor"]["Columns"][1]["Type"], d["Table"]["PartitionKeys"][0]["Name"], d["Table"]["Parameters"]["classification"]])')"
c create-partition sales orders --values 2026-08-17,eu
c create-partition sales orders --values 2026-08-18,us --location /elsewhere/x
check "partitions" "2026-08-17/eu  /data/orders/dt=2026-08-17/region=eu
2026-08-18/us  /elsewhere/x" "$(c partitions sales orders)"
check "Partitions shape with an expression" "['2026-08-18', 'us']" \
  "$(c partitions sales orders --expression "region = 'us'" --json | json 'd["Partitions"][0]["Values"]')"
check "TableVersions shape" "1" "$(c versions sales orders --json | json 'd["TableVersions"][0]["VersionId"]')"

# Glue error names and exit codes.
c table sales nope > /dev/null 2> "$work/err"; code=$?
check "EntityNotFoundException" "3 1" "$code $(grep -c EntityNotFoundException "$work/err")"
c create-database sales 2> "$work/err"; code=$?
check "AlreadyExistsException" "1" "$(grep -c AlreadyExistsException "$work/err")"
c create-partition sales orders --values only-one 2> "$work/err"; code=$?
check "value count mismatch" "2 1" "$code $(grep -c InvalidInputException "$work/err")"
c partitions sales orders --expression "dt >> 3" 2> "$work/err"; code=$?
check "bad expression names the position" "2 1" "$code $(grep -c 'position' "$work/err")"
c create-table sales bad --location /x --columns "a:mapp<int>" 2> "$work/err"; code=$?
check "bad type string" "2 1" "$code $(grep -c "unknown type 'mapp'" "$work/err")"

# Concurrent writers: 4 processes x 40 partitions, none lost.
for p in 1 2 3 4; do
  ( for i in $(seq 1 40); do c create-partition sales orders --values "2026-09-$p,r$i" || echo "writer $p failed at $i"; done ) &
done
wait
check "concurrent writers lose nothing" "162" "$(c partitions sales orders | wc -l | tr -d ' ')"

# A locked catalog gives a clear error (after a short busy timeout) and changes nothing.
python3 - "$EPOXY_HOME/catalog.db" << 'PY' &
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute('BEGIN EXCLUSIVE')
time.sleep(4)
db.execute('ROLLBACK')
PY
sleep 1
EPOXY_CATALOG_BUSY_TIMEOUT_MS=500 c create-database other 2> "$work/err"; code=$?
check "locked catalog" "5 1" "$code $(grep -c 'locked' "$work/err")"
wait
check "locked catalog changed nothing" "sales" "$(c databases)"

# A corrupt catalog file is refused.
printf 'not a database at all, just text long enough to look like a header...........' > "$work/bad.db"
c --catalog "sqlite://$work/bad.db" databases 2> "$work/err"; code=$?
check "corrupt catalog" "4 1" "$code $(grep -c 'not an epoxy catalog' "$work/err")"

c delete-table sales orders
check "delete-table" "" "$(c tables sales)"
c delete-database sales
check "delete-database" "" "$(c databases)"

finish
