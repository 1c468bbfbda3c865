# SPDX-License-Identifier: Apache-2.0
"""GlueContext: Glue's sources and sinks (S3 and local files, catalog tables) on epoxy's engine."""
import os
import sys
import time

from epoxy.lazy import LazyModule

json = LazyModule("json")

from awsglue.dynamicframe import DynamicFrame, DynamicFrameCollection, DynamicFrameReader, DynamicFrameWriter
from epoxy.runtime import engine, fresh_name, native
from pyspark.errors import AnalysisException, PySparkNotImplementedError
from pyspark.sql import SQLContext
from pyspark.sql.dataframe import DataFrame, call_engine
from pyspark.sql.database import (DATABASE_CONNECTION_TYPES, catalog_table_options, database_frame,
                                   is_database_table, write_database)
from pyspark.sql.readwriter import register_files, register_partitions, table_frame, write_frame
from pyspark.sql.session import SparkSession
from pyspark.sql.types import StringType, StructField, StructType, _infer_type, _merge_type, NullType

__all__ = ["GlueContext"]

_FILE_FORMATS = {"csv": "csv", "json": "json", "parquet": "parquet", "glueparquet": "parquet"}
_LATER_FORMATS = ("orc", "avro", "xml", "ion", "grokLog", "hudi", "iceberg", "delta")


def _record_type(value):
    """A record value's type: nested dicts are structs in a DynamicFrame (maps in Spark's inference)."""
    if isinstance(value, dict):
        return StructType([StructField(k, _record_type(v), True) for k, v in value.items()])
    if isinstance(value, list):
        element = NullType()
        for v in value:
            element = _merge_type(element, _record_type(v))
        from pyspark.sql.types import ArrayType
        return ArrayType(StringType() if isinstance(element, NullType) else element, True)
    return _infer_type(value)


def records_frame(session, records, schema):
    """Python records (dicts) as an in-memory DataFrame; the schema is inferred when not given."""
    if schema is None:
        names, types = [], {}
        for r in records:
            for k, v in r.items():
                if k not in types:
                    names.append(k)
                    types[k] = NullType()
                types[k] = _merge_type(types[k], _record_type(v))
        schema = StructType([StructField(n, StringType() if isinstance(types[n], NullType) else types[n], True)
                             for n in names])
    rows = [[r.get(f.name) for f in schema.fields] for r in records]
    return session._rows_frame(schema, rows)


def _file_format(format):
    if format is None:
        raise ValueError("a file source needs a format (csv, json, parquet)")
    if format in _LATER_FORMATS:
        raise PySparkNotImplementedError("the %s format is not supported by epoxy yet (csv, json, parquet and "
                                         "glueparquet are)" % format)
    if format not in _FILE_FORMATS:
        raise ValueError("unknown format '%s' (csv, json, parquet, glueparquet)" % format)
    return _FILE_FORMATS[format]


def _glue_format_options(fmt, format_options):
    opts = {}
    for key, value in (format_options or {}).items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        opts[key] = str(value)
    if fmt == "csv" and "withHeader" not in opts:
        opts["withHeader"] = "false"  # Glue's CSV reader default
    if fmt == "parquet":
        opts = {k: v for k, v in opts.items() if k in ("columns", "verifyChecksums")}
    return opts


def _group_size(connection_options):
    group = str(connection_options.get("groupFiles", "")).lower()
    if group == "none":
        return -1
    size = connection_options.get("groupSize")
    return int(size) if size else 0


def _max_files_per_run(options):
    """epoxy's maxFilesPerRun, or Glue's boundedFiles: at most this many new files a run."""
    value = options.get("maxFilesPerRun", options.get("boundedFiles", 0))
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        raise ValueError("maxFilesPerRun must be a whole number, got %r" % (value,)) from None


def _exclusions(value):
    if not value:
        return []
    if isinstance(value, str):
        return json.loads(value)
    return list(value)


