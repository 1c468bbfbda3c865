# SPDX-License-Identifier: Apache-2.0
"""The exactly-once commit protocol under faults: a run killed (SIGKILL, runner and script together,
as a power loss) at every crash point, and at random moments, leaves no visible output and its
rerun produces exactly what a crash-free run does; concurrent runs never both advance a bookmark;
failed, stopped and timed-out runs publish nothing."""
import collections
import json
import os
import random
import signal
import time

import pytest

from jobrun import Epoxy, records, visible_files, write_day

CRASH_POINTS = ["list", "read", "output_file", "staged", "manifest", "before_commit", "commit_txn",
                "after_commit", "publish"]


def landing_with_days(tmp_path, days=("2026-08-01", "2026-08-02", "2026-08-03")):
    landing = str(tmp_path / "landing")
    for day in days:
        write_day(landing, day)
    return landing


@pytest.fixture(scope="module")
def expected(tmp_path_factory, spark):
    """What a crash-free first run, and a crash-free second run after one more day, write."""
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    tmp = tmp_path_factory.mktemp("reference")
    e = Epoxy(binary, str(tmp / "home"), str(tmp))
    landing, out = landing_with_days(tmp), str(tmp / "out")
    assert e.run_job("events", landing, out).returncode == 0
    first = records(spark, out)
    write_day(landing, "2026-08-04")
    assert e.run_job("events", landing, out).returncode == 0
    return first, records(spark, out)


def check_consistent(epoxy, spark, landing, out, want):
    """The output equals `want`, a rerun reads nothing, and no run is left unfinished."""
    assert records(spark, out) == want
    assert epoxy.run_job("events", landing, out).returncode == 0
    assert epoxy.files_read("events") == 0
    assert records(spark, out) == want
    states = [r["JobRunState"] for r in epoxy.runs("events")]
    assert not [s for s in states if s in ("STARTING", "RUNNING", "STOPPING")], states
    assert not any("_temporary" in f for f in visible_files(out))


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_a_kill_at_each_crash_point_loses_and_duplicates_nothing(epoxy, spark, tmp_path, expected, point):
    landing, out = landing_with_days(tmp_path), str(tmp_path / "out")
    crashed = epoxy.run_job("events", landing, out, env={"EPOXY_CRASH_AT": point})
    assert crashed.returncode == -signal.SIGKILL, (point, crashed.returncode, crashed.stderr)
    # Nothing of the dead run is visible, unless it had committed (then all of it is, once settled).
    rerun = epoxy.run_job("events", landing, out)
    assert rerun.returncode == 0, rerun.stderr
    runs = epoxy.runs("events")
    assert runs[-1]["JobRunState"] == "FAILED" and "died" in runs[-1]["ErrorMessage"]
    assert records(spark, out) == expected[0]
    write_day(landing, "2026-08-04")
    assert epoxy.run_job("events", landing, out).returncode == 0
    check_consistent(epoxy, spark, landing, out, expected[1])


def test_a_kill_during_orphan_cleanup_is_finished_by_the_next_start(epoxy, spark, tmp_path, expected):
    landing, out = landing_with_days(tmp_path), str(tmp_path / "out")
    assert epoxy.run_job("events", landing, out, env={"EPOXY_CRASH_AT": "manifest"}).returncode == -signal.SIGKILL
    assert any("_temporary" in root for root, _, files in os.walk(out) if files)  # the dead run's staged files
    assert epoxy.run_job("events", landing, out, env={"EPOXY_CRASH_AT": "cleanup"}).returncode == -signal.SIGKILL
    assert epoxy.run_job("events", landing, out).returncode == 0
    assert records(spark, out) == expected[0]


def test_kills_at_random_moments(epoxy, spark, tmp_path):
    """Before each trial a new day lands; a run is killed at a random moment. Once settled, the
    output holds every day it holds exactly once and whole; the last run catches up on all."""
    landing, out = str(tmp_path / "landing"), str(tmp_path / "out")
    rng = random.Random(int(os.environ.get("EPOXY_FAULT_SEED", "14")))
    trials = int(os.environ.get("EPOXY_RANDOM_KILLS", "6"))
    days = []
    for trial in range(trials):
        day = "2026-09-%02d" % (trial + 1) if trial < 28 else "2026-10-%02d" % (trial - 27)
        write_day(landing, day, files=2)
        days.append(day)
        run = epoxy.start_job("events", landing, out)
        time.sleep(rng.uniform(0.0, 0.5))
        try:
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        run.communicate()
        # Any command on the job settles its dead runs. A kill before the first run recorded the
        # job leaves no job at all (under load that can take longer than the earliest kill).
        settled = epoxy("runs", "events", "--json")
        assert settled.returncode == 0 or "not found" in settled.stderr, settled.stderr
        got = records(spark, out)
        assert max(got.values(), default=1) == 1, "a record was published twice"
        per_day = collections.Counter(day for _, day, _ in got)
        assert all(n == 8 for n in per_day.values()), per_day  # each day whole, or absent
    final = epoxy.run_job("events", landing, out)
    assert final.returncode == 0, final.stderr
    got = records(spark, out)
    assert sum(got.values()) == 8 * trials and max(got.values()) == 1


