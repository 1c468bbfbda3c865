#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes epoxy's own sample data: a small clickstream in CSV and JSON Lines, partitioned by day.

    gen_sample.py OUT [--days 3] [--rows 500] [--drift] [--gzip]

Layout: OUT/csv/dt=YYYY-MM-DD/part-00000.csv and OUT/json/dt=YYYY-MM-DD/part-00000.jsonl(.gz).
Deterministic for the same arguments. With --drift a few rows carry user_id "N/A" and amount as a
quoted string, the way real feeds drift. Standard library only, so the demo and the tests need
nothing from outside the repository.
"""
import argparse
import datetime
import gzip
import json
import os
import random

PAGES = ["/home", "/product", "/cart", "/checkout", "/search"]
COUNTRIES = ["US", "DE", "FR", "JP", "BR", "IN", "GB"]


def rows_for_day(day, n, drift, rng):
    for i in range(n):
        seconds = rng.randrange(86400)
        ts = datetime.datetime.combine(day, datetime.time()) + datetime.timedelta(seconds=seconds)
        amount = 0.0 if rng.random() < 0.45 else round(rng.uniform(1, 500), 2)
        row = {
            "event_id": "%016x" % rng.getrandbits(64),
            "user_id": 4300000000 + rng.randrange(100000),
            "ts": ts.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "page": rng.choice(PAGES),
            "referrer": None if rng.random() < 0.3 else "https://example.com/" + rng.choice(PAGES)[1:],
            "amount": amount,
            "country": rng.choice(COUNTRIES),
            "device": {"os": rng.choice(["ios", "android", "web"]), "version": str(rng.randrange(10, 18))},
            "items": [{"sku": "SKU-%03d" % rng.randrange(50), "qty": rng.randrange(1, 4)}
                      for _ in range(rng.randrange(0, 3))],
        }
        if drift and i % 97 == 13:
            row["user_id"] = "N/A"
            row["amount"] = "%.2f" % amount
        yield row


def write_atomically(path, data, compress):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(tmp, "wb") as f:
        f.write(gzip.compress(data, mtime=0) if compress else data)
    os.replace(tmp, path)


def csv_field(value):
    if value is None:
        return ""
    text = value if isinstance(value, str) else (("%.2f" % value) if isinstance(value, float) else str(value))
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--rows", type=int, default=500, help="rows per day")
    parser.add_argument("--start", default="2026-08-16")
    parser.add_argument("--drift", action="store_true")
    parser.add_argument("--gzip", action="store_true", help="gzip the JSON Lines files")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    start = datetime.date.fromisoformat(args.start)
    csv_columns = ["event_id", "user_id", "ts", "page", "referrer", "amount", "country"]
    for d in range(args.days):
        day = start + datetime.timedelta(days=d)
        rng = random.Random(args.seed * 100003 + d)
        rows = list(rows_for_day(day, args.rows, args.drift, rng))
        folder = "dt=" + day.isoformat()
        lines = [",".join(csv_columns)] + [",".join(csv_field(r[c]) for c in csv_columns) for r in rows]
        write_atomically(os.path.join(args.out, "csv", folder, "part-00000.csv"),
                         ("\n".join(lines) + "\n").encode(), False)
        body = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows).encode()
        name = "part-00000.jsonl" + (".gz" if args.gzip else "")
        write_atomically(os.path.join(args.out, "json", folder, name), body, args.gzip)


if __name__ == "__main__":
    main()
