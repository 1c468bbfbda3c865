# SPDX-License-Identifier: Apache-2.0
"""spark.read and df.write: Spark's reader and writer options mapped onto epoxy's file sources
(Glue's format_options) and its staged, committed dataset writer."""
import os

from epoxy.runtime import engine, fresh_name, quote
from pyspark.errors import AnalysisException, PySparkNotImplementedError, PySparkValueError
from pyspark.sql.dataframe import DataFrame, call_engine
from pyspark.sql.types import StructType, _parse_datatype_string

__all__ = ["DataFrameReader", "DataFrameWriter"]


def _bool_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).lower()


def _paths(path):
    if isinstance(path, (list, tuple)):
        return [str(p) for p in path]
    return [str(path)]


def register_files(name, fmt, paths, options, exclusions=(), recurse=True, group_size=0, push_down_predicate="",
                   transformation_ctx="", max_files_per_run=0):
    """A file source under `name` in the engine (Glue's connection and format options)."""
    if fmt in ("orc", "avro", "xml", "ion", "grokLog"):
        raise PySparkNotImplementedError("the %s format is not supported by epoxy yet (csv, json, parquet are)" % fmt)
    if fmt == "text":
        raise PySparkNotImplementedError("the text format is not supported by epoxy yet (csv, json, parquet are)")
    call_engine(engine().register_files, name, fmt, paths, {k: str(v) for k, v in options.items()}, list(exclusions),
                recurse, group_size, push_down_predicate or "", transformation_ctx or "", int(max_files_per_run or 0))


class DataFrameReader:
    def __init__(self, session):
        self._session = session
        self._format = "parquet"
        self._options = {}
        self._schema = None

    def format(self, source):
        self._format = source.lower()
        return self

    def option(self, key, value):
        self._options[key] = value
        return self

    def options(self, **options):
        self._options.update(options)
        return self

    def schema(self, schema):
        self._schema = _parse_datatype_string(schema) if isinstance(schema, str) else schema
        return self

    def load(self, path=None, format=None, schema=None, **options):
        if format:
            self.format(format)
        if schema is not None:
            self.schema(schema)
        self._options.update(options)
        if self._format == "jdbc":
            from pyspark.sql.database import database_frame
            return database_frame(self._session, "jdbc", self._options)
        if path is None:
            path = self._options.pop("path", None)
        if path is None:
            raise PySparkValueError("load() needs a path")
        return self._files(self._format, _paths(path))

    def _files(self, fmt, paths):
        opts = {k.lower(): v for k, v in self._options.items()}
        glue = {}
        rename_headerless = False
        if fmt == "csv":
            header = _bool_text(opts.get("header", False))
            glue["withHeader"] = header
            rename_headerless = header != "true"
            sep = opts.get("sep", opts.get("delimiter"))
            if sep is not None:
                glue["separator"] = sep
            if "quote" in opts:
                glue["quoteChar"] = opts["quote"] if opts["quote"] else "-1"
            if "escape" in opts:
                glue["escaper"] = opts["escape"]
            if self._schema is not None or _bool_text(opts.get("inferschema", False)) != "true":
                glue["inferSchema"] = "false"
        elif fmt == "json":
            if "multiline" in opts:
                glue["multiLine"] = _bool_text(opts["multiline"])
        elif fmt != "parquet":
            register_files(fresh_name(), fmt, paths, glue)  # raises NotImplementedError naming the format
        name = fresh_name("files")
        recursive = _bool_text(opts.get("recursivefilelookup", True)) == "true"
        register_files(name, fmt, paths, glue, recurse=recursive)
        df = DataFrame._of_source(self._session, name)
        if rename_headerless:
            df = df.select(*[df[c].alias("_c%d" % i) for i, c in enumerate(df.columns)])
        if self._schema is not None:
            fields = self._schema.fields
            items = []
            for i, c in enumerate(df.columns):
                if i < len(fields):
                    items.append("CAST(%s AS %s) AS %s" % (quote(c), fields[i].dataType._engine_type(), quote(fields[i].name)))
            df = df.selectExpr(*items)
        return df

    def parquet(self, *paths, **options):
        self._options.update(options)
        return self._files("parquet", [str(p) for p in paths])

    def json(self, path, schema=None, **options):
        if schema is not None:
            self.schema(schema)
        self._options.update({k: v for k, v in options.items() if v is not None})
        return self._files("json", _paths(path))

    def csv(self, path, schema=None, sep=None, header=None, inferSchema=None, quote=None, escape=None, **options):
        if schema is not None:
            self.schema(schema)
        for key, value in (("sep", sep), ("header", header), ("inferSchema", inferSchema), ("quote", quote),
                           ("escape", escape)):
            if value is not None:
                self._options[key] = value
        self._options.update({k: v for k, v in options.items() if v is not None})
        return self._files("csv", _paths(path))

    def orc(self, path, **options):
        raise PySparkNotImplementedError("spark.read.orc: the ORC format is not supported by epoxy yet")

    def text(self, paths, **options):
        raise PySparkNotImplementedError("spark.read.text is not supported by epoxy yet")

    def table(self, tableName):
        return table_frame(self._session, tableName)

    def jdbc(self, url, table, column=None, lowerBound=None, upperBound=None, numPartitions=None, predicates=None,
             properties=None):
        from pyspark.sql.database import database_frame
        if predicates is not None:
            raise PySparkNotImplementedError("spark.read.jdbc with predicates is not supported by epoxy (use "
                                             "column, lowerBound, upperBound and numPartitions)")
        options = dict(self._options)
        options.update(properties or {})
        options.update({"url": url, "dbtable": table})
        if column is not None:
            options.update({"partitionColumn": column, "lowerBound": lowerBound, "upperBound": upperBound,
                            "numPartitions": numPartitions})
        return database_frame(self._session, "jdbc", options)


