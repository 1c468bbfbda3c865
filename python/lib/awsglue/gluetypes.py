# SPDX-License-Identifier: Apache-2.0
"""awsglue.gluetypes: the DynamicFrame type system, with ChoiceType for a field whose records hold
values of several types."""

__all__ = ["DataType", "AtomicType", "BinaryType", "BooleanType", "ByteType", "DateType", "DecimalType",
           "DoubleType", "EnumType", "FloatType", "IntegerType", "LongType", "NullType", "ShortType", "StringType",
           "TimestampType", "TimestampNTZType", "UnknownType", "ArrayType", "SetType", "ChoiceType", "MapType",
           "Field", "StructType", "EntityType", "DynamicRecord", "mergeDataTypes"]


class DataType:
    def __init__(self, properties=None):
        self.properties = properties or {}

    @classmethod
    def typeName(cls):
        return cls.__name__[:-4].lower()

    def __eq__(self, other):
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self.properties or "")

    def jsonValue(self):
        return {"dataType": self.typeName(), "properties": self.properties}

    def _lines(self, depth):
        return []


class AtomicType(DataType):
    pass


class BinaryType(AtomicType):
    pass


class BooleanType(AtomicType):
    pass


class ByteType(AtomicType):
    pass


class DateType(AtomicType):
    pass


class DoubleType(AtomicType):
    pass


class FloatType(AtomicType):
    pass


class IntegerType(AtomicType):
    @classmethod
    def typeName(cls):
        return "int"


class LongType(AtomicType):
    pass


class NullType(AtomicType):
    pass


class ShortType(AtomicType):
    pass


class StringType(AtomicType):
    pass


class TimestampType(AtomicType):
    pass


class TimestampNTZType(AtomicType):
    @classmethod
    def typeName(cls):
        return "timestamp_ntz"


class UnknownType(AtomicType):
    pass


class DecimalType(AtomicType):
    def __init__(self, precision=10, scale=2, properties=None):
        super().__init__(properties)
        self.precision = precision
        self.scale = scale

    def __repr__(self):
        return "DecimalType(%d, %d, %s)" % (self.precision, self.scale, self.properties)


class EnumType(AtomicType):
    def __init__(self, options, properties=None):
        super().__init__(properties)
        self.options = options


class ArrayType(DataType):
    def __init__(self, elementType=UnknownType(), properties=None):
        super().__init__(properties)
        self.elementType = elementType

    def __repr__(self):
        return "ArrayType(%r, %s)" % (self.elementType, self.properties)

    def _lines(self, depth):
        return _field_lines("element", self.elementType, depth)


class SetType(ArrayType):
    pass


class ChoiceType(DataType):
    def __init__(self, choices=(), properties=None):
        super().__init__(properties)
        self.choices = {c.typeName(): c for c in choices}

    def __repr__(self):
        return "ChoiceType([%s], %s)" % (", ".join(repr(c) for c in self.choices.values()), self.properties)

    def _lines(self, depth):
        out = []
        for c in self.choices.values():
            out.append("|" + "    |" * depth + "-- " + c.typeName())
            out.extend(c._lines(depth + 1))
        return out


class MapType(DataType):
    def __init__(self, valueType=UnknownType(), properties=None, keyType=None):
        super().__init__(properties)
        self.valueType = valueType
        self.keyType = keyType or StringType()

    def __repr__(self):
        return "MapType(%r, %s)" % (self.valueType, self.properties)

    def _lines(self, depth):
        return _field_lines("keyType", self.keyType, depth) + _field_lines("valueType", self.valueType, depth)


class Field:
    def __init__(self, name, dataType, properties=None):
        self.name = name
        self.dataType = dataType
        self.properties = properties or {}

    def __eq__(self, other):
        return isinstance(other, Field) and (self.name, self.dataType) == (other.name, other.dataType)

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "Field(%s, %r, %s)" % (self.name, self.dataType, self.properties)


