# SPDX-License-Identifier: Apache-2.0
"""Python UDFs: registered in the engine as functions it calls a batch at a time from its worker
threads (taking the GIL); the rows of a batch are handed over as lists and the results returned
as one list. An exception fails the query with the function's traceback."""
import itertools
import re
import traceback

from epoxy.runtime import from_engine_value, native, to_engine_value
from pyspark.errors import PySparkTypeError
from pyspark.sql.column import Column, _col_sql
from pyspark.sql.types import DataType, StringType, _parse_datatype_string

_ids = itertools.count(1)


class UserDefinedFunction:
    def __init__(self, func, returnType=None, name=None, deterministic=True):
        if not callable(func):
            raise PySparkTypeError("[NOT_CALLABLE] Argument `f` should be a function, got %s." % type(func).__name__)
        if returnType is None:
            returnType = StringType()
        if isinstance(returnType, str):
            returnType = _parse_datatype_string(returnType)
        if not isinstance(returnType, DataType):
            raise PySparkTypeError("[NOT_DATATYPE_OR_STR] returnType should be a DataType or str")
        self.func = func
        self.returnType = returnType
        self.deterministic = deterministic
        self._display = name or getattr(func, "__name__", "udf")
        self._name = None
        self.__name__ = self._display

    def _register(self, name=None):
        if self._name is None or name is not None:
            base = name or self._display
            self._name = base if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", base) else "udf_%d" % next(_ids)
            native().register_function(self._name, self.returnType._engine_type(), self._batch)
        return self._name

    def _batch(self, columns, n):
        """The engine's call: one list per argument, each a (type string, values) pair."""
        try:
            decoded = []
            for type_string, values in columns:
                data_type = _parse_datatype_string(type_string)
                decoded.append([from_engine_value(v, data_type) for v in values])
            func, out_type = self.func, self.returnType
            if decoded:
                results = [func(*row) for row in zip(*decoded)]
            else:
                results = [func() for _ in range(n)]
            return [to_engine_value(r, out_type) for r in results]
        except Exception as e:  # noqa: BLE001 -- any failure of the user's function fails the query
            raise RuntimeError("".join(traceback.format_exception(type(e), e, e.__traceback__))) from None

    def __call__(self, *cols):
        name = self._register()
        args = ", ".join(_col_sql(c) for c in cols)
        shown = "%s(%s)" % (self._display, ", ".join(c if isinstance(c, str) else repr(c)[8:-2] for c in cols))
        return Column("%s(%s)" % (name, args), alias=shown if name != self._display else None)

    def asNondeterministic(self):
        self.deterministic = False
        return self


def udf(f=None, returnType=None, useArrow=None):
    """F.udf: as a decorator (with or without a return type) or a call."""
    if f is None or isinstance(f, (str, DataType)):
        return_type = f if returnType is None else returnType

        def decorate(func):
            return UserDefinedFunction(func, return_type)
        return decorate
    return UserDefinedFunction(f, returnType)


class UDFRegistration:
    """spark.udf: register(name, f, returnType) makes a function callable from spark.sql."""

    def register(self, name, f, returnType=None):
        if isinstance(f, UserDefinedFunction):
            func = UserDefinedFunction(f.func, returnType or f.returnType, name)
        else:
            func = UserDefinedFunction(f, returnType, name)
        func._register(name)
        return func
