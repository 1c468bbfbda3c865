#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts epoxy serve on a free loopback port and runs js_sdk_test.mjs against it with the AWS SDK
# for JavaScript v3, installed into MODULES_DIR on first use (a test client only, as DuckDB is an
# oracle). Usage: run_js_sdk_test.sh EPOXY MODULES_DIR
set -euo pipefail
epoxy=$1
modules=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v node > /dev/null || { echo "SKIP: node is not installed"; exit 77; }
package="@aws-sdk/client-glue@3.1169.0"
if [ ! -f "$modules/node_modules/@aws-sdk/client-glue/package.json" ]; then
  command -v npm > /dev/null || { echo "npm is required to install $package for this test"; exit 1; }
  mkdir -p "$modules"
  echo "installing $package into $modules"
  (cd "$modules" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$package" > /dev/null)
fi
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2> /dev/null || true; wait "$server_pid" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export EPOXY_HOME=$work/home EPOXY_KEY_FILE=$work/secrets.key
export EPOXY_ACCESS_KEY_ID=EPXJSTESTKEY00000001 EPOXY_SECRET_ACCESS_KEY=js-test-secret-0123456789abcdefghijklmn
"$epoxy" serve --port 0 > "$work/serve.out" 2> "$work/serve.err" &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q "listening on" "$work/serve.out" 2> /dev/null && break
  sleep 0.1
done
endpoint=$(grep -o "http://[0-9.:]*" "$work/serve.out" | head -1)
[ -n "$endpoint" ] || { echo "epoxy serve did not start"; cat "$work/serve.err"; exit 1; }
export AWS_ACCESS_KEY_ID=$EPOXY_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY=$EPOXY_SECRET_ACCESS_KEY AWS_REGION=us-east-1
unset AWS_PROFILE AWS_ENDPOINT_URL AWS_ENDPOINT_URL_GLUE || true
EPOXY_JS_MODULES=$modules/node_modules node "$here/js_sdk_test.mjs" "$endpoint" "$work"
