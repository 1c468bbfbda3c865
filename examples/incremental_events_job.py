"""An incremental Glue job, unchanged from what runs on AWS Glue: each run reads only the landing
files its job bookmark has not seen (transformation_ctx "events"), drops duplicate events, and
appends them as Parquet partitioned by day. With epoxy the output is exactly once: a run that dies
publishes nothing, and its rerun reads the same files again.

    epoxy job create incremental_events --script examples/incremental_events_job.py \\
      --default-arguments '{"--job-bookmark-option": "job-bookmark-enable", "--database": "incoming",
                            "--table": "json", "--output": "/tmp/lake/events"}'
    epoxy job run incremental_events
"""
import sys

from awsglue.context import GlueContext
from awsglue.dynamicframe import DynamicFrame
from awsglue.job import Job
from awsglue.transforms import ResolveChoice
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext

args = getResolvedOptions(sys.argv, ["JOB_NAME", "database", "table", "output"])
glueContext = GlueContext(SparkContext.getOrCreate())
job = Job(glueContext)
job.init(args["JOB_NAME"], args)

events = glueContext.create_dynamic_frame.from_catalog(
    database=args["database"], table_name=args["table"], transformation_ctx="events")
events = ResolveChoice.apply(frame=events, specs=[("user_id", "cast:long"), ("amount", "cast:double")])
deduped = events.toDF().dropDuplicates(["event_id"])

glueContext.write_dynamic_frame.from_options(
    frame=DynamicFrame.fromDF(deduped, glueContext, "deduped"),
    connection_type="s3",
    connection_options={"path": args["output"], "partitionKeys": ["dt"]},
    format="glueparquet",
    transformation_ctx="events_parquet",
)
job.commit()
