# SPDX-License-Identifier: Apache-2.0
"""DataFrame: a lazily built Spark SQL query. Every transformation returns a new frame whose
query wraps (or extends) its input's; actions hand the query to the native engine, which plans,
optimizes and runs it. Python never touches the rows except to return them from collect()."""
from epoxy.runtime import decode_rows, engine, fresh_name, quote
from pyspark.errors import AnalysisException, PySparkNotImplementedError, PySparkTypeError, PySparkValueError, from_engine
from pyspark.sql.column import Column, _col_sql, literal_sql, resolve_refs, _ref
from pyspark.sql.types import StructType, StructField, _parse_datatype_string

__all__ = ["DataFrame", "DataFrameNaFunctions", "DataFrameStatFunctions"]

_JOIN_TYPES = {
    "inner": "INNER JOIN", "cross": "CROSS JOIN", "outer": "FULL OUTER JOIN", "full": "FULL OUTER JOIN",
    "fullouter": "FULL OUTER JOIN", "full_outer": "FULL OUTER JOIN", "left": "LEFT OUTER JOIN",
    "leftouter": "LEFT OUTER JOIN", "left_outer": "LEFT OUTER JOIN", "right": "RIGHT OUTER JOIN",
    "rightouter": "RIGHT OUTER JOIN", "right_outer": "RIGHT OUTER JOIN", "semi": "LEFT SEMI JOIN",
    "leftsemi": "LEFT SEMI JOIN", "left_semi": "LEFT SEMI JOIN", "anti": "LEFT ANTI JOIN",
    "leftanti": "LEFT ANTI JOIN", "left_anti": "LEFT ANTI JOIN",
}


def call_engine(fn, *args):
    """Runs an engine call, turning its errors into PySpark's exceptions."""
    from epoxy.runtime import native
    try:
        return fn(*args)
    except native().Error as e:
        message = str(e)
        if "unknown function" in message:
            raise PySparkNotImplementedError(message + " (not supported by epoxy)") from None
        raise from_engine(e) from None


def _flatten(cols):
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        return list(cols[0])
    return list(cols)


