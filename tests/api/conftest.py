# SPDX-License-Identifier: Apache-2.0
"""What the Glue API tests share: an `epoxy serve` on a free loopback port (the `server` fixture),
boto3 clients whose every response is checked against botocore's Glue service model, and the aws
CLI."""
import json
import os
import socket
import subprocess
import time

import pytest

KEY, SECRET = "EPXTESTROOTKEY000001", "test-root-secret-0123456789abcdefghijklmn"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary, home, *extra):
        self.binary, self.home, self.extra = binary, home, extra
        self.port = _free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.process = None

    def env(self):
        env = dict(os.environ, EPOXY_HOME=self.home, EPOXY_KEY_FILE=os.path.join(self.home, "..", "secrets.key"),
                   EPOXY_ACCESS_KEY_ID=KEY, EPOXY_SECRET_ACCESS_KEY=SECRET)
        return env

    def start(self):
        self.process = subprocess.Popen([self.binary, "serve", "--port", str(self.port), *self.extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env())
        line = self.process.stdout.readline()
        assert "listening on" in line, line + self.process.stderr.read()
        return self

    def stop(self, sig=15):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=20)


@pytest.fixture
def server(tmp_path):
    binary = os.environ.get("EPOXY_BIN")
    if not binary:
        pytest.skip("EPOXY_BIN is not set (run through CTest)")
    s = Server(binary, str(tmp_path / "home")).start()
    yield s
    s.stop()


# Every response a client() receives is checked against the service model: each member the
# server sends must be one the model names for that shape, of the model's type.
MODEL_ERRORS = []


def _check_shape(shape, value, where, errors):
    kind = shape.type_name
    if kind == "structure":
        if not isinstance(value, dict):
            errors.append("%s: %s is not an object" % (where, shape.name))
            return
        for key, member in value.items():
            if key not in shape.members:
                errors.append("%s.%s: not a member of %s" % (where, key, shape.name))
            else:
                _check_shape(shape.members[key], member, where + "." + key, errors)
    elif kind == "list":
        if not isinstance(value, list):
            errors.append("%s: not a list" % where)
            return
        for i, item in enumerate(value):
            _check_shape(shape.member, item, "%s[%d]" % (where, i), errors)
    elif kind == "map":
        if not isinstance(value, dict):
            errors.append("%s: not a map" % where)
            return
        for k, item in value.items():
            _check_shape(shape.value, item, "%s{%s}" % (where, k), errors)
    elif kind == "string":
        ok = isinstance(value, str) and (not shape.enum or value in shape.enum)
        if not ok:
            errors.append("%s: %r is not a %s%s" % (where, value, shape.name, " " + str(shape.enum) if shape.enum else ""))
    elif kind in ("integer", "long"):
        if not isinstance(value, int) or isinstance(value, bool):
            errors.append("%s: %r is not an integer" % (where, value))
    elif kind in ("double", "float"):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            errors.append("%s: %r is not a number" % (where, value))
    elif kind == "boolean":
        if not isinstance(value, bool):
            errors.append("%s: %r is not a boolean" % (where, value))
    elif kind == "timestamp":
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            errors.append("%s: %r is not epoch seconds" % (where, value))
    elif kind == "blob":
        if not isinstance(value, str):
            errors.append("%s: %r is not base64 text" % (where, value))


def check_response(operation_model, response_dict, **_):
    status = response_dict.get("status_code", 200)
    body = response_dict.get("body") or b"{}"
    try:
        doc = json.loads(body)
    except ValueError:
        MODEL_ERRORS.append("%s: the body is not JSON: %r" % (operation_model.name, body[:200]))
        return
    if status >= 300:
        names = {e.name for e in operation_model.error_shapes}
        names |= {"MissingAuthenticationTokenException", "UnrecognizedClientException", "InvalidSignatureException",
                  "IncompleteSignatureException", "UnknownOperationException", "SerializationException",
                  "ValidationException", "AccessDeniedException", "ThrottlingException"}
        if doc.get("__type") not in names:
            MODEL_ERRORS.append("%s: error %r is not one the model lists" % (operation_model.name, doc.get("__type")))
        return
    if operation_model.output_shape is not None:
        _check_shape(operation_model.output_shape, doc, operation_model.name, MODEL_ERRORS)


@pytest.fixture(autouse=True)
def responses_follow_the_model():
    MODEL_ERRORS.clear()
    yield
    assert not MODEL_ERRORS, "responses that do not follow the service model:\n" + "\n".join(MODEL_ERRORS[:20])


def client(server, key=KEY, secret=SECRET, region="us-east-1"):
    import boto3
    glue = boto3.client("glue", endpoint_url=server.url, region_name=region, aws_access_key_id=key,
                        aws_secret_access_key=secret)
    glue.meta.events.register("before-parse.glue.*", check_response)
    return glue


def aws(server, *args):
    env = dict(os.environ, AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET, AWS_DEFAULT_REGION="us-east-1")
    env.pop("AWS_PROFILE", None)
    result = subprocess.run(["aws", "glue", *args, "--endpoint-url", server.url, "--output", "json"],
                            capture_output=True, text=True, env=env, timeout=120)
    return result


def error_code(call):
    from botocore.exceptions import ClientError
    with pytest.raises(ClientError) as e:
        call()
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def wait_for(predicate, seconds=120, what="the condition"):
    """Polls `predicate` until it returns something true (which it returns), or fails after `seconds`."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out waiting for " + what)
