# SPDX-License-Identifier: Apache-2.0
"""Load on loopback, bounded in clients and time: 16 concurrent clients mix reads and writes for
30 seconds and lose no acknowledged write; then the server is killed (SIGKILL) in the middle of
the load, restarted, and every write it acknowledged is there. Prints requests per second and
p50/p99 latency by operation."""
import multiprocessing
import os
import random
import signal
import time

from conftest import KEY, SECRET, Server

CLIENTS = 16


def _client(url):
    import boto3
    from botocore.config import Config
    return boto3.client("glue", endpoint_url=url, region_name="us-east-1", aws_access_key_id=KEY,
                        aws_secret_access_key=SECRET, config=Config(retries={"max_attempts": 0},
                                                                    connect_timeout=5, read_timeout=30))


def _worker(url, seconds, worker, ack_path, latency_path, first_value):
    """One client: its own table, partitions written one by one and in batches, table updates,
    and reads of everything. Each acknowledged write is appended to `ack_path` at once."""
    glue = _client(url)
    rng = random.Random(worker)
    database, table = "load", "t%02d" % worker
    acks = open(ack_path, "a", buffering=1)
    latencies = open(latency_path, "a", buffering=1)

    def call(op, **kwargs):
        started = time.monotonic()
        answer = getattr(glue, op)(**kwargs)
        latencies.write("%s %.6f\n" % (op, time.monotonic() - started))
        return answer

    try:
        call("create_table", DatabaseName=database, TableInput={
            "Name": table, "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}], "Location": "/l/" + table},
            "PartitionKeys": [{"Name": "n", "Type": "int"}]})
        acks.write("table %s\n" % table)
    except Exception:  # noqa: BLE001 (the server may be gone in the kill phase)
        pass
    n = first_value
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        choice = rng.random()
        try:
            if choice < 0.30:
                call("create_partition", DatabaseName=database, TableName=table, PartitionInput={"Values": [str(n)]})
                acks.write("partition %s %d\n" % (table, n))
                n += 1
            elif choice < 0.40:
                batch = [{"Values": [str(n + i)]} for i in range(10)]
                answer = call("batch_create_partition", DatabaseName=database, TableName=table, PartitionInputList=batch)
                failed = {tuple(e["PartitionValues"]) for e in answer.get("Errors", [])}
                for i in range(10):
                    if (str(n + i),) not in failed:
                        acks.write("partition %s %d\n" % (table, n + i))
                n += 10
            elif choice < 0.50:
                description = "v%d" % n
                call("update_table", DatabaseName=database, TableInput={
                    "Name": table, "Description": description, "PartitionKeys": [{"Name": "n", "Type": "int"}],
                    "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}], "Location": "/l/" + table}})
                acks.write("description %s %s\n" % (table, description))
            elif choice < 0.70:
                call("get_table", DatabaseName=database, Name=table)
            elif choice < 0.85:
                call("get_partitions", DatabaseName=database, TableName=table, Expression="n >= %d" % max(0, n - 20),
                     MaxResults=50)
            elif choice < 0.95:
                call("get_tables", DatabaseName=database, MaxResults=20)
            else:
                call("get_database", Name=database)
        except Exception:  # noqa: BLE001 (only acknowledged writes count)
            time.sleep(0.05)


def _run_load(url, seconds, tmp_path, tag, first_value=0):
    acks = [str(tmp_path / ("%s-acks-%d" % (tag, w))) for w in range(CLIENTS)]
    latencies = [str(tmp_path / ("%s-lat-%d" % (tag, w))) for w in range(CLIENTS)]
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_worker, args=(url, seconds, w, acks[w], latencies[w], first_value)) for w in range(CLIENTS)]
    for p in workers:
        p.start()
    return workers, acks, latencies


def _acknowledged(ack_files):
    partitions, descriptions, tables = {}, {}, set()
    for path in ack_files:
        if not os.path.exists(path):
            continue
        for line in open(path):
            parts = line.split()
            if len(parts) < 2:
                continue  # a line cut short: its write was acknowledged only if the line is whole
            if parts[0] == "table":
                tables.add(parts[1])
            elif parts[0] == "partition" and len(parts) == 3:
                partitions.setdefault(parts[1], set()).add(parts[2])
            elif parts[0] == "description" and len(parts) == 3:
                descriptions[parts[1]] = parts[2]  # the last one acknowledged
    return tables, partitions, descriptions


def _check_everything_acknowledged_is_there(url, ack_files):
    glue = _client(url)
    tables, partitions, descriptions = _acknowledged(ack_files)
    for table in tables:
        glue.get_table(DatabaseName="load", Name=table)
    for table, values in partitions.items():
        stored, token = set(), None
        while True:
            page = glue.get_partitions(DatabaseName="load", TableName=table, **({"NextToken": token} if token else {}))
            stored |= {p["Values"][0] for p in page["Partitions"]}
            token = page.get("NextToken")
            if not token:
                break
        missing = values - stored
        assert not missing, "table %s lost %d acknowledged partitions: %s" % (table, len(missing), sorted(missing)[:5])
    for table, description in descriptions.items():
        got = glue.get_table(DatabaseName="load", Name=table)["Table"].get("Description")
        # The last acknowledged update, or a later one whose answer never arrived.
        assert got is not None and int(got[1:]) >= int(description[1:]), (table, got, description)
    return sum(len(v) for v in partitions.values())


def _report(latency_files, seconds):
    by_op = {}
    for path in latency_files:
        if os.path.exists(path):
            for line in open(path):
                parts = line.split()
                if len(parts) == 2:
                    by_op.setdefault(parts[0], []).append(float(parts[1]))
    lines = []
    total = sum(len(v) for v in by_op.values())
    lines.append("load: %d clients, %d requests in %.0f s: %.0f requests/s" % (CLIENTS, total, seconds, total / seconds))
    for op, values in sorted(by_op.items()):
        values.sort()
        p50 = values[len(values) // 2] * 1000
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))] * 1000
        lines.append("  %-24s %6d requests  p50 %7.2f ms  p99 %7.2f ms" % (op, len(values), p50, p99))
    return lines


def test_load_loses_no_acknowledged_write_even_when_killed(tmp_path, capsys):
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        import pytest
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    def report(line):
        with capsys.disabled():
            print(line, flush=True)

    server = Server(binary, str(tmp_path / "home")).start()
    try:
        _client(server.url).create_database(DatabaseInput={"Name": "load"})
        seconds = 30
        workers, acks, latencies = _run_load(server.url, seconds, tmp_path, "steady")
        for p in workers:
            p.join(seconds + 60)
        for line in _report(latencies, seconds):
            report(line)
        written = _check_everything_acknowledged_is_there(server.url, acks)
        assert written > 0

        # The same load, and a SIGKILL in the middle of it.
        workers, kill_acks, _ = _run_load(server.url, 8, tmp_path, "killed", first_value=10**6)
        time.sleep(4)
        server.stop(signal.SIGKILL)
        for p in workers:
            p.join(60)
        server = Server(binary, server.home)
        server.start()
        after_kill = _check_everything_acknowledged_is_there(server.url, acks + kill_acks)
        assert after_kill > written  # writes were acknowledged during the killed phase too
        report("load: %d acknowledged partitions before the kill, %d in all, every one there after "
               "the restart" % (written, after_kill))
    finally:
        server.stop()
