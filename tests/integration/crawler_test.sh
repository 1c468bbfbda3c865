#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `epoxy crawl` against each Glue crawler incident: a type conflict under LOG, table explosion
# against CombineCompatibleSchemas, new folders only, partitions inheriting the table's schema,
# unnamed partitions, exclusions, deleted data, a crawler already running, and bad files.
# Usage: crawler_test.sh EPOXY_BINARY REPO_ROOT [SHARED_DIR]
set -uo pipefail
epoxy=$1
root=$2
shared=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export EPOXY_HOME=$work/home
source "$(dirname "$0")/checks.sh"
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
columns() { "$epoxy" catalog table "$1" "$2" --json | json '",".join(c["Name"]+":"+c["Type"] for c in d["Table"]["StorageDescriptor"]["Columns"])'; }
keys() { "$epoxy" catalog table "$1" "$2" --json | json '",".join(c["Name"]+":"+c["Type"] for c in d["Table"]["PartitionKeys"])'; }

# 1. A partitioned JSON Lines tree (gzip) and its CSV twin: one table each, dt partitions.
python3 "$root/tools/gen_sample.py" "$work/lake" --days 3 --rows 300 --gzip
out=$("$epoxy" crawl "$work/lake/json" --database raw --name clicks)
check "json: one table" "json" "$("$epoxy" catalog tables raw)"
check "json: columns" "event_id:string,user_id:bigint,ts:string,page:string,referrer:string,amount:double,country:string,device:struct<os:string,version:string>,items:array<struct<sku:string,qty:bigint>>" "$(columns raw json)"
check "json: partition key" "dt:string" "$(keys raw json)"
check "json: classification and compression" "json gzip" "$("$epoxy" catalog table raw json --json | json 'd["Table"]["Parameters"]["classification"]+" "+d["Table"]["Parameters"]["compressionType"]')"
check "json: three partitions" "3" "$("$epoxy" catalog partitions raw json | wc -l | tr -d ' ')"
check "summary says the database was created" "1" "$(echo "$out" | grep -c 'database was created')"
"$epoxy" crawl "$work/lake/csv" --database raw > /dev/null
check "csv: columns and parameters" "event_id:string,user_id:bigint,ts:string,page:string,referrer:string,amount:double,country:string ,:1" \
  "$(columns raw csv) $("$epoxy" catalog table raw csv --json | json 'd["Table"]["Parameters"]["delimiter"]+":"+d["Table"]["Parameters"]["skip.header.line.count"]')"

# 2. A column that drifts to a string: LOG keeps bigint and says why; update retypes with a version.
mkdir -p "$work/drift/events"
printf '{"user_id": 42}\n' > "$work/drift/events/part-000.json"
printf '{"user_id": 43}\n' > "$work/drift/events/part-001.json"
"$epoxy" crawl "$work/drift/events" --database d --name drift --update-behavior log > /dev/null
printf '{"user_id": "N/A"}\n' > "$work/drift/events/part-002.json"
out=$("$epoxy" crawl "$work/drift/events" --database d --name drift --update-behavior log)
check "LOG keeps the type" "user_id:bigint" "$(columns d events)"
check "LOG records the conflict" "1" "$(echo "$out" | grep -c 'column user_id is bigint in the table, string in the data; kept as it was (UpdateBehavior LOG)')"
out=$("$epoxy" crawl "$work/drift/events" --database d --name drift --update-behavior update)
check "UPDATE_IN_DATABASE retypes" "user_id:string" "$(columns d events)"
check "the old definition is a version" "2" "$("$epoxy" catalog versions d events | wc -l | tr -d ' ')"
mkdir -p "$work/merge/t"
printf '{"a": 1, "b": 2}\n' > "$work/merge/t/1.json"
"$epoxy" crawl "$work/merge/t" --database mg --merge-new-columns > /dev/null
printf '{"a": "x", "c": true}\n' > "$work/merge/t/2.json"
rm "$work/merge/t/1.json"
"$epoxy" crawl "$work/merge/t" --database mg --merge-new-columns > /dev/null
check "MergeNewColumns adds columns, never drops or retypes" "a:bigint,b:bigint,c:boolean" "$(columns mg t)"

