# SPDX-License-Identifier: Apache-2.0
"""Column: a Spark SQL expression as text. The native engine parses, types and names it, so
generated column names are Spark's (`(a + 1)`, `sum(amount)`).

A reference taken from a DataFrame (`df.id`, `df["id"]`) is written as a placeholder naming that
frame; the frame the expression is used in resolves it (qualified when that frame's FROM still
shows the alias, plain otherwise), as Spark resolves attributes by their origin.
"""
import re

from epoxy.lazy import LazyModule

_dt = LazyModule("datetime")
_decimal = LazyModule("decimal")

from epoxy.runtime import quote, sql_string

__all__ = ["Column"]

_REF = re.compile("\x00([^\x01]*)\x01([^\x00]*)\x00")


def _ref(alias, name):
    return "\x00%s\x01%s\x00" % (alias, name)


def resolve_refs(sql, visible_aliases, columns):
    """Replaces frame references in `sql`: qualified when the alias is visible, else by name."""
    def repl(m):
        alias, name = m.group(1), m.group(2)
        if alias in visible_aliases:
            return quote(alias) + "." + _column_path(name)
        if columns is not None and name.split(".")[0] not in columns and name != "*":
            from pyspark.errors import AnalysisException
            raise AnalysisException("[UNRESOLVED_COLUMN] Column '%s' of another DataFrame is not among %s" % (name, columns))
        return _column_path(name)
    return _REF.sub(repl, sql)


def _column_path(name):
    """`a.b` as a nested reference, `` `a.b` `` kept as one name, `*` as is."""
    if name == "*":
        return "*"
    if "`" in name:
        return name
    if name.endswith(".*"):
        return _column_path(name[:-2]) + ".*"
    return ".".join(quote(p) for p in name.split("."))


def literal_sql(value):
    """A Python value as a Spark SQL literal."""
    if isinstance(value, Column):
        return value._sql
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if -(2 ** 31) <= value < 2 ** 31:
            return str(value)
        return "%dL" % value
    if isinstance(value, float):
        if value != value:
            return "CAST('NaN' AS DOUBLE)"
        if value in (float("inf"), float("-inf")):
            return "CAST('%s' AS DOUBLE)" % ("Infinity" if value > 0 else "-Infinity")
        return repr(value) + "D"
    if isinstance(value, str):
        return sql_string(value)
    if isinstance(value, _decimal.Decimal):
        return str(value) + "BD"
    if isinstance(value, _dt.datetime):
        return "TIMESTAMP '%s'" % value.isoformat(sep=" ")
    if isinstance(value, _dt.date):
        return "DATE '%s'" % value.isoformat()
    if isinstance(value, (list, tuple)):
        from pyspark.errors import PySparkNotImplementedError
        raise PySparkNotImplementedError("lit() of a list: array literals are not supported by epoxy")
    from pyspark.errors import PySparkTypeError
    raise PySparkTypeError("[UNSUPPORTED_LITERAL] lit() does not take a %s" % type(value).__name__)


def _to_sql(value):
    if isinstance(value, Column):
        return value._sql
    return literal_sql(value)


def _col_sql(name):
    if isinstance(name, Column):
        return name._sql
    if not isinstance(name, str):
        from pyspark.errors import PySparkTypeError
        raise PySparkTypeError("[NOT_COLUMN_OR_STR] Argument `col` should be a Column or str, got %s." % type(name).__name__)
    return _column_path(name)


def _binary(op):
    def method(self, other):
        return Column("(%s %s %s)" % (self._sql, op, _to_sql(other)))
    return method


def _reverse(op):
    def method(self, other):
        return Column("(%s %s %s)" % (_to_sql(other), op, self._sql))
    return method


