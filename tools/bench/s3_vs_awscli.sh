#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# S3 listing and download speed, epoxy against the AWS CLI, on one moto_server (loopback):
# listing N small objects (`epoxy cat --limit 1` lists every key, then reads one), and one large
# object read through parallel ranged GETs (`epoxy cat --limit 1` on an uncompressed CSV fetches
# the whole object) against `aws s3 cp`.
#   tools/bench/s3_vs_awscli.sh EPOXY [NUM_OBJECTS] [BIG_MB]
set -euo pipefail
epoxy=$1
n=${2:-100000}
mb=${3:-1024}
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
moto_server -H 127.0.0.1 -p "$port" > "$work/moto.log" 2>&1 &
moto=$!
trap 'kill $moto; rm -rf "$work"' EXIT
sleep 2
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
export AWS_ENDPOINT_URL=http://127.0.0.1:$port
python3 - "$port" "$n" << 'PY'
import sys, boto3, concurrent.futures as cf
port, n = sys.argv[1], int(sys.argv[2])
s3 = boto3.client('s3', endpoint_url=f'http://127.0.0.1:{port}', region_name='us-east-1')
s3.create_bucket(Bucket='bench')
def put(i):
    s3.put_object(Bucket='bench', Key=f'many/dt={i // 1000:04}/part-{i:06}.json', Body=b'{"i":1}\n')
with cf.ThreadPoolExecutor(16) as ex:
    list(ex.map(put, range(n)))
PY
python3 -c "
import sys
with open('$work/big.csv', 'w') as f:
    f.write('a,b\n')
    line = 'x' * 90 + ',' + 'y' * 8 + '\n'
    for _ in range($mb * 1024 * 1024 // len(line)): f.write(line)
"
aws s3 cp "$work/big.csv" s3://bench/big/big.csv > /dev/null
t() { local s=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(echo "$(date +%s.%N) - $s" | bc)"; }
list_epoxy=$(t "$epoxy" cat s3://bench/many/ --limit 1)
list_aws=$(t aws s3 ls --recursive s3://bench/many/)
get_epoxy=$(t "$epoxy" cat s3://bench/big/big.csv --limit 1)
get_aws=$(t aws s3 cp s3://bench/big/big.csv "$work/down.csv")
echo "list $n objects: epoxy ${list_epoxy}s, aws ${list_aws}s ($(echo "$n / $list_epoxy" | bc) vs $(echo "$n / $list_aws" | bc) objects/s)"
echo "download ${mb} MB: epoxy ${get_epoxy}s, aws ${get_aws}s ($(echo "$mb / $get_epoxy" | bc) vs $(echo "$mb / $get_aws" | bc) MB/s)"
