#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How bookmarked runs scale with the number of files the bookmark tracks (not part of make test).

    tools/bench/bookmark_scale.py --epoxy build/release/epoxy --files 1000000 [--folders 1000] [--work DIR]

Writes FILES tiny JSON files in FOLDERS dt=... folders, runs a bookmarked job over them once
(untimed), then reports: a rerun with nothing new (wall time, peak RSS), and a run after 10 new
files land (wall time, and the commit's transaction and publish times), with the bookmark's
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import time

JOB = r'''
import sys
from awsglue.context import GlueContext
from awsglue.job import Job
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
args = getResolvedOptions(sys.argv, ["JOB_NAME", "src", "dst"])
glue = GlueContext(SparkContext.getOrCreate())
job = Job(glue)
job.init(args["JOB_NAME"], args)
frame = glue.create_dynamic_frame.from_options("s3", {"paths": [args["src"]], "recurse": True}, "json",
                                               transformation_ctx="landing")
glue.write_dynamic_frame.from_options(frame, "s3", {"path": args["dst"]}, "parquet")
job.commit()
'''


def make_files(root, files, folders, start=0, first_folder=0):
    per = max(1, files // folders)
    written = 0
    for f in range(first_folder, first_folder + folders):
        folder = os.path.join(root, "dt=%05d" % f)
        os.makedirs(folder, exist_ok=True)
        for i in range(per):
            n = start + written
            with open(os.path.join(folder, "e-%08d.json" % n), "w") as out:
                out.write('{"id": %d}\n' % n)
            written += 1
    return written


def timed_run(epoxy, env, script, src, dst):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.monotonic()
    result = subprocess.run([epoxy, "run", script, "--JOB_NAME", "scale", "--src", src, "--dst", dst,
                             "--job-bookmark-option", "job-bookmark-enable"], env=env, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child so far, KB
    runs = json.loads(subprocess.run([epoxy, "runs", "scale", "--json"], env=env, capture_output=True,
                                     text=True).stdout)["JobRuns"]
    details = json.loads(subprocess.run([epoxy, "run-show", runs[0]["Id"]], env=env, capture_output=True,
                                        text=True).stdout)["Epoxy"]
    return wall, max(peak, before) / 1024.0, details


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epoxy", required=True)
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--folders", type=int, default=100)
    parser.add_argument("--work", default="/tmp/epoxy-bookmark-scale")
    args = parser.parse_args()
    epoxy = os.path.abspath(args.epoxy)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    src, dst = os.path.join(args.work, "landing"), os.path.join(args.work, "out")
    script = os.path.join(args.work, "job.py")
    with open(script, "w") as f:
        f.write(JOB)
    env = dict(os.environ, EPOXY_HOME=os.path.join(args.work, "home"))
    t0 = time.monotonic()
    written = make_files(src, args.files, args.folders)
    print("wrote %d files in %d folders in %.1f s" % (written, args.folders, time.monotonic() - t0))
    wall, _, details = timed_run(epoxy, env, script, src, dst)
    print("first run (reads everything): %.1f s" % wall)
    wall, rss, details = timed_run(epoxy, env, script, src, dst)
    read = sum(s["FilesRead"] for s in details["Sources"].values())
    skipped = sum(s["FilesSkipped"] for s in details["Sources"].values())
    print("rerun, nothing new: %.2f s, peak RSS %.0f MB, files read %d, skipped %d" % (wall, rss, read, skipped))
    make_files(src, 10, 1, start=written, first_folder=99999)
    wall, rss, details = timed_run(epoxy, env, script, src, dst)
    print("run after 10 new files: %.2f s, commit transaction %.3f s, publish %.3f s, files read %d" % (
        wall, details["Commit"]["TransactionSeconds"], details["Commit"]["PublishSeconds"],
        sum(s["FilesRead"] for s in details["Sources"].values())))
    state = json.loads(subprocess.run([epoxy, "bookmark", "show", "scale", "--json"], env=env, capture_output=True,
                                      text=True).stdout)["JobBookmarkEntry"]["JobBookmark"]
    print("bookmark state: %s" % state)


if __name__ == "__main__":
    main()