class GlueContext(SQLContext):
    Spark_SQL_Formats = {"parquet", "orc"}
    Unsupported_Compression_Types = {"lzo"}

    def __init__(self, sparkContext=None, **options):
        from pyspark.context import SparkContext
        if isinstance(sparkContext, SparkSession):
            session = sparkContext
            sc = session.sparkContext
        else:
            sc = sparkContext or SparkContext.getOrCreate()
            session = SparkSession._get_or_create()
        super().__init__(sc, session)
        self._sc = sc
        self.spark_session = session
        self._options = options
        self.create_dynamic_frame = DynamicFrameReader(self)
        self.create_data_frame = _DataFrameReader(self)
        self.write_dynamic_frame = DynamicFrameWriter(self)
        self.write_data_frame = _DataFrameWriter(self)

    @property
    def sparkSession(self):
        return self.spark_session

    @sparkSession.setter
    def sparkSession(self, value):
        pass

    # Sources
    def create_dynamic_frame_from_options(self, connection_type, connection_options={}, format=None,
                                          format_options={}, transformation_ctx="", push_down_predicate="", **kwargs):
        if connection_type in DATABASE_CONNECTION_TYPES:
            df = database_frame(self.spark_session, connection_type, connection_options, transformation_ctx)
            return DynamicFrame(df, self, transformation_ctx or "database")
        if connection_type not in ("s3", "file", "local"):
            raise PySparkNotImplementedError("connection_type '%s' is not supported by epoxy yet (s3 and local "
                                             "files are)" % connection_type)
        paths = connection_options.get("paths") or ([connection_options["path"]] if "path" in connection_options else [])
        if isinstance(paths, str):
            paths = [paths]
        if not paths:
            raise ValueError("connection_options needs 'paths' (a list of folders or files)")
        fmt = _file_format(format)
        opts = _glue_format_options(fmt, format_options)
        recurse = str(connection_options.get("recurse", False)).lower() == "true"
        name = fresh_name("s3")
        register_files(name, fmt, list(paths), opts, _exclusions(connection_options.get("exclusions")), recurse,
                       _group_size(connection_options), push_down_predicate, transformation_ctx,
                       _max_files_per_run(connection_options))
        df = DataFrame._of_source(self.spark_session, name)

        def choices():
            if fmt == "parquet":
                return {}
            fields, _, _ = native().dynamic_schema(fmt, list(paths), opts)
            return {n: _members(t) for n, t in fields if t.startswith("choice<")}
        return DynamicFrame(df, self, transformation_ctx or name, _choices=choices)

    def create_dynamic_frame_from_catalog(self, database=None, table_name=None, redshift_tmp_dir="",
                                          transformation_ctx="", push_down_predicate="", additional_options={},
                                          catalog_id=None, **kwargs):
        database = _database_arg(database, kwargs)
        if not database or not table_name:
            raise ValueError("from_catalog needs database and table_name")
        additional_options = additional_options or {}
        table = self._get_table(database, table_name)
        if is_database_table(table):
            options = catalog_table_options(table, additional_options)
            df = database_frame(self.spark_session, table["Parameters"].get("classification", "jdbc"), options,
                                transformation_ctx)
            return DynamicFrame(df, self, transformation_ctx or table_name)
        df = table_frame(self.spark_session, "%s.%s" % (database, table_name), push_down_predicate or "",
                         additional_options.get("catalogPartitionPredicate", ""), transformation_ctx,
                         _max_files_per_run(additional_options))
        classification = table.get("Parameters", {}).get("classification", "")
        location = table.get("StorageDescriptor", {}).get("Location", "")

        def choices():
            if classification not in ("json", "csv") or not location or table.get("PartitionKeys"):
                return {}
            try:
                fields, _, _ = native().dynamic_schema(classification, [location], {})
            except native().Error:
                return {}
            return {n: _members(t) for n, t in fields if t.startswith("choice<")}
        return DynamicFrame(df, self, transformation_ctx or table_name, _choices=choices)

    def create_dynamic_frame_from_rdd(self, data, name, schema=None, sample_ratio=None, transformation_ctx=""):
        df = self.spark_session.createDataFrame(list(data), schema)
        return DynamicFrame(df, self, name)

    def create_data_frame_from_options(self, connection_type, connection_options={}, format=None, format_options={},
                                       transformation_ctx="", push_down_predicate="", **kwargs):
        return self.create_dynamic_frame_from_options(connection_type, connection_options, format, format_options,
                                                      transformation_ctx, push_down_predicate, **kwargs).toDF()

    def create_data_frame_from_catalog(self, database=None, table_name=None, redshift_tmp_dir="",
                                       transformation_ctx="", push_down_predicate="", additional_options={},
                                       catalog_id=None, **kwargs):
        return self.create_dynamic_frame_from_catalog(database, table_name, redshift_tmp_dir, transformation_ctx,
                                                      push_down_predicate, additional_options, catalog_id,
                                                      **kwargs).toDF()

    def create_sample_dynamic_frame_from_catalog(self, database=None, table_name=None, num=20, sample_options={},
                                                 **kwargs):
        frame = self.create_dynamic_frame_from_catalog(database, table_name, **kwargs)
        return DynamicFrame(frame._df.limit(num), self, frame.name)

    def create_sample_dynamic_frame_from_options(self, connection_type, connection_options={}, format=None,
                                                 format_options={}, num=20, sample_options={}, **kwargs):
        frame = self.create_dynamic_frame_from_options(connection_type, connection_options, format, format_options)
        return DynamicFrame(frame._df.limit(num), self, frame.name)

    def getSource(self, connection_type, format=None, transformation_ctx="", push_down_predicate="", **options):
        return DataSource(self, connection_type, format, transformation_ctx, push_down_predicate, options)

    def getStreamingSource(self, *args, **kwargs):
        raise PySparkNotImplementedError("streaming sources are not supported by epoxy")

    # Sinks
    def write_dynamic_frame_from_options(self, frame, connection_type, connection_options={}, format=None,
                                         format_options={}, transformation_ctx=""):
        if isinstance(frame, DynamicFrameCollection):
            raise ValueError("write_dynamic_frame_from_options takes one DynamicFrame; use write_from_options for a "
                             "collection")
        if connection_type in DATABASE_CONNECTION_TYPES:
            df = frame.toDF() if isinstance(frame, DynamicFrame) else frame
            write_database(df, connection_type, connection_options, "append")
            return frame
        if connection_type not in ("s3", "file", "local"):
            raise PySparkNotImplementedError("connection_type '%s' is not supported by epoxy yet (s3 and local "
                                             "files are)" % connection_type)
        path = connection_options.get("path")
        if not path:
            raise ValueError("connection_options needs 'path'")
        fmt = _file_format(format)
        options = {}
        compression = (format_options or {}).get("compression") or connection_options.get("compression")
        if compression:
            if compression in self.Unsupported_Compression_Types:
                raise ValueError("compression %s is not supported" % compression)
            options["compression"] = compression
        keys = list(connection_options.get("partitionKeys") or [])
        df = frame.toDF() if isinstance(frame, DynamicFrame) else frame
        write_frame(df, path, fmt, "append", keys, options)
        return frame

    def write_from_options(self, frame_or_dfc, connection_type, connection_options={}, format={}, format_options={},
                           transformation_ctx="", **kwargs):
        if isinstance(frame_or_dfc, DynamicFrameCollection):
            for key, frame in frame_or_dfc._frames.items():
                opts = dict(connection_options)
                opts["path"] = opts["path"].rstrip("/") + "/" + key
                self.write_dynamic_frame_from_options(frame, connection_type, opts, format, format_options)
            return frame_or_dfc
        return self.write_dynamic_frame_from_options(frame_or_dfc, connection_type, connection_options, format,
                                                     format_options, transformation_ctx)

    def write_dynamic_frame_from_catalog(self, frame, database=None, table_name=None, redshift_tmp_dir="",
                                         transformation_ctx="", additional_options={}, catalog_id=None, **kwargs):
        database = _database_arg(database, kwargs)
        table = self._get_table(database, table_name)
        if is_database_table(table):
            df = frame.toDF() if isinstance(frame, DynamicFrame) else frame
            write_database(df, table["Parameters"].get("classification", "jdbc"),
                           catalog_table_options(table, additional_options), "append")
            return frame
        sd = table.get("StorageDescriptor", {})
        keys = [k["Name"] for k in table.get("PartitionKeys", [])]
        fmt = table.get("Parameters", {}).get("classification", "parquet")
        columns = [c["Name"] for c in sd.get("Columns", [])]
        df = frame.toDF() if isinstance(frame, DynamicFrame) else frame
        present = set(df.columns)
        missing = [c for c in columns + keys if c not in present]
        if missing:
            raise AnalysisException("the frame lacks the table's columns %s" % missing)
        options = dict(additional_options or {})
        summary = write_frame(df.select(*(columns + keys)), sd["Location"], _file_format(fmt), "append", keys, options)
        if keys and str(options.get("enableUpdateCatalog", True)).lower() != "false":
            _register_new_partitions(database, table_name, sd["Location"], summary["files"], fmt)
        return frame

    def write_data_frame_from_catalog(self, frame, database=None, table_name=None, redshift_tmp_dir="",
                                      transformation_ctx="", additional_options={}, catalog_id=None, **kwargs):
        return self.write_dynamic_frame_from_catalog(frame, database, table_name, redshift_tmp_dir, transformation_ctx,
                                                     additional_options, catalog_id, **kwargs)

    def write_dynamic_frame_from_jdbc_conf(self, frame, catalog_connection, connection_options={}, redshift_tmp_dir="",
                                           transformation_ctx="", catalog_id=None):
        options = dict(connection_options or {})
        options["connectionName"] = catalog_connection
        if "dbtable" not in options:
            raise ValueError("write_dynamic_frame_from_jdbc_conf needs connection_options['dbtable']")
        if options.get("database") and "url" not in options:
            conf = self.extract_jdbc_conf(catalog_connection)
            url = conf["url"]
            if url.startswith("jdbc:postgresql:"):  # Glue's 'database' option replaces the URL's database
                options["url"] = url.rsplit("/", 1)[0] + "/" + options["database"]
        df = frame.toDF() if isinstance(frame, DynamicFrame) else frame
        write_database(df, "jdbc", options, "append")
        return frame

    write_from_jdbc_conf = write_dynamic_frame_from_jdbc_conf

    def getSink(self, connection_type, format=None, transformation_ctx="", **options):
        return DataSink(self, connection_type, format, transformation_ctx, options)

    # Housekeeping
    def purge_s3_path(self, s3_path, options={}, transformation_ctx=""):
        _purge_folder(s3_path, options or {})

    def purge_table(self, database, table_name, options={}, transformation_ctx="", catalog_id=None):
        table = self._get_table(database, table_name)
        _purge_folder(table["StorageDescriptor"]["Location"], options or {})

    def transition_table(self, *args, **kwargs):
        raise PySparkNotImplementedError("transition_table: storage classes do not exist outside S3")

    def transition_s3_path(self, *args, **kwargs):
        raise PySparkNotImplementedError("transition_s3_path: storage classes do not exist outside S3")

    def get_catalog_schema_as_spark_schema(self, database=None, table_name=None, catalog_id=None):
        from pyspark.sql.types import _parse_datatype_string
        table = self._get_table(database, table_name)
        cols = table["StorageDescriptor"].get("Columns", []) + table.get("PartitionKeys", [])
        return StructType([StructField(c["Name"], _parse_datatype_string(c["Type"]), True) for c in cols])

    def extract_jdbc_conf(self, connection_name, catalog_id=None):
        from pyspark.sql.catalog import catalog_call
        conf = catalog_call("connection_options", Name=connection_name)
        url = conf.get("url", "")
        vendor = url[5:].split(":", 1)[0] if url.startswith("jdbc:") else url.split(":", 1)[0]
        return {"url": url, "user": conf.get("user", ""), "password": conf.get("password", ""), "vendor": vendor,
                "fullUrl": url}

    def convert_resolve_option(self, path, action, target):
        from awsglue.dynamicframe import ResolveOption
        return ResolveOption(path, action, target)

    def get_logger(self):
        import logging
        logger = logging.getLogger("awsglue")
        if not logger.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
            logger.addHandler(handler)
            logger.setLevel(logging.INFO)
        return _GlueLogger(logger)

    def currentTimeMillis(self):
        return int(time.time() * 1000)

    def add_ingestion_time_columns(self, frame, time_granularity):
        from pyspark.sql import functions as F
        now = time.gmtime()
        parts = [("ingest_year", "%04d" % now.tm_year), ("ingest_month", "%02d" % now.tm_mon),
                 ("ingest_day", "%02d" % now.tm_mday), ("ingest_hour", "%02d" % now.tm_hour),
                 ("ingest_minute", "%02d" % now.tm_min)]
        depth = {"year": 1, "month": 2, "day": 3, "hour": 4, "minute": 5}.get(time_granularity)
        if depth is None:
            raise ValueError("time_granularity must be year, month, day, hour or minute")
        df = frame.toDF() if isinstance(frame, DynamicFrame) else frame
        df = df.withColumns({n: F.lit(v) for n, v in parts[:depth]})
        return DynamicFrame(df, self, frame.name) if isinstance(frame, DynamicFrame) else df

    def forEachBatch(self, frame, batch_function, options={}):
        raise PySparkNotImplementedError("forEachBatch: streaming is not supported by epoxy")

    def start_transaction(self, read_only):
        raise PySparkNotImplementedError("Lake Formation transactions are not supported by epoxy")

    begin_transaction = start_transaction
    commit_transaction = start_transaction
    cancel_transaction = start_transaction
    abort_transaction = start_transaction

    def _get_table(self, database, table_name):
        from pyspark.sql.catalog import catalog_call
        return catalog_call("get_table", DatabaseName=database, Name=table_name)


