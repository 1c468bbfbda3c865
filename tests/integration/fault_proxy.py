#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A loopback HTTP proxy for tests: forwards to an upstream server (moto) and injects faults.

    fault_proxy.py LISTEN_PORT UPSTREAM_PORT RULES_FILE

RULES_FILE is re-read on every request; each line is `METHOD PATH_SUBSTRING ACTION COUNT`:
ACTION is an HTTP status (500, 503, 403), `drop` (close without answering) or `stall` (send the
headers and part of the body, then go silent); COUNT is how many matching requests get the fault
(`*` for all). Lines are consumed in order. Only loopback addresses are used.
"""
import http.client
import http.server
import socketserver
import sys
import threading
import time

LISTEN, UPSTREAM, RULES = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
lock = threading.Lock()
used = {}

ERROR_BODIES = {
    403: b"<Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message></Error>",
    500: b"<Error><Code>InternalError</Code><Message>injected failure</Message></Error>",
    503: b"<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>",
}


def fault_for(method, path):
    try:
        with open(RULES) as f:
            lines = [l.split() for l in f if l.strip() and not l.startswith('#')]
    except FileNotFoundError:
        return None
    with lock:
        for i, rule in enumerate(lines):
            if len(rule) != 4:
                continue
            m, sub, action, count = rule
            if m not in ('*', method) or sub not in path:
                continue
            key = (i, tuple(rule))
            if count != '*' and used.get(key, 0) >= int(count):
                continue
            used[key] = used.get(key, 0) + 1
            return action
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get('Content-Length') or 0)
        body = self.rfile.read(length) if length else b''
        fault = fault_for(self.command, self.path)
        if fault == 'drop':
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if fault and fault.isdigit():
            payload = ERROR_BODIES.get(int(fault), b"<Error><Code>Injected</Code></Error>")
            self.send_response(int(fault))
            self.send_header('Content-Type', 'application/xml')
            self.send_header('Content-Length', str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            return
        upstream = http.client.HTTPConnection('127.0.0.1', UPSTREAM, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ('host', 'connection')}
        headers['Host'] = self.headers.get('Host', f'127.0.0.1:{LISTEN}')
        upstream.request(self.command, self.path, body=body, headers=headers)
        response = upstream.getresponse()
        data = response.read()
        self.send_response(response.status)
        for k, v in response.getheaders():
            if k.lower() not in ('transfer-encoding', 'connection', 'content-length'):
                self.send_header(k, v)
        # A HEAD answer carries the object's length without a body.
        length = response.getheader('Content-Length') if self.command == 'HEAD' else None
        self.send_header('Content-Length', length if length is not None else str(len(data)))
        self.end_headers()
        if fault == 'stall':
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            time.sleep(3600)
            return
        if self.command != 'HEAD':
            self.wfile.write(data)

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == '__main__':
    Server(('127.0.0.1', LISTEN), Handler).serve_forever()
