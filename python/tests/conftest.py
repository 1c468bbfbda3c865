# SPDX-License-Identifier: Apache-2.0
"""Fixtures for epoxy's own Python tests: one engine per test session, its catalog in a fresh
EPOXY_HOME, and the `epoxy` binary for end-to-end script runs (EPOXY_BIN)."""
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

_HOME = tempfile.mkdtemp(prefix="epoxy-pytest-")
os.environ["EPOXY_HOME"] = _HOME


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_HOME, ignore_errors=True)


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession
    return SparkSession.builder.appName("epoxy-tests").getOrCreate()


@pytest.fixture(scope="session")
def glue(spark):
    from awsglue.context import GlueContext
    from pyspark.context import SparkContext
    return GlueContext(SparkContext.getOrCreate())


@pytest.fixture
def home():
    return _HOME


@pytest.fixture
def run_script(tmp_path):
    """Runs a Glue script through `epoxy run`; returns the CompletedProcess."""
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")

    def run(source, *args, env=None):
        script = tmp_path / "job.py"
        script.write_text(source)
        full_env = dict(os.environ)
        full_env.update(env or {})
        return subprocess.run([binary, "run", str(script), *args], capture_output=True, text=True, env=full_env,
                              timeout=300)
    return run


@pytest.fixture
def epoxy(tmp_path):
    """The epoxy binary with an EPOXY_HOME of the test's own (jobrun.Epoxy)."""
    from jobrun import Epoxy
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    return Epoxy(binary, str(tmp_path / "home"), str(tmp_path))


@pytest.fixture(scope="session")
def pg():
    """A PostgreSQL server of the test session's own, with a database `shop` (postgres.PgServer)."""
    from postgres import PgServer
    server = PgServer()
    yield server
    server.stop()
