# SPDX-License-Identifier: Apache-2.0
"""Crawlers, classifiers, jobs, runs and bookmarks through `epoxy serve`, driven by the aws CLI and
boto3: crawls that really crawl a local folder, runs that really run a Glue script in worker
processes, bookmarks read and reset, and runs that survive a killed worker or a killed server."""
import json
import os
import signal
import subprocess
import time

import pytest

from conftest import Server, aws, client, error_code, wait_for  # noqa: F401 (the server fixture)


def write_csv(folder, name, rows):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as f:
        f.write("order_id,amount\n" + "".join("%d,%d\n" % (r, r * 10) for r in rows))


SCRIPT = """import sys
from awsglue.context import GlueContext
from awsglue.job import Job
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
args = getResolvedOptions(sys.argv, ['JOB_NAME', 'src', 'dst'])
glue = GlueContext(SparkContext.getOrCreate())
job = Job(glue)
job.init(args['JOB_NAME'], args)
frame = glue.create_dynamic_frame.from_options('s3', {'paths': [args['src']]}, 'csv', {'withHeader': True},
                                               transformation_ctx='orders')
print('rows read:', frame.count())
glue.write_dynamic_frame.from_options(frame, 's3', {'path': args['dst']}, 'parquet')
job.commit()
"""


def test_a_crawler_crawls_a_local_folder(server, tmp_path):
    data = tmp_path / "lake" / "orders"
    for day in ("2026-08-01", "2026-08-02"):
        write_csv(str(data / ("day=" + day)), "part-0.csv", range(5))
    targets = json.dumps({"S3Targets": [{"Path": "file://" + str(data)}]})
    result = aws(server, "create-crawler", "--name", "lake", "--role", "epoxy", "--database-name", "lake",
                 "--targets", targets, "--tags", "team=data")
    assert result.returncode == 0, result.stderr
    assert aws(server, "start-crawler", "--name", "lake").returncode == 0

    def ready():
        crawler = json.loads(aws(server, "get-crawler", "--name", "lake").stdout)["Crawler"]
        return crawler if crawler["State"] == "READY" and "LastCrawl" in crawler else None
    crawler = wait_for(ready, what="the crawl to end")
    assert crawler["LastCrawl"]["Status"] == "SUCCEEDED", crawler
    glue = client(server)
    table = glue.get_table(DatabaseName="lake", Name="orders")["Table"]
    assert [k["Name"] for k in table["PartitionKeys"]] == ["day"]
    assert table["Parameters"]["classification"] == "csv"
    assert len(glue.get_partitions(DatabaseName="lake", TableName="orders")["Partitions"]) == 2
    crawls = glue.list_crawls(CrawlerName="lake")["Crawls"]
    assert len(crawls) == 1 and crawls[0]["State"] == "COMPLETED"
    assert json.loads(crawls[0]["Summary"])["TablesCreated"] == 1
    metrics = glue.get_crawler_metrics(CrawlerNameList=["lake"])["CrawlerMetricsList"][0]
    assert metrics["TablesCreated"] == 1 and metrics["LastRuntimeSeconds"] >= 0
    assert glue.list_crawlers(Tags={"team": "data"})["CrawlerNames"] == ["lake"]
    assert glue.list_crawlers(Tags={"team": "other"})["CrawlerNames"] == []
    assert glue.batch_get_crawlers(CrawlerNames=["lake", "nope"])["CrawlersNotFound"] == ["nope"]
    assert error_code(lambda: glue.stop_crawler(Name="lake"))[0] == "CrawlerNotRunningException"
    # A new day: a second crawl adds its partition.
    write_csv(str(data / "day=2026-08-03"), "part-0.csv", range(3))
    glue.start_crawler(Name="lake")
    wait_for(lambda: len(glue.list_crawls(CrawlerName="lake")["Crawls"]) == 2 and
             glue.get_crawler(Name="lake")["Crawler"]["State"] == "READY", what="the second crawl")
    assert len(glue.get_partitions(DatabaseName="lake", TableName="orders")["Partitions"]) == 3
    glue.update_crawler(Name="lake", Description="the lake", Schedule="cron(0 2 * * ? *)")
    got = glue.get_crawler(Name="lake")["Crawler"]
    assert got["Description"] == "the lake" and got["Version"] == 2
    assert got["Schedule"] == {"ScheduleExpression": "cron(0 2 * * ? *)", "State": "SCHEDULED"}
    glue.delete_crawler(Name="lake")
    assert error_code(lambda: glue.get_crawler(Name="lake")) == ("EntityNotFoundException", "Crawler lake not found.")


