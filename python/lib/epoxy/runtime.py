# SPDX-License-Identifier: Apache-2.0
"""The one native engine of a Python process, names for the sources registered in it, and the
conversion of the engine's rows (JSON Lines, typed by the schema) into Python values."""
import itertools
import os

from epoxy.lazy import LazyModule

base64 = LazyModule("base64")
_dt = LazyModule("datetime")
_decimal = LazyModule("decimal")
json = LazyModule("json")

_engine = None
_counter = itertools.count(1)


def engine():
    """The process's engine, created on first use (importing the native module costs a few ms)."""
    global _engine
    if _engine is None:
        import _epoxy_native
        threads = os.environ.get("EPOXY_THREADS")
        if threads:
            _epoxy_native.set_threads(int(threads))
        limit = os.environ.get("EPOXY_MEMORY_LIMIT")
        if limit:
            _epoxy_native.set_memory_limit(limit)
        _engine = _epoxy_native.Engine(os.environ.get("EPOXY_CATALOG", ""))
    return _engine


def native():
    import _epoxy_native
    return _epoxy_native


def fresh_name(prefix="src"):
    """A name no user view can take: registered sources are referred to by it in SQL."""
    return "__epoxy_%s_%d" % (prefix, next(_counter))


def quote(name):
    """An identifier in backticks, as Spark SQL quotes it."""
    return "`" + name.replace("`", "``") + "`"


def sql_string(value):
    """A string literal in Spark SQL."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"




def _epoch():
    return _dt.datetime(1970, 1, 1)


def _epoch_date():
    return _dt.date(1970, 1, 1)


def _timestamp(text):
    text = text.rstrip("Z")
    if "T" in text:
        text = text.replace("T", " ")
    return _dt.datetime.fromisoformat(text)


def converter(data_type):
    """A function from the JSON value of `data_type` to its Python value (None stays None)."""
    from pyspark.sql import types as T
    if isinstance(data_type, (T.DecimalType,)):
        return lambda v: None if v is None else _decimal.Decimal(v)
    if isinstance(data_type, T.DateType):
        return lambda v: None if v is None else _dt.date.fromisoformat(v)
    if isinstance(data_type, (T.TimestampType, T.TimestampNTZType)):
        return lambda v: None if v is None else _timestamp(v)
    if isinstance(data_type, T.BinaryType):
        return lambda v: None if v is None else bytearray(base64.b64decode(v))
    if isinstance(data_type, (T.DoubleType, T.FloatType)):
        return lambda v: float(v) if isinstance(v, (str, int)) else v
    if isinstance(data_type, T.ArrayType):
        element = converter(data_type.elementType)
        return lambda v: None if v is None else [element(x) for x in v]
    if isinstance(data_type, T.MapType):
        key, value = converter(data_type.keyType), converter(data_type.valueType)
        return lambda v: None if v is None else {key(k): value(x) for k, x in (v.items() if isinstance(v, dict) else v)}
    if isinstance(data_type, T.StructType):
        names = data_type.names
        fields = [(f.name, converter(f.dataType)) for f in data_type.fields]
        return lambda v: None if v is None else T.Row._make(names, [c(v.get(n)) for n, c in fields])
    return lambda v: v


def decode_rows(text, schema):
    """The engine's JSON Lines as a list of Rows of `schema`."""
    from pyspark.sql.types import Row
    names = schema.names
    converters = [converter(f.dataType) for f in schema.fields]
    rows = []
    for line in text.splitlines():
        if not line:
            continue
        record = json.loads(line)  # keys are column positions
        rows.append(Row._make(names, [c(record.get(str(i))) for i, c in enumerate(converters)]))
    return rows


def to_engine_value(value, data_type):
    """A Python value in the form the native row builder takes for `data_type`."""
    from pyspark.sql import types as T
    if value is None:
        return None
    if isinstance(data_type, T.DateType):
        if isinstance(value, _dt.datetime):
            value = value.date()
        return (value - _epoch_date()).days
    if isinstance(data_type, (T.TimestampType, T.TimestampNTZType)):
        if isinstance(value, _dt.date) and not isinstance(value, _dt.datetime):
            value = _dt.datetime(value.year, value.month, value.day)
        if value.tzinfo is not None:
            value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        delta = value - _epoch()
        return (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds
    if isinstance(data_type, T.DecimalType):
        scaled = _decimal.Decimal(value).scaleb(data_type.scale).to_integral_value(rounding=_decimal.ROUND_HALF_UP)
        return str(int(scaled))
    if isinstance(data_type, (T.DoubleType, T.FloatType)):
        return float(value)
    if isinstance(data_type, T.StringType):
        return value if isinstance(value, str) else str(value)
    if isinstance(data_type, T.BinaryType):
        return bytes(value)
    if isinstance(data_type, T.ArrayType):
        return [to_engine_value(v, data_type.elementType) for v in value]
    if isinstance(data_type, T.MapType):
        return [(to_engine_value(k, data_type.keyType), to_engine_value(v, data_type.valueType)) for k, v in value.items()]
    if isinstance(data_type, T.StructType):
        if isinstance(value, dict):
            value = [value.get(n) for n in data_type.names]
        elif isinstance(value, T.Row) and hasattr(value, "__fields__"):
            value = [value[n] if n in value.__fields__ else None for n in data_type.names]
        return [to_engine_value(v, f.dataType) for v, f in zip(value, data_type.fields)]
    return value


def from_engine_value(value, data_type):
    """A value in the native module's normalised form as the Python value of `data_type`."""
    from pyspark.sql import types as T
    if value is None:
        return None
    if isinstance(data_type, T.DateType):
        return _epoch_date() + _dt.timedelta(days=value)
    if isinstance(data_type, (T.TimestampType, T.TimestampNTZType)):
        return _epoch() + _dt.timedelta(microseconds=value)
    if isinstance(data_type, T.DecimalType):
        return _decimal.Decimal(value).scaleb(-data_type.scale)
    if isinstance(data_type, T.BinaryType):
        return bytearray(value)
    if isinstance(data_type, T.ArrayType):
        return [from_engine_value(v, data_type.elementType) for v in value]
    if isinstance(data_type, T.MapType):
        return {from_engine_value(k, data_type.keyType): from_engine_value(v, data_type.valueType) for k, v in value}
    if isinstance(data_type, T.StructType):
        return T.Row._make(data_type.names, [from_engine_value(v, f.dataType) for v, f in zip(value, data_type.fields)])
    return value
