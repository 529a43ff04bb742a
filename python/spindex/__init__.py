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

``spindex.open(path)`` reads an index in Python itself (numpy and pyarrow, no JVM): vectorized
``label``/``lookup``/``contains`` over pyarrow, numpy, pandas or polars batches, and, through
``spindex.udf``, Spark UDFs that need no jar on the cluster.

``import spindex`` needs no pyspark, numpy or pyarrow: the modules that use them import them when
called.
"""

from spindex._errors import CorruptIndexError
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
from spindex._version import __version__  # the root pom.xml's revision (see _version)



def open(path, threads=None):  # noqa: A001 - spindex.open, as the issue and the README name it
    """Opens a Spindex index for lookups in Python: maps the file read-only and checks the header
    and every section checksum as the Java loaders do (a damaged, truncated or other file is one
    ``CorruptIndexError``, a ``ValueError``, naming the file, the section and the offset). Returns
    a ``spindex._index.Index``: ``label(ips)``, ``lookup(ips)``, ``contains(ips)``. ``threads``:
    how many threads answer one large batch, a positive int (default None: the CPUs; 1 for one;
    0, a negative or a non-int is a ``ValueError`` or ``TypeError``)."""
    from spindex._index import Index

    return Index(path, threads)


__all__ = [
    "CorruptIndexError",
    "open",
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
