// SPDX-License-Identifier: Apache-2.0
// Reading CSV and JSON Lines into memory: `epoxy schema` (which parses every record into columnar
// batches) against DuckDB two ways, side by side in one run: materialising every column
// (CREATE TABLE AS SELECT *) and only scanning them (an aggregate over every column, so every
// field is parsed but nothing is stored).
//   node read_vs_duckdb.mjs --epoxy PATH --csv DIR --jsonl DIR [--threads 1,2] [--reps 3]
// Needs @duckdb/node-api (BENCH_NODE_MODULES=/path/node_modules, as ../shared/bench uses).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const nm = process.env.BENCH_NODE_MODULES;
const duckdb = createRequire(path.join(path.resolve(nm), 'x.js'))('@duckdb/node-api');
const threads = (args.threads || '1,2').split(',').map(Number);
const reps = Number(args.reps || 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const csvColumns = "{'event_id':'VARCHAR','user_id':'BIGINT','ts':'VARCHAR','page':'VARCHAR'," +
  "'referrer':'VARCHAR','amount':'DOUBLE','country':'VARCHAR'}";
const jsonColumns = "{'event_id':'VARCHAR','user_id':'BIGINT','ts':'VARCHAR','page':'VARCHAR'," +
  "'referrer':'VARCHAR','amount':'DOUBLE','country':'VARCHAR'," +
  "'device':'STRUCT(os VARCHAR, version VARCHAR)','items':'STRUCT(sku VARCHAR, qty BIGINT)[]'}";
const scalarScan = 'max(length(event_id)), max(user_id), max(length(ts)), max(length(page)), ' +
  'max(length(referrer)), max(amount), max(length(country))';
const workloads = [
  ['csv', `read_csv('${args.csv}/**/*.csv', header=true, auto_detect=false, columns=${csvColumns})`,
   args.csv, scalarScan],
  ['jsonl', `read_json('${args.jsonl}/**/*.jsonl', format='newline_delimited', columns=${jsonColumns})`,
   args.jsonl, scalarScan + ', max(length(device.os)), max(len(items))'],
];

const rows = [];
for (const t of threads) {
  for (const [name, source, dir, scan] of workloads) {
    const instance = await duckdb.DuckDBInstance.create(':memory:', { threads: String(t) });
    const conn = await instance.connect();
    const duck = [];
    const duckScan = [];
    const ep = [];
    // Pin epoxy to as many CPUs as DuckDB's threads, so its reading thread counts too.
    const cpus = Array.from({ length: t }, (_, i) => i).join(',');
    for (let r = 0; r < reps; r++) {
      let start = performance.now();
      await conn.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM ${source}`);
      duck.push((performance.now() - start) / 1000);
      await conn.run('DROP TABLE t');
      start = performance.now();
      await conn.run(`SELECT ${scan} FROM ${source}`);
      duckScan.push((performance.now() - start) / 1000);
      start = performance.now();
      execFileSync('taskset', ['-c', cpus, args.epoxy, 'schema', dir, '--threads', String(t)],
                   { stdio: ['ignore', 'ignore', 'inherit'] });
      ep.push((performance.now() - start) / 1000);
    }
    conn.closeSync();
    rows.push({ workload: name, threads: t, epoxy_s: median(ep), duckdb_ctas_s: median(duck),
                duckdb_scan_s: median(duckScan), vs_ctas: median(ep) / median(duck),
                vs_scan: median(ep) / median(duckScan) });
  }
}
console.table(rows);