def table_frame(session, table_name, push_down_predicate="", catalog_predicate="", transformation_ctx="",
                max_files_per_run=0):
    """A catalog table (or a temp view) as a DataFrame; names without a database are in `default`."""
    if "." not in table_name and engine().has_view(table_name) and not push_down_predicate:
        return DataFrame._of_source(session, table_name)
    db, _, table = table_name.rpartition(".")
    db = db or session._current_database
    name = fresh_name("table")
    call_engine(engine().register_catalog_table, name, db.strip("`"), table.strip("`"), push_down_predicate,
                catalog_predicate, transformation_ctx or "", int(max_files_per_run or 0))
    return DataFrame._of_source(session, name)


def epoxy_home():
    return os.environ.get("EPOXY_HOME") or os.path.join(os.path.expanduser("~"), ".epoxy")


class DataFrameWriter:
    def __init__(self, df):
        self._df = df
        self._mode = "errorifexists"
        self._format = "parquet"
        self._options = {}
        self._partition_by = []

    def mode(self, saveMode):
        if saveMode is None:
            return self
        mode = saveMode.lower()
        if mode not in ("append", "overwrite", "error", "errorifexists", "ignore"):
            raise PySparkValueError("Unknown save mode: %s. Accepted save modes are 'overwrite', 'append', 'ignore', "
                                    "'error', 'errorifexists', 'default'." % saveMode)
        self._mode = mode
        return self

    def format(self, source):
        self._format = source.lower()
        return self

    def option(self, key, value):
        self._options[key] = value
        return self

    def options(self, **options):
        self._options.update(options)
        return self

    def partitionBy(self, *cols):
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = cols[0]
        self._partition_by = list(cols)
        return self

    def bucketBy(self, numBuckets, col, *cols):
        raise PySparkNotImplementedError("DataFrameWriter.bucketBy is not supported by epoxy")

    def sortBy(self, col, *cols):
        raise PySparkNotImplementedError("DataFrameWriter.sortBy is not supported by epoxy")

    def save(self, path=None, format=None, mode=None, partitionBy=None, **options):
        if format:
            self.format(format)
        self.mode(mode)
        if partitionBy:
            self.partitionBy(partitionBy)
        self._options.update(options)
        if self._format == "jdbc":
            from pyspark.sql.database import write_database
            write_database(self._df, "jdbc", self._options, self._mode)
            return None
        if path is None:
            path = self._options.pop("path", None)
        if path is None:
            raise PySparkValueError("save() needs a path")
        return write_frame(self._df, str(path), self._format, self._mode, self._partition_by, self._options)

    def parquet(self, path, mode=None, partitionBy=None, compression=None):
        if compression:
            self._options["compression"] = compression
        return self.save(path, "parquet", mode, partitionBy)

    def json(self, path, mode=None, compression=None, **kwargs):
        if compression:
            self._options["compression"] = compression
        return self.save(path, "json", mode)

    def csv(self, path, mode=None, compression=None, sep=None, header=None, **kwargs):
        if compression:
            self._options["compression"] = compression
        return self.save(path, "csv", mode)

    def orc(self, path, **kwargs):
        raise PySparkNotImplementedError("DataFrameWriter.orc: the ORC format is not supported by epoxy yet")

    def text(self, path, **kwargs):
        raise PySparkNotImplementedError("DataFrameWriter.text is not supported by epoxy yet")

    def jdbc(self, url, table, mode=None, properties=None):
        from pyspark.sql.database import write_database
        self.mode(mode)
        options = dict(self._options)
        options.update(properties or {})
        options.update({"url": url, "dbtable": table})
        write_database(self._df, "jdbc", options, self._mode)

    def saveAsTable(self, name, format=None, mode=None, partitionBy=None, **options):
        if format:
            self.format(format)
        self.mode(mode)
        if partitionBy:
            self.partitionBy(partitionBy)
        return save_as_table(self._df, name, self._format, self._mode, self._partition_by, self._options)

    def insertInto(self, tableName, overwrite=None):
        return save_as_table(self._df, tableName, None, "overwrite" if overwrite else "append", None, self._options,
                             insert=True)


