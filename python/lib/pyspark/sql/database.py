# SPDX-License-Identifier: Apache-2.0
"""Database sources and sinks (PostgreSQL, SQLite) as Glue's JDBC connection options and Spark's jdbc
format name them, handed to the engine's native readers and writers."""
import json

from epoxy.runtime import engine, fresh_name
from pyspark.errors import PySparkValueError
from pyspark.sql.dataframe import DataFrame, call_engine

DATABASE_CONNECTION_TYPES = ("postgresql", "sqlite", "jdbc")


def option_text(options):
    """Options as the engine takes them: text values, lists as JSON, booleans as true/false."""
    out = {}
    for key, value in (options or {}).items():
        if value is None:
            continue
        if isinstance(value, bool):
            out[key] = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            out[key] = json.dumps([str(v) for v in value])
        else:
            out[key] = str(value)
    return out


def _check_type(connection_type, options):
    url = options.get("url", "")
    if connection_type in ("postgresql", "sqlite") and url:
        engine_name = url[5:] if url.startswith("jdbc:") else url
        if not engine_name.startswith(connection_type) and not (connection_type == "postgresql" and
                                                                engine_name.startswith("postgres")):
            raise PySparkValueError("connection_type '%s' does not match the url %s" % (connection_type,
                                                                                      url.split("?")[0]))


def database_frame(session, connection_type, options, transformation_ctx=""):
    """A DataFrame over a database table or query."""
    opts = option_text(options)
    _check_type(connection_type, opts)
    name = fresh_name("db")
    call_engine(engine().register_database, name, opts, transformation_ctx or "")
    return DataFrame._of_source(session, name)


def write_database(df, connection_type, options, mode):
    """Writes `df` into a database table; returns the engine's summary (rows, metrics)."""
    opts = option_text(options)
    _check_type(connection_type, opts)
    return call_engine(engine().write_database, df._sql(), opts, mode or "append")


def catalog_table_options(table, additional_options=None):
    """The source options of a catalog table a JDBC crawler made (classification postgresql or sqlite,
    a connectionName, Location db.schema.table)."""
    params = table.get("Parameters", {})
    location = table.get("StorageDescriptor", {}).get("Location", "")
    classification = params.get("classification", "")
    parts = location.split(".", 2 if classification == "postgresql" else 1)
    if len(parts) < 2:
        raise PySparkValueError("catalog table %s has Location '%s', not db.schema.table" % (table.get("Name"), location))
    relation = ".".join('"%s"' % p.replace('"', '""') for p in parts[1:])
    opts = {"connectionName": params.get("connectionName", ""), "dbtable": relation}
    opts.update(additional_options or {})
    return opts


def is_database_table(table):
    params = table.get("Parameters", {})
    return params.get("classification") in ("postgresql", "sqlite") or bool(params.get("connectionName"))