def test_a_crawl_that_cannot_run_fails_with_its_reason(server, tmp_path):
    glue = client(server)
    glue.create_crawler(Name="broken", Role="epoxy", Targets={"S3Targets": [{"Path": str(tmp_path)}]})
    glue.start_crawler(Name="broken")  # answered at once: the crawl fails on its own
    wait_for(lambda: glue.get_crawler(Name="broken")["Crawler"].get("LastCrawl", {}).get("Status") == "FAILED",
             what="the crawl to fail")
    crawl = glue.list_crawls(CrawlerName="broken")["Crawls"][0]
    assert crawl["State"] == "FAILED" and "DatabaseName" in crawl["ErrorMessage"]


def test_classifiers(server):
    glue = client(server)
    glue.create_classifier(CsvClassifier={"Name": "pipes", "Delimiter": "|", "ContainsHeader": "PRESENT"})
    got = glue.get_classifier(Name="pipes")["Classifier"]["CsvClassifier"]
    assert got["Delimiter"] == "|" and got["Version"] == 1
    glue.update_classifier(CsvClassifier={"Name": "pipes", "Delimiter": ";"})
    got = glue.get_classifier(Name="pipes")["Classifier"]["CsvClassifier"]
    assert got["Delimiter"] == ";" and got["ContainsHeader"] == "PRESENT" and got["Version"] == 2
    assert error_code(lambda: glue.create_classifier(CsvClassifier={"Name": "pipes", "Delimiter": "|"}))[0] == \
        "AlreadyExistsException"
    assert error_code(lambda: glue.create_classifier(GrokClassifier={"Name": "g", "Classification": "x",
                                                                     "GrokPattern": "%{NOPE:x}"}))[0] == \
        "InvalidInputException"
    assert [c["CsvClassifier"]["Name"] for c in glue.get_classifiers()["Classifiers"]] == ["pipes"]
    glue.delete_classifier(Name="pipes")
    assert glue.get_classifiers()["Classifiers"] == []


def create_job(glue, tmp_path, name="orders", script=SCRIPT, **extra):
    path = tmp_path / (name + ".py")
    path.write_text(script)
    glue.create_job(Name=name, Role="epoxy", Command={"Name": "glueetl", "ScriptLocation": "file://" + str(path)},
                    DefaultArguments={"--job-bookmark-option": "job-bookmark-enable",
                                      "--src": str(tmp_path / "landing"), "--dst": str(tmp_path / "out")},
                    **extra)


def finished_run(glue, job, run_id, seconds=180):
    def done():
        run = glue.get_job_run(JobName=job, RunId=run_id)["JobRun"]
        return run if run["JobRunState"] not in ("STARTING", "RUNNING", "STOPPING", "WAITING") else None
    return wait_for(done, seconds, "run %s to finish" % run_id)


