# SPDX-License-Identifier: Apache-2.0
"""Spark SQL data types, StructType/StructField and Row, as pyspark.sql.types defines them.

Each type knows its engine type string (the Glue/Hive spelling the native engine parses), so a
schema crosses to the engine and back as text.
"""
from epoxy.lazy import LazyModule

_dt = LazyModule("datetime")
_decimal = LazyModule("decimal")
_json = LazyModule("json")

__all__ = [
    "DataType", "NullType", "StringType", "BinaryType", "BooleanType", "DateType", "TimestampType",
    "TimestampNTZType", "DecimalType", "DoubleType", "FloatType", "ByteType", "IntegerType", "LongType",
    "ShortType", "ArrayType", "MapType", "StructField", "StructType", "Row", "AtomicType", "NumericType",
    "IntegralType", "FractionalType", "CharType", "VarcharType", "DayTimeIntervalType",
    "YearMonthIntervalType", "_parse_datatype_string",
]


class DataType:
    """Base of every type. Equal when of the same class and parameters."""

    def __repr__(self):
        return self.__class__.__name__ + "()"

    def __hash__(self):
        return hash(str(self))

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __ne__(self, other):
        return not self.__eq__(other)

    @classmethod
    def typeName(cls):
        return cls.__name__[:-4].lower()

    def simpleString(self):
        return self.typeName()

    def jsonValue(self):
        return self.typeName()

    def json(self):
        return _json.dumps(self.jsonValue(), separators=(",", ":"), sort_keys=True)

    def needConversion(self):
        return False

    def fromInternal(self, obj):
        return obj

    def toInternal(self, obj):
        return obj

    # The engine's spelling of this type.
    def _engine_type(self):
        return self.simpleString()


class DataTypeSingleton(type):
    _instances = {}

    def __call__(cls):
        if cls not in cls._instances:
            cls._instances[cls] = super().__call__()
        return cls._instances[cls]


class NullType(DataType, metaclass=DataTypeSingleton):
    @classmethod
    def typeName(cls):
        return "void"

    def _engine_type(self):
        return "null"


class AtomicType(DataType):
    pass


class NumericType(AtomicType):
    pass


class IntegralType(NumericType, metaclass=DataTypeSingleton):
    pass


class FractionalType(NumericType):
    pass


class StringType(AtomicType, metaclass=DataTypeSingleton):
    pass


class CharType(AtomicType):
    def __init__(self, length):
        self.length = length

    def simpleString(self):
        return "char(%d)" % self.length

    def _engine_type(self):
        return "string"

    def __repr__(self):
        return "CharType(%d)" % self.length


class VarcharType(AtomicType):
    def __init__(self, length):
        self.length = length

    def simpleString(self):
        return "varchar(%d)" % self.length

    def _engine_type(self):
        return "string"

    def __repr__(self):
        return "VarcharType(%d)" % self.length


class BinaryType(AtomicType, metaclass=DataTypeSingleton):
    pass


class BooleanType(AtomicType, metaclass=DataTypeSingleton):
    pass


class DateType(AtomicType, metaclass=DataTypeSingleton):
    pass


class TimestampType(AtomicType, metaclass=DataTypeSingleton):
    pass


class TimestampNTZType(AtomicType, metaclass=DataTypeSingleton):
    @classmethod
    def typeName(cls):
        return "timestamp_ntz"

    def _engine_type(self):
        return "timestamp"


class DecimalType(FractionalType):
    def __init__(self, precision=10, scale=0):
        self.precision = precision
        self.scale = scale
        self.hasPrecisionInfo = True

    def simpleString(self):
        return "decimal(%d,%d)" % (self.precision, self.scale)

    def jsonValue(self):
        return "decimal(%d,%d)" % (self.precision, self.scale)

    def __repr__(self):
        return "DecimalType(%d,%d)" % (self.precision, self.scale)


class DoubleType(FractionalType, metaclass=DataTypeSingleton):
    pass


class FloatType(FractionalType, metaclass=DataTypeSingleton):
    pass


class ByteType(IntegralType):
    def simpleString(self):
        return "tinyint"


class IntegerType(IntegralType):
    def simpleString(self):
        return "int"


class LongType(IntegralType):
    def simpleString(self):
        return "bigint"


class ShortType(IntegralType):
    def simpleString(self):
        return "smallint"


class DayTimeIntervalType(AtomicType):
    def __init__(self, startField=0, endField=3):
        self.startField = startField
        self.endField = endField

    def _engine_type(self):
        raise NotImplementedError("DayTimeIntervalType columns are not supported by epoxy")


