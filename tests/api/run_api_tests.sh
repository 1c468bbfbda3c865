#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the Glue API server's tests (pytest) with a Python that has boto3 and botocore (the image's,
# on the PATH), borrowing Debian's pytest when that Python has none. Usage: run_api_tests.sh EPOXY [PYTEST ARGS]
set -euo pipefail
export EPOXY_BIN=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
python=""
for candidate in python3 /usr/local/bin/python3 /usr/bin/python3; do
  if command -v "$candidate" > /dev/null && "$candidate" -c "import boto3, botocore" 2> /dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "SKIP: no Python with boto3 on this machine"
  exit 77
fi
if ! command -v aws > /dev/null; then
  echo "SKIP: the aws CLI is not installed"
  exit 77
fi
# Debian's pytest (python3-pytest) is pure Python: appended, it never shadows the interpreter's own packages.
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}"
exec "$python" -c 'import sys; sys.path.append("/usr/lib/python3/dist-packages"); import pytest; sys.exit(pytest.main(sys.argv[1:]))' \
  -q -p no:cacheprovider "$here" "$@"