# 3. Sibling folders with unrelated schemas: a table each; CombineCompatibleSchemas: one table.
mkdir -p "$work/mixed/orders" "$work/mixed/users"
printf '{"order_id": 1, "total": 9.5}\n' > "$work/mixed/orders/a.json"
printf '{"user": "ann", "age": 31, "city": "Oslo"}\n' > "$work/mixed/users/a.json"
"$epoxy" crawl "$work/mixed" --database m1 > /dev/null
check "dissimilar siblings make separate tables" "orders
users" "$("$epoxy" catalog tables m1)"
"$epoxy" crawl "$work/mixed" --database m2 --combine-compatible > /dev/null
check "CombineCompatibleSchemas makes one table" "mixed" "$("$epoxy" catalog tables m2)"
check "with the union of the columns" "order_id:bigint,total:double,user:string,age:bigint,city:string" "$(columns m2 mixed)"
"$epoxy" crawl "$work/mixed" --database m3 --table-threshold 1 2> "$work/err"; code=$?
check "TableThreshold refuses the crawl" "2 1" "$code $(grep -c 'would make 2 tables, more than its TableThreshold of 1' "$work/err")"
check "and writes nothing (not even the database)" "3" "$("$epoxy" catalog tables m3 > /dev/null 2>&1; echo $?)"

# 4. New folders only: a new day is the only thing read, and adds one partition.
python3 "$root/tools/gen_sample.py" "$work/inc" --days 3 --rows 100
"$epoxy" crawl "$work/inc/json" --database inc --name inc --recrawl new-folders > /dev/null
python3 "$root/tools/gen_sample.py" "$work/inc2" --days 4 --rows 100
cp -r "$work/inc2/json/dt=2026-08-19" "$work/inc/json/"
out=$("$epoxy" crawl "$work/inc/json" --database inc --name inc --recrawl new-folders)
check "new folders only keeps LOG behaviours, as Glue requires" "LOG LOG" "$("$epoxy" crawler show inc | json 'd["Crawler"]["SchemaChangePolicy"]["UpdateBehavior"]+" "+d["Crawler"]["SchemaChangePolicy"]["DeleteBehavior"]')"
check "and refuses others" "2" "$("$epoxy" crawl "$work/inc/json" --database inc --name inc --recrawl new-folders --update-behavior update > /dev/null 2>&1; echo $?)"
check "new folders only: one file read" "1" "$(echo "$out" | sed -E 's/.* ([0-9]+) read.*/\1/' | head -1)"
check "new folders only: one partition added" "1" "$(echo "$out" | sed -E 's/.*; ([0-9]+) partition.*/\1/' | head -1)"
check "four partitions in all" "4" "$("$epoxy" catalog partitions inc json | wc -l | tr -d ' ')"

# 5. Partitions inheriting the table's schema (one day lacks a column the others have).
mkdir -p "$work/inh/t/dt=1" "$work/inh/t/dt=2"
printf '{"a": 1, "b": "x", "c": 1, "d": 1}\n' > "$work/inh/t/dt=1/f.json"
printf '{"a": 2, "b": "y", "c": 2}\n' > "$work/inh/t/dt=2/f.json"
"$epoxy" crawl "$work/inh/t" --database own > /dev/null
check "without inheritance a partition keeps its own columns" "a,b,c" \
  "$("$epoxy" catalog partitions own t --expression "dt = '2'" --json | json '",".join(c["Name"] for c in d["Partitions"][0]["StorageDescriptor"]["Columns"])')"
"$epoxy" crawl "$work/inh/t" --database inh --inherit-from-table > /dev/null
check "InheritFromTable gives every partition the table's columns" "a,b,c,d" \
  "$("$epoxy" catalog partitions inh t --expression "dt = '2'" --json | json '",".join(c["Name"] for c in d["Partitions"][0]["StorageDescriptor"]["Columns"])')"

# 6. Unnamed partitions and 7. exclusions.
mkdir -p "$work/un/logs/2026/08" "$work/un/logs/2026/09"
printf '{"m": 1}\n' > "$work/un/logs/2026/08/a.json"
printf '{"m": 2}\n' > "$work/un/logs/2026/09/b.json"
printf 'x,y\n1,2\n3,4\n' > "$work/un/logs/2026/09/skip.csv"
out=$("$epoxy" crawl "$work/un/logs" --database un --exclude '**.csv')
check "unnamed partition keys" "partition_0:string,partition_1:string" "$(keys un logs)"
check "unnamed partition values" "2026/08
2026/09" "$("$epoxy" catalog partitions un logs | cut -d' ' -f1)"
check "exclusions skip files" "1" "$(echo "$out" | grep -c 'skipped 1: excluded')"

