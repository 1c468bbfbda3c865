#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages epoxy builds and tests with. Idempotent: installs only what is
# missing, runs apt-get as root directly and through sudo otherwise.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache
  clang-16 libclang-rt-16-dev
  # libraries (see ../shared/reference/dependencies.md for how CMake finds each)
  libsimdjson-dev nlohmann-json3-dev zlib1g-dev libzstd-dev libsnappy-dev liblz4-dev libbz2-dev
  libbrotli-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev libssl-dev libcpp-httplib-dev
  libcli11-dev libspdlog-dev libfmt-dev libre2-dev libxxhash-dev pybind11-dev python3-dev
  # tests
  libgtest-dev libgmock-dev libbenchmark-dev python3 python3-pytest
  # database sources and sinks are tested against a real PostgreSQL server (initdb, pg_ctl, psql)
  # and driven from the tests by psycopg2
  postgresql-15 postgresql-client-15 python3-psycopg2
  # the Glue API server is tested with the shared moto suite (which imports freezegun), boto3 and the aws CLI
  python3-freezegun
)

# Node.js and npm run DuckDB, the tests' oracle; any node >= 18 on the PATH will do.
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "bootstrap: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
