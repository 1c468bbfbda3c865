# SPDX-License-Identifier: Apache-2.0
"""pyspark.sql.functions: each function builds the Spark SQL call the native engine evaluates.
A function the engine does not have fails when the plan is built, with NotImplementedError naming
it."""
import builtins as _builtins

from pyspark.sql.column import Column, _col_sql, _to_sql, col_ref, literal_sql

col = col_ref
column = col_ref


def lit(value):
    if isinstance(value, Column):
        return value
    return Column(literal_sql(value))


def expr(text):
    return Column(text)


def _c(x):
    """A column argument: a name or a Column."""
    return _col_sql(x)


def _call(name, *args):
    return Column("%s(%s)" % (name, ", ".join(args)))


def _unary(name):
    def fn(col):
        return _call(name, _c(col))
    fn.__name__ = name
    return fn


for _name in ["abs", "ceil", "floor", "exp", "log10", "log2", "ln", "sqrt", "cbrt", "sin", "cos", "tan", "asin",
              "acos", "atan", "sinh", "cosh", "tanh", "signum", "sign", "degrees", "radians", "rint", "upper", "lower",
              "expm1", "log1p",
              "trim", "ltrim", "rtrim", "initcap", "reverse", "length", "char_length", "character_length", "bit_length",
              "octet_length", "md5", "sha1", "crc32", "hex", "unhex", "base64", "unbase64", "ascii", "soundex",
              "year", "month", "dayofmonth", "dayofweek", "dayofyear", "weekofyear", "weekday", "quarter", "hour",
              "minute", "second", "last_day", "size", "cardinality", "isnan", "isnull", "isnotnull",
              "flatten", "array_distinct", "array_max", "array_min", "map_keys", "map_values", "map_entries",
              "unix_date", "unix_seconds", "unix_millis", "unix_micros", "date_from_unix_date",
              "timestamp_seconds", "timestamp_millis", "timestamp_micros", "bin", "factorial", "negative",
              "positive", "zeroifnull", "nullifzero", "typeof", "lcase", "ucase", "len", "day", "bitwise_not",
              "array_compact", "inline", "inline_outer", "array_size"]:
    globals()[_name] = _unary(_name)

ceiling = globals()["ceil"]
bitwiseNOT = globals()["bitwise_not"]
toDegrees = globals()["degrees"]
toRadians = globals()["radians"]


def log(arg1, arg2=None):
    if arg2 is None:
        return _call("ln", _c(arg1))
    return _call("log", literal_sql(arg1), _c(arg2))


def pow(col1, col2):
    return _call("POWER", _to_sql_or_col(col1), _to_sql_or_col(col2))


power = pow


def _to_sql_or_col(x):
    return _c(x) if isinstance(x, (str, Column)) else literal_sql(x)


def round(col, scale=0):
    return _call("round", _c(col), literal_sql(scale))


def bround(col, scale=0):
    return _call("bround", _c(col), literal_sql(scale))


def when(condition, value):
    return Column("CASE WHEN %s THEN %s END" % (_to_sql(condition), _to_sql(value)))


def coalesce(*cols):
    return _call("coalesce", *[_c(c) for c in cols])


def nvl(col1, col2):
    return _call("nvl", _c(col1), _c(col2))


def ifnull(col1, col2):
    return _call("ifnull", _c(col1), _c(col2))


def nullif(col1, col2):
    return _call("nullif", _c(col1), _c(col2))


def equal_null(col1, col2):
    return _call("equal_null", _c(col1), _c(col2))


def nvl2(col1, col2, col3):
    return _call("nvl2", _c(col1), _c(col2), _c(col3))


def greatest(*cols):
    return _call("greatest", *[_c(c) for c in cols])


def least(*cols):
    return _call("least", *[_c(c) for c in cols])


def concat(*cols):
    return _call("concat", *[_c(c) for c in cols])


def concat_ws(sep, *cols):
    return _call("concat_ws", literal_sql(sep), *[_c(c) for c in cols])


def substring(str, pos, len):
    return _call("substring", _c(str), _to_sql_or_col(pos), _to_sql_or_col(len))


def substr(str, pos, len=None):
    if len is None:
        return _call("substr", _c(str), _c(pos))
    return _call("substr", _c(str), _c(pos), _c(len))


def split(str, pattern, limit=-1):
    if limit == -1:
        return _call("split", _c(str), literal_sql(pattern))
    return _call("split", _c(str), literal_sql(pattern), literal_sql(limit))


