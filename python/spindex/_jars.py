#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""The job jars the wheel carries (``spindex/jars/``), one per Spark line, and configure()."""

import glob
import os

from spindex._errors import SpindexUnavailableError

EXTENSIONS = "io.spindex.spark.sql.SpindexExtensions"
JARS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jars")


def spark_line(version, scala=None):
    """The job jar's line for a Spark version: '3.5_2.12' ('3.5_2.13' with scala='2.13'),
    '4.x_2.13' for every 4.x, None for a version no jar is built for."""
    parts = (version or "").split(".")
    if parts[:2] == ["3", "5"]:
        return "3.5_" + (scala or "2.12")
    if parts[0] == "4":
        return "4.x_2.13"
    return None


def _installed_pyspark():
    """(version, Scala binary version or None) of the installed pyspark."""
    try:
        import pyspark
    except ImportError:
        raise SpindexUnavailableError(
            "spindex: pyspark is not installed (pip install 'spindex[spark]', or pyspark itself)"
        ) from None
    scala = None
    jars = glob.glob(os.path.join(os.path.dirname(pyspark.__file__), "jars", "scala-library-*.jar"))
    if jars:
        scala = ".".join(os.path.basename(jars[0])[len("scala-library-"):].split(".")[:2])
    return pyspark.__version__, scala


def job_jar(spark_version=None):
    """The path of the job jar this package carries for a Spark version (default: the installed
    pyspark's), e.g. to give to ``spark-submit --jars``. Raises SpindexUnavailableError naming the
    version when the package carries none for its line."""
    scala = None
    if spark_version is None:
        spark_version, scala = _installed_pyspark()
    line = spark_line(spark_version, scala)
    jars = sorted(glob.glob(os.path.join(JARS_DIR, "spindex-spark-%s-*-job.jar" % line))) if line else []
    if not jars:
        carried = sorted(os.path.basename(j) for j in glob.glob(os.path.join(JARS_DIR, "*.jar")))
        raise SpindexUnavailableError(
            "spindex: no job jar for Spark %s in this package (it carries: %s); build the jars"
            " (./mvnw -B package) and pip install python/ again, or give the jar to spark.jars"
            % (spark_version, ", ".join(carried) or "none")
        )
    return jars[-1]


def configure(builder):
    """Adds the job jar of the installed pyspark's line to ``spark.jars`` and the Spindex
    extensions to ``spark.sql.extensions`` (appending to what the builder already sets) and
    returns the builder::

        spark = spindex.configure(SparkSession.builder).getOrCreate()

    For local and classic (cluster) sessions: the jar goes to the driver and the executors. The
    settings only take effect when getOrCreate() starts a new SparkContext."""
    jar = job_jar()
    _append(builder, "spark.jars", jar)
    _append(builder, "spark.sql.extensions", EXTENSIONS)
    return builder


def _append(builder, key, value):
    # Builder has no public getter; _options is where both the classic and the Connect builder of
    # pyspark 3.5 and 4.x keep what config() was given.
    current = getattr(builder, "_options", {}).get(key) or ""
    items = [s.strip() for s in str(current).split(",") if s.strip()]
    if value not in items:
        items.append(value)
    builder.config(key, ",".join(items))
