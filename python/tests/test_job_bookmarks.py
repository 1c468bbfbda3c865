# SPDX-License-Identifier: Apache-2.0
"""Job bookmarks over files: new, processed, rewritten and late files; maxFilesPerRun; renamed
transformation_ctx; pause, replay between two runs, reset and rewind (with and without retracting
outputs); the tutorial's three-CSV story."""
import os
import time

from jobrun import job_script, records, visible_files, write_day


def run_day_by_day(epoxy, landing, out, days):
    """One day lands, one run reads it, for each day; the runs' ids."""
    ids = []
    for day in days:
        write_day(landing, day, files=1)
        assert epoxy.run_job("events", landing, out).returncode == 0
        ids.append(epoxy.runs("events")[0]["Id"])
    return ids


def paths(tmp_path):
    return str(tmp_path / "landing"), str(tmp_path / "out")


def test_new_files_are_read_once_and_a_rerun_reads_nothing(epoxy, spark, tmp_path):
    landing, out = paths(tmp_path)
    write_day(landing, "2026-08-01")
    write_day(landing, "2026-08-02")
    first = epoxy.run_job("events", landing, out)
    assert first.returncode == 0, first.stderr
    assert epoxy.files_read("events") == 6
    assert sum(records(spark, out).values()) == 24
    sink = epoxy.run_details(epoxy.runs("events")[0]["Id"])["Epoxy"]["Sinks"][0]
    assert (sink["RowsRead"], sink["RowsWritten"], sink["RowsDropped"]) == (30, 24, 6)  # one duplicate a file
    again = epoxy.run_job("events", landing, out)
    assert again.returncode == 0, again.stderr
    assert epoxy.files_read("events") == 0
    write_day(landing, "2026-08-03")
    third = epoxy.run_job("events", landing, out)
    assert third.returncode == 0, third.stderr
    assert epoxy.files_read("events") == 3
    got = records(spark, out)
    assert sum(got.values()) == 36 and max(got.values()) == 1
    entry = epoxy.bookmark("events")
    assert entry["Run"] == 3 and entry["Version"] == 3 and '"landing"' in entry["JobBookmark"]
    assert [r["JobRunState"] for r in epoxy.runs("events")] == ["SUCCEEDED"] * 3


def test_a_file_rewritten_in_place_is_read_again_and_named(epoxy, spark, tmp_path):
    landing, out = paths(tmp_path)
    write_day(landing, "2026-08-01", files=2)
    assert epoxy.run_job("events", landing, out).returncode == 0
    target = os.path.join(landing, "2026-08-01", "events-00.json")
    stat = os.stat(target)
    with open(target, "r+") as f:  # same size, other content
        text = f.read()
        f.seek(0)
        f.write(text.replace('"value": 0', '"value": 9'))
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # mtime restored, as `touch -r` does
    assert os.stat(target).st_size == stat.st_size and os.stat(target).st_mtime_ns == stat.st_mtime_ns
    rerun = epoxy.run_job("events", landing, out)
    assert rerun.returncode == 0, rerun.stderr
    assert epoxy.files_read("events") == 1
    assert target in rerun.stderr and "changed since it was processed" in rerun.stderr


def test_a_late_file_with_an_old_mtime_is_read(epoxy, tmp_path):
    landing, out = paths(tmp_path)
    write_day(landing, "2026-08-01", files=2)
    assert epoxy.run_job("events", landing, out).returncode == 0
    write_day(landing, "2026-07-01", files=1)
    late = os.path.join(landing, "2026-07-01", "events-00.json")
    month_ago = time.time() - 30 * 86400
    os.utime(late, (month_ago, month_ago))
    assert epoxy.run_job("events", landing, out).returncode == 0
    assert epoxy.files_read("events") == 1


