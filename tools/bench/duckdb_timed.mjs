// SPDX-License-Identifier: Apache-2.0
// DuckDB's side of relational_vs_duckdb.py: runs one statement and prints one JSON line with the
// statement's seconds (from submitting it to having every result row; Node start-up and loading
// DuckDB are not in it) and its rows.
//   node duckdb_timed.mjs --sql "SELECT ..." [--threads 2] [--memory-limit 512MB] [--temp-dir DIR]
// Needs @duckdb/node-api: EPOXY_DUCKDB_MODULES (or BENCH_NODE_MODULES) names its node_modules.
import { createRequire } from 'node:module';
import path from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const modules = process.env.EPOXY_DUCKDB_MODULES || process.env.BENCH_NODE_MODULES;
const duckdb = createRequire(path.join(path.resolve(modules), 'x.js'))('@duckdb/node-api');
const instance = await duckdb.DuckDBInstance.create(':memory:');
const conn = await instance.connect();
await conn.run(`SET threads = ${Number(args.threads || 2)}`);
if (args['memory-limit']) await conn.run(`SET memory_limit = '${args['memory-limit']}'`);
if (args['temp-dir']) await conn.run(`SET temp_directory = '${args['temp-dir']}'`);
const start = process.hrtime.bigint();
const reader = await conn.runAndReadAll(args.sql);
const rows = reader.getRows();
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const plain = (v) => (typeof v === 'bigint' ? Number(v) : v && typeof v === 'object' ? String(v) : v);
console.log(JSON.stringify({ seconds, rows: rows.map((r) => r.map(plain)) }));
