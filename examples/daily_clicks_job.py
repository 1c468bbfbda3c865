"""A Glue job, unchanged from what runs on AWS Glue: the last two days of the crawled clickstream,
the drifting user_id and amount resolved to numbers, duplicate events dropped, revenue per country
added, written as Parquet partitioned by day.

    epoxy run examples/daily_clicks_job.py --JOB_NAME daily_clicks --database demo --output /tmp/clicks
"""
import sys

from awsglue.context import GlueContext
from awsglue.dynamicframe import DynamicFrame
from awsglue.job import Job
from awsglue.transforms import ResolveChoice
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
from pyspark.sql import functions as F

args = getResolvedOptions(sys.argv, ["JOB_NAME", "database", "output"])
sc = SparkContext()
glueContext = GlueContext(sc)
job = Job(glueContext)
job.init(args["JOB_NAME"], args)

clicks = glueContext.create_dynamic_frame.from_catalog(
    database=args["database"],
    table_name="json",
    push_down_predicate="dt >= '2026-08-17'",
    transformation_ctx="clicks",
)
clicks = ResolveChoice.apply(frame=clicks, specs=[("user_id", "cast:long"), ("amount", "cast:double")],
                             transformation_ctx="resolved")

daily = (
    clicks.toDF()
    .dropDuplicates(["event_id"])
    .withColumn("country", F.upper(F.col("country")))
    .filter(F.col("amount").isNotNull())
)
daily.groupBy("dt", "country").agg(F.count("*").alias("clicks"), F.round(F.sum("amount"), 2).alias("revenue")) \
    .orderBy("dt", F.desc("revenue")).show(5)

glueContext.write_dynamic_frame.from_options(
    frame=DynamicFrame.fromDF(daily, glueContext, "daily"),
    connection_type="s3",
    connection_options={"path": args["output"], "partitionKeys": ["dt"]},
    format="glueparquet",
    format_options={"compression": "snappy"},
    transformation_ctx="daily_parquet",
)
job.commit()