def test_max_files_per_run_defers_and_loses_nothing(epoxy, spark, tmp_path):
    """20,000 files with the same mtime second, read 1,000 a run: each exactly once."""
    landing, out = paths(tmp_path)
    folder = os.path.join(landing, "flat")
    os.makedirs(folder)
    same_second = int(time.time()) - 60
    for i in range(20000):
        path = os.path.join(folder, "e-%05d.json" % i)
        with open(path, "w") as f:
            f.write('{"event_id": "e%d", "day": "2026-08-01", "value": %d}\n' % (i, i))
        os.utime(path, (same_second, same_second))
    reads = []
    for _ in range(21):
        result = epoxy.run_job("capped", landing, out, "--max-files", "1000")
        assert result.returncode == 0, result.stderr
        reads.append(epoxy.files_read("capped"))
    assert reads == [1000] * 20 + [0]
    got = records(spark, out)
    assert sum(got.values()) == 20000 and max(got.values()) == 1
    details = epoxy.run_details(epoxy.runs("capped")[-1]["Id"])
    assert any(f.startswith("DEFERRED") for f in details["Epoxy"]["Flags"])


def test_a_renamed_transformation_ctx_starts_from_nothing_and_says_so(epoxy, tmp_path):
    landing, out = paths(tmp_path)
    write_day(landing, "2026-08-01", files=2)
    assert epoxy.run_job("events", landing, out).returncode == 0
    renamed = epoxy.run_job("events", landing, out, "--ctx", "landing_v2")
    assert renamed.returncode == 0
    assert epoxy.files_read("events") == 2
    assert "landing_v2 has no state" in renamed.stderr and "landing" in renamed.stderr
    flags = epoxy.run_details(epoxy.runs("events")[0]["Id"])["Epoxy"]["Flags"]
    assert any(f.startswith("REPROCESS: landing_v2") for f in flags), flags


def test_a_read_without_transformation_ctx_is_not_bookmarked_and_warned(epoxy, tmp_path):
    landing, out = paths(tmp_path)
    write_day(landing, "2026-08-01", files=1)
    for _ in range(2):
        result = epoxy.run_job("noctx", landing, out, "--ctx", "none")
        assert result.returncode == 0, result.stderr
    assert "has no transformation_ctx" in result.stderr


def test_pause_reads_the_delta_and_advances_nothing(epoxy, spark, tmp_path):
    landing, out = paths(tmp_path)
    write_day(landing, "2026-08-01", files=2)
    assert epoxy.run_job("events", landing, out).returncode == 0
    write_day(landing, "2026-08-02", files=1)
    before = epoxy.bookmark("events")
    paused = epoxy.run_job("events", landing, str(tmp_path / "paused"), option="job-bookmark-pause")
    assert paused.returncode == 0, paused.stderr
    assert epoxy.files_read("events") == 1
    assert epoxy.bookmark("events") == before
    assert epoxy.run_job("events", landing, out).returncode == 0
    assert epoxy.files_read("events") == 1


def test_replay_between_two_runs_reads_exactly_that_delta(epoxy, spark, tmp_path):
    landing, out = paths(tmp_path)
    ids = run_day_by_day(epoxy, landing, out, ("2026-08-01", "2026-08-02", "2026-08-03"))
    replay = str(tmp_path / "replay")
    result = epoxy.run_job("events", landing, replay, "--job-bookmark-from", ids[0], "--job-bookmark-to", ids[2],
                           option="job-bookmark-pause")
    assert result.returncode == 0, result.stderr
    days = {day for _, day, _ in records(spark, replay)}
    assert days == {"2026-08-02", "2026-08-03"}
    one_sided = epoxy.run_job("events", landing, replay, "--job-bookmark-from", ids[0], option="job-bookmark-pause")
    assert one_sided.returncode != 0 and "Missing option or value" in one_sided.stderr


