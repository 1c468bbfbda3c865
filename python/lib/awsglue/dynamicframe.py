# SPDX-License-Identifier: Apache-2.0
"""DynamicFrame: Glue's self-describing frame, over a DataFrame of the native engine.

Transforms that have a relational meaning (ApplyMapping, SelectFields, ResolveChoice, Join,
Union, ...) become SQL the engine runs. Per-record Python (map, filter) and the nested rewrites
without an engine operator yet (Relationalize, Unbox) run over the frame's rows in Python and
hand the result back as an in-memory frame; the README lists them.

Choice types: a column whose records hold several types (`choice<bigint,string>`) reaches the
engine as its catalog type (the string); the DynamicFrame keeps the choice from its source's
records so schema(), printSchema() and ResolveChoice see it.
"""
from epoxy.lazy import LazyModule

json = LazyModule("json")

from epoxy.runtime import fresh_name, quote, sql_string
from awsglue import gluetypes
from pyspark.errors import PySparkNotImplementedError
from pyspark.sql.column import Column, _col_sql
from pyspark.sql.dataframe import DataFrame
from pyspark.sql.types import Row

__all__ = ["DynamicFrame", "DynamicFrameCollection", "DynamicFrameReader", "DynamicFrameWriter", "ResolveOption"]

# Glue type names (as ResolveChoice and ApplyMapping take them) to engine SQL types.
_SQL_TYPES = {"long": "BIGINT", "bigint": "BIGINT", "int": "INT", "integer": "INT", "short": "SMALLINT",
              "smallint": "SMALLINT", "byte": "TINYINT", "tinyint": "TINYINT", "string": "STRING",
              "double": "DOUBLE", "float": "FLOAT", "boolean": "BOOLEAN", "date": "DATE",
              "timestamp": "TIMESTAMP", "binary": "BINARY", "null": "STRING"}