_CODECS = {"none": "none", "uncompressed": "none", "snappy": "snappy", "gzip": "gzip", "zstd": "zstd",
           "lz4": "lz4_raw", "lz4_raw": "lz4_raw", "brotli": "brotli"}


def write_frame(df, path, fmt, mode, partition_by, options):
    """Writes `df` at `path`: staged, then committed. Returns the engine's write summary."""
    if fmt in ("orc", "avro", "text", "xml"):
        raise PySparkNotImplementedError("writing the %s format is not supported by epoxy yet" % fmt)
    if fmt == "glueparquet":
        fmt = "parquet"
    opts = {k.lower(): v for k, v in options.items()}
    default_codec = "snappy" if fmt == "parquet" else "none"
    codec = str(opts.get("compression", default_codec)).lower()
    if codec not in _CODECS:
        raise PySparkValueError("compression '%s' is not one of %s" % (codec, ", ".join(sorted(_CODECS))))
    mode = "error" if mode == "errorifexists" else mode
    max_records = int(opts.get("maxrecordsperfile", 0) or 0)
    for key in partition_by:
        if key not in df.columns:
            raise AnalysisException("[COLUMN_NOT_FOUND] partition column `%s` is not among %s" % (key, df.columns))
    try:
        overwrite_mode = str(opts.get("partitionoverwritemode") or
                             df.sparkSession.conf.get("spark.sql.sources.partitionOverwriteMode", "static")).lower()
        if overwrite_mode not in ("static", "dynamic"):
            raise PySparkValueError("partitionOverwriteMode must be static or dynamic, got '%s'" % overwrite_mode)
        return call_engine(engine().write, df._sql(), path, fmt, list(partition_by), mode, _CODECS[codec], max_records,
                           str(opts.get("targetfilesize", "128M")), overwrite_mode == "dynamic")
    except AnalysisException as e:
        if "already exists" in str(e) and mode == "error":
            raise AnalysisException("[PATH_ALREADY_EXISTS] Path %s already exists. Set mode as \"overwrite\" to "
                                    "overwrite the existing path." % path) from None
        raise


