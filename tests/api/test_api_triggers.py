# SPDX-License-Identifier: Apache-2.0
"""Triggers inside epoxy serve, on a test clock that the tests move forward (they never wait for a
cron minute): a crawler on a schedule, a job on its success, a job on ALL of two predecessors
(not on a failed one), schedules that fell due while time jumped (fired once, late), and a
server killed between firing and recording that fires nothing twice after its restart."""
import json
import os
import signal
import subprocess
import time
import urllib.request

import pytest

from conftest import Server, client, error_code, wait_for


def advance(server, seconds):
    request = urllib.request.Request(server.url + "/epoxy-test/clock", data=('{"AdvanceSeconds": %d}' % seconds).encode(),
                                     method="POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 200


@pytest.fixture
def clocked(tmp_path):
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    s = Server(binary, str(tmp_path / "home"), "--allow-reset", "--test-clock").start()
    yield s
    s.stop()


def make_job(glue, tmp_path, name, code="print('ok')\n", retries=0):
    script = tmp_path / (name + ".py")
    script.write_text(code)
    glue.create_job(Name=name, Role="epoxy", MaxRetries=retries,
                    Command={"Name": "glueetl", "ScriptLocation": str(script)})


def runs(glue, job):
    return glue.get_job_runs(JobName=job)["JobRuns"]


def finished(glue, job, count):
    """Waits until `job` has `count` runs, all finished; returns them."""
    def done():
        r = runs(glue, job)
        return r if len(r) == count and all(x["JobRunState"] not in ("STARTING", "RUNNING", "STOPPING") for x in r) \
            else None
    return wait_for(done, what="%d finished run(s) of %s" % (count, job))


def test_schedule_then_conditions(clocked, tmp_path):
    glue = client(clocked)
    folder = tmp_path / "lake" / "orders"
    os.makedirs(folder)
    (folder / "a.csv").write_text("id,amount\n1,10\n")
    glue.create_crawler(Name="orders", Role="epoxy", DatabaseName="lake", Targets={"S3Targets": [{"Path": str(folder)}]})
    make_job(glue, tmp_path, "load")
    make_job(glue, tmp_path, "audit")
    make_job(glue, tmp_path, "report")
    # flaky fails while its marker is absent
    marker = tmp_path / "flaky-may-succeed"
    make_job(glue, tmp_path, "flaky", "import os, sys\nsys.exit(0 if os.path.exists(%r) else 1)\n" % str(marker))
    glue.create_trigger(Name="nightly", Type="SCHEDULED", Schedule="cron(0 2 * * ? *)",
                        Actions=[{"CrawlerName": "orders"}], StartOnCreation=True)
    glue.create_trigger(Name="after-crawl", Type="CONDITIONAL", StartOnCreation=True,
                        Predicate={"Conditions": [{"LogicalOperator": "EQUALS", "CrawlerName": "orders",
                                                   "CrawlState": "SUCCEEDED"}]},
                        Actions=[{"JobName": "load", "Arguments": {"--day": "today"}}])
    glue.create_trigger(Name="both", Type="CONDITIONAL", StartOnCreation=True,
                        Predicate={"Logical": "AND", "Conditions": [
                            {"LogicalOperator": "EQUALS", "JobName": "load", "State": "SUCCEEDED"},
                            {"LogicalOperator": "EQUALS", "JobName": "flaky", "State": "SUCCEEDED"}]},
                        Actions=[{"JobName": "report"}])
    assert glue.get_trigger(Name="nightly")["Trigger"]["State"] == "ACTIVATED"
    assert glue.list_triggers(DependentJobName="report")["TriggerNames"] == ["both"]

    advance(clocked, 86400)  # a day later: 02:00 has passed once
    crawl = wait_for(lambda: [c for c in glue.list_crawls(CrawlerName="orders")["Crawls"] if c["State"] != "RUNNING"],
                     what="the scheduled crawl")
    assert len(crawl) == 1 and crawl[0]["State"] == "COMPLETED"
    load = finished(glue, "load", 1)
    assert load[0]["JobRunState"] == "SUCCEEDED" and load[0]["TriggerName"] == "after-crawl"
    assert load[0]["Arguments"]["--day"] == "today"
    # flaky fails: the AND trigger does not fire.
    glue.start_job_run(JobName="flaky")
    assert finished(glue, "flaky", 1)[0]["JobRunState"] == "FAILED"
    time.sleep(2.5)  # two looks of the scheduler
    assert runs(glue, "report") == []
    # flaky succeeds: now both predecessors have, once.
    marker.write_text("")
    glue.start_job_run(JobName="flaky")
    finished(glue, "flaky", 2)
    report = finished(glue, "report", 1)
    assert report[0]["TriggerName"] == "both"
    time.sleep(2.5)
    assert len(runs(glue, "report")) == 1  # each predecessor run counted once

    # Five days pass at once: the schedule fires once, late, not five times.
    advance(clocked, 5 * 86400)
    wait_for(lambda: len(glue.list_crawls(CrawlerName="orders")["Crawls"]) == 2, what="the late crawl")
    shown = subprocess.run([os.environ["EPOXY_BIN"], "trigger", "show", "nightly", "--json"], capture_output=True,
                           text=True, env=dict(os.environ, EPOXY_HOME=clocked.home), timeout=60)
    fired = json.loads(shown.stdout)["Scheduler"]
    assert fired["Fires"] == 2 and fired["LastFire"]["LateSeconds"] > 3 * 86400  # once, and late by days
    # A stopped trigger fires no more.
    glue.stop_trigger(Name="nightly")
    assert glue.get_trigger(Name="nightly")["Trigger"]["State"] == "DEACTIVATED"
    wait_for(lambda: glue.get_crawler(Name="orders")["Crawler"]["State"] == "READY", what="the crawl to end")
    advance(clocked, 3 * 86400)
    time.sleep(1.5)
    assert len(glue.list_crawls(CrawlerName="orders")["Crawls"]) == 2


def test_a_crawler_with_a_schedule_of_its_own(clocked, tmp_path):
    glue = client(clocked)
    folder = tmp_path / "data"
    os.makedirs(folder)
    (folder / "a.json").write_text('{"id": 1}\n')
    glue.create_crawler(Name="own", Role="epoxy", DatabaseName="db", Targets={"S3Targets": [{"Path": str(folder)}]},
                        Schedule="cron(30 * * * ? *)")
    time.sleep(1.5)  # the scheduler sees the crawler's schedule
    advance(clocked, 3600)
    wait_for(lambda: [c for c in glue.list_crawls(CrawlerName="own")["Crawls"] if c["State"] == "COMPLETED"],
             what="the crawler's own schedule")
    assert len(glue.list_crawls(CrawlerName="own")["Crawls"]) == 1


def test_on_demand_and_bad_triggers(clocked, tmp_path):
    glue = client(clocked)
    make_job(glue, tmp_path, "once")
    glue.create_trigger(Name="by-hand", Type="ON_DEMAND", Actions=[{"JobName": "once"}])
    assert glue.get_trigger(Name="by-hand")["Trigger"]["State"] == "CREATED"
    glue.start_trigger(Name="by-hand")
    assert finished(glue, "once", 1)[0]["TriggerName"] == "by-hand"
    assert error_code(lambda: glue.create_trigger(Name="x", Type="SCHEDULED", Schedule="cron(0 12 * * * *)",
                                                  Actions=[{"JobName": "once"}]))[0] == "InvalidInputException"
    assert error_code(lambda: glue.create_trigger(Name="x", Type="ON_DEMAND",
                                                  Actions=[{"JobName": "nope"}]))[0] == "EntityNotFoundException"
    assert error_code(lambda: glue.create_trigger(Name="x", Type="CONDITIONAL", Actions=[{"JobName": "once"}],
                                                  Predicate={"Conditions": []}))[0] == "InvalidInputException"
    assert error_code(lambda: glue.create_trigger(Name="by-hand", Type="ON_DEMAND",
                                                  Actions=[{"JobName": "once"}]))[0] == "AlreadyExistsException"
    updated = glue.update_trigger(Name="by-hand", TriggerUpdate={"Description": "by hand"})["Trigger"]
    assert updated["Description"] == "by hand"
    assert glue.batch_get_triggers(TriggerNames=["by-hand", "nope"])["TriggersNotFound"] == ["nope"]
    assert glue.delete_trigger(Name="by-hand")["Name"] == "by-hand"
    assert error_code(lambda: glue.get_trigger(Name="by-hand"))[0] == "EntityNotFoundException"


def test_a_workflow_runs_its_graph(clocked, tmp_path):
    glue = client(clocked)
    make_job(glue, tmp_path, "extract", "import sys\nprint(sys.argv)\n")
    make_job(glue, tmp_path, "transform")
    glue.create_workflow(Name="etl", DefaultRunProperties={"day": "2026-12-03"})
    glue.create_trigger(Name="etl-start", WorkflowName="etl", Type="ON_DEMAND", Actions=[{"JobName": "extract"}])
    glue.create_trigger(Name="etl-next", WorkflowName="etl", Type="CONDITIONAL", StartOnCreation=True,
                        Predicate={"Conditions": [{"LogicalOperator": "EQUALS", "JobName": "extract",
                                                   "State": "SUCCEEDED"}]},
                        Actions=[{"JobName": "transform"}])
    run_id = glue.start_workflow_run(Name="etl")["RunId"]
    assert run_id.startswith("wr_")
    run = wait_for(lambda: (lambda r: r if r["Status"] == "COMPLETED" else None)(
        glue.get_workflow_run(Name="etl", RunId=run_id)["Run"]), what="the workflow run")
    assert run["Statistics"]["SucceededActions"] == 2 and run["Statistics"]["TotalActions"] == 2
    extract = runs(glue, "extract")[0]
    assert extract["Arguments"]["--WORKFLOW_RUN_ID"] == run_id and extract["Arguments"]["--WORKFLOW_NAME"] == "etl"
    graph = glue.get_workflow(Name="etl", IncludeGraph=True)["Workflow"]["Graph"]
    assert sorted((n["Type"], n["Name"]) for n in graph["Nodes"]) == [
        ("JOB", "extract"), ("JOB", "transform"), ("TRIGGER", "etl-next"), ("TRIGGER", "etl-start")]
    assert len(graph["Edges"]) == 3
    run_graph = glue.get_workflow_run(Name="etl", RunId=run_id, IncludeGraph=True)["Run"]["Graph"]
    jobs = {n["Name"]: n["JobDetails"]["JobRuns"] for n in run_graph["Nodes"] if n["Type"] == "JOB"}
    assert [r["JobRunState"] for r in jobs["transform"]] == ["SUCCEEDED"]
    # Resumed from transform: only it runs again.
    node = next(n["UniqueId"] for n in graph["Nodes"] if n["Name"] == "transform")
    resumed = glue.resume_workflow_run(Name="etl", RunId=run_id, NodeIds=[node])["RunId"]
    again = wait_for(lambda: (lambda r: r if r["Status"] == "COMPLETED" else None)(
        glue.get_workflow_run(Name="etl", RunId=resumed)["Run"]), what="the resumed run")
    assert again["PreviousRunId"] == run_id and again["Statistics"]["TotalActions"] == 1
    assert len(runs(glue, "extract")) == 1 and len(runs(glue, "transform")) == 2
    assert error_code(lambda: glue.resume_workflow_run(Name="etl", RunId=run_id, NodeIds=["wnode_nope"]))[0] == \
        "InvalidInputException"


def test_a_predecessor_that_ends_while_the_server_is_down_fires_once(tmp_path):
    """The predecessor runs (epoxy job run) while no server runs; the restarted server's scheduler
    counts it once, and a second restart does not count it again."""
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    home = str(tmp_path / "home")
    server = Server(binary, home, "--allow-reset").start()
    glue = client(server)
    make_job(glue, tmp_path, "upstream")
    make_job(glue, tmp_path, "downstream")
    glue.create_trigger(Name="follow", Type="CONDITIONAL", StartOnCreation=True,
                        Predicate={"Conditions": [{"LogicalOperator": "EQUALS", "JobName": "upstream",
                                                   "State": "SUCCEEDED"}]},
                        Actions=[{"JobName": "downstream"}])
    server.stop()
    ran = subprocess.run([binary, "job", "run", "upstream"], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, EPOXY_HOME=home))
    assert ran.returncode == 0, ran.stderr
    for _ in range(2):
        server = Server(binary, home, "--allow-reset").start()
        try:
            glue = client(server)
            done = finished(glue, "downstream", 1)
            assert done[0]["TriggerName"] == "follow"
            time.sleep(2.5)
            assert len(runs(glue, "downstream")) == 1
        finally:
            server.stop()


