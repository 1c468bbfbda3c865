# SPDX-License-Identifier: Apache-2.0
"""`epoxy run`: sys.argv as Glue passes it, output on the terminal and in the run's log, exit codes."""
import os


def test_arguments_output_and_log(run_script, home):
    result = run_script(
        "import sys\n"
        "from awsglue.utils import getResolvedOptions\n"
        "args = getResolvedOptions(sys.argv, ['JOB_NAME', 'day'])\n"
        "print('job', args['JOB_NAME'], 'day', args['day'])\n",
        "--JOB_NAME", "nightly", "--day", "2026-12-01", "--extra", "ignored")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "job nightly day 2026-12-01\n"
    logs = os.listdir(os.path.join(home, "logs", "nightly"))
    assert len(logs) == 1
    with open(os.path.join(home, "logs", "nightly", logs[0])) as f:
        assert "job nightly day 2026-12-01" in f.read()


def test_job_name_defaults_to_the_script(run_script):
    result = run_script("import sys\nprint(sys.argv[sys.argv.index('--JOB_NAME') + 1])\n")
    assert result.stdout.strip() == "job"


def test_a_failing_script_exits_non_zero_with_its_traceback(run_script):
    result = run_script("def f():\n    raise ValueError('broken input')\nf()\n")
    assert result.returncode == 1
    assert "Traceback" in result.stderr and "ValueError: broken input" in result.stderr
    assert "FAILED (exit 1)" in result.stderr


def test_engine_errors_reach_the_script(run_script):
    result = run_script(
        "from pyspark.sql import SparkSession\n"
        "spark = SparkSession.builder.getOrCreate()\n"
        "spark.read.parquet('/no/such/folder').count()\n")
    assert result.returncode == 1
    assert "/no/such/folder" in result.stderr


def test_a_missing_script(run_script, tmp_path):
    import subprocess
    binary = os.environ["EPOXY_BIN"]
    result = subprocess.run([binary, "run", str(tmp_path / "nope.py")], capture_output=True, text=True)
    assert result.returncode == 3 and "no script" in result.stderr