def _members(type_string):
    from awsglue.gluetypes import from_type_string
    choice = from_type_string(type_string)
    out = []
    for member in choice.choices.values():
        name = member.typeName()
        out.append({"long": "bigint", "int": "int"}.get(name, name))
    # Glue lists a choice's string member last (make_cols keeps the first member in place).
    return sorted(out, key=lambda m: m == "string")


def _database_arg(database, kwargs):
    if "name_space" in kwargs:
        if database is not None:
            raise ValueError("Parameter name_space and database are both specified, choose one.")
        return kwargs.pop("name_space")
    return database


def _register_new_partitions(database, table_name, location, files, fmt):
    from pyspark.sql.catalog import catalog_call
    try:
        register_partitions(database, table_name, location, files, fmt)
    except AnalysisException:
        pass
    return catalog_call


def _purge_folder(path, options):
    """Deletes the files under a local folder older than `retentionPeriod` hours (default 168)."""
    if path.startswith("s3://"):
        raise PySparkNotImplementedError("purge_s3_path on s3:// is not supported by epoxy yet (local folders are)")
    if path.startswith("file://"):
        path = path[7:]
    hours = float(options.get("retentionPeriod", 168))
    cutoff = time.time() - hours * 3600
    for root, _, files in os.walk(path):
        for name in files:
            full = os.path.join(root, name)
            if os.path.getmtime(full) <= cutoff:
                os.remove(full)


