# SPDX-License-Identifier: Apache-2.0
"""Window and WindowSpec: the OVER clause of a windowed call."""
import sys

from pyspark.sql.column import Column, _col_sql

__all__ = ["Window", "WindowSpec"]


def _order_sql(c):
    if isinstance(c, Column):
        return c._sql + (" " + c._sort if c._sort else "")
    return _col_sql(c)


def _cols(cols):
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        return list(cols[0])
    return list(cols)


class WindowSpec:
    def __init__(self, partition=(), order=(), frame=None):
        self._partition = list(partition)
        self._order = list(order)
        self._frame = frame

    def partitionBy(self, *cols):
        return WindowSpec([_col_sql(c) for c in _cols(cols)], self._order, self._frame)

    def orderBy(self, *cols):
        return WindowSpec(self._partition, [_order_sql(c) for c in _cols(cols)], self._frame)

    def rowsBetween(self, start, end):
        return WindowSpec(self._partition, self._order, "ROWS BETWEEN %s AND %s" % (_bound(start, True), _bound(end, False)))

    def rangeBetween(self, start, end):
        return WindowSpec(self._partition, self._order, "RANGE BETWEEN %s AND %s" % (_bound(start, True), _bound(end, False)))

    def _spec_sql(self):
        parts = []
        if self._partition:
            parts.append("PARTITION BY " + ", ".join(self._partition))
        if self._order:
            parts.append("ORDER BY " + ", ".join(self._order))
        if self._frame:
            parts.append(self._frame)
        return " ".join(parts)


def _bound(value, start):
    if value <= Window.unboundedPreceding:
        return "UNBOUNDED PRECEDING"
    if value >= Window.unboundedFollowing:
        return "UNBOUNDED FOLLOWING"
    if value == 0:
        return "CURRENT ROW"
    if value < 0:
        return "%d PRECEDING" % -value
    return "%d FOLLOWING" % value


class Window:
    _JAVA_MIN_LONG = -(1 << 63)
    _JAVA_MAX_LONG = (1 << 63) - 1
    _PRECEDING_THRESHOLD = max(-sys.maxsize, _JAVA_MIN_LONG)
    _FOLLOWING_THRESHOLD = min(sys.maxsize, _JAVA_MAX_LONG)
    unboundedPreceding = _JAVA_MIN_LONG
    unboundedFollowing = _JAVA_MAX_LONG
    currentRow = 0

    @staticmethod
    def partitionBy(*cols):
        return WindowSpec().partitionBy(*cols)

    @staticmethod
    def orderBy(*cols):
        return WindowSpec().orderBy(*cols)

    @staticmethod
    def rowsBetween(start, end):
        return WindowSpec().rowsBetween(start, end)

    @staticmethod
    def rangeBetween(start, end):
        return WindowSpec().rangeBetween(start, end)