# 8. Data that disappeared: deprecate (default), delete.
mkdir -p "$work/gone/a" "$work/gone/b" "$work/gone/c"
printf '{"a1": 1, "a2": 2}\n' > "$work/gone/a/f.json"
printf '{"b1": 1, "b2": 2}\n' > "$work/gone/b/f.json"
printf '{"c1": 1, "c2": 2}\n' > "$work/gone/c/f.json"
"$epoxy" crawl "$work/gone" --database g1 --name gone > /dev/null
rm -rf "$work/gone/c"
"$epoxy" crawl "$work/gone" --database g1 --name gone > /dev/null
check "DEPRECATE_IN_DATABASE marks the table" "gone" "$("$epoxy" catalog table g1 c --json | json 'd["Table"]["Parameters"].get("DEPRECATED_BY_CRAWLER","")')"
"$epoxy" crawl "$work/gone" --database g1 --name gone --delete-behavior delete > /dev/null
check "DELETE_FROM_DATABASE removes it" "a
b" "$("$epoxy" catalog tables g1)"

# 9. A crawler that is running refuses a second run.
python3 - "$EPOXY_HOME/catalog.db" << 'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
doc = json.loads(db.execute("SELECT doc FROM crawlers WHERE name = 'clicks'").fetchone()[0])
doc['State'] = 'RUNNING'
db.execute("UPDATE crawlers SET doc = ? WHERE name = 'clicks'", (json.dumps(doc),))
db.commit()
PY
"$epoxy" crawler run clicks > /dev/null 2> "$work/err"; code=$?
check "CrawlerRunningException" "1" "$(grep -c CrawlerRunningException "$work/err")"

# Event mode needs SQS, which this build does not read: said plainly, before anything runs.
python3 - "$EPOXY_HOME/catalog.db" << 'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
doc = json.loads(db.execute("SELECT doc FROM crawlers WHERE name = 'gone'").fetchone()[0])
doc['RecrawlPolicy'] = {'RecrawlBehavior': 'CRAWL_EVENT_MODE'}
db.execute("UPDATE crawlers SET doc = ? WHERE name = 'gone'", (json.dumps(doc),))
db.commit()
PY
"$epoxy" crawler run gone > /dev/null 2> "$work/err"; code=$?
check "CRAWL_EVENT_MODE without a queue is refused" "2 1" "$code $(grep -c 'CRAWL_EVENT_MODE needs an EventQueueArn' "$work/err")"

# 10. Bad files are logged with their path and skipped; the crawl goes on.
mkdir -p "$work/bad/t/dt=1" "$work/bad/t/dt=2"
printf '{"ok": 1}\n' > "$work/bad/t/dt=1/good.json"
printf '{"ok": 2}\n' > "$work/bad/t/dt=2/noextension"
: > "$work/bad/t/dt=2/empty.json"
printf 'PAR1 this is not really parquet PAR1' > "$work/bad/t/dt=2/broken.parquet"
head -c 5000 /dev/urandom > "$work/bad/t/dt=2/garbage.bin"
ln -s "$work/bad/t" "$work/bad/t/dt=1/loop"
out=$("$epoxy" crawl "$work/bad/t" --database bad); code=$?
check "bad files do not stop the crawl" "0" "$code"
check "the good files make the table" "ok:bigint" "$(columns bad t)"
check "a file without an extension is classified by content" "2" "$("$epoxy" catalog partitions bad t | wc -l | tr -d ' ')"
check "skips are logged with their paths" "1 1 1" "$(echo "$out" | grep -c 'empty.json: empty file') $(echo "$out" | grep 'skipped' | grep -c 'broken.parquet') $(echo "$out" | grep -c 'garbage.bin')"

# History and listing.
check "history records every crawl" "yes" "$([ "$("$epoxy" crawler history drift | wc -l)" -eq 3 ] && echo yes)"
check "crawler list" "1" "$("$epoxy" crawler list | grep -c '^clicks ')"

# The shared generator's trees (when ../shared is there): one table each with dt and the types.
if [ -n "$shared" ] && [ -f "$shared/bench/gen.py" ]; then
  python3 "$shared/bench/gen.py" --quiet --format jsonl --days 3 --files-per-day 2 --rows-per-file 500 --out "$work/g/jsonl" > /dev/null
  python3 "$shared/bench/gen.py" --quiet --format csv --days 3 --files-per-day 2 --rows-per-file 500 --out "$work/g/csv" > /dev/null
  "$epoxy" crawl "$work/g/jsonl" --database gen > /dev/null
  "$epoxy" crawl "$work/g/csv" --database gen > /dev/null
  check "gen.py trees: one table each" "csv
jsonl" "$("$epoxy" catalog tables gen)"
  check "gen.py csv types" "event_id:string,user_id:bigint,ts:string,page:string,referrer:string,amount:double,country:string" "$(columns gen csv)"
  check "gen.py jsonl partition key" "dt:string" "$(keys gen jsonl)"
else
  echo "note: ../shared/bench/gen.py not present; the shared-generator checks were skipped"
fi

finish