class DataFrame:
    """Query parts: FROM text (`_from`, in which `_visible` aliases can be named), WHERE conditions,
    the select list (None: every column), GROUP BY, ORDER BY, LIMIT. An operation extends these
    when SQL allows it at the same level and wraps the query in a subquery otherwise."""

    def __init__(self, session, from_sql, visible, alias=None, items=None, where=(), group=None,
                 order=None, limit=None, distinct=False, hints=(), hint=None):
        self.sparkSession = session
        self._from = from_sql
        self._visible = list(visible)
        self._alias = alias or fresh_name("df")
        self._items = items
        self._where = list(where)
        self._group = group
        self._order = order
        self._limit = limit
        self._distinct = distinct
        self._hints = list(hints)
        self._hint = hint  # a hint for the frame that joins this one (broadcast)
        self._schema_cache = None
        self._cached = False

    @classmethod
    def _of_source(cls, session, name):
        alias = fresh_name("df")
        return cls(session, "%s AS %s" % (quote(name), quote(alias)), [alias], alias=alias)

    @classmethod
    def _of_sql(cls, session, sql):
        alias = fresh_name("df")
        return cls(session, "(%s) AS %s" % (sql, quote(alias)), [alias], alias=alias)

    # The query text.
    def _sql(self):
        items = ", ".join(self._items) if self._items is not None else "*"
        hints = "/*+ %s */ " % ", ".join(self._hints) if self._hints else ""
        text = "SELECT %s%s%s FROM %s" % (hints, "DISTINCT " if self._distinct else "", items, self._from)
        if self._where:
            text += " WHERE " + " AND ".join("(%s)" % w for w in self._where)
        if self._group is not None:
            text += " GROUP BY " + ", ".join(self._group) if self._group else ""
        if self._order:
            text += " ORDER BY " + ", ".join(self._order)
        if self._limit is not None:
            text += " LIMIT %d" % self._limit
        return text

    def _simple(self):
        return (self._items is None and self._group is None and not self._order and self._limit is None
                and not self._distinct)

    def _wrapped(self):
        """This frame as the FROM of a new query, under its alias."""
        return DataFrame(self.sparkSession, "(%s) AS %s" % (self._sql(), quote(self._alias)), [self._alias],
                         alias=self._alias)

    def _base(self):
        """A frame to which a select list or filter can be added."""
        return self if self._simple() else self._wrapped()

    def _copy(self, **changes):
        fields = dict(session=self.sparkSession, from_sql=self._from, visible=self._visible, alias=self._alias,
                      items=self._items, where=self._where, group=self._group, order=self._order,
                      limit=self._limit, distinct=self._distinct, hints=self._hints, hint=None)
        fields.update(changes)
        return DataFrame(**fields)

    def _resolve(self, column):
        """The SQL of `column` inside this frame's query."""
        if isinstance(column, str):
            column = Column(_col_sql(column))
        return resolve_refs(column._sql, self._visible, None)

    def _item(self, column):
        """A select-list item: the expression and its alias."""
        if isinstance(column, str):
            if column == "*":
                return "*"
            return _col_sql(column)
        sql = self._resolve(column)
        if column._alias is not None:
            return "%s AS %s" % (sql, quote(column._alias))
        return sql

    # Schema
    @property
    def schema(self):
        if self._schema_cache is None:
            fields = call_engine(engine().schema, self._sql())
            self._schema_cache = StructType([StructField(n, _parse_datatype_string(t), True) for n, t in fields])
        return self._schema_cache

    @property
    def columns(self):
        return [f.name for f in self.schema.fields]

    @property
    def dtypes(self):
        return [(f.name, f.dataType.simpleString()) for f in self.schema.fields]

    def printSchema(self, level=None):
        print(self.schema.treeString(level), end="")

    def __getitem__(self, item):
        if isinstance(item, str):
            return self._column(item)
        if isinstance(item, Column):
            return self.filter(item)
        if isinstance(item, (list, tuple)):
            return self.select(*item)
        if isinstance(item, int):
            return self._column(self.columns[item])
        raise PySparkTypeError("unexpected item type: %s" % type(item))

    def __getattr__(self, name):
        if name.startswith("_") or name in ("sparkSession",):
            raise AttributeError(name)
        if name not in self.columns:
            raise AttributeError("'DataFrame' object has no attribute '%s'" % name)
        return self._column(name)

    def _column(self, name):
        if name != "*" and name.split(".")[0] not in self.columns and "`" not in name:
            raise AnalysisException("[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name "
                                    "`%s` cannot be resolved. Did you mean one of the following? [%s]" %
                                    (name, ", ".join("`%s`" % c for c in self.columns)))
        return Column(_ref(self._alias, name))

    def col(self, name):
        return self._column(name)

    # Transformations
    def select(self, *cols):
        cols = _flatten(cols)
        base = self._base()
        items = [base._item(c) for c in cols]
        return base._copy(items=items)

    def selectExpr(self, *exprs):
        exprs = _flatten(exprs)
        base = self._base()
        return base._copy(items=list(exprs))

    def filter(self, condition):
        base = self._base()
        sql = condition if isinstance(condition, str) else base._resolve(condition)
        out = base._copy(where=base._where + [sql])
        return out

    where = filter

    def withColumn(self, colName, col):
        if not isinstance(col, Column):
            raise PySparkTypeError("[NOT_COLUMN] Argument `col` should be a Column, got %s." % type(col).__name__)
        return self.withColumns({colName: col})

    def withColumns(self, *colsMap):
        if len(colsMap) != 1 or not isinstance(colsMap[0], dict):
            raise PySparkTypeError("[NOT_DICT] Argument `colsMap` should be a dict")
        mapping = colsMap[0]
        for value in mapping.values():
            if not isinstance(value, Column):
                raise PySparkTypeError("[NOT_COLUMN] withColumns takes Columns, got %s." % type(value).__name__)
        names = self.columns
        base = self._base()
        lowered = {n.lower(): n for n in names}
        if len(lowered) != len(names):
            # A join's duplicate names cannot be listed one by one: new columns follow `*`.
            for key in mapping:
                if key.lower() in lowered:
                    raise AnalysisException("[AMBIGUOUS_REFERENCE] withColumn('%s') on a frame holding two columns "
                                            "of that name" % key)
            return base._copy(items=["*"] + ["%s AS %s" % (base._resolve(v), quote(k)) for k, v in mapping.items()])
        replaced = {k.lower(): k for k in mapping}
        items = []
        for n in names:
            key = replaced.get(n.lower())
            items.append("%s AS %s" % (base._resolve(mapping[key]), quote(key)) if key is not None else quote(n))
        for key, value in mapping.items():
            if key.lower() not in lowered:
                items.append("%s AS %s" % (base._resolve(value), quote(key)))
        return base._copy(items=items)

    def withColumnRenamed(self, existing, new):
        return self.withColumnsRenamed({existing: new})

    def withColumnsRenamed(self, colsMap):
        if not isinstance(colsMap, dict):
            raise PySparkTypeError("[NOT_DICT] Argument `colsMap` should be a dict")
        base = self._base()
        items = []
        lowered = {k.lower(): v for k, v in colsMap.items()}
        for n in self.columns:
            if n.lower() in lowered:
                items.append("%s AS %s" % (quote(n), quote(lowered[n.lower()])))
            else:
                items.append(quote(n))
        return base._copy(items=items)

    def toDF(self, *cols):
        names = self.columns
        if len(cols) != len(names):
            raise PySparkValueError("toDF: %d names for %d columns" % (len(cols), len(names)))
        base = self._base()
        return base._copy(items=["%s AS %s" % (quote(o), quote(n)) for o, n in zip(names, cols)])

    def drop(self, *cols):
        names = self.columns
        dropped = set()
        for c in cols:
            if isinstance(c, Column):
                import re
                m = re.fullmatch("\x00[^\x01]*\x01([^\x00]*)\x00", c._sql) or re.fullmatch(r"`([^`]*)`", c._sql)
                if not m:
                    raise PySparkNotImplementedError("drop() of an expression that is not a column is not supported by epoxy")
                dropped.add(m.group(1).lower())
            else:
                dropped.add(c.lower())
        keep = [n for n in names if n.lower() not in dropped]
        if len(keep) == len(names):
            return self
        base = self._base()
        return base._copy(items=[quote(n) for n in keep])

    def alias(self, alias):
        return self._wrapped()._rename_alias(alias)

    def _rename_alias(self, alias):
        # The wrapped query is FROM (...) AS <old>; put it under the new alias.
        sql = self._from.rsplit(" AS ", 1)[0]
        return DataFrame(self.sparkSession, "%s AS %s" % (sql, quote(alias)), [alias], alias=alias)

    def limit(self, num):
        if self._limit is not None:
            return self._wrapped()._copy(limit=num)
        return self._copy(limit=int(num))

    def offset(self, num):
        raise PySparkNotImplementedError("DataFrame.offset is not supported by epoxy")

    def distinct(self):
        if self._order or self._limit is not None:
            return self._wrapped()._copy(distinct=True)
        return self._copy(distinct=True)

    def dropDuplicates(self, subset=None):
        if subset is None:
            return self.distinct()
        if not isinstance(subset, (list, tuple)):
            raise PySparkTypeError("[NOT_LIST_OR_TUPLE] Argument `subset` should be a list or tuple, got %s." %
                                   type(subset).__name__)
        names = self.columns
        for s in subset:
            if s not in names:
                raise AnalysisException("[UNRESOLVED_COLUMN] dropDuplicates: cannot resolve column `%s` among %s" % (s, names))
        # One row per key: any_value of the other columns (Spark keeps the first row it meets).
        keys = [quote(s) for s in subset]
        base = self._wrapped()
        items = []
        for n in names:
            items.append(quote(n) if n in subset else "first(%s) AS %s" % (quote(n), quote(n)))
        return base._copy(items=items, group=keys)

    drop_duplicates = dropDuplicates

    def dropDuplicatesWithinWatermark(self, subset=None):
        return self.dropDuplicates(subset)

    def _sort_items(self, cols, ascending):
        cols = _flatten(cols)
        if not cols:
            raise PySparkValueError("[CANNOT_BE_EMPTY] At least one column must be specified.")
        if isinstance(ascending, (bool, int)) and not isinstance(ascending, list):
            ascending = [bool(ascending)] * len(cols)
        elif isinstance(ascending, list):
            if len(ascending) != len(cols):
                raise PySparkValueError("ascending has %d values for %d columns" % (len(ascending), len(cols)))
        else:
            raise PySparkTypeError("[NOT_BOOL_OR_LIST] Argument `ascending` should be a bool or a list, got %s." %
                                   type(ascending).__name__)
        out = []
        for c, asc in zip(cols, ascending):
            if isinstance(c, int) and not isinstance(c, bool):
                if c == 0:
                    raise PySparkIndexError("[ZERO_INDEX] Index must be non-zero.")
                name = self.columns[abs(c) - 1]
                asc = asc and c > 0
                c = Column(quote(name))
            if isinstance(c, str):
                c = Column(_col_sql(c))
            if not isinstance(c, Column):
                raise PySparkTypeError("[NOT_COLUMN_OR_INT_OR_STR] Argument `col` should be a Column, int or str, "
                                       "got %s." % type(c).__name__)
            sort = c._sort
            if sort is None:
                sort = "ASC NULLS FIRST" if asc else "DESC NULLS LAST"
            elif not asc:
                sort = "DESC NULLS LAST" if sort.startswith("ASC") else "ASC NULLS FIRST"
            out.append((c, sort))
        return out

    def orderBy(self, *cols, **kwargs):
        ascending = kwargs.get("ascending", True)
        keys = self._sort_items(cols, ascending)
        base = self if (not self._order and self._limit is None) else self._wrapped()
        return base._copy(order=["%s %s" % (base._resolve(c), s) for c, s in keys])

    sort = orderBy

    def sortWithinPartitions(self, *cols, **kwargs):
        return self.orderBy(*cols, **kwargs)

    def groupBy(self, *cols):
        from pyspark.sql.group import GroupedData
        return GroupedData(self, _flatten(cols))

    groupby = groupBy

    def rollup(self, *cols):
        from pyspark.sql.group import GroupedData
        return GroupedData(self, _flatten(cols), "ROLLUP")

    def cube(self, *cols):
        from pyspark.sql.group import GroupedData
        return GroupedData(self, _flatten(cols), "CUBE")

    def agg(self, *exprs):
        return self.groupBy().agg(*exprs)

    def _join_alias(self, other):
        if other._alias == self._alias:
            return other._wrapped()._rename_alias(fresh_name("df"))
        return other

    def join(self, other, on=None, how=None):
        how = "inner" if how is None else how
        key = how.lower().replace(" ", "") if isinstance(how, str) else how
        if key not in _JOIN_TYPES:
            raise AnalysisException("[UNSUPPORTED_JOIN_TYPE] Unsupported join type '%s'. Supported join types include: "
                                    "'inner', 'outer', 'full', 'fullouter', 'full_outer', 'leftouter', 'left', "
                                    "'left_outer', 'rightouter', 'right', 'right_outer', 'leftsemi', 'left_semi', "
                                    "'semi', 'leftanti', 'left_anti', 'anti', 'cross'." % how)
        right = self._join_alias(other)
        left_sql = "(%s) AS %s" % (self._sql(), quote(self._alias))
        right_sql = "(%s) AS %s" % (right._sql(), quote(right._alias))
        visible = [self._alias, right._alias]
        join = _JOIN_TYPES[key]
        if on is None:
            if key == "inner":
                join = "CROSS JOIN"
            condition = "" if join == "CROSS JOIN" else " ON true"
        elif isinstance(on, str) or (isinstance(on, (list, tuple)) and on and all(isinstance(o, str) for o in on)):
            names = [on] if isinstance(on, str) else list(on)
            condition = " USING (%s)" % ", ".join(quote(n) for n in names)
        else:
            conds = on if isinstance(on, (list, tuple)) else [on]
            condition = " ON " + " AND ".join("(%s)" % resolve_refs(c._sql, visible, None) for c in conds)
        if join == "CROSS JOIN" and condition.startswith(" ON"):
            join = "INNER JOIN"
        hints = []
        if other._hint:
            hints.append("%s(%s)" % (other._hint, quote(right._alias)))
        if self._hint:
            hints.append("%s(%s)" % (self._hint, quote(self._alias)))
        return DataFrame(self.sparkSession, "%s %s %s%s" % (left_sql, join, right_sql, condition), visible,
                         hints=hints)

    def crossJoin(self, other):
        right = self._join_alias(other)
        return DataFrame(self.sparkSession, "(%s) AS %s CROSS JOIN (%s) AS %s" % (
            self._sql(), quote(self._alias), right._sql(), quote(right._alias)), [self._alias, right._alias])

    def _with_hint(self, hint):
        out = self._copy()
        out._hint = hint
        return out

    def hint(self, name, *parameters):
        if name.lower() in ("broadcast", "broadcastjoin", "mapjoin"):
            return self._with_hint("BROADCAST")
        return self

    def _set_op(self, other, op):
        sql = "(SELECT * FROM (%s) AS %s) %s (SELECT * FROM (%s) AS %s)" % (
            self._sql(), quote(fresh_name("l")), op, other._sql(), quote(fresh_name("r")))
        return DataFrame._of_sql(self.sparkSession, sql)

    def union(self, other):
        return self._set_op(other, "UNION ALL")

    unionAll = union

    def unionByName(self, other, allowMissingColumns=False):
        mine = self.columns
        theirs = other.columns
        lowered = {n.lower(): n for n in theirs}
        items = []
        for n in mine:
            if n.lower() in lowered:
                items.append(quote(lowered[n.lower()]))
            elif allowMissingColumns:
                items.append("NULL AS %s" % quote(n))
            else:
                raise AnalysisException("[NUM_COLUMNS_MISMATCH] Cannot resolve column name \"%s\" among (%s)" %
                                        (n, ", ".join(theirs)))
        left = self
        if allowMissingColumns:
            extra = [n for n in theirs if n.lower() not in {m.lower() for m in mine}]
            if extra:
                left = self.select(*([Column(quote(n)) for n in mine] + [Column("NULL", alias=n) for n in extra]))
                items += [quote(n) for n in extra]
        elif len(theirs) != len(mine):
            raise AnalysisException("[NUM_COLUMNS_MISMATCH] unionByName: %d columns and %d columns" % (len(mine), len(theirs)))
        right = other._base()._copy(items=items)
        return left._set_op(right, "UNION ALL")

    def intersect(self, other):
        return self._set_op(other, "INTERSECT")

    def intersectAll(self, other):
        return self._set_op(other, "INTERSECT ALL")

    def subtract(self, other):
        return self._set_op(other, "EXCEPT")

    def exceptAll(self, other):
        return self._set_op(other, "EXCEPT ALL")

    def repartition(self, numPartitions, *cols):
        if isinstance(numPartitions, (str, Column)):
            cols = (numPartitions,) + cols
            numPartitions = None
        base = self._wrapped()
        keys = [base._resolve(c) for c in cols]
        if numPartitions is None:
            hint = "REPARTITION(%s)" % ", ".join(keys)
        elif keys:
            hint = "REPARTITION(%d, %s)" % (numPartitions, ", ".join(keys))
        else:
            hint = "REPARTITION(%d)" % numPartitions
        return base._copy(hints=[hint])

    def repartitionByRange(self, numPartitions, *cols):
        return self.repartition(numPartitions, *cols)

    def coalesce(self, numPartitions):
        return self._wrapped()._copy(hints=["COALESCE(%d)" % numPartitions])

    def transform(self, func, *args, **kwargs):
        result = func(self, *args, **kwargs)
        if not isinstance(result, DataFrame):
            raise PySparkTypeError("[NOT_DATAFRAME] Func returned an instance of type [%s], should have been DataFrame." %
                                   type(result).__name__)
        return result

    def cache(self):
        """Computes the frame once, now, and keeps its rows in memory (within the memory limit):
        this frame and those derived from it afterwards read them instead of their sources."""
        if self._cached:
            return self
        name = fresh_name("cache")
        call_engine(engine().materialize, name, self._sql())
        self._uncached = (self._from, self._visible, self._items, self._where, self._group, self._order, self._limit,
                          self._distinct, self._hints)
        self._from = "%s AS %s" % (quote(name), quote(self._alias))
        self._visible = [self._alias]
        self._items, self._where, self._group, self._order, self._limit = None, [], None, None, None
        self._distinct, self._hints = False, []
        self._cache_name = name
        self._cached = True
        return self

    def persist(self, storageLevel=None):
        return self.cache()

    def unpersist(self, blocking=False):
        if self._cached:
            # Frames derived while it was cached keep reading the cached rows, so they stay held.
            (self._from, self._visible, self._items, self._where, self._group, self._order, self._limit,
             self._distinct, self._hints) = self._uncached
            self._cached = False
        return self

    @property
    def is_cached(self):
        return self._cached

    def checkpoint(self, eager=True):
        return self

    localCheckpoint = checkpoint

    def createOrReplaceTempView(self, name):
        call_engine(engine().register_view, name, self._sql())

    def createTempView(self, name):
        if engine().has_view(name):
            raise AnalysisException("[TEMP_TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create the temporary view `%s` because "
                                    "it already exists." % name)
        self.createOrReplaceTempView(name)

    createOrReplaceGlobalTempView = createOrReplaceTempView
    registerTempTable = createOrReplaceTempView

    def fillna(self, value, subset=None):
        return DataFrameNaFunctions(self).fill(value, subset)

    def dropna(self, how="any", thresh=None, subset=None):
        return DataFrameNaFunctions(self).drop(how, thresh, subset)

    def replace(self, to_replace, value=None, subset=None):
        return DataFrameNaFunctions(self).replace(to_replace, value, subset)

    @property
    def na(self):
        return DataFrameNaFunctions(self)

    @property
    def stat(self):
        return DataFrameStatFunctions(self)

    def describe(self, *cols):
        cols = _flatten(cols) or [f.name for f in self.schema.fields
                                  if f.dataType.typeName() in ("integer", "long", "short", "byte", "double", "float",
                                                               "decimal", "string")]
        from pyspark.sql import functions as F
        parts = []
        for stat, fn in (("count", "count"), ("mean", "avg"), ("stddev", "stddev"), ("min", "min"), ("max", "max")):
            items = [Column(literal_sql(stat), alias="summary")]
            for c in cols:
                dtype = self.schema[c].dataType.typeName()
                inner = "%s(%s)" % (fn, quote(c))
                if dtype == "string" and fn in ("avg", "stddev"):
                    inner = "NULL"
                items.append(Column("CAST(%s AS STRING)" % inner, alias=c))
            parts.append(self.select(*items))
        out = parts[0]
        for p in parts[1:]:
            out = out.union(p)
        return out

    summary = describe

    # Actions
    def collect(self):
        text, _ = call_engine(engine().collect, self._sql())
        return decode_rows(text, self.schema)

    def toLocalIterator(self, prefetchPartitions=False):
        return iter(self.collect())

    def take(self, num):
        return self.limit(num).collect()

    def head(self, n=None):
        if n is None:
            rows = self.take(1)
            return rows[0] if rows else None
        return self.take(n)

    def first(self):
        return self.head()

    def tail(self, num):
        return self.collect()[-num:] if num > 0 else []

    def count(self):
        text, _ = call_engine(engine().collect, "SELECT count(1) FROM (%s) AS %s" % (self._sql(), quote(fresh_name("c"))))
        import json
        return int(next(iter(json.loads(text.splitlines()[0]).values())))

    def isEmpty(self):
        return len(self.take(1)) == 0

    def show(self, n=20, truncate=True, vertical=False):
        from pyspark.sql._show import table_text
        if not isinstance(n, int) or isinstance(n, bool):
            raise PySparkTypeError("[NOT_INT] Argument `n` should be an int, got %s." % type(n).__name__)
        rows = self.take(n + 1)
        print(table_text(self.columns, rows[:n], truncate, len(rows) > n, vertical, n), end="")

    def explain(self, extended=None, mode=None):
        print(call_engine(engine().explain, self._sql()))

    def foreach(self, f):
        for row in self.collect():
            f(row)

    def foreachPartition(self, f):
        f(iter(self.collect()))

    def toPandas(self):
        raise PySparkNotImplementedError("DataFrame.toPandas is not supported by epoxy (no pandas on these machines)")

    @property
    def write(self):
        from pyspark.sql.readwriter import DataFrameWriter
        return DataFrameWriter(self)

    @property
    def rdd(self):
        raise PySparkNotImplementedError("DataFrame.rdd is not supported by epoxy: there is no RDD layer")

    @property
    def isStreaming(self):
        return False

    def __repr__(self):
        try:
            return "DataFrame[%s]" % ", ".join("%s: %s" % (n, t) for n, t in self.dtypes)
        except Exception:
            return "DataFrame[...]"


