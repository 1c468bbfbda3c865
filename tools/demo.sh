#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make demo`: generates sample data and walks through what epoxy does with it today.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
epoxy=${EPOXY:-$root/build/release/epoxy}
data=${DEMO_DIR:-${TMPDIR:-/tmp}/epoxy-demo}
rm -rf "$data"
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "$2"; }

"$epoxy" --version
python3 "$root/tools/gen_sample.py" "$data" --days 3 --rows 500 --drift --gzip
echo "sample data: $data (3 days of clickstream, CSV and gzip JSON Lines, with drifting values)"

step "Infer the schema of a partitioned CSV folder" "epoxy schema $data/csv"
"$epoxy" schema "$data/csv"

step "The same records as gzip JSON Lines: nested structs and arrays, and choice types where values drift" \
  "epoxy schema $data/json"
"$epoxy" schema "$data/json"

step "The catalog view of that schema (each choice widened to one type)" "epoxy schema --catalog $data/json"
"$epoxy" schema --catalog "$data/json"

step "First records as a table" "epoxy cat $data/json --output table --limit 5"
"$epoxy" cat "$data/json" --output table --limit 5

step "Records as JSON Lines, the stable machine interface" "epoxy cat $data/csv --limit 3"
"$epoxy" cat "$data/csv" --limit 3

step "A malformed record is reported with its file and line; the good records still print" \
  "epoxy cat bad.csv"
printf 'id,name\n1,alice\n2,bob,extra\n3,carol\n' > "$data/bad.csv"
"$epoxy" cat "$data/bad.csv" || echo "(exit code $?: records were skipped)"

step "Convert the JSON Lines to Parquet (snappy), then read it back" "epoxy convert $data/json $data/parquet/"
"$epoxy" convert "$data/json" "$data/parquet/"
"$epoxy" cat "$data/parquet" --limit 2

step "What the Parquet file holds: row groups, column chunks, encodings, statistics" \
  "epoxy parquet-meta $data/parquet/part-*.parquet"
"$epoxy" parquet-meta "$data"/parquet/part-*.parquet | head -n 18

export EPOXY_HOME="$data/home"
step "Crawl the raw folders into the catalog: one table per folder, dt partitions, inferred types" \
  "epoxy crawl $data/json --database demo --name clickstream_json; epoxy crawl $data/csv --database demo"
"$epoxy" crawl "$data/json" --database demo --name clickstream_json
"$epoxy" crawl "$data/csv" --database demo
"$epoxy" catalog tables demo
"$epoxy" catalog table demo csv

step "Ask the catalog for some partitions only" "epoxy catalog partitions demo json --expression \"dt >= '2026-08-17'\""
"$epoxy" catalog partitions demo json --expression "dt >= '2026-08-17'"

step "A new day arrives; a new-folders-only recrawl reads just its files" \
  "epoxy crawl $data/json --database demo --name clickstream_json --recrawl new-folders"