def regexp_extract(str, pattern, idx):
    return _call("regexp_extract", _c(str), literal_sql(pattern), literal_sql(idx))


def regexp_replace(string, pattern, replacement):
    return _call("regexp_replace", _c(string), _to_sql_or_lit(pattern), _to_sql_or_lit(replacement))


def _to_sql_or_lit(x):
    return x._sql if isinstance(x, Column) else literal_sql(x)


def substring_index(str, delim, count):
    return _call("substring_index", _c(str), literal_sql(delim), literal_sql(count))


def split_part(src, delimiter, partNum):
    return _call("split_part", _c(src), _to_sql_or_lit(delimiter), _to_sql_or_lit(partNum))


def left(str, len):
    return _call("left", _c(str), _to_sql_or_lit(len))


def right(str, len):
    return _call("right", _c(str), _to_sql_or_lit(len))


def levenshtein(left, right, threshold=None):
    return _call("levenshtein", _c(left), _c(right))


def char(col):
    return _call("char", _c(col))


def atan2(col1, col2):
    return _call("atan2", _to_sql_or_col(col1), _to_sql_or_col(col2))


def hypot(col1, col2):
    return _call("hypot", _to_sql_or_col(col1), _to_sql_or_col(col2))


def pmod(dividend, divisor):
    return _call("pmod", _to_sql_or_col(dividend), _to_sql_or_col(divisor))


def e():
    return Column("e()")


def pi():
    return Column("pi()")


def lpad(col, len, pad):
    return _call("lpad", _c(col), literal_sql(len), literal_sql(pad))


def rpad(col, len, pad):
    return _call("rpad", _c(col), literal_sql(len), literal_sql(pad))


def repeat(col, n):
    return _call("repeat", _c(col), literal_sql(n))


def instr(str, substr):
    return _call("instr", _c(str), literal_sql(substr))


def locate(substr, str, pos=1):
    return _call("locate", literal_sql(substr), _c(str), literal_sql(pos))


def translate(srcCol, matching, replace):
    return _call("translate", _c(srcCol), literal_sql(matching), literal_sql(replace))


def format_string(format, *cols):
    return _call("format_string", literal_sql(format), *[_c(c) for c in cols])


def sha2(col, numBits):
    return _call("sha2", _c(col), literal_sql(numBits))


def hash(*cols):
    return _call("hash", *[_c(c) for c in cols])


def xxhash64(*cols):
    return _call("xxhash64", *[_c(c) for c in cols])


def current_date():
    return Column("current_date()")


def current_timestamp():
    return Column("current_timestamp()")


now = current_timestamp


def date_add(start, days):
    return _call("date_add", _c(start), _to_sql_or_col(days))


def date_sub(start, days):
    return _call("date_sub", _c(start), _to_sql_or_col(days))


def datediff(end, start):
    return _call("datediff", _c(end), _c(start))


def date_diff(end, start):
    return _call("datediff", _c(end), _c(start))


def add_months(start, months):
    return _call("add_months", _c(start), _to_sql_or_col(months))


def months_between(date1, date2, roundOff=True):
    return _call("months_between", _c(date1), _c(date2), literal_sql(roundOff))


def date_format(date, format):
    return _call("date_format", _c(date), literal_sql(format))


def date_trunc(format, timestamp):
    return _call("date_trunc", literal_sql(format), _c(timestamp))


def trunc(date, format):
    return _call("trunc", _c(date), literal_sql(format))


def date_part(field, source):
    return _call("date_part", _to_sql_or_lit(field), _c(source))


def extract(field, source):
    return _call("date_part", _to_sql_or_lit(field), _c(source))


def to_date(col, format=None):
    if format is None:
        return _call("to_date", _c(col))
    return _call("to_date", _c(col), literal_sql(format))


def to_timestamp(col, format=None):
    if format is None:
        return _call("to_timestamp", _c(col))
    return _call("to_timestamp", _c(col), literal_sql(format))


# epoxy's timestamps carry no zone (the session time zone is UTC), so the NTZ and LTZ spellings
# are to_timestamp; non-ANSI to_timestamp already gives null where try_to_timestamp would.
def to_timestamp_ntz(timestamp, format=None):
    return to_timestamp(timestamp, format._sql if isinstance(format, Column) else format) if format is not None else to_timestamp(timestamp)


to_timestamp_ltz = to_timestamp_ntz
try_to_timestamp = to_timestamp_ntz


