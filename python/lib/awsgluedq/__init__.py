# SPDX-License-Identifier: Apache-2.0
"""awsgluedq: Glue Data Quality's EvaluateDataQuality, for the DQDL rules scripts use most."""
