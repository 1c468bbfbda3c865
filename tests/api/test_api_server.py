# SPDX-License-Identifier: Apache-2.0
"""`epoxy serve` driven by the real AWS CLI and boto3 over loopback: catalog operations with paging,
segments and optimistic locking, SigV4 refusals that change nothing, and a restart that loses no
acknowledged write."""
import json
import os
import subprocess
import time

import pytest

from conftest import KEY, SECRET, Server, aws, client, error_code  # noqa: F401 (the server fixture)


def test_aws_cli_drives_the_catalog(server):
    assert aws(server, "create-database", "--database-input", '{"Name": "sales"}').returncode == 0
    result = aws(server, "create-table", "--database-name", "sales", "--table-input", json.dumps({
        "Name": "orders", "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}],
                                                "Location": "/data/orders"},
        "PartitionKeys": [{"Name": "day", "Type": "string"}]}))
    assert result.returncode == 0, result.stderr
    got = json.loads(aws(server, "get-table", "--database-name", "sales", "--name", "orders").stdout)["Table"]
    assert got["Name"] == "orders" and got["VersionId"] == "1" and got["CatalogId"] == "123456789012"
    missing = aws(server, "get-table", "--database-name", "sales", "--name", "nope")
    assert missing.returncode != 0 and "EntityNotFoundException" in missing.stderr
    assert "Table nope not found." in missing.stderr
    unknown = aws(server, "list-ml-transforms")
    assert unknown.returncode != 0 and "UnknownOperationException" in unknown.stderr


def test_partitions_page_by_expression_and_segment(server):
    glue = client(server)
    glue.create_database(DatabaseInput={"Name": "lake"})
    glue.create_table(DatabaseName="lake", TableInput={
        "Name": "events", "StorageDescriptor": {"Columns": [], "Location": "/lake/events"},
        "PartitionKeys": [{"Name": "year", "Type": "int"}, {"Name": "day", "Type": "string"}]})
    for batch in range(10):
        inputs = [{"Values": [str(2000 + (batch * 100 + i) % 20), "d%04d" % (batch * 100 + i)],
                   "StorageDescriptor": {"Location": "/lake/events/%d" % (batch * 100 + i)}} for i in range(100)]
        assert "Errors" not in glue.batch_create_partition(DatabaseName="lake", TableName="events",
                                                           PartitionInputList=inputs)
    seen, token = [], None
    while True:
        kwargs = {"NextToken": token} if token else {}
        page = glue.get_partitions(DatabaseName="lake", TableName="events", Expression="year >= 2010 AND year < 2015",
                                   MaxResults=37, **kwargs)
        assert len(page["Partitions"]) <= 37
        seen += [tuple(p["Values"]) for p in page["Partitions"]]
        token = page.get("NextToken")
        if not token:
            break
    assert len(seen) == 250 and len(set(seen)) == 250 and all(2010 <= int(y) < 2015 for y, _ in seen)
    segments = []
    for n in range(4):
        segment = glue.get_partitions(DatabaseName="lake", TableName="events",
                                      Segment={"SegmentNumber": n, "TotalSegments": 4})
        assert "NextToken" not in segment
        segments.append({tuple(p["Values"]) for p in segment["Partitions"]})
    assert sum(len(s) for s in segments) == 1000 and len(set().union(*segments)) == 1000
    paginator = glue.get_paginator("get_partitions")
    assert sum(len(p["Partitions"]) for p in paginator.paginate(DatabaseName="lake", TableName="events",
                                                                PaginationConfig={"PageSize": 300})) == 1000
    dup = glue.batch_create_partition(DatabaseName="lake", TableName="events",
                                      PartitionInputList=[{"Values": ["2000", "d0000"]}])
    assert dup["Errors"][0]["ErrorDetail"]["ErrorCode"] == "AlreadyExistsException"


def test_stale_version_id_is_refused(server):
    glue = client(server)
    glue.create_database(DatabaseInput={"Name": "db"})
    table = {"Name": "t", "StorageDescriptor": {"Columns": [{"Name": "a", "Type": "int"}]}}
    glue.create_table(DatabaseName="db", TableInput=table)
    table["Description"] = "second"
    glue.update_table(DatabaseName="db", TableInput=table, VersionId="1")
    assert glue.get_table(DatabaseName="db", Name="t")["Table"]["VersionId"] == "2"
    table["Description"] = "stale"
    code, _ = error_code(lambda: glue.update_table(DatabaseName="db", TableInput=table, VersionId="1"))
    assert code == "ConcurrentModificationException"
    assert glue.get_table(DatabaseName="db", Name="t")["Table"]["Description"] == "second"
    versions = glue.get_table_versions(DatabaseName="db", TableName="t")["TableVersions"]
    assert [v["VersionId"] for v in versions] == ["1", "2"]  # oldest first, the current one included
    code, _ = error_code(lambda: glue.get_database(CatalogId="999999999999", Name="db"))
    assert code == "EntityNotFoundException"