def unix_timestamp(timestamp=None, format="yyyy-MM-dd HH:mm:ss"):
    if timestamp is None:
        return Column("unix_timestamp()")
    return _call("unix_timestamp", _c(timestamp), literal_sql(format))


def from_unixtime(timestamp, format="yyyy-MM-dd HH:mm:ss"):
    return _call("from_unixtime", _c(timestamp), literal_sql(format))


def make_date(year, month, day):
    return _call("make_date", _c(year), _c(month), _c(day))


# Aggregates


def count(col):
    if isinstance(col, str) and col == "*":
        return Column("count(1)")
    return _call("count", _c(col))


def countDistinct(col, *cols):
    return Column("count(DISTINCT %s)" % ", ".join(_c(c) for c in (col,) + cols))


count_distinct = countDistinct


def sum(col):
    return _call("sum", _c(col))


def sumDistinct(col):
    return Column("sum(DISTINCT %s)" % _c(col))


sum_distinct = sumDistinct


def avg(col):
    return _call("avg", _c(col))


mean = avg


def min(col):
    return _call("min", _c(col))


def max(col):
    return _call("max", _c(col))


def first(col, ignorenulls=False):
    if ignorenulls:
        return _call("first", _c(col), "true")
    return _call("first", _c(col))


def last(col, ignorenulls=False):
    if ignorenulls:
        return _call("last", _c(col), "true")
    return _call("last", _c(col))


for _name in ["any_value", "collect_list", "collect_set", "stddev", "stddev_samp", "stddev_pop", "std", "variance",
              "var_samp", "var_pop", "count_if", "bool_and", "bool_or", "every", "some", "median", "mode", "product",
              "skewness", "kurtosis", "array_agg", "max_by", "min_by", "bit_and", "bit_or", "bit_xor"]:
    globals()[_name] = _unary(_name)


def approx_count_distinct(col, rsd=None):
    return _call("approx_count_distinct", _c(col))


approxCountDistinct = approx_count_distinct


def covar_pop(col1, col2):
    return _call("covar_pop", _c(col1), _c(col2))


def covar_samp(col1, col2):
    return _call("covar_samp", _c(col1), _c(col2))


def corr(col1, col2):
    return _call("corr", _c(col1), _c(col2))


def percentile_approx(col, percentage, accuracy=10000):
    return _call("percentile_approx", _c(col), literal_sql(percentage), literal_sql(accuracy))


def grouping(col):
    return _call("grouping", _c(col))


def grouping_id(*cols):
    return _call("grouping_id", *[_c(c) for c in cols])


# Window functions


def row_number():
    return Column("row_number()")


def rank():
    return Column("rank()")


def dense_rank():
    return Column("dense_rank()")


def percent_rank():
    return Column("percent_rank()")


def cume_dist():
    return Column("cume_dist()")


def ntile(n):
    return _call("ntile", literal_sql(n))


def lag(col, offset=1, default=None):
    if default is None:
        return _call("lag", _c(col), literal_sql(offset))
    return _call("lag", _c(col), literal_sql(offset), literal_sql(default))


def lead(col, offset=1, default=None):
    if default is None:
        return _call("lead", _c(col), literal_sql(offset))
    return _call("lead", _c(col), literal_sql(offset), literal_sql(default))


def nth_value(col, offset, ignoreNulls=False):
    return _call("nth_value", _c(col), literal_sql(offset))


# Sort orders


def asc(col):
    return col_ref(col).asc() if isinstance(col, str) else col.asc()


def desc(col):
    return col_ref(col).desc() if isinstance(col, str) else col.desc()


def asc_nulls_first(col):
    return (col_ref(col) if isinstance(col, str) else col).asc_nulls_first()


def asc_nulls_last(col):
    return (col_ref(col) if isinstance(col, str) else col).asc_nulls_last()


def desc_nulls_first(col):
    return (col_ref(col) if isinstance(col, str) else col).desc_nulls_first()


def desc_nulls_last(col):
    return (col_ref(col) if isinstance(col, str) else col).desc_nulls_last()


# Collections


def _cols(cols):
    if _builtins.len(cols) == 1 and isinstance(cols[0], (list, tuple, set)):
        return list(cols[0])
    return list(cols)


def array(*cols):
    return _call("array", *[_c(c) for c in _cols(cols)])