def test_a_firing_is_not_repeated_after_a_crash(tmp_path):
    """The server dies (a crash point) after starting a trigger's run and before recording that it
    fired; the restarted server fires nothing twice."""
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    home = str(tmp_path / "home")
    server = Server(binary, home, "--allow-reset", "--test-clock")
    os.environ["EPOXY_CRASH_AT"] = "trigger-fired"
    try:
        server.start()
    finally:
        del os.environ["EPOXY_CRASH_AT"]
    glue = client(server)
    make_job(glue, tmp_path, "first")
    make_job(glue, tmp_path, "second", retries=1)
    glue.create_trigger(Name="chain", Type="CONDITIONAL", StartOnCreation=True,
                        Predicate={"Conditions": [{"LogicalOperator": "EQUALS", "JobName": "first",
                                                   "State": "SUCCEEDED"}]},
                        Actions=[{"JobName": "second"}])
    glue.start_job_run(JobName="first")
    server.process.wait(timeout=90)  # the crash point kills it once the trigger fires
    assert server.process.returncode == -signal.SIGKILL
    server = Server(binary, home, "--allow-reset", "--test-clock").start()
    try:
        glue = client(server)
        time.sleep(2.5)  # the restarted scheduler looks again
        second = wait_for(lambda: (lambda r: r if r and all(x["JobRunState"] not in ("RUNNING", "STARTING")
                                                            for x in r) else None)(runs(glue, "second")),
                          what="the second job to settle")
        # One firing: its run died with the server and was retried once, as MaxRetries allows.
        assert sorted(r["Id"].split("_attempt_")[0] for r in second) == [second[-1]["Id"]] * len(second)
        assert second[0]["JobRunState"] == "SUCCEEDED" and len(second) == 2
    finally:
        server.stop()