def test_a_failure_before_commit_publishes_nothing_and_the_retry_reads_the_same_delta(epoxy, spark, tmp_path, expected):
    landing, out = landing_with_days(tmp_path), str(tmp_path / "out")
    failed = epoxy.run_job("events", landing, out, "--fail-before-commit", "1")
    assert failed.returncode == 1
    assert visible_files(out) == []
    run = epoxy.runs("events")[0]
    assert run["JobRunState"] == "FAILED" and "failing on purpose" in run["ErrorMessage"]
    assert epoxy.run_job("events", landing, out).returncode == 0
    assert epoxy.files_read("events") == 9
    assert records(spark, out) == expected[0]


def test_max_retries_starts_new_attempts(epoxy, tmp_path):
    landing, out = landing_with_days(tmp_path), str(tmp_path / "out")
    created = epoxy("job", "create", "retried", "--script", epoxy.script, "--max-retries", "2")
    assert created.returncode == 0, created.stderr
    result = epoxy("job", "run", "retried", "--src", landing, "--dst", out, "--fail-before-commit", "1")
    assert result.returncode == 1
    runs = epoxy.runs("retried")
    assert [r["Attempt"] for r in runs] == [2, 1, 0]
    assert runs[0]["PreviousRunId"] == runs[1]["Id"] and runs[0]["Id"].endswith("_attempt_2")
    assert visible_files(out) == []


def test_max_concurrent_runs_one_refuses_the_second_run(epoxy, tmp_path):
    landing, out = landing_with_days(tmp_path), str(tmp_path / "out")
    assert epoxy("job", "create", "events", "--script", epoxy.script).returncode == 0  # MaxConcurrentRuns 1
    runs = [epoxy.start_job("events", landing, out, "--sleep", "2") for _ in range(2)]  # started at once
    results = [r.communicate() + (r.returncode,) for r in runs]
    refused = [err for _, err, code in results if code != 0]
    assert len(refused) == 1 and "ConcurrentRunsExceededException" in refused[0], results
    assert [r["JobRunState"] for r in epoxy.runs("events")] == ["SUCCEEDED"]


def test_two_concurrent_runs_never_both_advance_the_bookmark(epoxy, spark, tmp_path, expected):
    landing, out = landing_with_days(tmp_path), str(tmp_path / "out")
    assert epoxy("job", "create", "events", "--script", epoxy.script, "--max-concurrent-runs", "2").returncode == 0
    runs = [epoxy.start_job("events", landing, out, "--sleep", "1.5") for _ in range(2)]
    results = [r.communicate() + (r.returncode,) for r in runs]
    codes = sorted(code for _, _, code in results)
    assert codes[0] == 0 and codes[1] != 0, results
    loser = [err for _, err, code in results if code != 0][0]
    assert "VersionMismatchException" in loser
    assert records(spark, out) == expected[0]
    assert epoxy.bookmark("events")["Run"] == 1


def test_a_stopped_run_publishes_nothing(epoxy, tmp_path):
    landing, out = landing_with_days(tmp_path), str(tmp_path / "out")
    run = epoxy.start_job("events", landing, out, "--sleep", "30")
    run_id = None
    deadline = time.monotonic() + 60  # the run registers once its interpreter is up, slow on a loaded machine
    while time.monotonic() < deadline:
        listed = epoxy("runs", "events", "--json")
        if listed.returncode == 0 and json.loads(listed.stdout)["JobRuns"]:
            run_id = json.loads(listed.stdout)["JobRuns"][0]["Id"]
            break
        time.sleep(0.05)
    assert run_id
    assert epoxy("run-stop", run_id).returncode == 0
    run.communicate(timeout=60)
    assert epoxy.runs("events")[0]["JobRunState"] == "STOPPED"
    assert visible_files(out) == []


def test_timeout_stops_a_run(epoxy, tmp_path):
    landing, out = landing_with_days(tmp_path), str(tmp_path / "out")
    assert epoxy("job", "create", "slow", "--script", epoxy.script, "--timeout", "1").returncode == 0
    # One minute is Glue's smallest Timeout; EPOXY_TIMEOUT_SCALE shortens every minute for tests.
    result = epoxy("job", "run", "slow", "--src", landing, "--dst", out, "--sleep", "30",
                   "--job-bookmark-option", "job-bookmark-enable", env={"EPOXY_TIMEOUT_SCALE": "0.02"})
    assert result.returncode != 0
    run = epoxy.runs("slow")[0]
    assert run["JobRunState"] == "TIMEOUT" and "Timeout" in run["ErrorMessage"]
    assert visible_files(out) == []
