# SPDX-License-Identifier: Apache-2.0
"""SparkSession over the native engine: readers, spark.sql, createDataFrame, catalog and conf."""
import _thread

from epoxy.runtime import engine, fresh_name, quote, to_engine_value
from pyspark.errors import PySparkNotImplementedError, PySparkTypeError, PySparkValueError
from pyspark.sql.dataframe import DataFrame, call_engine
from pyspark.sql.types import (DataType, LongType, NullType, Row, StringType, StructField, StructType, _infer_type,
                               _merge_type, _parse_datatype_string)

__all__ = ["SparkSession", "RuntimeConfig"]


class RuntimeConfig:
    """spark.conf. Settings the engine does not read are kept and returned, as Spark keeps them;
    a few that would change results epoxy cannot honour are refused."""

    _DEFAULTS = {"spark.sql.shuffle.partitions": "200", "spark.sql.session.timeZone": "UTC",
                 "spark.app.name": "epoxy", "spark.master": "local[*]"}
    _UNSUPPORTED = {"spark.executor.memory", "spark.driver.memory", "spark.executor.cores", "spark.executor.instances"}

    def __init__(self):
        self._values = dict(self._DEFAULTS)

    def set(self, key, value):
        if key in self._UNSUPPORTED:
            raise PySparkNotImplementedError("spark.conf.set('%s'): epoxy runs in one process; use --threads and "
                                             "--memory-limit (EPOXY_THREADS, EPOXY_MEMORY_LIMIT)" % key)
        self._values[key] = str(value)

    def get(self, key, default=None):
        if key in self._values:
            return self._values[key]
        if default is not None:
            return default
        from pyspark.errors import PySparkException

        class NoSuchElementException(PySparkException, KeyError):
            pass
        raise NoSuchElementException("[SQL_CONF_NOT_FOUND] The SQL config \"%s\" cannot be found." % key)

    def unset(self, key):
        self._values.pop(key, None)

    def isModifiable(self, key):
        return key not in self._UNSUPPORTED

    def getAll(self):
        return dict(self._values)


class _Builder:
    def __init__(self):
        self._options = {}

    def appName(self, name):
        self._options["spark.app.name"] = name
        return self

    def master(self, master):
        self._options["spark.master"] = master
        return self

    def config(self, key=None, value=None, conf=None, map=None):
        if key is not None:
            self._options[key] = str(value)
        for k, v in (map or {}).items():
            self._options[k] = str(v)
        return self

    def enableHiveSupport(self):
        return self

    def remote(self, url):
        raise PySparkNotImplementedError("SparkSession.builder.remote (Spark Connect) is not supported by epoxy")

    def getOrCreate(self):
        session = SparkSession._get_or_create()
        for k, v in self._options.items():
            session.conf._values[k] = v
        return session

    create = getOrCreate


