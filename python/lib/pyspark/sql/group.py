# SPDX-License-Identifier: Apache-2.0
"""GroupedData: groupBy(...) waiting for its aggregates."""
from epoxy.runtime import quote
from pyspark.errors import PySparkNotImplementedError, PySparkTypeError
from pyspark.sql.column import Column, _col_sql

__all__ = ["GroupedData"]

_DICT_FUNCTIONS = {"mean": "avg", "average": "avg", "avg": "avg", "sum": "sum", "min": "min", "max": "max",
                   "count": "count", "first": "first", "last": "last", "stddev": "stddev", "variance": "variance",
                   "collect_list": "collect_list", "collect_set": "collect_set"}


class GroupedData:
    def __init__(self, df, keys, kind=None):
        self._df = df
        self._keys = keys
        self._kind = kind  # None, "ROLLUP" or "CUBE"

    def agg(self, *exprs):
        if len(exprs) == 1 and isinstance(exprs[0], dict):
            columns = []
            for name, fn in exprs[0].items():
                f = _DICT_FUNCTIONS.get(fn.lower(), fn)
                columns.append(Column("count(1)" if name == "*" and f == "count" else "%s(%s)" % (f, _col_sql(name))))
            exprs = columns
        if not exprs:
            raise PySparkTypeError("[CANNOT_BE_EMPTY] At least one agg expression must be specified")
        for e in exprs:
            if not isinstance(e, Column):
                raise PySparkTypeError("[NOT_COLUMN] agg() takes Columns or one dict, got %s." % type(e).__name__)
        return self._aggregate(list(exprs))

    def _aggregate(self, exprs):
        base = self._df._base()
        keys = [base._resolve(k) if isinstance(k, Column) else _col_sql(k) for k in self._keys]
        key_items = []
        for k, raw in zip(keys, self._keys):
            if isinstance(raw, Column) and raw._alias:
                key_items.append("%s AS %s" % (k, quote(raw._alias)))
            else:
                key_items.append(k)
        items = key_items + [base._item(e) for e in exprs]
        group = keys
        if self._kind and keys:
            group = ["%s(%s)" % (self._kind, ", ".join(keys))]
        return base._copy(items=items, group=group)

    def _numeric(self, fn, cols):
        if not cols:
            names = [f.name for f in self._df.schema.fields
                     if f.dataType.typeName() in ("integer", "long", "short", "byte", "double", "float", "decimal")
                     and f.name not in self._keys]
        else:
            names = list(cols)
        return self._aggregate([Column("%s(%s)" % (fn, _col_sql(n))) for n in names])

    def count(self):
        return self._aggregate([Column("count(1)", alias="count")])

    def sum(self, *cols):
        return self._numeric("sum", cols)

    def avg(self, *cols):
        return self._numeric("avg", cols)

    mean = avg

    def min(self, *cols):
        return self._numeric("min", cols)

    def max(self, *cols):
        return self._numeric("max", cols)

    def pivot(self, pivot_col, values=None):
        raise PySparkNotImplementedError("GroupedData.pivot is not supported by epoxy")

    def applyInPandas(self, func, schema):
        raise PySparkNotImplementedError("GroupedData.applyInPandas is not supported by epoxy")

    apply = applyInPandas
