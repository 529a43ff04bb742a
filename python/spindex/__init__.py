#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Spindex SQL functions for PySpark, classic and Spark Connect.

The lookups are JVM expressions (``io.spindex.spark.sql``) in the Spindex job jar. On a classic
session the Column helpers reach them through the session's py4j gateway; on a Spark Connect
session they are calls by name (``spindex_label`` ...) that the server resolves, so the server must
run with the job jar and ``spark.sql.extensions=io.spindex.spark.sql.SpindexExtensions``.

``import spindex`` needs no pyspark: the modules that use it import it when called.
"""

from spindex._functions import (
    SpindexUnavailableError,
    contains,
    ip,
    label,
    lookup,
    register,
    try_contains,
    try_ip,
    try_label,
    try_lookup,
)
from spindex._jars import configure, job_jar

__all__ = [
    "SpindexUnavailableError",
    "configure",
    "contains",
    "ip",
    "job_jar",
    "label",
    "lookup",
    "register",
    "try_contains",
    "try_ip",
    "try_label",
    "try_lookup",
]
__version__ = "0.1.0"
