# SPDX-License-Identifier: Apache-2.0
"""awsglue.job.Job: init and commit around a job's work."""

__all__ = ["Job"]


class Job:
    @classmethod
    def continuation_options(cls):
        return ["--continuation-option", "continuation-enabled", "continuation-readversion", "continuation-ignore"]

    @classmethod
    def job_bookmark_options(cls):
        return ["--job-bookmark-option", "job-bookmark-enable", "job-bookmark-pause", "job-bookmark-disable"]

    @classmethod
    def job_bookmark_range_options(cls):
        return ["--job-bookmark-from", "--job-bookmark-to"]

    @classmethod
    def id_params(cls):
        return ["--JOB_NAME", "--JOB_ID", "--JOB_RUN_ID", "--SECURITY_CONFIGURATION"]

    @classmethod
    def encryption_type_options(cls):
        return ["--encryption-type", "sse-s3"]

    @classmethod
    def data_lineage_options(cls):
        return ["--enable-data-lineage"]

    def __init__(self, glue_context):
        from awsglue.context import GlueContext
        from pyspark.sql import SparkSession
        if not isinstance(glue_context, (GlueContext, SparkSession)):
            raise TypeError("Job takes a GlueContext or a SparkSession, got %s" % type(glue_context).__name__)
        self._glue_context = glue_context
        self._initialized = False
        self._committed = False
        self._name = None
        self._args = {}

    def init(self, job_name, args=None):
        self._name = job_name
        self._args = dict(args or {})
        self._initialized = True
        return self

    def isInitialized(self):
        return self._initialized

    def commit(self):
        if not self._initialized:
            raise RuntimeError("Job.commit() before Job.init()")
        self._committed = True