def raw_post(server, body, headers):
    import urllib.error
    import urllib.request
    request = urllib.request.Request(server.url + "/", data=body.encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def signed_headers(server, body, target, key=KEY, secret=SECRET, region="us-east-1", service="glue", when=None):
    """SigV4 headers for a POST / (written out here, so a test can sign at any time)."""
    import datetime
    import hashlib
    import hmac
    when = when or datetime.datetime.now(datetime.timezone.utc)
    amz_date, date = when.strftime("%Y%m%dT%H%M%SZ"), when.strftime("%Y%m%d")
    headers = {"content-type": "application/x-amz-json-1.1", "host": "127.0.0.1:%d" % server.port,
               "x-amz-date": amz_date, "x-amz-target": "AWSGlue." + target}
    names = sorted(headers)
    canonical = "POST\n/\n\n" + "".join("%s:%s\n" % (n, headers[n]) for n in names) + "\n" + ";".join(names) + \
        "\n" + hashlib.sha256(body.encode()).hexdigest()
    scope = "%s/%s/%s/aws4_request" % (date, region, service)
    to_sign = "AWS4-HMAC-SHA256\n%s\n%s\n%s" % (amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest())
    signing = ("AWS4" + secret).encode()
    for part in (date, region, service, "aws4_request"):
        signing = hmac.new(signing, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(signing, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s" % (
        key, scope, ";".join(names), signature)
    del headers["host"]  # urllib sends the same Host itself
    return headers


def test_forged_requests_are_refused_and_change_nothing(server):
    import datetime
    body = json.dumps({"DatabaseInput": {"Name": "forged"}})
    good = signed_headers(server, body, "CreateDatabase")
    forged = dict(good)
    signature = forged["authorization"]
    forged["authorization"] = signature[:-1] + ("0" if signature[-1] != "0" else "1")
    cases = {
        "unsigned": ({"Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "AWSGlue.CreateDatabase"},
                     "MissingAuthenticationTokenException"),
        "forged": (forged, "InvalidSignatureException"),
        "expired": (signed_headers(server, body, "CreateDatabase",
                                   when=datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=20)),
                    "InvalidSignatureException"),
        "wrong region": (signed_headers(server, body, "CreateDatabase", region="eu-west-3"),
                         "InvalidSignatureException"),
        "wrong service": (signed_headers(server, body, "CreateDatabase", service="s3"), "InvalidSignatureException"),
        "unknown key": (signed_headers(server, body, "CreateDatabase", key="EPXNOSUCHKEY00000000", secret="x"),
                        "UnrecognizedClientException"),
    }
    for name, (headers, expected) in cases.items():
        status, answer = raw_post(server, body, headers)
        assert status in (400, 403) and answer["__type"] == expected, (name, status, answer)
    status, answer = raw_post(server, body, signed_headers(server, body, "CreateDatabase"))
    assert status == 200, answer
    expired = cases["expired"][0]
    assert "Signature expired" in raw_post(server, body, expired)[1]["message"]
    # A tampered body under a good signature.
    status, answer = raw_post(server, json.dumps({"DatabaseInput": {"Name": "other"}}), good)
    assert answer["__type"] == "InvalidSignatureException"
    names = [d["Name"] for d in client(server).get_databases()["DatabaseList"]]
    assert names == ["forged"]


def test_access_keys_health_metrics_and_restart(server, tmp_path):
    created = subprocess.run([server.binary, "access-key", "create"], capture_output=True, text=True,
                             env=server.env())
    assert created.returncode == 0, created.stderr
    key = json.loads(created.stdout)
    glue = client(server, key["AccessKeyId"], key["SecretAccessKey"])
    glue.create_database(DatabaseInput={"Name": "kept"})
    listed = subprocess.run([server.binary, "access-key", "list"], capture_output=True, text=True, env=server.env())
    assert key["AccessKeyId"] in listed.stdout and key["SecretAccessKey"] not in listed.stdout
    with open(os.path.join(server.home, "catalog.db"), "rb") as f:
        assert key["SecretAccessKey"].encode() not in f.read()
    import urllib.request
    assert urllib.request.urlopen(server.url + "/health", timeout=10).status == 200
    metrics = urllib.request.urlopen(server.url + "/metrics", timeout=10).read().decode()
    assert 'epoxy_api_requests_total{operation="CreateDatabase"} 1' in metrics
    # SIGKILL, restart: the acknowledged write is there.
    server.stop(sig=9)
    server.start()
    assert [d["Name"] for d in client(server).get_databases()["DatabaseList"]] == ["kept"]
    subprocess.run([server.binary, "access-key", "delete", key["AccessKeyId"]], check=True, env=server.env())
    code, _ = error_code(lambda: client(server, key["AccessKeyId"], key["SecretAccessKey"]).get_databases())
    assert code == "UnrecognizedClientException"


def test_unsafe_bindings_are_refused(tmp_path):
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    env = dict(os.environ, EPOXY_HOME=str(tmp_path / "home"), EPOXY_KEY_FILE=str(tmp_path / "key"))
    env.pop("EPOXY_ACCESS_KEY_ID", None)
    env.pop("EPOXY_SECRET_ACCESS_KEY", None)
    no_key = subprocess.run([binary, "serve", "--host", "0.0.0.0", "--port", "0"], capture_output=True, text=True,
                            env=env, timeout=30)
    assert no_key.returncode != 0 and "no access key" in no_key.stderr
    reset = subprocess.run([binary, "serve", "--host", "0.0.0.0", "--port", "0", "--allow-reset"],
                           capture_output=True, text=True, env=env, timeout=30)
    assert reset.returncode != 0 and "loopback" in reset.stderr