class YearMonthIntervalType(AtomicType):
    def __init__(self, startField=0, endField=1):
        self.startField = startField
        self.endField = endField

    def _engine_type(self):
        raise NotImplementedError("YearMonthIntervalType columns are not supported by epoxy")


class ArrayType(DataType):
    def __init__(self, elementType, containsNull=True):
        self.elementType = elementType
        self.containsNull = containsNull

    def simpleString(self):
        return "array<%s>" % self.elementType.simpleString()

    def _engine_type(self):
        return "array<%s>" % self.elementType._engine_type()

    def jsonValue(self):
        return {"type": self.typeName(), "elementType": self.elementType.jsonValue(), "containsNull": self.containsNull}

    def __repr__(self):
        return "ArrayType(%s, %s)" % (self.elementType, self.containsNull)


class MapType(DataType):
    def __init__(self, keyType, valueType, valueContainsNull=True):
        self.keyType = keyType
        self.valueType = valueType
        self.valueContainsNull = valueContainsNull

    def simpleString(self):
        return "map<%s,%s>" % (self.keyType.simpleString(), self.valueType.simpleString())

    def _engine_type(self):
        return "map<%s,%s>" % (self.keyType._engine_type(), self.valueType._engine_type())

    def jsonValue(self):
        return {"type": self.typeName(), "keyType": self.keyType.jsonValue(), "valueType": self.valueType.jsonValue(),
                "valueContainsNull": self.valueContainsNull}

    def __repr__(self):
        return "MapType(%s, %s, %s)" % (self.keyType, self.valueType, self.valueContainsNull)


class StructField(DataType):
    def __init__(self, name, dataType, nullable=True, metadata=None):
        self.name = name
        self.dataType = dataType
        self.nullable = nullable
        self.metadata = metadata or {}

    def simpleString(self):
        return "%s:%s" % (self.name, self.dataType.simpleString())

    def jsonValue(self):
        return {"name": self.name, "type": self.dataType.jsonValue(), "nullable": self.nullable, "metadata": self.metadata}

    def __repr__(self):
        return "StructField('%s', %s, %s)" % (self.name, self.dataType, self.nullable)


class StructType(DataType):
    def __init__(self, fields=None):
        self.fields = list(fields) if fields else []
        self.names = [f.name for f in self.fields]

    def add(self, field, data_type=None, nullable=True, metadata=None):
        if isinstance(field, StructField):
            self.fields.append(field)
        else:
            if isinstance(data_type, str):
                data_type = _parse_datatype_string(data_type)
            self.fields.append(StructField(field, data_type, nullable, metadata))
        self.names = [f.name for f in self.fields]
        return self

    def fieldNames(self):
        return list(self.names)

    def __iter__(self):
        return iter(self.fields)

    def __len__(self):
        return len(self.fields)

    def __getitem__(self, key):
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            raise KeyError("No StructField named {0}".format(key))
        if isinstance(key, int):
            return self.fields[key]
        if isinstance(key, slice):
            return StructType(self.fields[key])
        raise TypeError("StructType keys should be strings, integers or slices")

    def simpleString(self):
        return "struct<%s>" % ",".join(f.simpleString() for f in self.fields)

    def _engine_type(self):
        return "struct<%s>" % ",".join("%s:%s" % (f.name, f.dataType._engine_type()) for f in self.fields)

    def jsonValue(self):
        return {"type": self.typeName(), "fields": [f.jsonValue() for f in self.fields]}

    def treeString(self, level=None):
        lines = ["root"]
        _tree_lines(self, 1, lines, level)
        return "\n".join(lines) + "\n"

    def __repr__(self):
        return "StructType([%s])" % ", ".join(repr(f) for f in self.fields)


def _tree_lines(data_type, depth, lines, level):
    if level is not None and depth > level:
        return
    prefix = " |   " * (depth - 1) + " |-- "
    if isinstance(data_type, StructType):
        for f in data_type.fields:
            lines.append("%s%s: %s (nullable = %s)" % (prefix, f.name, f.dataType.typeName(), str(f.nullable).lower()))
            _tree_lines(f.dataType, depth + 1, lines, level)
    elif isinstance(data_type, ArrayType):
        lines.append("%selement: %s (containsNull = %s)" % (prefix, data_type.elementType.typeName(),
                                                             str(data_type.containsNull).lower()))
        _tree_lines(data_type.elementType, depth + 1, lines, level)
    elif isinstance(data_type, MapType):
        lines.append("%skey: %s" % (prefix, data_type.keyType.typeName()))
        _tree_lines(data_type.keyType, depth + 1, lines, level)
        lines.append("%svalue: %s (valueContainsNull = %s)" % (prefix, data_type.valueType.typeName(),
                                                              str(data_type.valueContainsNull).lower()))
        _tree_lines(data_type.valueType, depth + 1, lines, level)


