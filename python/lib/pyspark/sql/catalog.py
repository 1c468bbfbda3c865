# SPDX-License-Identifier: Apache-2.0
"""spark.catalog over epoxy's Data Catalog (databases and tables) and the session's temp views."""
import json
from collections import namedtuple

from epoxy.runtime import engine
from pyspark.errors import AnalysisException
from pyspark.sql.dataframe import call_engine

Database = namedtuple("Database", "name catalog description locationUri", defaults=(None, None, ""))
Table = namedtuple("Table", "name catalog namespace description tableType isTemporary",
                   defaults=(None, None, None, None, False))
Column = namedtuple("Column", "name description dataType nullable isPartition isBucket",
                    defaults=(None, None, True, False, False))
Function = namedtuple("Function", "name catalog namespace description className isTemporary")

__all__ = ["Catalog", "Database", "Table", "Column", "Function"]


def catalog_call(op, **args):
    return json.loads(call_engine(engine().catalog, op, json.dumps(args)))


class Catalog:
    def __init__(self, session):
        self._session = session

    def currentDatabase(self):
        return self._session._current_database

    def setCurrentDatabase(self, dbName):
        if not self.databaseExists(dbName):
            raise AnalysisException("[SCHEMA_NOT_FOUND] The schema `%s` cannot be found." % dbName)
        self._session._current_database = dbName

    def currentCatalog(self):
        return "spark_catalog"

    def listDatabases(self, pattern=None):
        out = []
        for d in catalog_call("get_databases")["DatabaseList"]:
            out.append(Database(name=d["Name"], catalog="spark_catalog", description=d.get("Description"),
                                locationUri=d.get("LocationUri", "")))
        return out

    def databaseExists(self, dbName):
        try:
            catalog_call("get_database", Name=dbName)
            return True
        except AnalysisException:
            return False

    def listTables(self, dbName=None, pattern=None):
        db = dbName or self.currentDatabase()
        try:
            tables = catalog_call("get_tables", DatabaseName=db)["TableList"]
        except AnalysisException:
            if dbName is None:
                return []
            raise
        return [Table(name=t["Name"], catalog="spark_catalog", namespace=[db], description=t.get("Description"),
                      tableType=t.get("TableType", "EXTERNAL_TABLE"), isTemporary=False) for t in tables]

    def tableExists(self, tableName, dbName=None):
        db, name = _split(tableName, dbName or self.currentDatabase())
        try:
            catalog_call("get_table", DatabaseName=db, Name=name)
            return True
        except AnalysisException:
            return engine().has_view(tableName)

    def listColumns(self, tableName, dbName=None):
        db, name = _split(tableName, dbName or self.currentDatabase())
        t = catalog_call("get_table", DatabaseName=db, Name=name)
        cols = [Column(name=c["Name"], description=c.get("Comment"), dataType=c["Type"], nullable=True,
                       isPartition=False, isBucket=False) for c in t.get("StorageDescriptor", {}).get("Columns", [])]
        cols += [Column(name=c["Name"], description=c.get("Comment"), dataType=c["Type"], nullable=True,
                        isPartition=True, isBucket=False) for c in t.get("PartitionKeys", [])]
        return cols

    def dropTempView(self, viewName):
        existed = engine().has_view(viewName)
        engine().drop_view(viewName)
        return existed

    dropGlobalTempView = dropTempView

    def createDatabase(self, name, description=None):
        catalog_call("create_database", DatabaseInput={"Name": name, "Description": description or ""})

    def isCached(self, tableName):
        return False

    def cacheTable(self, tableName, storageLevel=None):
        pass

    def uncacheTable(self, tableName):
        pass

    def clearCache(self):
        pass

    def refreshTable(self, tableName):
        pass

    def listFunctions(self, dbName=None, pattern=None):
        from pyspark.errors import PySparkNotImplementedError
        raise PySparkNotImplementedError("Catalog.listFunctions is not supported by epoxy")


def _split(table_name, default_db):
    if "." in table_name:
        db, name = table_name.split(".", 1)
        return db, name
    return default_db, table_name
