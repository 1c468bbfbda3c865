# SPDX-License-Identifier: Apache-2.0
"""epoxy's pyspark: the PySpark API that Glue scripts use, over epoxy's native engine (no JVM)."""
from pyspark.context import SparkConf, SparkContext

__version__ = "3.5.0"


class StorageLevel:
    def __init__(self, useDisk, useMemory, useOffHeap, deserialized, replication=1):
        self.useDisk, self.useMemory, self.useOffHeap = useDisk, useMemory, useOffHeap
        self.deserialized, self.replication = deserialized, replication


StorageLevel.MEMORY_ONLY = StorageLevel(False, True, False, False)
StorageLevel.MEMORY_AND_DISK = StorageLevel(True, True, False, False)
StorageLevel.DISK_ONLY = StorageLevel(True, False, False, False)
StorageLevel.MEMORY_AND_DISK_DESER = StorageLevel(True, True, False, True)

__all__ = ["SparkConf", "SparkContext", "StorageLevel"]
