# SPDX-License-Identifier: Apache-2.0
"""Helpers for the database tests: a catalog connection to the test server, Glue jobs that copy a
table (or a bookmarked delta of it) into Parquet, and the copied rows read back."""
import collections
import json
import os

from jobrun import job_script
from postgres import PASSWORD, USER

# Reads `--table` through connection `shop` with the bookmark keys given (JSON), writes Parquet to --dst.
COPY_JOB = job_script("dst", "table", "keys", "order", "extra") + r'''
import json
options = {"connectionName": "shop", "dbtable": args["table"]}
if args["keys"] != "-":
    options["jobBookmarkKeys"] = json.loads(args["keys"])
if args["order"] != "-":
    options["jobBookmarkKeysSortOrder"] = args["order"]
options.update(json.loads(args["extra"]))
frame = glue.create_dynamic_frame.from_options(options.pop("connection_type", "postgresql"), options,
                                               transformation_ctx="source")
glue.write_dynamic_frame.from_options(frame, "s3", {"path": args["dst"]}, "parquet")
job.commit()
'''


def create_connection(epoxy, url, name="shop", user=USER, password=PASSWORD):
    """`epoxy connection create` with the password on standard input."""
    import subprocess
    args = [epoxy.binary, "connection", "create", name, "--url", url]
    if user:
        args += ["--user", user]
    if password:
        args += ["--password-stdin"]
    result = subprocess.run(args, input=(password or "") + "\n", capture_output=True, text=True, env=epoxy.env())
    assert result.returncode == 0, result.stderr
    return result


def run_copy(epoxy, job, table, dst, keys=None, order=None, extra=None, option="job-bookmark-enable", env=None):
    script = os.path.join(epoxy.tmp, "copy_job.py")
    if not os.path.exists(script):
        with open(script, "w") as f:
            f.write(COPY_JOB)
    return epoxy("run", script, "--JOB_NAME", job, "--dst", dst, "--table", table,
                 "--keys", json.dumps(keys) if keys is not None else "-", "--order", order or "-",
                 "--extra", json.dumps(extra or {}), "--job-bookmark-option", option, env=env)


def copied(spark, folder, column="id"):
    """The values of `column` in the Parquet below `folder`, as a multiset."""
    if not os.path.isdir(folder) or not any(files for _, _, files in os.walk(folder)):
        return collections.Counter()
    return collections.Counter(r[column] for r in spark.read.parquet(folder).collect())


def source_report(epoxy, job, ctx="source"):
    """What the newest run of `job` reports of its database source."""
    details = epoxy.run_details(epoxy.runs(job)[0]["Id"])
    return details["Epoxy"]["Sources"][ctx]
