#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares two JSON Lines results (epoxy's and DuckDB's) as multisets of rows, or in order.

Numbers compare by value: a decimal printed as a string ("12.50") equals 12.5, floating values
agree within a relative 1e-9 (both engines sum doubles in different orders), and a decimal (a
string) matches a double that rounds to it at its scale (Spark's avg is a decimal, DuckDB's a
double). Column
names are not compared, only positions.

  compare_rows.py EPOXY.jsonl DUCKDB.jsonl [--ordered]

Prints "same" or the first difference; exits 0 either way (the caller checks the text).
"""
import json
import sys
from decimal import Decimal, InvalidOperation

REL = Decimal("1e-9")


def number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, Decimal)):
        return Decimal(v)
    if isinstance(v, float):
        return Decimal(repr(v))
    if isinstance(v, str):
        try:
            d = Decimal(v)
        except InvalidOperation:
            return None
        return d if d.is_finite() else None
    return None


def same(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a.values(), b.values()))
    na, nb = number(a), number(b)
    if na is not None and nb is not None:
        if abs(na - nb) <= REL * max(Decimal(1), abs(na), abs(nb)):
            return True
        # A decimal of Spark's (a string) against a double of DuckDB's (avg, division): equal
        # when the double rounds to the decimal at its scale.
        for text, other in ((a, nb), (b, na)):
            if isinstance(text, str) and "." in text:
                scale = len(text) - text.index(".") - 1
                return abs(Decimal(text) - other) <= Decimal(1).scaleb(-scale)
        return False
    return a == b


def key(v):
    """An order for rows that tolerates the representation differences `same` forgives."""
    if isinstance(v, list):
        return "[" + ",".join(key(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(key(x) for x in v.values()) + "}"
    n = number(v)
    if n is not None:
        return "n%+.6e" % float(n)
    return "s" + json.dumps(v)


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [list(json.loads(line, parse_float=Decimal).values()) for line in f if line.strip()]


def main():
    epoxy, duck = rows(sys.argv[1]), rows(sys.argv[2])
    ordered = "--ordered" in sys.argv[3:]
    if not ordered:
        epoxy.sort(key=key)
        duck.sort(key=key)
    if len(epoxy) != len(duck):
        print("%d rows from epoxy, %d from duckdb; first duckdb row %s" % (len(epoxy), len(duck), duck[:1]))
        return
    for i, (a, b) in enumerate(zip(epoxy, duck)):
        if not same(a, b):
            print("row %d differs: epoxy %s, duckdb %s" % (i, json.dumps(a, default=str), json.dumps(b, default=str)))
            return
    print("same")


if __name__ == "__main__":
    main()
