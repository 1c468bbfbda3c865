# SPDX-License-Identifier: Apache-2.0
"""Helpers for the job-run tests: a landing folder of JSON events, an incremental Glue job over it
(dedup by event_id, partitioned Parquet by day), `epoxy` invocations with their own EPOXY_HOME, and
the output read back as a multiset of records."""
import collections
import json
import os
import subprocess

INCREMENTAL_JOB = r'''
import sys, time
from awsglue.context import GlueContext
from awsglue.dynamicframe import DynamicFrame
from awsglue.job import Job
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext

args = getResolvedOptions(sys.argv, ["JOB_NAME", "src", "dst"])
extra = dict(zip(sys.argv[1::2], sys.argv[2::2]))
glue = GlueContext(SparkContext.getOrCreate())
job = Job(glue)
job.init(args["JOB_NAME"], args)
options = {"paths": [args["src"]], "recurse": True}
if "--max-files" in extra:
    options["maxFilesPerRun"] = extra["--max-files"]
ctx = extra.get("--ctx", "landing")
events = glue.create_dynamic_frame.from_options("s3", options, "json", transformation_ctx="" if ctx == "none" else ctx)
deduped = events.toDF().dropDuplicates(["event_id"])
if "--sleep" in extra:
    time.sleep(float(extra["--sleep"]))
glue.write_dynamic_frame.from_options(DynamicFrame.fromDF(deduped, glue, "deduped"), "s3",
                                      {"path": args["dst"], "partitionKeys": ["day"]}, "parquet")
if "--fail-before-commit" in extra:
    raise RuntimeError("failing on purpose before job.commit()")
job.commit()
'''


def job_script(*options):
    """A Glue script's usual opening: its arguments (JOB_NAME and `options`), a GlueContext
    `glue` and an initialized Job `job`; the caller adds the body."""
    names = ", ".join(repr(o) for o in ("JOB_NAME",) + options)
    return ("import sys\n"
            "from awsglue.context import GlueContext\n"
            "from awsglue.job import Job\n"
            "from awsglue.utils import getResolvedOptions\n"
            "from pyspark.context import SparkContext\n"
            "args = getResolvedOptions(sys.argv, [%s])\n"
            "glue = GlueContext(SparkContext.getOrCreate())\n"
            "job = Job(glue)\n"
            "job.init(args['JOB_NAME'], args)\n" % names)


def write_day(landing, day, files=3, per_file=4, first_id=0):
    """`files` JSON files under landing/<day>/, with one duplicated event_id per file."""
    folder = os.path.join(landing, day)
    os.makedirs(folder, exist_ok=True)
    next_id = first_id
    for f in range(files):
        path = os.path.join(folder, "events-%02d.json" % f)
        with open(path, "w") as out:
            for _ in range(per_file):
                out.write(json.dumps({"event_id": "%s-%d" % (day, next_id), "day": day, "value": next_id}) + "\n")
                next_id += 1
            out.write(json.dumps({"event_id": "%s-%d" % (day, next_id - 1), "day": day, "value": next_id - 1}) + "\n")
    return next_id


class Epoxy:
    """The epoxy binary with one EPOXY_HOME."""

    def __init__(self, binary, home, tmp):
        self.binary, self.home, self.tmp = binary, home, tmp
        self.script = os.path.join(tmp, "incremental.py")
        with open(self.script, "w") as f:
            f.write(INCREMENTAL_JOB)

    def env(self, extra=None):
        env = dict(os.environ)
        env["EPOXY_HOME"] = self.home
        env.pop("EPOXY_CRASH_AT", None)
        env.update(extra or {})
        return env

    def __call__(self, *args, env=None, timeout=300):
        return subprocess.run([self.binary, *args], capture_output=True, text=True, env=self.env(env), timeout=timeout)

    def run_job(self, job, src, dst, *extra, env=None, option="job-bookmark-enable"):
        return self("run", self.script, "--JOB_NAME", job, "--src", src, "--dst", dst,
                    "--job-bookmark-option", option, *extra, env=env)

    def start_job(self, job, src, dst, *extra, option="job-bookmark-enable"):
        return subprocess.Popen([self.binary, "run", self.script, "--JOB_NAME", job, "--src", src, "--dst", dst,
                                 "--job-bookmark-option", option, *extra], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=self.env(), start_new_session=True)

    def runs(self, job):
        result = self("runs", job, "--json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)["JobRuns"]

    def run_details(self, run_id):
        result = self("run-show", run_id)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def files_read(self, job):
        """Files the newest run of `job` read through its bookmarks."""
        details = self.run_details(self.runs(job)[0]["Id"])
        return sum(s["FilesRead"] for s in details["Epoxy"]["Sources"].values())

    def bookmark(self, job):
        result = self("bookmark", "show", job, "--json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)["JobBookmarkEntry"]


def records(spark, folder):
    """The Parquet records below `folder` as a multiset (staging folders are not read)."""
    if not os.path.isdir(folder) or not any(files for _, _, files in os.walk(folder)):
        return collections.Counter()
    rows = spark.read.parquet(folder).collect()
    return collections.Counter((r["event_id"], str(r["day"]), r["value"]) for r in rows)


def visible_files(folder):
    out = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith("_")]
        out.extend(os.path.join(root, f) for f in files)
    return sorted(out)
