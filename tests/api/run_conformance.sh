#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the shared Glue API suite (glue_api_conformance.py) with a Python that has boto3 and moto
# (the image's, on the PATH). Usage: run_conformance.sh EPOXY SHARED
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for candidate in python3 /usr/local/bin/python3 /usr/bin/python3; do
  if command -v "$candidate" > /dev/null && "$candidate" -c "import boto3, moto" 2> /dev/null; then
    exec "$candidate" "$here/glue_api_conformance.py" "$@"
  fi
done
echo "SKIP: no Python with boto3 and moto on this machine"
exit 77