def struct(*cols):
    cols = _cols(cols)
    if not any(isinstance(c, Column) and c._alias for c in cols):
        return _call("struct", *[_c(c) for c in cols])
    # Field names from aliases (and column names): a named_struct.
    parts = []
    for i, c in enumerate(cols):
        if isinstance(c, Column) and c._alias:
            name = c._alias
        elif isinstance(c, str):
            name = c.split(".")[-1]
        else:
            name = "col%d" % (i + 1)
        parts += [literal_sql(name), _c(c)]
    return _call("named_struct", *parts)


def named_struct(*cols):
    return _call("named_struct", *[_to_sql_or_col(c) for c in cols])


def create_map(*cols):
    return _call("map", *[_c(c) for c in _cols(cols)])


def array_contains(col, value):
    return _call("array_contains", _c(col), _to_sql_or_lit(value))


def array_position(col, value):
    return _call("array_position", _c(col), _to_sql_or_lit(value))


def array_remove(col, element):
    return _call("array_remove", _c(col), _to_sql_or_lit(element))


def array_append(col, value):
    return _call("array_append", _c(col), _to_sql_or_lit(value))


def array_prepend(col, value):
    return _call("array_prepend", _c(col), _to_sql_or_lit(value))


def array_insert(arr, pos, value):
    return _call("array_insert", _c(arr), _to_sql_or_lit(pos), _to_sql_or_lit(value))


def array_join(col, delimiter, null_replacement=None):
    if null_replacement is None:
        return _call("array_join", _c(col), literal_sql(delimiter))
    return _call("array_join", _c(col), literal_sql(delimiter), literal_sql(null_replacement))


def array_union(col1, col2):
    return _call("array_union", _c(col1), _c(col2))


def array_intersect(col1, col2):
    return _call("array_intersect", _c(col1), _c(col2))


def array_except(col1, col2):
    return _call("array_except", _c(col1), _c(col2))


def arrays_overlap(a1, a2):
    return _call("arrays_overlap", _c(a1), _c(a2))


def slice(x, start, length):
    return _call("slice", _c(x), _to_sql_or_lit(start), _to_sql_or_lit(length))


def sort_array(col, asc=True):
    return _call("sort_array", _c(col), literal_sql(asc))


def array_sort(col, comparator=None):
    if comparator is not None:
        from pyspark.errors import PySparkNotImplementedError
        raise PySparkNotImplementedError("array_sort with a comparator is not supported by epoxy")
    return _call("array_sort", _c(col))


def element_at(col, extraction):
    return _call("element_at", _c(col), _to_sql_or_lit(extraction))


def get(col, index):
    return _call("get", _c(col), _to_sql_or_col(index))


def arrays_zip(*cols):
    return _call("arrays_zip", *[_c(c) for c in cols])


def array_repeat(col, count):
    return _call("array_repeat", _c(col), _to_sql_or_lit(count))


def sequence(start, stop, step=None):
    if step is None:
        return _call("sequence", _c(start), _c(stop))
    return _call("sequence", _c(start), _c(stop), _c(step))


def _generator(name):
    def fn(col):
        return _call(name, _c(col))
    fn.__name__ = name
    return fn


explode = _generator("explode")
explode_outer = _generator("explode_outer")
posexplode = _generator("posexplode")
posexplode_outer = _generator("posexplode_outer")


def monotonically_increasing_id():
    return Column("monotonically_increasing_id()")


def input_file_name():
    return Column("input_file_name()")


def spark_partition_id():
    return Column("spark_partition_id()")


def rand(seed=None):
    return Column("rand()" if seed is None else "rand(%d)" % seed)


def randn(seed=None):
    return Column("randn()" if seed is None else "randn(%d)" % seed)


def broadcast(df):
    return df._with_hint("BROADCAST")


def udf(f=None, returnType=None, useArrow=None):
    from pyspark.sql.udf import udf as make_udf
    return make_udf(f, returnType, useArrow)


def pandas_udf(f=None, returnType=None, functionType=None):
    from pyspark.errors import PySparkNotImplementedError
    raise PySparkNotImplementedError("pandas_udf is not supported by epoxy")


def transform(col, f):
    from pyspark.errors import PySparkNotImplementedError
    raise PySparkNotImplementedError("functions.transform (higher-order functions) is not supported by epoxy")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    from pyspark.errors import PySparkNotImplementedError

    def missing(*args, **kwargs):
        raise PySparkNotImplementedError("pyspark.sql.functions.%s is not supported by epoxy" % name)
    return missing