mkdir -p "$data/json/dt=2026-08-19"
cp "$data"/json/dt=2026-08-18/* "$data/json/dt=2026-08-19/"
"$epoxy" crawl "$data/json" --database demo --name clickstream_json --recrawl new-folders
"$epoxy" crawler history clickstream_json

step "Query the crawled tables with SQL: the filter on dt prunes partitions before any file is listed" \
  "epoxy sql \"SELECT count(*) AS clicks, sum(amount) AS revenue FROM demo.json WHERE dt = '2026-08-18'\" --profile"
"$epoxy" sql "SELECT count(*) AS clicks, round(sum(amount), 2) AS revenue FROM demo.json WHERE dt = '2026-08-18'" --profile

step "Expressions in Spark SQL's dialect: functions, CASE, casts" \
  "epoxy sql \"SELECT event_id, upper(country) ... FROM demo.csv WHERE amount > 200 LIMIT 5\""
"$epoxy" sql "SELECT event_id, upper(country) AS country, CASE WHEN amount > 400 THEN 'big' ELSE 'medium' END AS size,
  CAST(amount AS INT) AS whole, date_format(CAST(ts AS TIMESTAMP), 'yyyy-MM-dd HH:mm') AS at, dt
  FROM demo.csv WHERE amount > 200 LIMIT 5"

step "Write the CSV table as Parquet partitioned by dt (staged, then committed), and read it back" \
  "epoxy sql \"SELECT * FROM demo.csv\" --write $data/lake/clicks --partition-by dt"
"$epoxy" sql "SELECT * FROM demo.csv" --write "$data/lake/clicks" --partition-by dt
find "$data/lake/clicks" -type f | sort
"$epoxy" sql "SELECT 'dt = 2026-08-17' AS rows_of, count(*) AS n FROM parquet.\`$data/lake/clicks\` WHERE dt = '2026-08-17'
  UNION ALL SELECT 'every day', count(*) FROM parquet.\`$data/lake/clicks\`"

step "Run a Glue job script unchanged (examples/daily_clicks_job.py): from_catalog with a push_down_predicate, ResolveChoice, dropDuplicates, a partitioned Parquet write" \
  "epoxy run examples/daily_clicks_job.py --JOB_NAME daily_clicks --database demo --output $data/lake/daily"
"$epoxy" run "$root/examples/daily_clicks_job.py" --JOB_NAME daily_clicks --database demo --output "$data/lake/daily"
find "$data/lake/daily" -type f | sort

step "Query the job's output with SQL" \
  "epoxy sql \"SELECT dt, count(*) AS clicks, count(DISTINCT user_id) AS users FROM parquet.\`$data/lake/daily\` GROUP BY dt ORDER BY dt\""
"$epoxy" sql "SELECT dt, count(*) AS clicks, count(DISTINCT user_id) AS users, round(sum(amount), 2) AS revenue
  FROM parquet.\`$data/lake/daily\` GROUP BY dt ORDER BY dt"
echo "the job's log: $(ls "$EPOXY_HOME"/logs/daily_clicks/*.log)"

# The incremental story: bookmarks, and exactly-once output across a crash.
python3 "$root/tools/gen_sample.py" "$data/gen" --days 3 --rows 400 --start 2026-08-16 > /dev/null
mkdir -p "$data/incoming" && mv "$data/gen/json" "$data/incoming/json"
new_day() {  # another day of landing files, with its own events
  python3 "$root/tools/gen_sample.py" "$data/gen$1" --days 1 --rows 400 --start "$1" --seed "${1//-/}" > /dev/null
  mv "$data/gen$1/json/dt=$1" "$data/incoming/json/"
  "$epoxy" crawl "$data/incoming/json" --database incoming --name incoming --recrawl new-folders > /dev/null
}
runs_line() { "$epoxy" runs incremental_events | head -n 1; }

step "An incremental job: three days of landing files, crawled, and a stored job with bookmarks on" \
  "epoxy crawl $data/incoming/json --database incoming --name incoming; epoxy job create incremental_events --script examples/incremental_events_job.py --default-arguments '{\"--job-bookmark-option\": \"job-bookmark-enable\", ...}'"
"$epoxy" crawl "$data/incoming/json" --database incoming --name incoming > /dev/null
"$epoxy" catalog partitions incoming json | head -n 4
"$epoxy" job create incremental_events --script "$root/examples/incremental_events_job.py" --default-arguments \
  "{\"--job-bookmark-option\": \"job-bookmark-enable\", \"--database\": \"incoming\", \"--table\": \"json\", \"--output\": \"$data/lake/events\"}" > /dev/null
"$epoxy" job show incremental_events | head -n 12

step "Run 1 reads every file (3 days)" "epoxy job run incremental_events; epoxy runs incremental_events"
"$epoxy" job run incremental_events
runs_line

step "A fourth day lands; run 2 reads only its file" "epoxy job run incremental_events"
new_day 2026-08-19
"$epoxy" job run incremental_events
runs_line

step "Nothing new: run 3 reads nothing, writes nothing, and still commits" "epoxy job run incremental_events"
"$epoxy" job run incremental_events
runs_line
"$epoxy" bookmark show incremental_events

step "A fifth day lands and the run is killed (SIGKILL) right after writing its first output file" \
  "EPOXY_CRASH_AT=output_file epoxy job run incremental_events"
new_day 2026-08-20
EPOXY_CRASH_AT=output_file "$epoxy" job run incremental_events || echo "(killed: exit code $?)"
echo "files of 2026-08-20 visible in the output: $(find "$data/lake/events" -path '*dt=2026-08-20*' -not -path '*/_temporary/*' -type f | wc -l)"
echo "the dead run, as the next command finds it:"
runs_line

step "The rerun removes what the dead run staged and reads the same file again" "epoxy job run incremental_events"
"$epoxy" job run incremental_events
runs_line
echo "staging left behind: $(find "$data/lake/events" -path '*_temporary*' -type f | wc -l) files"

step "Every landed event is in the output exactly once" \
  "epoxy sql \"SELECT dt, count(*) AS records, count(DISTINCT event_id) AS events FROM parquet.\`$data/lake/events\` GROUP BY dt ORDER BY dt\""
"$epoxy" sql "SELECT dt, count(*) AS records, count(DISTINCT event_id) AS events FROM parquet.\`$data/lake/events\`
  GROUP BY dt ORDER BY dt"
"$epoxy" sql "SELECT count(*) AS landed, count(DISTINCT event_id) AS distinct_events FROM json.\`$data/incoming/json\`"

# The pipeline runs by itself: files land, a trigger crawls them, the job follows the crawl.
step "Schedule it on file arrival: a workflow whose EVENT trigger crawls new landing files, then runs the job" \
  "epoxy workflow create landing; epoxy trigger create on-arrival --definition '{\"Type\": \"EVENT\", ...}'; epoxy trigger create after-crawl ...; epoxy scheduler &"
"$epoxy" workflow create landing
"$epoxy" trigger create on-arrival --definition "{\"Type\": \"EVENT\", \"WorkflowName\": \"landing\", \"StartOnCreation\": true,
  \"EventBatchingCondition\": {\"BatchSize\": 10, \"BatchWindow\": 3}, \"Actions\": [{\"CrawlerName\": \"incoming\"}],
  \"Tags\": {\"epoxy:watch-path\": \"$data/incoming/json\"}}"
"$epoxy" trigger create after-crawl --definition "{\"Type\": \"CONDITIONAL\", \"WorkflowName\": \"landing\",
  \"StartOnCreation\": true, \"Predicate\": {\"Conditions\": [{\"LogicalOperator\": \"EQUALS\", \"CrawlerName\": \"incoming\",
  \"CrawlState\": \"SUCCEEDED\"}]}, \"Actions\": [{\"JobName\": \"incremental_events\"}]}"
"$epoxy" scheduler > "$data/scheduler.log" 2>&1 &
scheduler_pid=$!
trap 'kill $scheduler_pid 2> /dev/null || true' EXIT

step "A sixth day lands; nobody runs anything, and a run starts by itself" "mv dt=2026-08-21 $data/incoming/json/"
runs_before=$("$epoxy" runs incremental_events | wc -l)
python3 "$root/tools/gen_sample.py" "$data/gen2026-08-21" --days 1 --rows 400 --start 2026-08-21 --seed 20260821 > /dev/null
mv "$data/gen2026-08-21/json/dt=2026-08-21" "$data/incoming/json/"
for _ in $(seq 1 120); do
  [ "$("$epoxy" runs incremental_events | wc -l)" -gt "$runs_before" ] && \
    "$epoxy" runs incremental_events | head -n 1 | grep -q SUCCEEDED && break
  sleep 1
done
runs_line
for _ in $(seq 1 20); do  # the scheduler completes the workflow run at its next look
  "$epoxy" workflow show landing | head -n 1 | grep -q COMPLETED && break
  sleep 0.5
done
"$epoxy" workflow show landing
kill $scheduler_pid 2> /dev/null || true
wait $scheduler_pid 2> /dev/null || true
"$epoxy" sql "SELECT dt, count(*) AS records FROM parquet.\`$data/lake/events\` WHERE dt >= '2026-08-20' GROUP BY dt ORDER BY dt"
