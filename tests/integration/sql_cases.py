#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs `.test` files of SQL cases through `epoxy sql` and compares the rows printed.

A file holds cases separated by blank lines. A case is `-- name` (optional), the query (one or
more lines), a line `----`, then the expected output: one line a row, or `error: TEXT` (the error
message must contain TEXT). Rows are compared in order when the query has ORDER BY, else as a
multiset. A file's first line may be `-- output: FORMAT` (an `epoxy sql --output` format;
default jsonl).

Usage: sql_cases.py EPOXY_BINARY FILE...
"""
import subprocess
import sys


def parse(path):
    cases, output = [], "jsonl"
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[0].startswith("-- output:"):
        output = lines[0].split(":", 1)[1].strip()
        lines = lines[1:]
    block = []
    for line in lines + [""]:
        if line.strip() == "" and block:
            cases.append(block)
            block = []
        elif line.strip() != "":
            block.append(line)
    parsed = []
    for block in cases:
        name = block[0][3:].strip() if block[0].startswith("-- ") else None
        body = block[1:] if name is not None else block
        if "----" not in body:
            raise SystemExit(f"{path}: case {name or body[0]!r} has no ---- line")
        split = body.index("----")
        query = "\n".join(body[:split])
        parsed.append((name or query.replace("\n", " ")[:80], query, body[split + 1:]))
    return output, parsed


def run(binary, output, query):
    r = subprocess.run([binary, "sql", query, "--output", output], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return [line for line in r.stdout.split("\n") if line != ""], None


def main():
    binary, files = sys.argv[1], sys.argv[2:]
    failures = total = 0
    for path in files:
        output, cases = parse(path)
        for name, query, expected in cases:
            total += 1
            rows, error = run(binary, output, query)
            if len(expected) == 1 and expected[0].startswith("error: "):
                want = expected[0][len("error: "):]
                ok = error is not None and want in error
                got = error if error is not None else "\n".join(rows)
            else:
                ordered = "ORDER BY" in query.upper()
                ok = error is None and (rows == expected if ordered else sorted(rows) == sorted(expected))
                got = error if error is not None else "\n".join(rows)
            if ok:
                print(f"ok: {name}")
            else:
                failures += 1
                print(f"FAIL: {name} ({path})\n  query:    {query}\n  expected: {' | '.join(expected)}\n  actual:   {got}")
    print(f"{total - failures} of {total} cases passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