# How a value of each member type looks once widened to a string (choice<bigint,string> columns).
_MEMBER_PATTERNS = {"long": r"^[+-]?[0-9]+$", "int": r"^[+-]?[0-9]+$", "short": r"^[+-]?[0-9]+$",
                    "byte": r"^[+-]?[0-9]+$", "double": r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$",
                    "float": r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$", "boolean": r"^(true|false)$"}


def sql_type(glue_type):
    t = glue_type.strip().lower()
    if t.startswith("decimal"):
        return t.upper()
    if t.startswith(("array", "struct", "map")):
        return t
    if t not in _SQL_TYPES:
        raise ValueError("unknown type '%s' (long, int, string, double, decimal(p,s), ...)" % glue_type)
    return _SQL_TYPES[t]


def glue_type_name(engine_type):
    """The Glue name of an engine type string (`bigint` is `long`)."""
    t = engine_type.lower()
    return {"bigint": "long", "int": "int", "smallint": "short", "tinyint": "byte"}.get(t, t)


def _split_path(path):
    """`a.b` as ["a", "b"]; backticks keep dots inside one name (`` `this.old.name` ``)."""
    parts, current, quoted = [], "", False
    for c in path:
        if c == "`":
            quoted = not quoted
        elif c == "." and not quoted:
            parts.append(current)
            current = ""
        else:
            current += c
    parts.append(current)
    return parts


def _path_sql(path):
    return ".".join(quote(p) for p in _split_path(path))


def _to_record(value):
    if isinstance(value, Row) and hasattr(value, "__fields__"):
        return gluetypes.DynamicRecord((k, _to_record(v)) for k, v in zip(value.__fields__, value))
    if isinstance(value, list):
        return [_to_record(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_record(v) for k, v in value.items()}
    return value


def _json_value(value):
    """JSON for the values json does not know: dates and times as ISO text, decimals as text."""
    import datetime as _dt
    import decimal as _decimal
    if isinstance(value, _dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, _decimal.Decimal):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        import base64
        return base64.b64encode(bytes(value)).decode("ascii")
    raise TypeError("%s is not JSON serializable" % type(value).__name__)


def _error_record(message, record):
    return {"errorMessage": message, "record": json.dumps(record, default=str), "isError": True}


class ResolveOption:
    def __init__(self, path, action, target=None):
        if action not in ("KeepAsStruct", "Project"):
            raise ValueError("ResolveOption action must be KeepAsStruct or Project, got %s" % action)
        if action == "Project" and not isinstance(target, gluetypes.DataType):
            raise ValueError("Target type must be specified with project action")
        self.path, self.action, self.target = path, action, target


class DynamicFrame:
    def __init__(self, jdf, glue_ctx, name="", _choices=None, _errors=None, _upstream=0):
        if not isinstance(jdf, DataFrame):
            raise TypeError("DynamicFrame wraps a DataFrame, got %s" % type(jdf).__name__)
        self._df = jdf
        self.glue_ctx = glue_ctx
        self._glue_ctx = glue_ctx
        self.name = name
        self._choices_fn = _choices or (lambda: {})
        self._choices_cache = None
        self._errors = list(_errors or [])   # this stage's error records
        self._upstream = _upstream           # error records of earlier stages

    # Derived frames keep the choices of the columns they keep.
    def _derive(self, df, name=None, choices=None, errors=None, keep=None, rename=None):
        parent = self
        if choices is None:
            def choices():
                out = parent._choices()
                if keep is not None:
                    out = {k: v for k, v in out.items() if k in keep}
                if rename:
                    out = {rename.get(k, k): v for k, v in out.items()}
                return out
        return DynamicFrame(df, self.glue_ctx, self.name if name is None else name, choices, errors,
                            self._upstream + len(self._errors))

    def _choices(self):
        if self._choices_cache is None:
            self._choices_cache = self._choices_fn()
        return self._choices_cache

    def with_frame_schema(self, schema):
        return self

    # Schema
    def schema(self):
        choices = self._choices()
        fields = []
        for f in self._df.schema.fields:
            if f.name in choices:
                t = gluetypes.ChoiceType([gluetypes.from_type_string(m) for m in choices[f.name]])
            else:
                t = gluetypes.from_type_string(f.dataType._engine_type())
            fields.append(gluetypes.Field(f.name, t))
        return gluetypes.StructType(fields)

    def printSchema(self):
        print(self.schema().tree_string(), end="")

    def show(self, num_rows=20):
        for row in self._df.take(num_rows):
            print(json.dumps(_to_record(row), default=str))

    def count(self):
        return self._df.count()

    def toDF(self, options=None):
        for o in options or []:
            if not isinstance(o, ResolveOption):
                raise TypeError("toDF takes ResolveOption values")
        return self._df

    @classmethod
    def fromDF(cls, dataframe, glue_ctx, name=""):
        return cls(dataframe, glue_ctx, name)

    def getNumPartitions(self):
        return self.glue_ctx.spark_session.sparkContext.defaultParallelism

    # Errors
    def _check_thresholds(self, stage, total):
        stage_errors = len(self._errors)
        if stage and stage_errors > stage:
            raise RuntimeError("Too many errors in the stage %s: %d error records exceed stageThreshold %d" %
                               (self.name, stage_errors, stage))
        if total and stage_errors + self._upstream > total:
            raise RuntimeError("Too many errors: %d error records exceed totalThreshold %d" %
                               (stage_errors + self._upstream, total))
        return self

    def errorsAsDynamicFrame(self):
        rows = [(e["errorMessage"], e["record"], True) for e in self._errors]
        df = self.glue_ctx.spark_session.createDataFrame(rows, "errorMessage string, record string, isError boolean")
        return DynamicFrame(df, self.glue_ctx, self.name + "_errors")

    def errorsCount(self):
        return len(self._errors) + self._upstream

    def stageErrorsCount(self):
        return len(self._errors)

    def assertErrorThreshold(self):
        if self._errors:
            raise RuntimeError("%d error records in %s: %s" % (len(self._errors), self.name,
                                                                self._errors[0]["errorMessage"]))

    # Per-record Python
    def _records(self):
        return [_to_record(r) for r in self._df.collect()]

    def _from_records(self, records, name=None):
        from awsglue.context import records_frame
        return records_frame(self.glue_ctx.spark_session, records, self._df.schema)

    def filter(self, f, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        """Keeps the records `f` accepts. `f` runs inside the engine, a batch of records at a time on
        its worker threads; the frame is computed now and held in the engine's memory, so the error
        records are known exactly (a KeyError, ValueError or TypeError drops the record; another
        exception makes an error record)."""
        from pyspark.sql import functions as F
        from pyspark.sql.types import BooleanType
        from pyspark.sql.udf import UserDefinedFunction
        errors = []

        def accept(row):
            record = _to_record(row)
            try:
                return bool(f(record))
            except (KeyError, ValueError, TypeError):
                return False
            except Exception as e:  # noqa: BLE001 -- any other failure is an error record
                errors.append(_error_record("%s: %s" % (type(e).__name__, e), record))
                return False
        predicate = UserDefinedFunction(accept, BooleanType(), name="dynamicframe_filter")
        record = F.struct(*[Column(quote(c)) for c in self._df.columns])
        kept = self._df.filter(predicate(record)).select(*[Column(quote(c)) for c in self._df.columns]).cache()
        out = self._derive(kept, errors=errors)
        return out._check_thresholds(stageThreshold, totalThreshold)

    def map(self, f, preservesPartitioning=False, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        """Applies `f` to every record. `f` runs inside the engine a batch at a time; its records are
        parsed back natively (their schema, choices included, merged over all of them) and held in
        the engine's memory. Any exception, or a None return, makes an error record."""
        from pyspark.sql import functions as F
        from pyspark.sql.types import StringType
        from pyspark.sql.udf import UserDefinedFunction
        errors = []

        def apply(row):
            record = _to_record(row)
            try:
                result = f(record)
            except Exception as e:  # noqa: BLE001 -- a failing function makes an error record
                errors.append(_error_record("%s: %s" % (type(e).__name__, e), record))
                return None
            if result is None:
                errors.append(_error_record("User-specified function returned None instead of DynamicRecord", record))
                return None
            try:
                return json.dumps(result, default=_json_value)
            except (TypeError, ValueError) as e:
                errors.append(_error_record("%s: %s" % (type(e).__name__, e), record))
                return None
        mapper = UserDefinedFunction(apply, StringType(), name="dynamicframe_map")
        query = self._df.select(mapper(F.struct(*[Column(quote(c)) for c in self._df.columns])).alias("record"))
        name = fresh_name("mapped")
        from epoxy.runtime import engine
        from pyspark.sql.dataframe import call_engine
        fields, _, _ = call_engine(engine().materialize_json_records, name, query._sql())
        session = self.glue_ctx.spark_session
        if not fields:
            from awsglue.context import records_frame
            return self._derive(records_frame(session, [], self._df.schema), errors=errors)._check_thresholds(
                stageThreshold, totalThreshold)
        df = DataFrame._of_source(session, name)
        # Values JSON has no type for (dates, timestamps, decimals) come back as text: a field that
        # kept its name gets its input type back.
        before = {fld.name: fld.dataType for fld in self._df.schema.fields}
        after = dict(fields)
        restore = {}
        for column, data_type in before.items():
            if after.get(column) == "string" and data_type.typeName() in ("date", "timestamp", "decimal"):
                restore[column] = Column("CAST(%s AS %s)" % (quote(column), data_type._engine_type()))
        if restore:
            df = df.withColumns(restore)
        from awsglue.context import _members
        choices = {n: _members(t) for n, t in fields if t.startswith("choice<")}
        out = self._derive(df, choices=lambda: choices, errors=errors)
        return out._check_thresholds(stageThreshold, totalThreshold)

    def mapPartitions(self, f, preservesPartitioning=True, transformation_ctx="", info="", stageThreshold=0,
                      totalThreshold=0):
        from awsglue.context import records_frame
        records = list(f(iter(self._records())))
        return self._derive(records_frame(self.glue_ctx.spark_session, records, None), choices=lambda: {})

    def mapPartitionsWithIndex(self, f, preservesPartitioning=False, transformation_ctx="", info="", stageThreshold=0,
                               totalThreshold=0):
        from awsglue.context import records_frame
        records = list(f(0, iter(self._records())))
        return self._derive(records_frame(self.glue_ctx.spark_session, records, None), choices=lambda: {})

    # Field transforms
    def select_fields(self, paths, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        names = self._df.columns
        keep = [p for p in paths if _split_path(p)[0] in names]
        items = []
        for p in keep:
            parts = _split_path(p)
            items.append(Column(_path_sql(p), alias=parts[-1]) if len(parts) > 1 else Column(quote(parts[0])))
        return self._derive(self._df.select(*items), keep=set(keep))

    def drop_fields(self, paths, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        top = set()
        for p in paths:
            parts = _split_path(p)
            if len(parts) > 1:
                raise PySparkNotImplementedError("drop_fields of a nested field (%s) is not supported by epoxy yet" % p)
            top.add(parts[0])
        keep = [c for c in self._df.columns if c not in top]
        return self._derive(self._df.select(*[Column(quote(c)) for c in keep]), keep=set(keep))

    def rename_field(self, oldName, newName, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        old = _split_path(oldName)
        new = _split_path(newName)
        if len(old) > 1 or len(new) > 1:
            raise PySparkNotImplementedError("rename_field of a nested field (%s) is not supported by epoxy yet" %
                                             oldName)
        items = [Column(quote(c), alias=new[0]) if c == old[0] else Column(quote(c)) for c in self._df.columns]
        return self._derive(self._df.select(*items), rename={old[0]: new[0]})

    def split_fields(self, paths, name1, name2, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        first = self.select_fields(paths)
        first.name = name1
        second = self.drop_fields([p for p in paths if len(_split_path(p)) == 1])
        second.name = name2
        return DynamicFrameCollection({name1: first, name2: second}, self.glue_ctx)

    def split_rows(self, comparison_dict, name1, name2, transformation_ctx="", info="", stageThreshold=0,
                   totalThreshold=0):
        ops = {"<": "<", ">": ">", "=": "=", "==": "=", "<=": "<=", ">=": ">=", "!=": "!="}
        conds = []
        for path, comparisons in comparison_dict.items():
            for op, value in comparisons.items():
                if op not in ops:
                    raise ValueError("split_rows: unknown comparison '%s'" % op)
                from pyspark.sql.column import literal_sql
                conds.append("%s %s %s" % (_path_sql(path), ops[op], literal_sql(value)))
        cond = " AND ".join("(%s)" % c for c in conds) or "true"
        first = self._derive(self._df.filter(cond), name=name1)
        second = self._derive(self._df.filter("NOT coalesce(%s, false)" % cond), name=name2)
        return DynamicFrameCollection({name1: first, name2: second}, self.glue_ctx)

    def apply_mapping(self, mappings, case_sensitive=False, transformation_ctx="", info="", stageThreshold=0,
                      totalThreshold=0):
        items = []
        names = self._df.columns
        lookup = {n if case_sensitive else n.lower(): n for n in names}
        for m in mappings:
            if len(m) == 4:
                source, _, target, target_type = m
            elif len(m) == 3:
                source, _, target = m
                target_type = None
            elif len(m) == 2:
                source, target = m
                target_type = None
            else:
                raise ValueError("a mapping has 2, 3 or 4 elements, got %r" % (m,))
            parts = _split_path(source)
            head = parts[0] if case_sensitive else parts[0].lower()
            if head not in lookup:
                continue  # Glue drops mappings whose source is missing
            parts[0] = lookup[head]
            expr = ".".join(quote(p) for p in parts)
            if target_type:
                expr = _glue_cast(expr, target_type, self._choices().get(parts[0]) if len(parts) == 1 else None)
            target_parts = _split_path(target)
            if len(target_parts) > 1:
                raise PySparkNotImplementedError("apply_mapping to a nested target (%s) is not supported by epoxy yet" %
                                                 target)
            items.append(Column(expr, alias=target_parts[0]))
        return self._derive(self._df.select(*items), choices=lambda: {})

    def applyMapping(self, *args, **kwargs):
        if args and isinstance(args[0], DynamicFrame):
            args = args[1:]
        return self.apply_mapping(*args, **kwargs)

    def resolveChoice(self, specs=None, choice="", database=None, table_name=None, transformation_ctx="", info="",
                      stageThreshold=0, totalThreshold=0, catalog_id=None):
        if bool(specs) == bool(choice):
            raise ValueError("resolveChoice takes either specs or choice, and one of them is required")
        choices = self._choices()
        if choice:
            specs = [(c, choice) for c in (choices or {})]
            if choice == "match_catalog":
                specs = [(c, "match_catalog") for c in self._df.columns]
        columns = self._df.columns
        actions = {}
        for path, action in specs:
            if "[]" in path or len(_split_path(path)) > 1:
                raise PySparkNotImplementedError("resolveChoice on a nested path (%s) is not supported by epoxy yet" %
                                                 path)
            if path not in columns:
                continue
            actions[path] = action
        if any(a == "match_catalog" for a in actions.values()):
            if not database or not table_name:
                raise ValueError("match_catalog needs database and table_name")
            table = self.glue_ctx._get_table(database, table_name)
            catalog_types = {c["Name"]: c["Type"] for c in table["StorageDescriptor"]["Columns"]}
            for path, action in list(actions.items()):
                if action == "match_catalog":
                    actions[path] = "cast:" + glue_type_name(catalog_types.get(path, "string"))
        items, tail = [], []
        remaining = dict(choices)
        for c in columns:
            action = actions.get(c)
            members = choices.get(c)
            if action is None:
                items.append(Column(quote(c)))
                continue
            remaining.pop(c, None)
            if action.startswith("cast:"):
                items.append(Column(_glue_cast(quote(c), action[5:], members), alias=c))
            elif action.startswith("project:"):
                # Every value projected to the type: the longs of a choice<long,string> become "1200".
                target = action[8:].strip().lower()
                if target == "string":
                    items.append(Column("CAST(%s AS STRING)" % quote(c), alias=c))
                else:
                    items.append(Column(_glue_cast(quote(c), target, members), alias=c))
            elif action == "make_cols":
                names = [glue_type_name(m) for m in (members or [])]
                if len(names) < 2:
                    items.append(Column(quote(c)))
                    continue
                items.append(Column(_member_value(quote(c), names[0], names), alias="%s_%s" % (c, names[0])))
                for n in names[1:]:
                    tail.append(Column(_member_value(quote(c), n, names), alias="%s_%s" % (c, n)))
            elif action == "make_struct":
                names = [glue_type_name(m) for m in (members or [])]
                if len(names) < 2:
                    items.append(Column(quote(c)))
                    continue
                parts = ", ".join("%s, %s" % (sql_string(n), _member_value(quote(c), n, names)) for n in names)
                items.append(Column("named_struct(%s)" % parts, alias=c))
            else:
                raise ValueError("unknown resolveChoice action '%s' (cast:T, project:T, make_cols, make_struct, "
                                 "match_catalog)" % action)
        out = self._derive(self._df.select(*(items + tail)), choices=lambda: remaining)
        return out

    def unnest(self, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        from pyspark.sql.types import StructType
        items = []

        def walk(prefix_sql, prefix_name, data_type):
            for f in data_type.fields:
                sql = prefix_sql + "." + quote(f.name)
                name = prefix_name + "." + f.name
                if isinstance(f.dataType, StructType):
                    walk(sql, name, f.dataType)
                else:
                    items.append(Column(sql, alias=name))
        for f in self._df.schema.fields:
            if isinstance(f.dataType, StructType):
                walk(quote(f.name), f.name, f.dataType)
            else:
                items.append(Column(quote(f.name)))
        return self._derive(self._df.select(*items), choices=lambda: {})

    def unbox(self, path, format, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0, **options):
        if format != "json":
            raise PySparkNotImplementedError("unbox of format %s is not supported by epoxy (json is)" % format)
        records = self._records()
        for r in records:
            if r.get(path) is not None:
                try:
                    r[path] = json.loads(r[path])
                except ValueError:
                    r[path] = None
        from awsglue.context import records_frame
        return self._derive(records_frame(self.glue_ctx.spark_session, records, None), choices=lambda: {})

    def relationalize(self, root_table_name, staging_path, options=None, transformation_ctx="", info="",
                      stageThreshold=0, totalThreshold=0):
        from awsglue.relationalize import relationalize_records
        tables = relationalize_records(self._records(), root_table_name)
        from awsglue.context import records_frame
        frames = {}
        for name, rows in tables.items():
            frames[name] = DynamicFrame(records_frame(self.glue_ctx.spark_session, rows, None), self.glue_ctx, name)
        return DynamicFrameCollection(frames, self.glue_ctx)

    def join(self, paths1, paths2, frame2, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        if len(paths1) != len(paths2):
            raise ValueError("join needs as many keys on each side")
        left, right = self._df, frame2._df
        cond = None
        for a, b in zip(paths1, paths2):
            c = left[_split_path(a)[0]] == right[_split_path(b)[0]]
            cond = c if cond is None else (cond & c)
        joined = left.join(right, cond, "inner")
        left_cols = left.columns
        items = [left[c] for c in left_cols] + [right[c] for c in right.columns if c not in left_cols]
        return DynamicFrame(joined.select(*items), self.glue_ctx, self.name + frame2.name)

    def union(self, other_frame, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return DynamicFrame(self._df.unionByName(other_frame._df, allowMissingColumns=True), self.glue_ctx, self.name)

    def mergeDynamicFrame(self, stage_dynamic_frame, primary_keys, transformation_ctx="", options=None, info="",
                          stageThreshold=0, totalThreshold=0):
        stage = stage_dynamic_frame._df
        kept = self._df.join(stage.select(*primary_keys).distinct(), list(primary_keys), "left_anti")
        return DynamicFrame(stage.unionByName(kept, allowMissingColumns=True), self.glue_ctx, self.name)

    def spigot(self, path, options=None, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        options = options or {}
        top = int(options.get("topk", 100))
        self._df.limit(top).write.mode("overwrite").json(path)
        return self

    def repartition(self, num_partitions, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return self._derive(self._df.repartition(num_partitions))

    def coalesce(self, num_partitions, shuffle=False, transformation_ctx="", info="", stageThreshold=0,
                 totalThreshold=0):
        return self._derive(self._df.coalesce(num_partitions))

    def drop_null_fields(self):
        df = self._df
        from pyspark.sql.types import NullType
        names = df.columns
        if not names:
            return self, []
        counts = df.selectExpr(*["count(%s) AS %s" % (quote(n), quote("c%d" % i)) for i, n in enumerate(names)]).collect()[0]
        null_fields = [n for n, c, f in zip(names, counts, df.schema.fields) if c == 0 and not
                       f.dataType.typeName() in ("array", "map")]
        null_fields = [n for n in null_fields if isinstance(df.schema[n].dataType, NullType) or True]
        keep = [n for n in names if n not in null_fields]
        return self._derive(df.select(*[Column(quote(n)) for n in keep]), keep=set(keep)), null_fields

    def write(self, connection_type, connection_options=None, format=None, format_options=None, accumulator_size=0):
        return self.glue_ctx.write_dynamic_frame_from_options(self, connection_type, connection_options or {}, format,
                                                              format_options or {})

    def simplify_ddb_json(self):
        raise PySparkNotImplementedError("DynamicFrame.simplify_ddb_json is not supported by epoxy")

    def unnest_ddb_json(self, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        raise PySparkNotImplementedError("DynamicFrame.unnest_ddb_json is not supported by epoxy")

    def __repr__(self):
        return "DynamicFrame(%s)" % self.name


def _glue_cast(expr, target, members):
    """ResolveChoice's cast: a value that does not convert is null; on a choice that the engine holds
    as text, a string member must look like the target (`"12.50"` is no long)."""
    t = target.strip().lower()
    sql = sql_type(t)
    if members and any(glue_type_name(m) == "string" for m in members) and t in _MEMBER_PATTERNS:
        return "CASE WHEN trim(%s) RLIKE %s THEN CAST(trim(%s) AS %s) END" % (expr, sql_string(_MEMBER_PATTERNS[t]),
                                                                               expr, sql)
    return "CAST(%s AS %s)" % (expr, sql)


def _member_value(expr, member, members):
    """The value of `expr` when its record held a `member`, else null (for a choice held as text)."""
    if member == "string":
        others = [m for m in members if m != "string" and m in _MEMBER_PATTERNS]
        if not others:
            return expr
        cond = " OR ".join("%s RLIKE %s" % (expr, sql_string(_MEMBER_PATTERNS[m])) for m in others)
        return "CASE WHEN NOT (%s) THEN %s END" % (cond, expr)
    pattern = _MEMBER_PATTERNS.get(member)
    if pattern is None:
        return "CAST(%s AS %s)" % (expr, sql_type(member))
    earlier = [m for m in members if m != member and m != "string" and m in _MEMBER_PATTERNS
               and members.index(m) < members.index(member)]
    cond = "%s RLIKE %s" % (expr, sql_string(pattern))
    for m in earlier:
        cond += " AND NOT %s RLIKE %s" % (expr, sql_string(_MEMBER_PATTERNS[m]))
    return "CASE WHEN %s THEN CAST(%s AS %s) END" % (cond, expr, sql_type(member))


class DynamicFrameCollection:
    def __init__(self, dynamic_frames, glue_ctx):
        if isinstance(dynamic_frames, list):
            dynamic_frames = {f.name: f for f in dynamic_frames}
        self._frames = dict(dynamic_frames)
        self._glue_ctx = glue_ctx

    def __getitem__(self, key):
        return self._frames[key]

    def __len__(self):
        return len(self._frames)

    def __iter__(self):
        return iter(self._frames)

    def keys(self):
        return self._frames.keys()

    def values(self):
        return self._frames.values()

    def select(self, key, transformation_ctx=""):
        if key in self._frames:
            return self._frames[key]
        # Glue's empty frame has no fields; the engine's frames have at least one column.
        empty = self._glue_ctx.spark_session.createDataFrame([], "value string")
        return DynamicFrame(empty, self._glue_ctx, key)

    def map(self, callable, transformation_ctx=""):
        return DynamicFrameCollection({k: callable(v, transformation_ctx + ":" + k) for k, v in self._frames.items()},
                                      self._glue_ctx)

    def flatmap(self, f, transformation_ctx=""):
        out = {}
        for k, v in self._frames.items():
            result = f(v, transformation_ctx + ":" + k)
            if isinstance(result, DynamicFrameCollection):
                out.update(result._frames)
            else:
                out[result.name or k] = result
        return DynamicFrameCollection(out, self._glue_ctx)


class DynamicFrameReader:
    def __init__(self, glue_context):
        self._glue_context = glue_context

    def from_rdd(self, data, name, schema=None, sampleRatio=None):
        return self._glue_context.create_dynamic_frame_from_rdd(data, name, schema, sampleRatio)

    def from_options(self, connection_type, connection_options={}, format=None, format_options={},
                     transformation_ctx="", push_down_predicate="", **kwargs):
        return self._glue_context.create_dynamic_frame_from_options(connection_type, connection_options, format,
                                                                    format_options, transformation_ctx,
                                                                    push_down_predicate, **kwargs)

    def from_catalog(self, database=None, table_name=None, redshift_tmp_dir="", transformation_ctx="",
                     push_down_predicate="", additional_options={}, catalog_id=None, **kwargs):
        return self._glue_context.create_dynamic_frame_from_catalog(database, table_name, redshift_tmp_dir,
                                                                    transformation_ctx, push_down_predicate,
                                                                    additional_options, catalog_id, **kwargs)


class DynamicFrameWriter:
    def __init__(self, glue_context):
        self._glue_context = glue_context

    def from_options(self, frame, connection_type, connection_options={}, format=None, format_options={},
                     transformation_ctx=""):
        return self._glue_context.write_dynamic_frame_from_options(frame, connection_type, connection_options, format,
                                                                   format_options, transformation_ctx)

    def from_catalog(self, frame, database=None, table_name=None, redshift_tmp_dir="", transformation_ctx="",
                     additional_options={}, catalog_id=None, **kwargs):
        return self._glue_context.write_dynamic_frame_from_catalog(frame, database, table_name, redshift_tmp_dir,
                                                                   transformation_ctx, additional_options, catalog_id,
                                                                   **kwargs)

    def from_jdbc_conf(self, frame, catalog_connection, connection_options={}, redshift_tmp_dir="",
                       transformation_ctx=""):
        return self._glue_context.write_dynamic_frame_from_jdbc_conf(frame, catalog_connection, connection_options,
                                                                     redshift_tmp_dir, transformation_ctx)