class SparkSession:
    _active = None
    _lock = _thread.RLock()

    class _BuilderDescriptor:
        def __get__(self, instance, owner):
            return _Builder()

    builder = _BuilderDescriptor()

    def __init__(self, sparkContext=None, jsparkSession=None, options=None):
        from pyspark.context import SparkContext
        self._sc = sparkContext or SparkContext.getOrCreate()
        self.conf = RuntimeConfig()
        self._current_database = "default"
        with SparkSession._lock:
            SparkSession._active = self

    @classmethod
    def _get_or_create(cls):
        with cls._lock:
            if cls._active is None:
                cls()
            return cls._active

    @classmethod
    def getActiveSession(cls):
        return cls._active

    @classmethod
    def active(cls):
        return cls._get_or_create()

    @property
    def sparkContext(self):
        return self._sc

    @property
    def version(self):
        return "3.5.0"

    @property
    def read(self):
        from pyspark.sql.readwriter import DataFrameReader
        return DataFrameReader(self)

    @property
    def catalog(self):
        from pyspark.sql.catalog import Catalog
        return Catalog(self)

    @property
    def udf(self):
        from pyspark.sql.udf import UDFRegistration
        return UDFRegistration()

    def newSession(self):
        return self

    def stop(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.stop()

    def sql(self, sqlQuery, args=None, **kwargs):
        if args or kwargs:
            raise PySparkNotImplementedError("spark.sql with parameters is not supported by epoxy")
        text = sqlQuery.strip().rstrip(";")
        head = text.split(None, 1)[0].upper() if text else ""
        if head not in ("SELECT", "WITH", "(", "FROM", "VALUES", "TABLE") and not text.startswith("("):
            raise PySparkNotImplementedError("spark.sql: only queries (SELECT, WITH) are supported by epoxy, not %s" % head)
        df = DataFrame._of_sql(self, text)
        df.schema  # analyse now, as Spark does, so errors surface at the call
        return df

    def table(self, tableName):
        return self.read.table(tableName)

    def range(self, start, end=None, step=1, numPartitions=None):
        if end is None:
            start, end = 0, start
        rows = [(i,) for i in range(start, end, step)]
        return self._rows_frame(StructType([StructField("id", LongType(), False)]), rows)

    def _rows_frame(self, schema, rows):
        name = fresh_name("rows")
        fields = [(f.name, f.dataType._engine_type()) for f in schema.fields]
        converted = [[to_engine_value(v, f.dataType) for v, f in zip(r, schema.fields)] for r in rows]
        call_engine(engine().register_rows, name, fields, converted)
        df = DataFrame._of_source(self, name)
        df._schema_cache = schema
        return df

    def createDataFrame(self, data, schema=None, samplingRatio=None, verifySchema=True):
        if isinstance(data, DataFrame):
            raise PySparkTypeError("[INVALID_TYPE] data is already a DataFrame")
        if hasattr(data, "to_dict") and hasattr(data, "columns"):
            raise PySparkNotImplementedError("createDataFrame from a pandas DataFrame is not supported by epoxy")
        data = list(data)
        if isinstance(schema, str):
            schema = _parse_datatype_string(schema)
            if not isinstance(schema, StructType):
                schema = StructType([StructField("value", schema, True)])
        names = None
        if isinstance(schema, (list, tuple)):
            names = list(schema)
            schema = None
        if isinstance(schema, DataType) and not isinstance(schema, StructType):
            schema = StructType([StructField("value", schema, True)])
            data = [(v,) for v in data]
        rows = [self._row_values(r, schema, names) for r in data]
        if schema is None:
            first = data[0] if data else None
            if names is None:
                if isinstance(first, Row) and hasattr(first, "__fields__"):
                    names = list(first.__fields__)
                elif isinstance(first, dict):
                    names = list(first.keys())
                elif first is not None:
                    names = ["_%d" % (i + 1) for i in range(len(rows[0]))]
                else:
                    raise PySparkValueError("[CANNOT_INFER_EMPTY_SCHEMA] Can not infer schema from an empty dataset.")
            width = len(names)
            types = [NullType()] * width
            for r in rows:
                if len(r) != width:
                    raise PySparkValueError("[LENGTH_SHOULD_BE_THE_SAME] a row has %d values, the schema %d names" %
                                            (len(r), width))
                types = [_merge_type(t, _infer_type(v)) for t, v in zip(types, r)]
            types = [StringType() if isinstance(t, NullType) else t for t in types]
            schema = StructType([StructField(n, t, True) for n, t in zip(names, types)])
        else:
            for r in rows:
                if len(r) != len(schema.fields):
                    raise PySparkValueError("[LENGTH_SHOULD_BE_THE_SAME] a row has %d values, the schema %d fields" %
                                            (len(r), len(schema.fields)))
        return self._rows_frame(schema, rows)

    @staticmethod
    def _row_values(row, schema, names):
        if isinstance(row, dict):
            keys = schema.names if schema is not None else (names or list(row.keys()))
            return [row.get(k) for k in keys]
        if isinstance(row, Row) and hasattr(row, "__fields__") and schema is not None:
            if all(n in row.__fields__ for n in schema.names):
                return [row[n] for n in schema.names]
        if isinstance(row, (tuple, list)):
            return list(row)
        if hasattr(row, "__dict__"):
            return list(vars(row).values())
        return [row]
