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
        self._run_id = None

    def init(self, job_name, args=None):
        """Opens the job run: loads the job's bookmarks (with --job-bookmark-option enable or pause)
        and stages every write until commit()."""
        import json
        import os
        from epoxy.runtime import engine
        from pyspark.sql.dataframe import call_engine
        if self._initialized:
            return self
        args = dict(args or {})
        option = args.get("job_bookmark_option") or _argv_value("--job-bookmark-option") or "job-bookmark-disable"
        start = args.get("job_bookmark_from") or _argv_value("--job-bookmark-from") or ""
        end = args.get("job_bookmark_to") or _argv_value("--job-bookmark-to") or ""
        run_id = os.environ.get("EPOXY_RUN_ID", "")
        if run_id and os.environ.get("EPOXY_JOB_NAME") not in (None, "", job_name):
            import sys
            sys.stderr.write("epoxy: job.init(%r) inside a run of job %r: the run's bookmarks are %r's\n"
                             % (job_name, os.environ["EPOXY_JOB_NAME"], os.environ["EPOXY_JOB_NAME"]))
        arguments = {("--" + k if not k.startswith("--") else k): str(v) for k, v in args.items() if v is not None}
        self._run_id = call_engine(engine().job_init, job_name, run_id, option, start or "", end or "",
                                   json.dumps(arguments))
        self._name = job_name
        self._args = args
        self._initialized = True
        if engine().job_owns_run():
            _finish_at_exit()
        return self

    def isInitialized(self):
        return self._initialized

    def commit(self):
        """Publishes the run's outputs and, in one catalog transaction, advances its bookmarks."""
        from epoxy.runtime import engine
        from pyspark.sql.dataframe import call_engine
        if not self._initialized:
            raise RuntimeError("Job.commit() before Job.init()")
        call_engine(engine().job_commit)
        self._committed = True


def _argv_value(name):
    import sys
    argv = sys.argv
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None


_failure = []


def _finish_at_exit():
    """A run without `epoxy run` around it ends with the interpreter: failed if an exception ended it."""
    import atexit
    import sys
    previous = sys.excepthook

    def hook(kind, value, tb):
        _failure.append("%s: %s" % (kind.__name__, value))
        previous(kind, value, tb)

    sys.excepthook = hook

    def finish():
        from epoxy.runtime import engine
        try:
            engine().job_finish(not _failure, _failure[0] if _failure else "")
        except Exception as e:  # the interpreter is going away; say why the run could not be closed
            sys.stderr.write("epoxy: could not finish the job run: %s\n" % e)

    atexit.register(finish)
