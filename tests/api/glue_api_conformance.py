#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the shared Glue API suite (moto's own tests, ../shared/conformance/glue-api) in place against a
fresh `epoxy serve --allow-reset`, and reports what passed. Usage: glue_api_conformance.py EPOXY SHARED

The catalog and partition-filter files must pass but for the tests listed below, each with its
reason. Exits 1 when
a required test fails, 77 (skipped) when the suite or its Python modules are absent. moto's tests
freeze the clients' clocks (freezegun) at fixed dates, so their requests are signed in the past:
the server runs with a large --max-clock-skew here, and nowhere else."""
import os
import socket
import subprocess
import sys
import tempfile

sys.path.append("/usr/lib/python3/dist-packages")  # Debian's pytest and freezegun, pure Python

# Tests that pin moto's shortcut for crawls, each with why. moto never crawls: a started crawl
# stays RUNNING until the next ListCrawls call marks it COMPLETED. epoxy really crawls, on a thread
# of the server's, and these tests' crawlers have no targets and no database, so the crawl ends
# (FAILED: no DatabaseName) within milliseconds, often before the test's next call. A test that
# passes anyway is counted as passed; these may only fail.
MOTO_CRAWL_SHORTCUT = ("expects the crawl to be RUNNING until ListCrawls completes it (moto's shortcut); "
                       "epoxy's crawl of an empty crawler ends within milliseconds")
EXPECTED_FAILURES = {
    "test_start_crawler": MOTO_CRAWL_SHORTCUT,
    "test_start_crawler_should_raise_exception_if_already_running": MOTO_CRAWL_SHORTCUT,
    "test_stop_crawler": MOTO_CRAWL_SHORTCUT,
    "test_filter_crawls_for_state[EQ]": MOTO_CRAWL_SHORTCUT,
    "test_filter_crawls_for_state[NE]": MOTO_CRAWL_SHORTCUT,
    # The second crawl may end before the test reads its clock "between the two run ends".
    "test_filter_crawls_for_end_time[LE]": MOTO_CRAWL_SHORTCUT,
    "test_filter_crawls_for_end_time[LT]": MOTO_CRAWL_SHORTCUT,
    "test_filter_crawls_for_end_time[GE]": MOTO_CRAWL_SHORTCUT,
    "test_filter_crawls_for_end_time[GT]": MOTO_CRAWL_SHORTCUT,
    # The workflow has no triggers, so its run has nothing to do: the scheduler completes it at its
    # next look (within a second), which may come between the test's start and its stop.
    "test_stop_workflow_run": "stops a run of an empty workflow right after starting it; epoxy completes such a "
                              "run at the scheduler's next look (within a second), so the stop may find it done",
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Outcomes:
    def __init__(self):
        self.results = {}

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            self.results[report.nodeid] = report.outcome


def main():
    epoxy, shared = sys.argv[1], sys.argv[2]
    suite = os.path.abspath(os.path.join(shared, "conformance", "glue-api", "tests"))
    if not os.path.isdir(suite):
        print("SKIP: %s is absent" % suite)
        return 77
    import importlib.util
    missing = [m for m in ("boto3", "moto", "pytest", "freezegun") if importlib.util.find_spec(m) is None]
    if missing:
        print("SKIP: %s missing (the suite needs boto3, moto, pytest and freezegun)" % ", ".join(missing))
        return 77
    home = tempfile.mkdtemp(prefix="epoxy-glue-api-")
    port = free_port()
    env = dict(os.environ, EPOXY_HOME=os.path.join(home, "home"), EPOXY_KEY_FILE=os.path.join(home, "key"),
               EPOXY_ACCESS_KEY_ID="FOOBARKEY", EPOXY_SECRET_ACCESS_KEY="FOOBARSECRET")
    server = subprocess.Popen([epoxy, "serve", "--port", str(port), "--allow-reset", "--max-clock-skew", "1000000000",
                               "--region", "us-east-1,us-east-2,ap-southeast-1,eu-west-1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = server.stdout.readline()
    if "listening" not in line:
        print("epoxy serve did not start: " + line + server.stderr.read())
        return 1
    os.environ.update(TEST_SERVER_MODE="true", TEST_SERVER_MODE_ENDPOINT="http://127.0.0.1:%d" % port,
                      AWS_ACCESS_KEY_ID="FOOBARKEY", AWS_SECRET_ACCESS_KEY="FOOBARSECRET")
    # moto reads TEST_SERVER_MODE when first imported: only now may it (and pytest) be imported.
    import pytest
    outcomes = Outcomes()
    os.chdir(os.path.dirname(suite))
    try:
        pytest.main(["-q", "-p", "no:cacheprovider", "--no-header", "-rN", os.path.join(suite, "test_glue")],
                     plugins=[outcomes])
    finally:
        server.terminate()
        server.wait(timeout=20)
    required_failures, waived = [], []
    counts = {}
    for nodeid, outcome in sorted(outcomes.results.items()):
        file = nodeid.split("::")[0].rsplit("/", 1)[-1]
        name = nodeid.split("::")[-1]
        c = counts.setdefault(file, {"passed": 0, "failed": 0, "skipped": 0})
        c[outcome if outcome in c else "failed"] += 1
        if outcome != "failed":
            continue
        reason = EXPECTED_FAILURES.get(name)
        if reason:
            waived.append((nodeid, reason))
        else:
            required_failures.append(nodeid)
    print("\nglue-api conformance against epoxy serve:")
    for file, c in counts.items():
        print("  %-28s %3d passed, %3d failed, %d skipped" % (file, c["passed"], c["failed"], c["skipped"]))
    for nodeid, why in waived:
        print("  waived: %s (%s)" % (nodeid, why))
    for nodeid in required_failures:
        print("  REQUIRED TEST FAILED: %s" % nodeid)
    return 1 if required_failures else 0


if __name__ == "__main__":
    sys.exit(main())
