// SPDX-License-Identifier: Apache-2.0
// epoxy serve driven by the AWS SDK for JavaScript v3 (@aws-sdk/client-glue), unchanged but for
// its endpoint: the catalog with 1,000 partitions paged by Expression and by Segment, optimistic
// locking, a crawl of a local folder, and a job run with its bookmark read and reset.
// Usage: node js_sdk_test.mjs ENDPOINT WORKDIR (the SDK from NODE_PATH, the keys from AWS_*).
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.env.EPOXY_JS_MODULES, "noop.js"));
const glue = require("@aws-sdk/client-glue");
const [endpoint, work] = process.argv.slice(2);
const client = new glue.GlueClient({ endpoint, region: "us-east-1" });
const send = (name, input) => client.send(new glue[name + "Command"](input));
let checks = 0;
function check(what, ok) {
  if (!ok) throw new Error("failed: " + what);
  checks++;
}
async function errorName(call) {
  try {
    await call();
  } catch (e) {
    return e.name;
  }
  return "no error";
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, probe, seconds = 120) {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; await sleep(200)) {
    const value = await probe();
    if (value) return value;
  }
  throw new Error("timed out waiting for " + what);
}

await send("CreateDatabase", { DatabaseInput: { Name: "js" } });
await send("CreateTable", {
  DatabaseName: "js",
  TableInput: {
    Name: "events",
    StorageDescriptor: { Columns: [{ Name: "id", Type: "bigint" }], Location: "/lake/events" },
    PartitionKeys: [{ Name: "year", Type: "int" }, { Name: "day", Type: "string" }],
  },
});
for (let batch = 0; batch < 10; batch++) {
  const PartitionInputList = [];
  for (let i = 0; i < 100; i++) {
    const n = batch * 100 + i;
    PartitionInputList.push({ Values: [String(2000 + (n % 20)), "d" + String(n).padStart(4, "0")] });
  }
  const out = await send("BatchCreatePartition", { DatabaseName: "js", TableName: "events", PartitionInputList });
  check("batch " + batch + " has no errors", !out.Errors || out.Errors.length === 0);
}
// Paged with an Expression: years 2010..2014 are 5 of 20, so 250 partitions.
let seen = new Set(), token;
do {
  const page = await send("GetPartitions", {
    DatabaseName: "js", TableName: "events", Expression: "year BETWEEN 2010 AND 2014", MaxResults: 37, NextToken: token,
  });
  check("a page holds at most 37", page.Partitions.length <= 37);
  page.Partitions.forEach((p) => seen.add(p.Values.join("/")));
  token = page.NextToken;
} while (token);
check("250 partitions by expression, each once", seen.size === 250);
// Four segments cover all 1,000, without overlap.
seen = new Set();
let total = 0;
for (let segment = 0; segment < 4; segment++) {
  let next;
  do {
    const page = await send("GetPartitions", {
      DatabaseName: "js", TableName: "events", Segment: { SegmentNumber: segment, TotalSegments: 4 }, NextToken: next,
    });
    page.Partitions.forEach((p) => seen.add(p.Values.join("/")));
    total += page.Partitions.length;
    next = page.NextToken;
  } while (next);
}
check("segments cover 1,000 partitions once", seen.size === 1000 && total === 1000);
// Optimistic locking.
const table = (await send("GetTable", { DatabaseName: "js", Name: "events" })).Table;
await send("UpdateTable", { DatabaseName: "js", TableInput: { Name: "events", Description: "v2",
  StorageDescriptor: table.StorageDescriptor, PartitionKeys: table.PartitionKeys }, VersionId: table.VersionId });
check("a stale VersionId is refused", (await errorName(() => send("UpdateTable", { DatabaseName: "js",
  TableInput: { Name: "events", Description: "v3" }, VersionId: table.VersionId }))) ===
  "ConcurrentModificationException");
check("an unknown table is EntityNotFoundException",
  (await errorName(() => send("GetTable", { DatabaseName: "js", Name: "nope" }))) === "EntityNotFoundException");

// A crawl of a local folder.
const lake = path.join(work, "lake", "orders");
for (const day of ["2026-08-01", "2026-08-02"]) {
  fs.mkdirSync(path.join(lake, "day=" + day), { recursive: true });
  fs.writeFileSync(path.join(lake, "day=" + day, "part-0.csv"), "order_id,amount\n1,10\n2,20\n");
}
await send("CreateCrawler", { Name: "orders", Role: "epoxy", DatabaseName: "js", Targets: { S3Targets: [{ Path: lake }] } });
await send("StartCrawler", { Name: "orders" });
const crawler = await until("the crawl", async () => {
  const c = (await send("GetCrawler", { Name: "orders" })).Crawler;
  return c.State === "READY" && c.LastCrawl ? c : null;
});
check("the crawl succeeded", crawler.LastCrawl.Status === "SUCCEEDED");
const crawled = (await send("GetPartitions", { DatabaseName: "js", TableName: "orders" })).Partitions;
check("the crawl made the table and its 2 partitions", crawled.length === 2);

// A job run of a Glue script, with its bookmark.
const script = path.join(work, "job.py");
fs.writeFileSync(script, [
  "import sys",
  "from awsglue.context import GlueContext",
  "from awsglue.job import Job",
  "from awsglue.utils import getResolvedOptions",
  "from pyspark.context import SparkContext",
  "args = getResolvedOptions(sys.argv, ['JOB_NAME', 'src', 'dst'])",
  "glue = GlueContext(SparkContext.getOrCreate())",
  "job = Job(glue)",
  "job.init(args['JOB_NAME'], args)",
  "frame = glue.create_dynamic_frame.from_options('s3', {'paths': [args['src']]}, 'csv', {'withHeader': True},",
  "                                               transformation_ctx='orders')",
  "glue.write_dynamic_frame.from_options(frame, 's3', {'path': args['dst']}, 'parquet')",
  "job.commit()",
  "",
].join("\n"));
await send("CreateJob", { Name: "copy", Role: "epoxy", Command: { Name: "glueetl", ScriptLocation: "file://" + script },
  DefaultArguments: { "--job-bookmark-option": "job-bookmark-enable", "--src": lake, "--dst": path.join(work, "out") } });
const { JobRunId } = await send("StartJobRun", { JobName: "copy" });
const run = await until("the run", async () => {
  const r = (await send("GetJobRun", { JobName: "copy", RunId: JobRunId })).JobRun;
  return ["SUCCEEDED", "FAILED", "STOPPED", "TIMEOUT", "ERROR"].includes(r.JobRunState) ? r : null;
}, 180);
check("the run succeeded: " + (run.ErrorMessage || ""), run.JobRunState === "SUCCEEDED");
const bookmark = (await send("GetJobBookmark", { JobName: "copy" })).JobBookmarkEntry;
check("the bookmark names the run", bookmark.RunId === JobRunId && bookmark.Version === 1);
const reset = (await send("ResetJobBookmark", { JobName: "copy" })).JobBookmarkEntry;
check("the reset bookmark is empty", reset.JobBookmark === "{}");
console.log("js sdk: " + checks + " checks passed");
