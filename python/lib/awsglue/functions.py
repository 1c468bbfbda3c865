# SPDX-License-Identifier: Apache-2.0
"""awsglue.functions: Glue's column helpers."""
from pyspark.errors import PySparkNotImplementedError
from pyspark.sql.column import Column, _col_sql


def replaceArrayElement(srcCol, replaceCol, idx):
    raise PySparkNotImplementedError("awsglue.functions.replaceArrayElement is not supported by epoxy yet")


def namedStruct(*cols):
    raise PySparkNotImplementedError("awsglue.functions.namedStruct is not supported by epoxy yet")


def explodeWithIndex(col):
    raise PySparkNotImplementedError("awsglue.functions.explodeWithIndex is not supported by epoxy yet")