def save_as_table(df, name, fmt, mode, partition_by, options, insert=False):
    from pyspark.sql.catalog import catalog_call
    db, _, table = name.rpartition(".")
    db = (db or df.sparkSession._current_database).strip("`")
    table = table.strip("`")
    existing = None
    try:
        existing = catalog_call("get_table", DatabaseName=db, Name=table)
    except AnalysisException:
        if insert:
            raise AnalysisException("[TABLE_OR_VIEW_NOT_FOUND] The table or view `%s`.`%s` cannot be found." % (db, table))
    if existing is not None:
        if mode in ("error", "errorifexists"):
            raise AnalysisException("[TABLE_OR_VIEW_ALREADY_EXISTS] Table `%s`.`%s` already exists." % (db, table))
        if mode == "ignore":
            return None
        sd = existing.get("StorageDescriptor", {})
        location = sd.get("Location")
        partition_by = [k["Name"] for k in existing.get("PartitionKeys", [])]
        fmt = existing.get("Parameters", {}).get("classification", "parquet")
        columns = [c["Name"] for c in sd.get("Columns", [])] + partition_by
        if insert:  # insertInto matches by position, as Spark does
            df = df.toDF(*columns)
        else:
            df = df.select(*columns)
    else:
        if not _database_exists(db):
            catalog_call("create_database", DatabaseInput={"Name": db, "Description": ""})
        location = os.path.join(epoxy_home(), "warehouse", db + ".db", table)
        fmt = fmt or "parquet"
        partition_by = partition_by or []
    summary = write_frame(df, location, fmt, "overwrite" if mode == "overwrite" else "append", partition_by, options)
    if existing is None:
        schema = df.schema
        columns = [{"Name": f.name, "Type": f.dataType._engine_type()} for f in schema.fields if f.name not in partition_by]
        keys = [{"Name": k, "Type": schema[k].dataType._engine_type()} for k in partition_by]
        catalog_call("create_table", DatabaseName=db, TableInput=table_input(table, location, fmt, columns, keys))
    if partition_by:
        register_partitions(db, table, location, summary["files"], fmt)
    return summary


def _database_exists(db):
    from pyspark.sql.catalog import catalog_call
    try:
        catalog_call("get_database", Name=db)
        return True
    except AnalysisException:
        return False


_FORMATS = {
    "parquet": ("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
                "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
                "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"),
    "json": ("org.apache.hadoop.mapred.TextInputFormat",
             "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat", "org.openx.data.jsonserde.JsonSerDe"),
    "csv": ("org.apache.hadoop.mapred.TextInputFormat", "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
            "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"),
}


def table_input(name, location, fmt, columns, keys):
    """A Glue TableInput for files epoxy wrote."""
    input_format, output_format, serde = _FORMATS.get(fmt, _FORMATS["parquet"])
    serde_params = {"field.delim": ","} if fmt == "csv" else {}
    params = {"classification": fmt}
    if fmt == "csv":
        params["skip.header.line.count"] = "1"
    return {"Name": name, "TableType": "EXTERNAL_TABLE", "Parameters": params, "PartitionKeys": keys,
            "StorageDescriptor": {"Columns": columns, "Location": location, "InputFormat": input_format,
                                  "OutputFormat": output_format, "Parameters": {"classification": fmt},
                                  "SerdeInfo": {"SerializationLibrary": serde, "Parameters": serde_params}}}


def register_partitions(db, table, location, files, fmt):
    """Adds the catalog partitions of the key=value folders `files` were written into."""
    from urllib.parse import unquote

    from pyspark.sql.catalog import catalog_call
    root = location.rstrip("/") + "/"
    folders = set()
    for f in files:
        if f.startswith(root):
            rel = f[len(root):]
            if "/" in rel:
                folders.add(rel.rsplit("/", 1)[0])
    inputs = []
    for folder in sorted(folders):
        values = [unquote(part.split("=", 1)[1]) for part in folder.split("/") if "=" in part]
        input_format, output_format, serde = _FORMATS.get(fmt, _FORMATS["parquet"])
        inputs.append({"Values": values, "StorageDescriptor": {
            "Location": root + folder, "InputFormat": input_format, "OutputFormat": output_format,
            "SerdeInfo": {"SerializationLibrary": serde, "Parameters": {}}}})
    import json
    if inputs and not call_engine(engine().queue_partitions, db, table, json.dumps(inputs)):
        catalog_call("batch_create_partition", DatabaseName=db, TableName=table, PartitionInputList=inputs)
