# SPDX-License-Identifier: Apache-2.0
from pyspark.errors import *  # noqa: F401,F403
