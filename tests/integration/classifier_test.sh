#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `epoxy classifier` and `epoxy crawl --classifier`: Grok, CSV with explicit options and JSON with
# a JSON path, their order against the built-in classifiers, and bad definitions.
# Usage: classifier_test.sh EPOXY_BINARY
set -uo pipefail
epoxy=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export EPOXY_HOME=$work/home
source "$(dirname "$0")/checks.sh"
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
columns() { "$epoxy" catalog table "$1" "$2" --json | json '",".join(c["Name"]+":"+c["Type"] for c in d["Table"]["StorageDescriptor"]["Columns"])'; }
param() { "$epoxy" catalog table "$1" "$2" --json | json "d['Table']$3"; }

# 1. Grok: application logs in day folders become one table of typed fields.
mkdir -p "$work/logs/app/day=1" "$work/logs/app/day=2"
printf '2026-11-29T10:00:00Z INFO [web-1] 200 started\n2026-11-29T10:00:01Z WARN [web-2] 301 slow reply\n' \
  > "$work/logs/app/day=1/a.log"
printf 'ORD-000042 2026-11-30T08:00:00Z ERROR [db] 500 lost connection\n' > "$work/logs/app/day=2/b.log"
"$epoxy" classifier create-grok applog --classification applog \
  --pattern '(?:%{ORDER:order} )?%{TIMESTAMP_ISO8601:ts} %{LOGLEVEL:level} \[%{HOSTNAME:host}\] %{INT:code:int} %{GREEDYDATA:message}' \
  --custom-patterns 'ORDER ORD-[0-9]{6}' > /dev/null
check "grok classifier listed" "applog  GrokClassifier" "$("$epoxy" classifier list | cut -c1-22)"
out=$("$epoxy" crawl "$work/logs/app" --database logs --classifier applog)
check "grok: one table" "app" "$("$epoxy" catalog tables logs)"
check "grok: typed fields" "order:string,ts:string,level:string,host:string,code:int,message:string" "$(columns logs app)"
check "grok: classification and SerDe" "applog com.amazonaws.glue.serde.GrokSerDe ORDER ORD-[0-9]{6}" \
  "$(param logs app '["Parameters"]["classification"]') $(param logs app '["StorageDescriptor"]["SerdeInfo"]["SerializationLibrary"]') $(param logs app '["StorageDescriptor"]["SerdeInfo"]["Parameters"]["input.grokCustomPatterns"]')"
check "grok: records counted" "3" "$(param logs app '["Parameters"]["recordCount"]')"
check "the crawler keeps its classifiers" "['applog']" "$("$epoxy" crawler show logs_app | json 'd["Crawler"]["Classifiers"]')"
# Without the classifier, the same logs are no format epoxy knows.
out=$("$epoxy" crawl "$work/logs/app" --database plain)
check "without it the logs are skipped as unknown" "1" "$(echo "$out" | grep -c 'skipped 2: unknown format')"

# 2. CSV with explicit options: '#'-separated, single-quoted, no header, names given.
mkdir -p "$work/hash/t"
printf "1#'a#b'#2.5\n2#c#3.5\n3#d#4\n" > "$work/hash/t/part-0.txt"
"$epoxy" classifier create-csv hashes --delimiter '#' --quote "'" --header absent --columns id,label,score > /dev/null
"$epoxy" crawl "$work/hash/t" --database h --classifier hashes > /dev/null
check "csv classifier: names and types" "id:bigint,label:string,score:double" "$(columns h t)"
check "csv classifier: delimiter, quote, no header line" "# ' -" \
  "$(param h t '["Parameters"]["delimiter"]') $(param h t '["Parameters"]["quoteChar"]') $(param h t '["Parameters"].get("skip.header.line.count","-")')"
"$epoxy" classifier create-csv hashes --update --delimiter '#' --quote "'" --header absent --columns id,label,score \
  --datatypes STRING --serde OpenCSVSerDe > /dev/null
"$epoxy" crawl "$work/hash/t" --database h2 --classifier hashes > /dev/null
check "csv classifier update: CustomDatatypes and OpenCSVSerDe" "id:string,label:string,score:string org.apache.hadoop.hive.serde2.OpenCSVSerde" \
  "$(columns h2 t) $(param h2 t '["StorageDescriptor"]["SerdeInfo"]["SerializationLibrary"]')"
check "csv classifier version" "2" "$("$epoxy" classifier show hashes | json 'd["Classifier"]["CsvClassifier"]["Version"]')"

# 3. JSON path: records nested in each document.
mkdir -p "$work/nested/exports"
printf '{"exported": "2026-11-29", "records": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": []}]}' > "$work/nested/exports/a.json"
printf '{"exported": "2026-11-30", "records": [{"id": 3, "tags": ["b", "c"]}]}' > "$work/nested/exports/b.json"
"$epoxy" classifier create-json records --json-path '$.records[*]' > /dev/null
"$epoxy" crawl "$work/nested/exports" --database n --classifier records > /dev/null
check "json path: the records' columns" "id:bigint,tags:array<string>" "$(columns n exports)"
check "json path: kept on the table" "\$.records[*] 3" "$(param n exports '["Parameters"]["jsonPath"]') $(param n exports '["Parameters"]["recordCount"]')"
"$epoxy" crawl "$work/nested/exports" --database n2 > /dev/null
check "without it the document is one record" "exported:string,records:array<struct<id:bigint,tags:array<string>>>" "$(columns n2 exports)"

# 4. Bad definitions and names are refused before anything is stored.
"$epoxy" classifier create-grok broken --classification x --pattern '%{NOPE:x}' 2> "$work/err"; code=$?
check "unknown grok pattern refused" "2 1" "$code $(grep -c "unknown pattern 'NOPE'" "$work/err")"
"$epoxy" classifier create-csv wide --delimiter ab 2> "$work/err"; code=$?
check "two-character delimiter refused" "2 1" "$code $(grep -c 'Delimiter must be one character' "$work/err")"
"$epoxy" classifier create-json nopath --json-path 'records' 2> "$work/err"; code=$?
check "json path without \$ refused" "2 1" "$code $(grep -c "must start with '\\$'" "$work/err")"
check "nothing stored for them" "3" "$("$epoxy" classifier list | wc -l | tr -d ' ')"
"$epoxy" crawl "$work/hash/t" --database h3 --classifier missing 2> "$work/err"; code=$?
check "a crawl naming a missing classifier fails" "3 1" "$code $(grep -c 'EntityNotFoundException: classifier missing not found' "$work/err")"
"$epoxy" classifier create-json records --json-path '$[*]' 2> "$work/err"; code=$?
check "a second classifier of one name is refused" "1" "$(grep -c 'AlreadyExistsException' "$work/err")"
"$epoxy" classifier delete records
check "delete" "2" "$("$epoxy" classifier list | wc -l | tr -d ' ')"
finish