class _GlueLogger:
    def __init__(self, logger):
        self._logger = logger

    def info(self, msg):
        self._logger.info(msg)

    def warn(self, msg):
        self._logger.warning(msg)

    warning = warn

    def error(self, msg):
        self._logger.error(msg)

    def debug(self, msg):
        self._logger.debug(msg)


class DataSource:
    def __init__(self, glue_context, connection_type, format, transformation_ctx, push_down_predicate, options):
        self._ctx = glue_context
        self._type = connection_type
        self._format = format
        self._format_options = {}
        self._ctx_name = transformation_ctx
        self._predicate = push_down_predicate
        self._options = options

    def setFormat(self, format, **options):
        self._format = format
        self._format_options = options

    def getFrame(self, **options):
        if self._type in ("s3", "file", "local") + DATABASE_CONNECTION_TYPES:
            return self._ctx.create_dynamic_frame_from_options(self._type, self._options, self._format,
                                                               self._format_options, self._ctx_name, self._predicate)
        if "database" in self._options and "table_name" in self._options:
            return self._ctx.create_dynamic_frame_from_catalog(self._options["database"], self._options["table_name"],
                                                               transformation_ctx=self._ctx_name,
                                                               push_down_predicate=self._predicate)
        raise PySparkNotImplementedError("getSource('%s') is not supported by epoxy yet" % self._type)

    def getDataFrame(self):
        return self.getFrame().toDF()

    def getSampleFrame(self, num, **options):
        frame = self.getFrame()
        return DynamicFrame(frame._df.limit(num), self._ctx, frame.name)


