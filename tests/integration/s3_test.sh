#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# s3:// end to end against moto_server on loopback, through a fault-injecting proxy: the read
# commands and convert give the same results as on local folders; retries recover from 5xx and
# dropped connections; a failing multipart upload is aborted (no orphan upload is left); errors
# name the object and the cause within bounded time. Exits 77 (skipped) without moto_server.
# Usage: s3_test.sh EPOXY_BINARY REPO_ROOT
set -uo pipefail
epoxy=$1
root=$2
if ! command -v moto_server > /dev/null; then echo "skipped: moto_server is not installed"; exit 77; fi
work=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
moto_port=$(free_port)
proxy_port=$(free_port)
moto_server -H 127.0.0.1 -p "$moto_port" > "$work/moto.log" 2>&1 &
moto_pid=$!
python3 "$root/tests/integration/fault_proxy.py" "$proxy_port" "$moto_port" "$work/rules" > "$work/proxy.log" 2>&1 &
proxy_pid=$!
trap 'kill $moto_pid $proxy_pid 2>/dev/null; wait $moto_pid $proxy_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $moto_port), 1); socket.create_connection(('127.0.0.1', $proxy_port), 1)" 2>/dev/null; then break; fi
  sleep 0.1
done
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
export AWS_ENDPOINT_URL=http://127.0.0.1:$proxy_port
export EPOXY_S3_CONNECT_TIMEOUT_MS=2000 EPOXY_S3_READ_TIMEOUT_MS=2000 EPOXY_S3_MAX_ATTEMPTS=4
unset AWS_PROFILE
source "$(dirname "$0")/checks.sh"
rules() { printf '%s\n' "$@" > "$work/rules"; }
s3py() {  # boto3 against moto directly (the test's own setup and inspection)
  python3 - "$moto_port" "$@" << 'PY'
import sys, boto3
port, op = sys.argv[1], sys.argv[2]
s3 = boto3.client('s3', endpoint_url=f'http://127.0.0.1:{port}', region_name='us-east-1',
                  aws_access_key_id='testing', aws_secret_access_key='testing')
if op == 'mb':
    s3.create_bucket(Bucket=sys.argv[3])
elif op == 'put-tree':
    import os
    bucket, prefix, local = sys.argv[3], sys.argv[4], sys.argv[5]
    for dirpath, _, files in os.walk(local):
        for f in files:
            path = os.path.join(dirpath, f)
            s3.upload_file(path, bucket, prefix + os.path.relpath(path, local))
elif op == 'uploads':
    print(len(s3.list_multipart_uploads(Bucket=sys.argv[3]).get('Uploads', [])))
elif op == 'count':
    pages = s3.get_paginator('list_objects_v2').paginate(Bucket=sys.argv[3], Prefix=sys.argv[4])
    print(sum(len(p.get('Contents', [])) for p in pages))
PY
}

python3 "$root/tools/gen_sample.py" "$work/data" --days 3 --rows 400 --drift --gzip
python3 "$root/tools/gen_sample.py" "$work/plain" --days 2 --rows 300
s3py mb lake
s3py put-tree lake raw/csv/ "$work/data/csv"
s3py put-tree lake raw/json/ "$work/data/json"
rules ""

check "schema on s3 equals local" "$("$epoxy" schema "$work/data/json")" "$("$epoxy" schema s3://lake/raw/json/)"
check "cat on s3 equals local" "$("$epoxy" cat "$work/data/csv" | md5sum)" "$("$epoxy" cat s3://lake/raw/csv/ | md5sum)"
check "glob on s3" "400" "$("$epoxy" cat 's3://lake/raw/csv/dt=2026-08-16/*.csv' | wc -l | tr -d ' ')"
s3py put-tree lake plain/json/ "$work/plain/json"
"$epoxy" convert s3://lake/plain/json/ s3://lake/parquet/json/ 2> "$work/err"
check "convert s3 to s3" "0" "$?"
check "parquet on s3 reads back" "$("$epoxy" cat "$work/plain/json" | md5sum)" "$("$epoxy" cat s3://lake/parquet/json/ | md5sum)"
check "parquet projection over ranged reads" "$("$epoxy" cat "$work/plain/json" | python3 -c 'import sys,json; [print(json.dumps({"ts":json.loads(l)["ts"]},separators=(",",":"))) for l in sys.stdin]' | md5sum)" \
  "$("$epoxy" cat s3://lake/parquet/json/ --option columns=ts | md5sum)"