def _value_matches(value, dtype):
    name = dtype.typeName()
    if isinstance(value, bool):
        return name == "boolean"
    if isinstance(value, (int, float)):
        return name in ("integer", "long", "short", "byte", "double", "float", "decimal")
    if isinstance(value, str):
        return name == "string"
    return False


class DataFrameNaFunctions:
    def __init__(self, df):
        self.df = df

    def fill(self, value, subset=None):
        df = self.df
        if isinstance(value, dict):
            mapping = value
        else:
            if not isinstance(value, (int, float, str, bool)):
                raise PySparkTypeError("[NOT_BOOL_OR_DICT_OR_FLOAT_OR_INT_OR_STR] value should be a bool, dict, float, "
                                       "int or str, got %s." % type(value).__name__)
            if isinstance(subset, str):
                subset = [subset]
            names = subset or df.columns
            mapping = {n: value for n in names if _value_matches(value, df.schema[n].dataType)}
        items = []
        for f in df.schema.fields:
            if f.name in mapping:
                v = mapping[f.name]
                items.append("coalesce(%s, CAST(%s AS %s)) AS %s" % (quote(f.name), literal_sql(v),
                                                                     f.dataType._engine_type(), quote(f.name)))
            else:
                items.append(quote(f.name))
        return df._base()._copy(items=items)

    def drop(self, how="any", thresh=None, subset=None):
        df = self.df
        if isinstance(subset, str):
            subset = [subset]
        names = subset or df.columns
        nonnull = " + ".join("(CASE WHEN %s IS NOT NULL THEN 1 ELSE 0 END)" % quote(n) for n in names)
        if thresh is None:
            thresh = len(names) if how == "any" else 1
        return df.filter("%s >= %d" % (nonnull, thresh))

    def replace(self, to_replace, value=None, subset=None):
        df = self.df
        if isinstance(to_replace, dict):
            mapping = to_replace
        elif isinstance(to_replace, (list, tuple)):
            values = value if isinstance(value, (list, tuple)) else [value] * len(to_replace)
            mapping = dict(zip(to_replace, values))
        else:
            mapping = {to_replace: value}
        if isinstance(subset, str):
            subset = [subset]
        names = subset or df.columns
        items = []
        for f in df.schema.fields:
            pairs = [(k, v) for k, v in mapping.items() if f.name in names and _value_matches(k, f.dataType)]
            if pairs:
                cases = " ".join("WHEN %s = %s THEN %s" % (quote(f.name), literal_sql(k), literal_sql(v)) for k, v in pairs)
                items.append("CAST(CASE %s ELSE %s END AS %s) AS %s" % (cases, quote(f.name), f.dataType._engine_type(),
                                                                       quote(f.name)))
            else:
                items.append(quote(f.name))
        return df._base()._copy(items=items)


class DataFrameStatFunctions:
    def __init__(self, df):
        self.df = df

    def __getattr__(self, name):
        raise PySparkNotImplementedError("DataFrame.stat.%s is not supported by epoxy" % name)


from pyspark.errors import PySparkIndexError  # noqa: E402
