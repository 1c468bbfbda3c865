// SPDX-License-Identifier: Apache-2.0
// DuckDB as a test oracle (never a runtime dependency):
//   node duckdb_tool.mjs read FILE [COLS]   -> the file's rows (or columns COLS, comma-separated)
//                                             as JSON lines, in epoxy's jsonl form
//   node duckdb_tool.mjs columns FILE       -> the file's column names, one a line
//   node duckdb_tool.mjs sql "STATEMENT"    -> runs a statement (for example COPY ... TO a Parquet file)
//   node duckdb_tool.mjs query "SELECT ..." -> the query's rows as JSON lines, in epoxy's jsonl form
// Needs @duckdb/node-api; EPOXY_DUCKDB_MODULES points at the node_modules folder holding it.
import { createRequire } from 'node:module';
import path from 'node:path';

const modules = process.env.EPOXY_DUCKDB_MODULES;
const duckdb = createRequire(path.join(path.resolve(modules), 'x.js'))('@duckdb/node-api');
const [command, arg, cols] = process.argv.slice(2);
const instance = await duckdb.DuckDBInstance.create(':memory:');
const conn = await instance.connect();

// Values in epoxy's `cat --output jsonl` form: decimals and dates as strings, timestamps ISO.
function convert(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value;
  if (Array.isArray(value)) return value.map(convert);
  if (value instanceof duckdb.DuckDBListValue) return value.items.map(convert);
  if (value instanceof duckdb.DuckDBStructValue) {
    const out = {};
    for (const [k, v] of Object.entries(value.entries)) out[k] = convert(v);
    return out;
  }
  if (value instanceof duckdb.DuckDBMapValue) {
    const out = {};
    for (const e of value.entries) out[String(convert(e.key))] = convert(e.value);
    return out;
  }
  if (value instanceof duckdb.DuckDBDecimalValue) return value.toString();
  if (value instanceof duckdb.DuckDBDateValue) return value.toString();
  if (value instanceof duckdb.DuckDBTimestampValue || value instanceof duckdb.DuckDBTimestampTZValue) {
    let s = value.toString().replace(' ', 'T');
    s = s.replace(/\+00(:00)?$/, '');
    if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
    return s;
  }
  if (value instanceof duckdb.DuckDBBlobValue) return Buffer.from(value.bytes).toString('base64');
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return '__NEGZERO__';  // JSON.stringify would drop the sign
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return value;
  }
  if (typeof value === 'object' && typeof value.toString === 'function') return value.toString();
  return value;
}

function stringify(v) {
  return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `__BIGINT__${x}__` : x))
    .replace(/"__BIGINT__(-?\d+)__"/g, '$1')
    .replace(/"__NEGZERO__"/g, '-0');
}

const quoted = (arg || '').replace(/'/g, "''");
if (command === 'columns') {
  const reader = await conn.runAndReadAll(`SELECT * FROM read_parquet('${quoted}') LIMIT 0`);
  for (const n of reader.columnNames()) process.stdout.write(n + '\n');
} else if (command === 'read' || command === 'query') {
  const select = cols ? cols.split(',').map((c) => `"${c}"`).join(', ') : '*';
  const text = command === 'query' ? arg : `SELECT ${select} FROM read_parquet('${quoted}')`;
  const reader = await conn.runAndReadAll(text);
  const names = reader.columnNames();
  for (const row of reader.getRows()) {
    const obj = {};
    names.forEach((n, i) => { obj[n] = convert(row[i]); });
    process.stdout.write(stringify(obj) + '\n');
  }
} else if (command === 'sql') {
  await conn.run(arg);
} else {
  console.error('usage: duckdb_tool.mjs read FILE | sql STATEMENT');
  process.exit(2);
}