class Row(tuple):
    """A row: a tuple whose fields may have names (Row(a=1) or Row("a", "b")(1, 2))."""

    def __new__(cls, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Can not use both args and kwargs to create Row")
        if kwargs:
            row = tuple.__new__(cls, list(kwargs.values()))
            row.__fields__ = list(kwargs.keys())
            return row
        return tuple.__new__(cls, args)

    @classmethod
    def _make(cls, names, values):
        row = tuple.__new__(cls, values)
        row.__fields__ = list(names)
        return row

    def asDict(self, recursive=False):
        if not hasattr(self, "__fields__"):
            raise TypeError("Cannot convert a Row class into dict")

        def convert(v):
            if not recursive:
                return v
            if isinstance(v, Row):
                return v.asDict(True)
            if isinstance(v, list):
                return [convert(x) for x in v]
            if isinstance(v, dict):
                return {k: convert(x) for k, x in v.items()}
            return v

        return {k: convert(v) for k, v in zip(self.__fields__, self)}

    def __contains__(self, item):
        if hasattr(self, "__fields__"):
            return item in self.__fields__
        return super().__contains__(item)

    def __call__(self, *args):
        if len(args) > len(self):
            raise ValueError("Can not create Row with fields %s, expected %d values but got %s" % (self, len(self), args))
        return Row._make(tuple(self), args)

    def __getitem__(self, item):
        if isinstance(item, (int, slice)):
            return super().__getitem__(item)
        try:
            return super().__getitem__(self.__fields__.index(item))
        except (AttributeError, ValueError):
            raise ValueError(item)

    def __getattr__(self, item):
        if item.startswith("__"):
            raise AttributeError(item)
        try:
            return self[self.__fields__.index(item)]
        except (AttributeError, ValueError):
            raise AttributeError(item)

    def __setattr__(self, key, value):
        if key != "__fields__":
            raise RuntimeError("Row is read-only")
        self.__dict__[key] = value

    def __reduce__(self):
        if hasattr(self, "__fields__"):
            return (_create_row, (self.__fields__, tuple(self)))
        return tuple.__reduce__(self)

    def __repr__(self):
        if hasattr(self, "__fields__"):
            return "Row(%s)" % ", ".join("%s=%r" % (k, v) for k, v in zip(self.__fields__, tuple(self)))
        return "<Row(%s)>" % ", ".join(repr(field) for field in self)

    def __eq__(self, other):
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        return tuple.__ne__(self, other)

    __hash__ = tuple.__hash__


def _create_row(fields, values):
    return Row._make(fields, values)


_ATOMIC = {
    "string": StringType, "varchar": StringType, "char": StringType, "binary": BinaryType,
    "boolean": BooleanType, "bool": BooleanType, "date": DateType, "timestamp": TimestampType,
    "timestamp_ntz": TimestampNTZType, "timestamp_ltz": TimestampType, "double": DoubleType,
    "float": FloatType, "real": FloatType, "tinyint": ByteType, "byte": ByteType, "smallint": ShortType,
    "short": ShortType, "int": IntegerType, "integer": IntegerType, "bigint": LongType, "long": LongType,
    "null": NullType, "void": NullType,
}


class _TypeParser:
    """Reads Glue/Hive/Spark DDL type strings: `int`, `decimal(10,2)`, `array<struct<a:int>>`."""

    def __init__(self, text):
        self.text = text
        self.pos = 0

    def fail(self):
        from pyspark.errors import ParseException
        raise ParseException("cannot parse the data type '%s' at position %d" % (self.text, self.pos))

    def skip(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, s):
        self.skip()
        return self.text.startswith(s, self.pos)

    def expect(self, s):
        if not self.peek(s):
            self.fail()
        self.pos += len(s)

    def name(self, stops):
        self.skip()
        if self.pos < len(self.text) and self.text[self.pos] == "`":
            end = self.text.index("`", self.pos + 1)
            out = self.text[self.pos + 1:end]
            self.pos = end + 1
            return out
        start = self.pos
        depth = 0
        while self.pos < len(self.text):
            c = self.text[self.pos]
            if depth == 0 and c in stops:
                break
            if c in "(<":
                depth += 1
            elif c in ")>":
                if depth == 0:
                    break
                depth -= 1
            self.pos += 1
        return self.text[start:self.pos].strip()

    def parse(self):
        self.skip()
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalnum() or self.text[self.pos] == "_"):
            self.pos += 1
        word = self.text[start:self.pos].lower()
        if word == "decimal" or word == "numeric" or word == "dec":
            if self.peek("("):
                self.expect("(")
                p = int(self.name(",)"))
                s = 0
                if self.peek(","):
                    self.expect(",")
                    s = int(self.name(")"))
                self.expect(")")
                return DecimalType(p, s)
            return DecimalType(10, 0)
        if word in ("varchar", "char") and self.peek("("):
            self.expect("(")
            self.name(")")
            self.expect(")")
            return StringType()
        if word == "array":
            self.expect("<")
            element = self.parse()
            self.expect(">")
            return ArrayType(element, True)
        if word == "map":
            self.expect("<")
            key = self.parse()
            self.expect(",")
            value = self.parse()
            self.expect(">")
            return MapType(key, value, True)
        if word == "struct":
            self.expect("<")
            fields = []
            while not self.peek(">"):
                fname = self.name(":")
                self.expect(":")
                fields.append(StructField(fname, self.parse(), True))
                if self.peek(","):
                    self.expect(",")
            self.expect(">")
            return StructType(fields)
        if word == "choice":
            # A DynamicFrame choice reaching a DataFrame: the engine reads it as its widened type.
            self.expect("<")
            members = []
            while not self.peek(">"):
                members.append(self.parse())
                if self.peek(","):
                    self.expect(",")
            self.expect(">")
            return StringType() if any(isinstance(m, StringType) for m in members) else members[-1]
        if word in _ATOMIC:
            return _ATOMIC[word]()
        self.fail()