"$epoxy" convert s3://lake/raw/json/ "$work/local.parquet" 2> /dev/null
check "s3 to a local parquet file" "1200" "$("$epoxy" cat "$work/local.parquet" | wc -l | tr -d ' ')"

# A Glue job script reading s3:// and writing s3:// (partitioned, committed with a manifest).
cat > "$work/job.py" << 'PY'
import sys
from awsglue.context import GlueContext
from awsglue.job import Job
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
args = getResolvedOptions(sys.argv, ["JOB_NAME", "input", "output"])
glue = GlueContext(SparkContext.getOrCreate())
job = Job(glue)
job.init(args["JOB_NAME"], args)
frame = glue.create_dynamic_frame.from_options("s3", {"paths": [args["input"]], "recurse": True}, "json")
glue.write_dynamic_frame.from_options(frame=frame, connection_type="s3",
    connection_options={"path": args["output"], "partitionKeys": ["dt"]}, format="parquet")
job.commit()  # a run's writes become visible when it commits
print("rows", glue.spark_session.read.parquet(args["output"]).count())
PY
EPOXY_HOME=$work/home "$epoxy" run "$work/job.py" --JOB_NAME s3job --input s3://lake/plain/json/ --output s3://lake/jobs/out/ \
  > "$work/job.out" 2> "$work/err"
check "glue job from s3 to s3" "0 rows 600" "$? $(cat "$work/job.out")"

# Bookmarks on S3 (the tutorial's story): three CSV objects, one more, then none; each run reads
# only the new objects, writes only their rows, and leaves no staging behind.
cat > "$work/tutorial.py" << 'PY'
import sys
from awsglue.context import GlueContext
from awsglue.job import Job
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
args = getResolvedOptions(sys.argv, ["JOB_NAME", "input", "output"])
glue = GlueContext(SparkContext.getOrCreate())
job = Job(glue)
job.init(args["JOB_NAME"], args)
frame = glue.create_dynamic_frame.from_options("s3", {"paths": [args["input"]]}, "csv", {"withHeader": True},
                                               transformation_ctx="orders")
