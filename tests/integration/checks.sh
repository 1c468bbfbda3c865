# SPDX-License-Identifier: Apache-2.0
# Sourced by the integration tests: `check NAME EXPECTED ACTUAL` compares and reports one result
# (long values are cut in the report), `finish` ends the test with the count of failures.
failures=0
check() {
  if [ "$2" == "$3" ]; then echo "ok: $1"; else
    echo "FAIL: $1"; printf '  expected: %s' "$2" | head -c 400; echo; printf '  actual:   %s' "$3" | head -c 400; echo
    failures=$((failures + 1)); fi
}
finish() {
  if [ $failures -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
  echo "all checks passed"
}
