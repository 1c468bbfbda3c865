# SPDX-License-Identifier: Apache-2.0
"""SparkContext without a JVM: it exists so Glue scripts can build one; the work is the engine's."""
import _thread
import os

__all__ = ["SparkContext", "SparkConf"]


class SparkConf:
    def __init__(self, loadDefaults=True, _jvm=None, _jconf=None):
        self._conf = {}

    def set(self, key, value):
        self._conf[key] = str(value)
        return self

    def setAll(self, pairs):
        for k, v in pairs:
            self.set(k, v)
        return self

    def setAppName(self, value):
        return self.set("spark.app.name", value)

    def setMaster(self, value):
        return self.set("spark.master", value)

    def get(self, key, defaultValue=None):
        return self._conf.get(key, defaultValue)

    def getAll(self):
        return list(self._conf.items())

    def contains(self, key):
        return key in self._conf


class SparkContext:
    _active_spark_context = None
    _lock = _thread.RLock()

    def __init__(self, master=None, appName=None, sparkHome=None, pyFiles=None, environment=None, batchSize=0,
                 serializer=None, conf=None, gateway=None, jsc=None, profiler_cls=None):
        with SparkContext._lock:
            self._conf = conf or SparkConf()
            self.master = master or self._conf.get("spark.master", "local[*]")
            self.appName = appName or self._conf.get("spark.app.name", "epoxy")
            self.sparkHome = sparkHome
            self.environment = environment or {}
            self._log_level = "WARN"
            SparkContext._active_spark_context = self

    @classmethod
    def getOrCreate(cls, conf=None):
        with cls._lock:
            if cls._active_spark_context is None:
                cls(conf=conf)
            return cls._active_spark_context

    @property
    def version(self):
        return "3.5.0"

    @property
    def defaultParallelism(self):
        return int(os.environ.get("EPOXY_THREADS") or os.cpu_count() or 1)

    @property
    def applicationId(self):
        return "local-epoxy-%d" % os.getpid()

    def getConf(self):
        return self._conf

    def setLogLevel(self, logLevel):
        self._log_level = logLevel

    def setJobGroup(self, groupId, description, interruptOnCancel=False):
        pass

    def setJobDescription(self, value):
        pass

    def setLocalProperty(self, key, value):
        pass

    def stop(self):
        with SparkContext._lock:
            SparkContext._active_spark_context = None

    def parallelize(self, c, numSlices=None):
        from pyspark.errors import PySparkNotImplementedError
        raise PySparkNotImplementedError("SparkContext.parallelize: there is no RDD layer in epoxy; use "
                                         "spark.createDataFrame")

    def textFile(self, name, minPartitions=None, use_unicode=True):
        from pyspark.errors import PySparkNotImplementedError
        raise PySparkNotImplementedError("SparkContext.textFile: there is no RDD layer in epoxy; use spark.read.text")

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.stop()