class StructType(DataType):
    def __init__(self, fields=(), properties=None):
        super().__init__(properties)
        self.fields = list(fields)
        self.field_map = {f.name: f for f in self.fields}

    def add(self, field):
        self.fields.append(field)
        self.field_map[field.name] = field

    def hasField(self, field):
        return (field.name if isinstance(field, Field) else field) in self.field_map

    def getField(self, field):
        return self.field_map[field.name if isinstance(field, Field) else field]

    def __iter__(self):
        return iter(self.fields)

    def __len__(self):
        return len(self.fields)

    def __repr__(self):
        return "StructType([%s], %s)" % (", ".join(repr(f) for f in self.fields), self.properties)

    def _lines(self, depth):
        out = []
        for f in self.fields:
            out.extend(_field_lines(f.name, f.dataType, depth))
        return out

    def tree_string(self):
        return "root\n" + "".join(line + "\n" for line in self._lines(0))


class EntityType(DataType):
    def __init__(self, entity, base_type, properties=None):
        super().__init__(properties)
        self.entity = entity
        self.base_type = base_type


def _field_lines(name, data_type, depth):
    return ["|" + "    |" * depth + "-- " + name + ": " + data_type.typeName()] + data_type._lines(depth + 1)


class DynamicRecord(dict):
    """A record as map and filter functions see it: a dict of field names to values."""


def mergeDataTypes(a, b):
    if a == b:
        return a
    if isinstance(a, NullType):
        return b
    if isinstance(b, NullType):
        return a
    members = list(a.choices.values()) if isinstance(a, ChoiceType) else [a]
    for m in (b.choices.values() if isinstance(b, ChoiceType) else [b]):
        if m not in members:
            members.append(m)
    return ChoiceType(members) if len(members) > 1 else members[0]


_ATOMIC = {"string": StringType, "bigint": LongType, "long": LongType, "int": IntegerType, "integer": IntegerType,
           "smallint": ShortType, "short": ShortType, "tinyint": ByteType, "byte": ByteType, "double": DoubleType,
           "float": FloatType, "boolean": BooleanType, "date": DateType, "timestamp": TimestampType,
           "binary": BinaryType, "null": NullType}


def from_type_string(text):
    """A Glue type string (`bigint`, `choice<bigint,string>`, `struct<a:int>`) as a gluetypes type."""
    parser = _Parser(text)
    return parser.parse()


class _Parser:
    def __init__(self, text):
        self.text, self.pos = text, 0

    def word(self):
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalnum() or self.text[self.pos] == "_"):
            self.pos += 1
        return self.text[start:self.pos]

    def expect(self, c):
        if not self.text.startswith(c, self.pos):
            raise ValueError("bad type string %r at %d" % (self.text, self.pos))
        self.pos += len(c)

    def name(self):
        start = self.pos
        while self.text[self.pos] != ":":
            self.pos += 1
        return self.text[start:self.pos]

    def parse(self):
        w = self.word().lower()
        if w == "decimal":
            self.expect("(")
            p = int(self.word())
            self.expect(",")
            s = int(self.word())
            self.expect(")")
            return DecimalType(p, s)
        if w == "array":
            self.expect("<")
            e = self.parse()
            self.expect(">")
            return ArrayType(e)
        if w == "map":
            self.expect("<")
            k = self.parse()
            self.expect(",")
            v = self.parse()
            self.expect(">")
            return MapType(v, keyType=k)
        if w in ("struct", "choice"):
            self.expect("<")
            items = []
            while not self.text.startswith(">", self.pos):
                if w == "struct":
                    n = self.name()
                    self.expect(":")
                    items.append(Field(n, self.parse()))
                else:
                    items.append(self.parse())
                if self.text.startswith(",", self.pos):
                    self.pos += 1
            self.expect(">")
            return StructType(items) if w == "struct" else ChoiceType(items)
        if w in _ATOMIC:
            return _ATOMIC[w]()
        raise ValueError("unknown type %r in %r" % (w, self.text))