def test_reset_and_rewind_with_and_without_retracting_outputs(epoxy, spark, tmp_path):
    landing, out = paths(tmp_path)
    ids = run_day_by_day(epoxy, landing, out, ("2026-08-01", "2026-08-02", "2026-08-03"))
    assert sum(records(spark, out).values()) == 12
    # Rewind to after the first run, retracting what the two later runs published: a rerun
    # rebuilds exactly the same output.
    rewind = epoxy("bookmark", "reset", "events", "--run-id", ids[0], "--retract-outputs")
    assert rewind.returncode == 0, rewind.stderr
    assert sum(records(spark, out).values()) == 4
    assert epoxy.run_job("events", landing, out).returncode == 0
    assert epoxy.files_read("events") == 2
    got = records(spark, out)
    assert sum(got.values()) == 12 and max(got.values()) == 1
    # A reset without retracting keeps the outputs (as Glue): the rerun duplicates them.
    assert epoxy("bookmark", "reset", "events").returncode == 0
    assert epoxy.bookmark("events")["Run"] == 0
    assert epoxy.run_job("events", landing, out).returncode == 0
    assert epoxy.files_read("events") == 3
    assert max(records(spark, out).values()) == 2
    # Reset with retraction removes what the one run still known published; the outputs of the
    # runs the earlier reset forgot without retracting stay: the 12 records once.
    assert epoxy("bookmark", "reset", "events", "--retract-outputs").returncode == 0
    got = records(spark, out)
    assert sum(got.values()) == 12 and max(got.values()) == 1


def test_the_tutorial_three_csv_files_then_one_then_none(epoxy, spark, tmp_path):
    landing, out = str(tmp_path / "csv"), str(tmp_path / "csv_out")
    os.makedirs(landing)
    script = tmp_path / "tutorial.py"
    script.write_text(
        job_script("src", "dst") +
        "frame = glue.create_dynamic_frame.from_options('s3', {'paths': [args['src']]}, 'csv',\n"
        "                                               {'withHeader': True}, transformation_ctx='orders')\n"
        "glue.write_dynamic_frame.from_options(frame, 's3', {'path': args['dst']}, 'parquet')\n"
        "job.commit()\n")

    def add(name, rows):
        with open(os.path.join(landing, name), "w") as f:
            f.write("event_id,day,value\n" + "".join("%s,2026-08-01,%d\n" % (r, i) for i, r in enumerate(rows)))

    def run():
        result = epoxy("run", str(script), "--JOB_NAME", "tutorial", "--src", landing, "--dst", out,
                       "--job-bookmark-option", "job-bookmark-enable")
        assert result.returncode == 0, result.stderr
        rows = spark.read.parquet(out).collect() if visible_files(out) else []
        return sorted(r["event_id"] for r in rows)

    add("a.csv", ["a1", "a2"])
    add("b.csv", ["b1"])
    add("c.csv", ["c1", "c2"])
    assert run() == ["a1", "a2", "b1", "c1", "c2"]
    add("d.csv", ["d1"])
    assert run() == ["a1", "a2", "b1", "c1", "c2", "d1"]
    assert run() == ["a1", "a2", "b1", "c1", "c2", "d1"]
    assert epoxy.files_read("tutorial") == 0


def test_a_backfill_replaces_its_range_and_leaves_the_bookmark_alone(epoxy, spark, tmp_path):
    """Worked example 10: a bookmark-disabled run over one day, written with dynamic partition
    overwrite, replaces that day's output instead of duplicating it; a crash in it changes nothing."""
    landing, out = paths(tmp_path)
    for day in ("2026-08-01", "2026-08-02", "2026-08-03"):
        write_day(landing, day, files=1)
    assert epoxy.run_job("events", landing, out).returncode == 0
    before = records(spark, out)
    bookmark = epoxy.bookmark("events")
    script = tmp_path / "backfill.py"
    script.write_text(
        job_script("src", "dst", "day") +
        "spark = glue.spark_session\n"
        "df = spark.read.json(args['src'] + '/' + args['day']).dropDuplicates(['event_id'])\n"
        "df.write.mode('overwrite').option('partitionOverwriteMode', 'dynamic').partitionBy('day').parquet(args['dst'])\n"
        "job.commit()\n")

    def backfill(env=None):
        return epoxy("run", str(script), "--JOB_NAME", "events", "--src", landing, "--dst", out, "--day", "2026-08-02",
                     "--job-bookmark-option", "job-bookmark-disable", env=env)

    assert backfill(env={"EPOXY_CRASH_AT": "publish"}).returncode != 0
    assert backfill().returncode == 0, "backfill failed"
    assert backfill().returncode == 0
    assert records(spark, out) == before
    assert epoxy.bookmark("events") == bookmark
    days = sorted(os.listdir(out))
    assert days == ["day=2026-08-01", "day=2026-08-02", "day=2026-08-03"]
