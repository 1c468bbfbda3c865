# SPDX-License-Identifier: Apache-2.0
"""epoxy's Python runtime: the engine session the pyspark and awsglue packages share."""