def test_job_runs_and_bookmarks(server, tmp_path):
    glue = client(server)
    write_csv(str(tmp_path / "landing"), "a.csv", range(4))
    create_job(glue, tmp_path, Tags={"team": "data"})
    assert glue.get_job(JobName="orders")["Job"]["Command"]["ScriptLocation"].startswith("file://")
    assert glue.list_jobs(Tags={"team": "data"})["JobNames"] == ["orders"]
    assert error_code(lambda: glue.get_job_bookmark(JobName="orders"))[0] == "EntityNotFoundException"
    first = glue.start_job_run(JobName="orders")["JobRunId"]
    run = finished_run(glue, "orders", first)
    assert run["JobRunState"] == "SUCCEEDED", run
    entry = glue.get_job_bookmark(JobName="orders")["JobBookmarkEntry"]
    assert entry["Version"] == 1 and entry["RunId"] == first
    log = open(os.path.join(server.home, "logs", "orders", first + ".log")).read()
    assert "rows read: 4" in log

    write_csv(str(tmp_path / "landing"), "b.csv", range(10, 13))
    result = aws(server, "start-job-run", "--job-name", "orders")
    assert result.returncode == 0, result.stderr
    second = json.loads(result.stdout)["JobRunId"]
    assert finished_run(glue, "orders", second)["JobRunState"] == "SUCCEEDED"
    assert "rows read: 3" in open(os.path.join(server.home, "logs", "orders", second + ".log")).read()
    runs = glue.get_job_runs(JobName="orders", MaxResults=1)
    assert [r["Id"] for r in runs["JobRuns"]] == [second] and "NextToken" in runs
    assert [r["Id"] for r in glue.get_job_runs(JobName="orders", NextToken=runs["NextToken"])["JobRuns"]] == [first]

    # Rewound to the first run: the next run reads b.csv again, and only it.
    entry = glue.reset_job_bookmark(JobName="orders", RunId=first)["JobBookmarkEntry"]
    assert entry["RunId"] == first
    third = glue.start_job_run(JobName="orders")["JobRunId"]
    assert finished_run(glue, "orders", third)["JobRunState"] == "SUCCEEDED"
    assert "rows read: 3" in open(os.path.join(server.home, "logs", "orders", third + ".log")).read()
    # Reset: everything again.
    result = aws(server, "reset-job-bookmark", "--job-name", "orders")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["JobBookmarkEntry"]["JobBookmark"] == "{}"
    fourth = glue.start_job_run(JobName="orders")["JobRunId"]
    assert finished_run(glue, "orders", fourth)["JobRunState"] == "SUCCEEDED"
    assert "rows read: 7" in open(os.path.join(server.home, "logs", "orders", fourth + ".log")).read()

    assert error_code(lambda: glue.get_job_run(JobName="orders", RunId="jr_nope"))[0] == "EntityNotFoundException"
    assert error_code(lambda: glue.start_job_run(JobName="nope"))[0] == "EntityNotFoundException"
    glue.update_job(JobName="orders", JobUpdate={"Role": "epoxy", "Command": {"Name": "glueetl",
                                                                              "ScriptLocation": "/elsewhere.py"}})
    assert glue.get_job(JobName="orders")["Job"]["Command"]["ScriptLocation"] == "/elsewhere.py"
    assert glue.batch_get_jobs(JobNames=["orders", "nope"])["JobsNotFound"] == ["nope"]
    assert glue.delete_job(JobName="orders")["JobName"] == "orders"
    assert glue.delete_job(JobName="orders")["JobName"] == "orders"  # as Glue: no error


def test_a_missing_script_fails_the_run_and_concurrency_is_enforced(server, tmp_path):
    glue = client(server)
    glue.create_job(Name="ghost", Role="epoxy", Command={"Name": "glueetl", "ScriptLocation": str(tmp_path / "no.py")})
    run = finished_run(glue, "ghost", glue.start_job_run(JobName="ghost")["JobRunId"])
    assert run["JobRunState"] == "FAILED" and "no script at" in run["ErrorMessage"]
    create_job(glue, tmp_path, name="sleepy", script="import time\ntime.sleep(300)\n")
    started = glue.start_job_run(JobName="sleepy")["JobRunId"]
    code, message = error_code(lambda: glue.start_job_run(JobName="sleepy"))
    assert code == "ConcurrentRunsExceededException", message
    answer = glue.batch_stop_job_run(JobName="sleepy", JobRunIds=[started, "jr_unknown"])
    assert [s["JobRunId"] for s in answer["SuccessfulSubmissions"]] == [started]
    assert answer["Errors"][0]["JobRunId"] == "jr_unknown"
    assert finished_run(glue, "sleepy", started, 60)["JobRunState"] == "STOPPED"


# A script that hangs on its first attempt and succeeds on the next (a marker file tells them apart).
FLAKY = """import os, sys, time
marker = sys.argv[sys.argv.index('--marker') + 1]
if not os.path.exists(marker):
    open(marker, 'w').close()
    time.sleep(300)
print('second attempt')
"""