class Column:
    def __init__(self, sql, alias=None, sort=None, name_hint=None):
        self._sql = sql
        self._alias = alias
        self._sort = sort  # "ASC NULLS FIRST" ... when this is a sort order

    # Arithmetic and comparison, as Spark writes them.
    __add__ = _binary("+")
    __sub__ = _binary("-")
    __mul__ = _binary("*")
    __truediv__ = _binary("/")
    __div__ = __truediv__
    __mod__ = _binary("%")
    __radd__ = _reverse("+")
    __rsub__ = _reverse("-")
    __rmul__ = _reverse("*")
    __rtruediv__ = _reverse("/")
    __rmod__ = _reverse("%")
    __eq__ = _binary("=")
    __ne__ = _binary("!=")
    __lt__ = _binary("<")
    __le__ = _binary("<=")
    __gt__ = _binary(">")
    __ge__ = _binary(">=")
    __and__ = _binary("AND")
    __or__ = _binary("OR")
    __rand__ = _reverse("AND")
    __ror__ = _reverse("OR")

    def __pow__(self, other):
        return Column("POWER(%s, %s)" % (self._sql, _to_sql(other)))

    def __neg__(self):
        return Column("(- %s)" % self._sql)

    def __invert__(self):
        return Column("(NOT %s)" % self._sql)

    def __bool__(self):
        from pyspark.errors import PySparkValueError
        raise PySparkValueError("Cannot convert column into bool: please use '&' for 'and', '|' for 'or', "
                                "'~' for 'not' when building DataFrame boolean expressions.")

    __nonzero__ = __bool__

    def __hash__(self):
        return hash(self._sql)

    def __iter__(self):
        from pyspark.errors import PySparkTypeError
        raise PySparkTypeError("[NOT_ITERABLE] Column is not iterable")

    def __repr__(self):
        return "Column<'%s'>" % _REF.sub(lambda m: m.group(2), self._sql)

    def __getattr__(self, item):
        if item.startswith("__"):
            raise AttributeError(item)
        return self.getField(item)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self.substr(key.start, key.stop)
        return self.getItem(key)

    def eqNullSafe(self, other):
        return Column("(%s <=> %s)" % (self._sql, _to_sql(other)))

    def bitwiseAND(self, other):
        return Column("(%s & %s)" % (self._sql, _to_sql(other)))

    def bitwiseOR(self, other):
        return Column("(%s | %s)" % (self._sql, _to_sql(other)))

    def bitwiseXOR(self, other):
        return Column("(%s ^ %s)" % (self._sql, _to_sql(other)))

    def alias(self, *alias, **kwargs):
        if len(alias) != 1:
            from pyspark.errors import PySparkNotImplementedError
            raise PySparkNotImplementedError("Column.alias with several names (for generators) is not supported by epoxy")
        return Column(self._sql, alias=alias[0])

    name = alias

    def cast(self, dataType):
        from pyspark.sql.types import DataType, _parse_datatype_string
        if isinstance(dataType, str):
            dataType = _parse_datatype_string(dataType)
        if not isinstance(dataType, DataType):
            from pyspark.errors import PySparkTypeError
            raise PySparkTypeError("[NOT_DATATYPE_OR_STR] Argument `dataType` should be a DataType or str")
        return Column("CAST(%s AS %s)" % (self._sql, dataType._engine_type().upper() if "<" not in dataType._engine_type() else dataType._engine_type()))

    astype = cast

    def isNull(self):
        return Column("(%s IS NULL)" % self._sql)

    def isNotNull(self):
        return Column("(%s IS NOT NULL)" % self._sql)

    def isNaN(self):
        return Column("isnan(%s)" % self._sql)

    def isin(self, *values):
        if len(values) == 1 and isinstance(values[0], (list, tuple, set)):
            values = list(values[0])
        if not values:
            return Column("false")
        return Column("(%s IN (%s))" % (self._sql, ", ".join(_to_sql(v) for v in values)))

    def between(self, lowerBound, upperBound):
        return Column("(%s BETWEEN %s AND %s)" % (self._sql, _to_sql(lowerBound), _to_sql(upperBound)))

    def like(self, other):
        return Column("%s LIKE %s" % (self._sql, _to_sql(other)))

    def ilike(self, other):
        return Column("lower(%s) LIKE lower(%s)" % (self._sql, _to_sql(other)))

    def rlike(self, other):
        return Column("%s RLIKE %s" % (self._sql, _to_sql(other)))

    def contains(self, other):
        return Column("contains(%s, %s)" % (self._sql, _to_sql(other)))

    def startswith(self, other):
        return Column("startswith(%s, %s)" % (self._sql, _to_sql(other)))

    def endswith(self, other):
        return Column("endswith(%s, %s)" % (self._sql, _to_sql(other)))

    def substr(self, startPos, length):
        return Column("substr(%s, %s, %s)" % (self._sql, _to_sql(startPos), _to_sql(length)))

    def getField(self, name):
        if re.fullmatch(r"(`[^`]*`\.?|\x00[^\x00]*\x00\.?)+", self._sql):
            return Column("%s.%s" % (self._sql, quote(name)))  # a column path: a.b
        return Column("%s[%s]" % (self._sql, sql_string(name)))

    def getItem(self, key):
        return Column("%s[%s]" % (self._sql, _to_sql(key)))

    def withField(self, fieldName, col):
        from pyspark.errors import PySparkNotImplementedError
        raise PySparkNotImplementedError("Column.withField is not supported by epoxy")

    def dropFields(self, *fieldNames):
        from pyspark.errors import PySparkNotImplementedError
        raise PySparkNotImplementedError("Column.dropFields is not supported by epoxy")

    def when(self, condition, value):
        if not self._sql.startswith("CASE") or not self._sql.endswith(" END") or " ELSE " in self._sql:
            from pyspark.errors import PySparkValueError
            raise PySparkValueError("when() can only be applied on a Column previously generated by when() function")
        return Column("%s WHEN %s THEN %s END" % (self._sql[:-4], _to_sql(condition), _to_sql(value)))

    def otherwise(self, value):
        if not self._sql.startswith("CASE") or not self._sql.endswith(" END") or " ELSE " in self._sql:
            from pyspark.errors import PySparkValueError
            raise PySparkValueError("otherwise() can only be applied on a Column previously generated by when()")
        return Column("%s ELSE %s END" % (self._sql[:-4], _to_sql(value)))

    def over(self, window):
        return Column("%s OVER (%s)" % (self._sql, window._spec_sql()))

    def asc(self):
        return Column(self._sql, sort="ASC NULLS FIRST")

    def asc_nulls_first(self):
        return Column(self._sql, sort="ASC NULLS FIRST")

    def asc_nulls_last(self):
        return Column(self._sql, sort="ASC NULLS LAST")

    def desc(self):
        return Column(self._sql, sort="DESC NULLS LAST")

    def desc_nulls_first(self):
        return Column(self._sql, sort="DESC NULLS FIRST")

    def desc_nulls_last(self):
        return Column(self._sql, sort="DESC NULLS LAST")


def col_ref(name):
    """F.col(name)."""
    return Column(_col_sql(name))