def _moto(tmp_path):
    """moto_server on a free loopback port (S3 for the EVENT test), or a skip."""
    import shutil
    import socket
    if shutil.which("moto_server") is None:
        pytest.skip("moto_server is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL,
                               stderr=open(str(tmp_path / "moto.log"), "w"))
    url = "http://127.0.0.1:%d" % port
    wait_for(lambda: subprocess.run(["curl", "-s", "-o", "/dev/null", url], check=False).returncode == 0, 30,
             "moto_server")
    return process, url


BOOKMARKED = """import sys
from awsglue.context import GlueContext
from awsglue.job import Job
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
args = getResolvedOptions(sys.argv, ['JOB_NAME', 'src', 'dst', 'EVENT_OBJECTS'])
glue = GlueContext(SparkContext.getOrCreate())
job = Job(glue)
job.init(args['JOB_NAME'], args)
print('event objects:', args['EVENT_OBJECTS'])
frame = glue.create_dynamic_frame.from_options('s3', {'paths': [args['src']]}, 'json', transformation_ctx='landing')
print('rows read:', frame.count())
glue.write_dynamic_frame.from_options(frame, 's3', {'path': args['dst']}, 'parquet')
job.commit()
"""


@pytest.mark.parametrize("where", ["local", "s3"])
def test_an_event_trigger_batches_new_files(tmp_path, where):
    """25 files arrive under the watched place: BatchSize 10 and BatchWindow 60 s give two full
    batches and one on the window; with bookmarks every file is read exactly once."""
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    extra_env, moto = {}, None
    if where == "s3":
        moto, moto_url = _moto(tmp_path)
        extra_env = {"EPOXY_S3_ENDPOINT": moto_url, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                     "AWS_REGION": "us-east-1"}
        import boto3
        s3 = boto3.client("s3", endpoint_url=moto_url, region_name="us-east-1", aws_access_key_id="test",
                          aws_secret_access_key="test")
        s3.create_bucket(Bucket="landing")
        landing = "s3://landing/events/"

        def put(name, body):
            s3.put_object(Bucket="landing", Key="events/" + name, Body=body.encode())
    else:
        landing = str(tmp_path / "landing") + "/"
        os.makedirs(landing)

        def put(name, body):
            with open(os.path.join(landing, name), "w") as f:
                f.write(body)
    saved = {k: os.environ.get(k) for k in extra_env}
    os.environ.update(extra_env)
    try:
        server = Server(binary, str(tmp_path / "home"), "--allow-reset", "--test-clock").start()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        glue = client(server)
        script = tmp_path / "ingest.py"
        script.write_text(BOOKMARKED)
        glue.create_job(Name="ingest", Role="epoxy", Command={"Name": "glueetl", "ScriptLocation": str(script)},
                        DefaultArguments={"--job-bookmark-option": "job-bookmark-enable", "--src": landing,
                                          "--dst": str(tmp_path / "out"), "--EVENT_OBJECTS": "[]"})
        put("before.json", '{"id": -1}\n')  # there before the trigger: not an event, read once all the same
        assert error_code(lambda: glue.create_trigger(Name="x", Type="EVENT", Actions=[{"JobName": "ingest"}]))[0] == \
            "InvalidInputException"
        glue.create_trigger(Name="arrivals", Type="EVENT", StartOnCreation=True, Actions=[{"JobName": "ingest"}],
                            EventBatchingCondition={"BatchSize": 10, "BatchWindow": 60},
                            Tags={"epoxy:watch-path": landing})
        for i in range(25):
            put("e%02d.json" % i, '{"id": %d}\n' % i)

        def states():
            return [r["JobRunState"] for r in runs(glue, "ingest")]
        # Two full batches, one after the other (the job runs one at a time).
        wait_for(lambda: states().count("SUCCEEDED") == 2, 180, "two runs on full batches")
        time.sleep(2.5)
        assert len(runs(glue, "ingest")) == 2  # the 5 left wait for their window
        advance(server, 61)
        wait_for(lambda: states().count("SUCCEEDED") == 3, 120, "the run on the window")
        all_runs = runs(glue, "ingest")
        assert len(all_runs) == 3 and all(r["TriggerName"] == "arrivals" for r in all_runs)
        batches = [json.loads(r["Arguments"]["--EVENT_OBJECTS"]) for r in reversed(all_runs)]
        assert [len(b) for b in batches] == [10, 10, 5]
        assert sorted(o.rsplit("/", 1)[-1] for b in batches for o in b) == ["e%02d.json" % i for i in range(25)]
        logs = [open(os.path.join(server.home, "logs", "ingest", r["Id"] + ".log")).read() for r in all_runs]
        read = sum(int(line.split(":")[1]) for log in logs for line in log.splitlines() if line.startswith("rows read:"))
        assert read == 26  # every file once, the one there before included
        assert all("event objects:" in log and "--EVENT_OBJECTS" in log.splitlines()[0] for log in logs)
    finally:
        server.stop()
        if moto:
            moto.terminate()
            moto.wait(10)


