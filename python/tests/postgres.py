# SPDX-License-Identifier: Apache-2.0
"""A real PostgreSQL server for the database tests: initdb into a temporary folder, started by pg_ctl on
a free loopback port with password (SCRAM) authentication and every statement logged, as an
unprivileged user when the tests run as root; stopped and removed at the end."""
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

USER = "epoxy"
PASSWORD = "s3cret-Pa55"


def _bin_dir():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    def __init__(self):
        self.bin = _bin_dir()
        if self.bin is None:
            pytest.skip("PostgreSQL's server is not installed (tools/bootstrap.sh installs postgresql-15)")
        self.root = tempfile.mkdtemp(prefix="epoxy-pg-")
        self.data = os.path.join(self.root, "data")
        self.log = os.path.join(self.root, "server.log")
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "nobody")
        pwfile = os.path.join(self.root, "pw")
        with open(pwfile, "w") as f:
            f.write(PASSWORD + "\n")
        if self.as_root:
            shutil.chown(pwfile, "nobody")
        self._run("initdb", "-D", self.data, "-U", USER, "--pwfile", pwfile, "-A", "scram-sha-256", "--no-locale",
                  "-E", "UTF8", "--no-sync")
        self.start()
        self.sql("CREATE DATABASE shop")

    def _run(self, tool, *args, check=True):
        command = [os.path.join(self.bin, tool), *args]
        if self.as_root:
            command = ["runuser", "-u", "nobody", "--"] + command
        result = subprocess.run(command, capture_output=True, text=True, cwd=self.root, timeout=120)
        if check and result.returncode != 0:
            raise RuntimeError("%s failed: %s%s" % (tool, result.stdout, result.stderr))
        return result

    def start(self):
        options = ("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c log_statement=all "
                   "-c max_connections=60" % (self.port, self.root))
        self._run("pg_ctl", "-D", self.data, "-o", options, "-l", self.log, "-w", "start")

    def kill(self):
        """Kills the server at once (SIGKILL to the postmaster and its backends)."""
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            pid = int(f.readline())
        subprocess.run(["pkill", "-KILL", "-P", str(pid)])
        os.kill(pid, 9)
        for _ in range(100):
            try:
                os.kill(pid, 0)
                time.sleep(0.05)
            except ProcessLookupError:
                break

    def stop(self):
        self._run("pg_ctl", "-D", self.data, "-m", "immediate", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, db="shop"):
        return "jdbc:postgresql://127.0.0.1:%d/%s" % (self.port, db)

    def options(self, **extra):
        out = {"url": self.url(), "user": USER, "password": PASSWORD}
        out.update(extra)
        return out

    def connect(self, db="shop"):
        import psycopg2
        conn = psycopg2.connect(host="127.0.0.1", port=self.port, dbname=db, user=USER, password=PASSWORD)
        return conn

    def sql(self, statement, db="postgres", fetch=False):
        """Runs one statement in autocommit mode; its rows when `fetch`."""
        conn = self.connect(db)
        conn.autocommit = True
        try:
            with conn.cursor() as cur:
                cur.execute(statement)
                return cur.fetchall() if fetch else None
        finally:
            conn.close()

    def logged(self):
        with open(self.log) as f:
            return f.read()