print("read", frame.count())
glue.write_dynamic_frame.from_options(frame, "s3", {"path": args["output"]}, "parquet")
job.commit()
PY
mkdir -p "$work/tut"
for f in a b c; do printf 'id,item\n%s1,x\n%s2,y\n' $f $f > "$work/tut/$f.csv"; done
s3py put-tree lake tut/in/ "$work/tut"
tutorial() {
  EPOXY_HOME=$work/home "$epoxy" run "$work/tutorial.py" --JOB_NAME s3tutorial --input s3://lake/tut/in/ \
    --output s3://lake/tut/out/ --job-bookmark-option job-bookmark-enable 2> "$work/err" | tr '\n' ' '
  echo "$("$epoxy" sql "SELECT count(*) AS n FROM parquet.\`s3://lake/tut/out\`" --output csv | tail -1)"
}
check "s3 bookmark: three objects" "read 6 6" "$(tutorial)"
rm "$work/tut/"*.csv; printf 'id,item\nd1,z\n' > "$work/tut/d.csv"; s3py put-tree lake tut/in/ "$work/tut"
check "s3 bookmark: one more object" "read 1 7" "$(tutorial)"
check "s3 bookmark: nothing new" "read 0 7" "$(tutorial)"
check "s3 bookmark: no staging left" "0" "$(s3py count lake tut/out/_temporary/)"

# SQL over a bucket: partitions pruned by listing folders, a partitioned write committed with a
# manifest, read back.
export EPOXY_HOME=$work/home
out=$("$epoxy" sql "SELECT count(*) AS n FROM csv.\`s3://lake/raw/csv\` WHERE dt = '2026-08-17'" --output jsonl --profile 2> "$work/profile")
check "sql on s3 prunes partitions" '{"n":400} 1 1' "$out $(grep -c 'partitions pruned: 2' "$work/profile") $(grep -c 'files read: 1' "$work/profile")"
"$epoxy" sql "SELECT * FROM json.\`s3://lake/plain/json\`" --write s3://lake/sqlout --partition-by dt 2> "$work/err"
check "sql write to s3" "0 600" "$? $("$epoxy" sql "SELECT count(*) AS n FROM parquet.\`s3://lake/sqlout\`" --output csv | tail -1)"
check "s3 write has its manifest, no staging" "1 0" "$(s3py count lake sqlout/_epoxy_manifests/) $(s3py count lake sqlout/_temporary/)"

# Retries: two 503 SlowDown answers and a dropped connection are absorbed.
rules "GET /lake/raw/csv/dt=2026-08-17 503 2" "HEAD /lake/raw/csv/dt=2026-08-18 drop 1"
check "retries recover" "1200" "$("$epoxy" cat s3://lake/raw/csv/ 2> "$work/err" | wc -l | tr -d ' ')"
rules ""

# Listing pages: more objects than one ListObjectsV2 page holds.
python3 - "$moto_port" << 'PY'
import sys, boto3
s3 = boto3.client('s3', endpoint_url=f'http://127.0.0.1:{sys.argv[1]}', region_name='us-east-1',
                  aws_access_key_id='testing', aws_secret_access_key='testing')
for i in range(1100):
    s3.put_object(Bucket='lake', Key=f'many/part-{i:05}.json', Body=f'{{"i":{i}}}\n'.encode())
PY
check "listing follows continuation tokens" "1100" "$("$epoxy" cat s3://lake/many/ | wc -l | tr -d ' ')"

# Multipart: a large object goes up in parallel parts; a failing part aborts the upload.
export EPOXY_S3_PART_SIZE=5242880
head -c 12000000 /dev/urandom | base64 -w 100 | sed 's/.*/"&"/' | sed '1i "blob"' > "$work/big.csv"
"$epoxy" convert "$work/big.csv" s3://lake/big/big.csv --to csv --option withHeader=true 2> "$work/err"
check "multipart upload" "$("$epoxy" cat "$work/big.csv" --option withHeader=true | md5sum)" \
  "$("$epoxy" cat s3://lake/big/big.csv --option withHeader=true | md5sum)"
rules "PUT partNumber=2 500 *"
"$epoxy" convert "$work/big.csv" s3://lake/big/failed.csv --to csv 2> "$work/err"
code=$?
check "failed multipart upload fails" "5" "$code"
check "error names the object" "1" "$(grep -c 's3://lake/big/failed.csv' "$work/err")"
check "no orphan upload is left" "0" "$(s3py uploads lake)"
check "no partial object is visible" "0" "$(s3py count lake big/failed.csv)"
rules ""
unset EPOXY_S3_PART_SIZE

# Errors name the object and the cause, within bounded time.
"$epoxy" cat s3://no-such-bucket/x.csv > /dev/null 2> "$work/err"; code=$?
check "missing bucket" "3 1" "$code $(grep -c 'NoSuchBucket' "$work/err")"
"$epoxy" cat s3://lake/raw/csv/nope.csv > /dev/null 2> "$work/err"; code=$?
check "missing key" "3 1" "$code $(grep -c 'lake/raw/csv/nope.csv' "$work/err")"
rules "* /lake/raw 403 *"
"$epoxy" cat s3://lake/raw/csv/ > /dev/null 2> "$work/err"; code=$?
check "wrong credentials" "5 1" "$code $(grep -cE 'InvalidAccessKeyId|credentials' "$work/err")"
rules "GET /lake/raw/json stall *"
start=$(date +%s)
"$epoxy" cat s3://lake/raw/json/ > /dev/null 2> "$work/err"; code=$?
elapsed=$(( $(date +%s) - start ))
check "stalled download fails" "5" "$code"
check "stalled download fails in bounded time" "yes" "$([ $elapsed -lt 60 ] && echo yes || echo "no (${elapsed}s)")"
check "stall error names the object" "1" "$(grep -c 'lake/raw/json' "$work/err")"
rules ""
AWS_ENDPOINT_URL=not-a-url "$epoxy" cat s3://lake/raw/csv/ > /dev/null 2> "$work/err"; code=$?
check "malformed endpoint" "2 1" "$code $(grep -c 'not a URL' "$work/err")"
AWS_ENDPOINT_URL=http://127.0.0.1:$(free_port) EPOXY_S3_MAX_ATTEMPTS=2 "$epoxy" cat s3://lake/raw/csv/ > /dev/null 2> "$work/err"; code=$?
check "unreachable endpoint" "5" "$code"

finish
