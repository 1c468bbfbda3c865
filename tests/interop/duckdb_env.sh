# SPDX-License-Identifier: Apache-2.0
# Sourced by the interop tests: finds DuckDB's Node package (EPOXY_DUCKDB_MODULES, or MODULES_DIR
# given as $1) or installs it there, and exports EPOXY_DUCKDB_MODULES. DuckDB is a test oracle only.
duckdb_package="@duckdb/node-api@1.5.6-r.1"
if [ -n "${EPOXY_DUCKDB_MODULES:-}" ] && [ -f "$EPOXY_DUCKDB_MODULES/@duckdb/node-api/package.json" ]; then
  :
elif [ -f "$1/node_modules/@duckdb/node-api/package.json" ]; then
  EPOXY_DUCKDB_MODULES=$1/node_modules
else
  command -v npm > /dev/null || { echo "npm is required to install DuckDB for this test"; return 1; }
  mkdir -p "$1"
  echo "installing $duckdb_package into $1"
  (cd "$1" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$duckdb_package" > /dev/null) || return 1
  EPOXY_DUCKDB_MODULES=$1/node_modules
fi
export EPOXY_DUCKDB_MODULES