def test_the_cli_and_the_scheduler_alone(tmp_path):
    """`epoxy trigger`, `epoxy workflow` and `epoxy scheduler`, without a server: a workflow of an
    ON_DEMAND start and a conditional step, started from the CLI and drawn with its states."""
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    env = dict(os.environ, EPOXY_HOME=str(tmp_path / "home"))

    def epoxy(*args):
        result = subprocess.run([binary, *args], capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 0, result.stderr
        return result.stdout
    (tmp_path / "j.py").write_text("print('ran')\n")
    epoxy("job", "create", "extract", "--script", str(tmp_path / "j.py"))
    epoxy("job", "create", "load", "--script", str(tmp_path / "j.py"))
    epoxy("workflow", "create", "daily")
    epoxy("trigger", "create", "go", "--definition",
          '{"Type": "ON_DEMAND", "WorkflowName": "daily", "Actions": [{"JobName": "extract"}]}')
    epoxy("trigger", "create", "next", "--definition",
          '{"Type": "CONDITIONAL", "WorkflowName": "daily", "StartOnCreation": true, "Predicate": {"Conditions": '
          '[{"LogicalOperator": "EQUALS", "JobName": "extract", "State": "SUCCEEDED"}]}, '
          '"Actions": [{"JobName": "load"}]}')
    assert "next  CONDITIONAL  ACTIVATED" in epoxy("trigger", "list")
    scheduler = subprocess.Popen([binary, "scheduler"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=env)
    try:
        assert "running" in scheduler.stdout.readline()
        epoxy("workflow", "start", "daily")
        drawn = wait_for(lambda: (lambda out: out if "COMPLETED" in out.splitlines()[0] else None)(
            epoxy("workflow", "show", "daily")), what="the workflow run")
        assert "[trigger go] ON_DEMAND" in drawn and "-> [job extract] SUCCEEDED" in drawn
        assert "-> [job load] SUCCEEDED" in drawn
    finally:
        scheduler.send_signal(signal.SIGTERM)
        scheduler.wait(timeout=30)
    assert scheduler.returncode == 0
    epoxy("trigger", "delete", "next")
    assert "next" not in epoxy("trigger", "list")