class DataSink:
    def __init__(self, glue_context, connection_type, format, transformation_ctx, options):
        self._ctx = glue_context
        self._type = connection_type
        self._format = format
        self._format_options = {}
        self._ctx_name = transformation_ctx
        self._options = options
        self._catalog = None

    def setFormat(self, format, **options):
        self._format = format
        self._format_options = options

    def setAccumulableSize(self, size):
        pass

    def setCatalogInfo(self, catalogDatabase, catalogTableName, catalogId=""):
        self._catalog = (catalogDatabase, catalogTableName)

    def writeFrame(self, dynamic_frame, info=""):
        self._write(dynamic_frame.toDF() if isinstance(dynamic_frame, DynamicFrame) else dynamic_frame)
        return DynamicFrame(self._ctx.spark_session.createDataFrame([], "errorMessage string"), self._ctx,
                            getattr(dynamic_frame, "name", "frame") + "_errors")

    def writeDataFrame(self, data_frame, glue_context, info=""):
        self._write(data_frame)
        return data_frame

    def write(self, frame_or_dfc, info=""):
        return self.writeFrame(frame_or_dfc, info)

    def _write(self, df):
        from pyspark.sql.catalog import catalog_call
        from pyspark.sql.readwriter import table_input
        if self._type in DATABASE_CONNECTION_TYPES:
            write_database(df, self._type, self._options, "append")
            return
        path = self._options.get("path")
        keys = list(self._options.get("partitionKeys") or [])
        fmt = _file_format(self._format or "parquet")
        options = {}
        if self._format_options.get("compression"):
            options["compression"] = self._format_options["compression"]
        update = str(self._options.get("enableUpdateCatalog", False)).lower() == "true"
        if self._catalog is not None and not path:
            table = self._ctx._get_table(*self._catalog)
            path = table["StorageDescriptor"]["Location"]
        summary = write_frame(df, path, fmt, "append", keys, options)
        if self._catalog is None or not update:
            return
        db, name = self._catalog
        schema = df.schema
        columns = [{"Name": f.name, "Type": f.dataType._engine_type()} for f in schema.fields if f.name not in keys]
        pkeys = [{"Name": k, "Type": schema[k].dataType._engine_type()} for k in keys]
        tin = table_input(name, path, fmt, columns, pkeys)
        try:
            existing = self._ctx._get_table(db, name)
        except AnalysisException:
            existing = None
        if existing is None:
            try:
                catalog_call("get_database", Name=db)
            except AnalysisException:
                catalog_call("create_database", DatabaseInput={"Name": db, "Description": ""})
            catalog_call("create_table", DatabaseName=db, TableInput=tin)
        elif self._options.get("updateBehavior", "UPDATE_IN_DATABASE") == "UPDATE_IN_DATABASE":
            tin["PartitionKeys"] = existing.get("PartitionKeys", pkeys)
            catalog_call("update_table", DatabaseName=db, TableInput=tin)
        if keys:
            _register_new_partitions(db, name, path, summary["files"], fmt)


class _DataFrameReader:
    def __init__(self, glue_context):
        self._ctx = glue_context

    def from_catalog(self, database=None, table_name=None, redshift_tmp_dir="", transformation_ctx="",
                     push_down_predicate="", additional_options={}, catalog_id=None, **kwargs):
        return self._ctx.create_data_frame_from_catalog(database, table_name, redshift_tmp_dir, transformation_ctx,
                                                        push_down_predicate, additional_options, catalog_id, **kwargs)

    def from_options(self, connection_type, connection_options={}, format=None, format_options={},
                     transformation_ctx="", push_down_predicate="", **kwargs):
        return self._ctx.create_data_frame_from_options(connection_type, connection_options, format, format_options,
                                                        transformation_ctx, push_down_predicate, **kwargs)


class _DataFrameWriter:
    def __init__(self, glue_context):
        self._ctx = glue_context

    def from_catalog(self, frame, database=None, table_name=None, redshift_tmp_dir="", transformation_ctx="",
                     additional_options={}, catalog_id=None, **kwargs):
        return self._ctx.write_data_frame_from_catalog(frame, database, table_name, redshift_tmp_dir,
                                                       transformation_ctx, additional_options, catalog_id, **kwargs)
