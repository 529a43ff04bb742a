#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Spindex SQL functions for PySpark.

The lookups are JVM expressions (``io.spindex.spark.sql``); these helpers reach them through the
session's py4j gateway, so the job jar must be on the JVM's class path (``--jars`` or
``spark.jars``).
"""

from pyspark.sql import Column, SparkSession
from pyspark.sql.column import _to_java_column

__all__ = ["register", "label", "lookup", "contains", "ip"]
__version__ = "0.1.0"


def _jvm_functions():
    spark = SparkSession.getActiveSession()
    if spark is None:
        raise RuntimeError("spindex: no active SparkSession")
    try:
        return spark.sparkContext._jvm.io.spindex.spark.sql.functions
    except Exception as e:  # py4j: the class is not on the JVM's class path
        raise RuntimeError(
            "spindex: the Spindex job jar is not on the Spark class path (give it to --jars)"
        ) from e


def register(spark):
    """Registers spindex_label, spindex_contains and spindex_ip in ``spark``'s SQL."""
    spark.sparkContext._jvm.io.spindex.spark.sql.SpindexFunctions.register(spark._jsparkSession)


def label(ip, index):
    """spindex_label(ip, index): the label of the range holding the address, or NULL."""
    return Column(_jvm_functions().label(_to_java_column(ip), index))


def lookup(ip, index):
    """spindex_lookup(ip, index): the label as a STRUCT of the fields the index declares."""
    return Column(_jvm_functions().lookup(_to_java_column(ip), index))


def contains(ip, index):
    """spindex_contains(ip, index): whether the set index holds the address (NULL if unparseable)."""
    return Column(_jvm_functions().contains(_to_java_column(ip), index))


def ip(ip):
    """spindex_ip(ip): the canonical text of the address, or NULL."""
    return Column(_jvm_functions().ip(_to_java_column(ip)))
