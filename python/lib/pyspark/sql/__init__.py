# SPDX-License-Identifier: Apache-2.0
"""pyspark.sql: SparkSession, DataFrame, Column, Row, Window and the types."""
from pyspark.sql.column import Column
from pyspark.sql.dataframe import DataFrame, DataFrameNaFunctions, DataFrameStatFunctions
from pyspark.sql.group import GroupedData
from pyspark.sql.readwriter import DataFrameReader, DataFrameWriter
from pyspark.sql.session import SparkSession
from pyspark.sql.types import Row
from pyspark.sql.window import Window, WindowSpec

SQLContext = None  # set below: Glue's GlueContext subclasses it


class SQLContext:  # noqa: F811
    """The pre-2.0 entry point; GlueContext extends it."""

    def __init__(self, sparkContext=None, sparkSession=None, jsqlContext=None):
        self._sc = sparkContext
        self.sparkSession = sparkSession or SparkSession._get_or_create()

    @property
    def read(self):
        return self.sparkSession.read

    def sql(self, sqlQuery):
        return self.sparkSession.sql(sqlQuery)

    def table(self, tableName):
        return self.sparkSession.table(tableName)

    def createDataFrame(self, data, schema=None, samplingRatio=None, verifySchema=True):
        return self.sparkSession.createDataFrame(data, schema, samplingRatio, verifySchema)

    def range(self, start, end=None, step=1, numPartitions=None):
        return self.sparkSession.range(start, end, step, numPartitions)

    def registerDataFrameAsTable(self, df, tableName):
        df.createOrReplaceTempView(tableName)


__all__ = ["SparkSession", "SQLContext", "DataFrame", "GroupedData", "Column", "Row", "DataFrameNaFunctions",
           "DataFrameStatFunctions", "Window", "WindowSpec", "DataFrameReader", "DataFrameWriter"]
