# SPDX-License-Identifier: Apache-2.0
"""Runs the shared PySpark conformance suite in place against epoxy's pyspark and checks it:
at least 95% of the tests that run pass, and every failure is a NotImplementedError naming what
is missing or a difference from that suite the README lists (where epoxy follows Spark).

    python3 run_pyspark_conformance.py ../shared/conformance/pyspark/tests

Exits 77 (skipped) when the suite is absent."""
import os
import sys
import tempfile

import pytest

# Tests whose expectations are DuckDB's, not Spark's; epoxy follows Spark (see the README).
KNOWN_DIFFERENCES = {
    "test_date_diff": "date_diff(end, start) is end - start in Spark; the suite expects the opposite sign",
    "test_try_to_timestamp_with_format": "Spark patterns are Java's (yyyy-MM-dd); the suite passes strftime's %Y-%m-%d",
}
REQUIRED_PASS_RATE = 0.95


class Outcomes:
    def __init__(self):
        self.passed, self.skipped, self.failed = [], [], []

    def pytest_runtest_logreport(self, report):
        name = report.nodeid.split("::")[-1].split("[")[0]
        if report.when == "call" and report.passed and not hasattr(report, "wasxfail"):
            self.passed.append(report.nodeid)
        elif report.skipped and report.when in ("setup", "call"):
            self.skipped.append(report.nodeid)
        elif report.failed:
            text = str(report.longrepr)
            not_implemented = "NotImplementedError" in text
            self.failed.append((report.nodeid, name, not_implemented, text.splitlines()[-1] if text else ""))


def main():
    suite = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared/conformance/pyspark/tests")
    if not os.path.isdir(suite):
        print("skipped: the shared PySpark conformance suite is not at %s" % suite)
        return 77
    os.environ["EPOXY_HOME"] = tempfile.mkdtemp(prefix="epoxy-conformance-")
    outcomes = Outcomes()
    pytest.main(["-q", "-p", "no:cacheprovider", suite], plugins=[outcomes])
    ran = len(outcomes.passed) + len(outcomes.failed)
    rate = len(outcomes.passed) / ran if ran else 0.0
    print("pyspark conformance: %d passed, %d failed, %d skipped (%.1f%% of those run; %.0f%% required)" %
          (len(outcomes.passed), len(outcomes.failed), len(outcomes.skipped), 100 * rate, 100 * REQUIRED_PASS_RATE))
    ok = ran > 0 and rate >= REQUIRED_PASS_RATE
    for nodeid, name, not_implemented, last in outcomes.failed:
        if not_implemented:
            print("  not implemented: %s (%s)" % (nodeid, last))
        elif name in KNOWN_DIFFERENCES:
            print("  known difference: %s: %s" % (nodeid, KNOWN_DIFFERENCES[name]))
        else:
            print("  UNEXPECTED FAILURE: %s (%s)" % (nodeid, last))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