def _parse_datatype_string(text):
    """A DDL type string to a DataType; `a int, b string` (a schema) gives a StructType."""
    text = text.strip()
    parser = _TypeParser(text)
    try:
        data_type = parser.parse()
        parser.skip()
        if parser.pos == len(text):
            return data_type
    except Exception:
        pass
    # "a int, b string" or "a: int, b: string"
    fields = []
    for part in _split_top_level(text):
        part = part.strip()
        if ":" in part.split(" ")[0]:
            name, type_text = part.split(":", 1)
        else:
            name, _, type_text = part.partition(" ")
        fields.append(StructField(name.strip().strip("`"), _TypeParser(type_text.strip()).parse(), True))
    return StructType(fields)


def _split_top_level(text):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _infer_type(value):
    """The Spark type of a Python value (createDataFrame without a schema)."""
    if value is None:
        return NullType()
    if isinstance(value, bool):
        return BooleanType()
    if isinstance(value, int):
        return LongType()
    if isinstance(value, float):
        return DoubleType()
    if isinstance(value, str):
        return StringType()
    if isinstance(value, (bytes, bytearray)):
        return BinaryType()
    if isinstance(value, _decimal.Decimal):
        return DecimalType(38, 18)
    if isinstance(value, _dt.datetime):
        return TimestampType()
    if isinstance(value, _dt.date):
        return DateType()
    if isinstance(value, Row) and hasattr(value, "__fields__"):
        return StructType([StructField(k, _infer_type(v), True) for k, v in zip(value.__fields__, value)])
    if isinstance(value, dict):
        for k, v in value.items():
            if v is not None:
                return MapType(_infer_type(k), _infer_type(v), True)
        return MapType(StringType(), NullType(), True)
    if isinstance(value, (list, tuple)):
        for v in value:
            if v is not None:
                return ArrayType(_infer_type(v), True)
        return ArrayType(NullType(), True)
    from pyspark.errors import PySparkTypeError
    raise PySparkTypeError("not supported type: %s" % type(value).__name__)


def _merge_type(a, b):
    if isinstance(a, NullType):
        return b
    if isinstance(b, NullType):
        return a
    if isinstance(a, StructType) and isinstance(b, StructType):
        fields = {f.name: f for f in a.fields}
        out = [StructField(f.name, _merge_type(f.dataType, b[f.name].dataType) if f.name in b.names else f.dataType)
               for f in a.fields]
        out += [f for f in b.fields if f.name not in fields]
        return StructType(out)
    if isinstance(a, ArrayType) and isinstance(b, ArrayType):
        return ArrayType(_merge_type(a.elementType, b.elementType), True)
    if isinstance(a, MapType) and isinstance(b, MapType):
        return MapType(_merge_type(a.keyType, b.keyType), _merge_type(a.valueType, b.valueType), True)
    if type(a) is not type(b):
        from pyspark.errors import PySparkTypeError
        raise PySparkTypeError("[CANNOT_MERGE_TYPE] Can not merge type %s and %s" % (a.__class__.__name__, b.__class__.__name__))
    return a