def worker_pids(run_id):
    out = subprocess.run(["pgrep", "-f", "run-worker " + run_id], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def test_a_killed_worker_is_marked_failed_and_retried(server, tmp_path):
    glue = client(server)
    create_job(glue, tmp_path, name="flaky", script=FLAKY, MaxRetries=1)
    run_id = glue.start_job_run(JobName="flaky", Arguments={"--marker": str(tmp_path / "marker")})["JobRunId"]
    wait_for(lambda: os.path.exists(tmp_path / "marker") and worker_pids(run_id), what="the first attempt")
    for pid in worker_pids(run_id):
        os.kill(pid, signal.SIGKILL)
    run = finished_run(glue, "flaky", run_id, 60)
    assert run["JobRunState"] == "FAILED" and "process" in run["ErrorMessage"]
    retry = finished_run(glue, "flaky", run_id + "_attempt_1")
    assert retry["JobRunState"] == "SUCCEEDED" and retry["Attempt"] == 1 and retry["PreviousRunId"] == run_id


def test_a_run_the_server_died_under_is_failed_and_retried_at_restart(tmp_path):
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    server = Server(binary, str(tmp_path / "home")).start()
    try:
        glue = client(server)
        create_job(glue, tmp_path, name="flaky", script=FLAKY, MaxRetries=1)
        run_id = glue.start_job_run(JobName="flaky", Arguments={"--marker": str(tmp_path / "marker")})["JobRunId"]
        wait_for(lambda: os.path.exists(tmp_path / "marker"), what="the first attempt")
        server.stop(signal.SIGKILL)
        wait_for(lambda: not worker_pids(run_id), 30, "the worker to die with the server")
        server = Server(binary, server.home)
        server.start()
        glue = client(server)
        run = glue.get_job_run(JobName="flaky", RunId=run_id)["JobRun"]
        assert run["JobRunState"] == "FAILED", run
        retry = finished_run(glue, "flaky", run_id + "_attempt_1")
        assert retry["JobRunState"] == "SUCCEEDED"
    finally:
        server.stop()


def test_functions_and_column_statistics(server):
    glue = client(server)
    glue.create_database(DatabaseInput={"Name": "db"})
    glue.create_table(DatabaseName="db", TableInput={
        "Name": "t", "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}], "Location": "/t"},
        "PartitionKeys": [{"Name": "day", "Type": "string"}]})
    glue.create_partition(DatabaseName="db", TableName="t", PartitionInput={"Values": ["d1"]})
    glue.create_user_defined_function(DatabaseName="db", FunctionInput={
        "FunctionName": "to_upper", "ClassName": "com.example.Upper", "OwnerName": "me", "OwnerType": "USER"})
    assert glue.get_user_defined_function(DatabaseName="db", FunctionName="to_upper")["UserDefinedFunction"][
        "ClassName"] == "com.example.Upper"
    assert [f["FunctionName"] for f in glue.get_user_defined_functions(
        DatabaseName="db", Pattern="to_*")["UserDefinedFunctions"]] == ["to_upper"]
    assert glue.get_user_defined_functions(DatabaseName="db", Pattern="nothing")["UserDefinedFunctions"] == []
    stats = {"ColumnName": "id", "ColumnType": "bigint", "AnalyzedTime": 1700000000,
             "StatisticsData": {"Type": "LONG", "LongColumnStatisticsData": {
                 "MinimumValue": 1, "MaximumValue": 9, "NumberOfNulls": 0, "NumberOfDistinctValues": 9}}}
    assert glue.update_column_statistics_for_table(DatabaseName="db", TableName="t",
                                                   ColumnStatisticsList=[stats])["Errors"] == []
    got = glue.get_column_statistics_for_table(DatabaseName="db", TableName="t", ColumnNames=["id", "day"])
    assert got["ColumnStatisticsList"][0]["StatisticsData"]["LongColumnStatisticsData"]["MaximumValue"] == 9
    assert [e["ColumnName"] for e in got["Errors"]] == ["day"]
    bad = dict(stats, ColumnName="nope")
    assert glue.update_column_statistics_for_partition(DatabaseName="db", TableName="t", PartitionValues=["d1"],
                                                       ColumnStatisticsList=[bad])["Errors"][0]["Error"][
        "ErrorCode"] == "EntityNotFoundException"
    glue.update_column_statistics_for_partition(DatabaseName="db", TableName="t", PartitionValues=["d1"],
                                                ColumnStatisticsList=[stats])
    glue.delete_column_statistics_for_partition(DatabaseName="db", TableName="t", PartitionValues=["d1"],
                                                ColumnName="id")
    assert error_code(lambda: glue.delete_column_statistics_for_partition(
        DatabaseName="db", TableName="t", PartitionValues=["d1"], ColumnName="id"))[0] == "EntityNotFoundException"
    # Deleting the table takes its statistics with it.
    glue.delete_table(DatabaseName="db", Name="t")
    glue.create_table(DatabaseName="db", TableInput={
        "Name": "t", "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}], "Location": "/t"}})
    assert glue.get_column_statistics_for_table(DatabaseName="db", TableName="t",
                                                ColumnNames=["id"])["ColumnStatisticsList"] == []
    glue.delete_user_defined_function(DatabaseName="db", FunctionName="to_upper")
    assert error_code(lambda: glue.get_user_defined_function(DatabaseName="db", FunctionName="to_upper"))[0] == \
        "EntityNotFoundException"
