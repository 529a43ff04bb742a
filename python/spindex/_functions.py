#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""The Column helpers and register(), for classic and Spark Connect sessions.

Classic session: the helpers call ``io.spindex.spark.sql.functions`` through the py4j gateway
(the expressions are built directly; no SQL registration needed). Spark Connect session: there is
no gateway, so each helper is a call by name (``call_function("spindex_label", ip, lit(index))``)
resolved by the server, which must have the functions (the extension, or Java UDFs). Whether the
server has them is asked once per session, on first use (one ``SHOW FUNCTIONS`` round trip), so a
missing configuration fails at once with one line instead of at the first action.

pyspark is imported inside the functions: ``import spindex`` works without it.
"""

import threading
import weakref

from spindex._errors import SpindexUnavailableError
from spindex._jars import EXTENSIONS, JARS_DIR, spark_line

# Remote session -> the Spindex function names its server was seen to have. Only found names are
# kept: after a failure the user may register Java UDFs in the same session and call again.
_seen = weakref.WeakKeyDictionary()
_seen_lock = threading.Lock()

_JAVA_UDFS = {
    "spindex_label": ("Label", "string"),
    "spindex_contains": ("Contains", "boolean"),
    "spindex_ip": ("Ip", "string"),
}


def label(ip, index):
    """spindex_label(ip, index): the label of the range holding the address, or NULL (also for
    an unparseable address unless ANSI mode, where it fails with SPINDEX_INVALID_ADDRESS)."""
    return _call("label", "spindex_label", ip, index)


def try_label(ip, index):
    """try_spindex_label(ip, index): like label(), NULL for an unparseable address in any mode."""
    return _call("try_label", "try_spindex_label", ip, index)


def lookup(ip, index):
    """spindex_lookup(ip, index): the label as a STRUCT of the fields the index declares."""
    return _call("lookup", "spindex_lookup", ip, index)


def try_lookup(ip, index):
    """try_spindex_lookup(ip, index): like lookup(), NULL for an unparseable address."""
    return _call("try_lookup", "try_spindex_lookup", ip, index)


def contains(ip, index):
    """spindex_contains(ip, index): whether the set index holds the address."""
    return _call("contains", "spindex_contains", ip, index)


def try_contains(ip, index):
    """try_spindex_contains(ip, index): like contains(), NULL for an unparseable address."""
    return _call("try_contains", "try_spindex_contains", ip, index)


def ip(ip):
    """spindex_ip(ip): the canonical text of the address."""
    return _call("ip", "spindex_ip", ip)


def try_ip(ip):
    """try_spindex_ip(ip): like ip(), NULL for an unparseable address."""
    return _call("try_ip", "try_spindex_ip", ip)


def register(spark):
    """Makes the SQL functions (spindex_label, ..., try_spindex_label, ...) available in
    ``spark``'s SQL. Classic session: registers them through the gateway (a no-op when the
    extension already did). Spark Connect session: a client cannot add native functions, so this
    checks that the server has them and raises SpindexUnavailableError saying what the server
    needs when it has not."""
    if _is_remote_session(spark):
        _require(spark, "spindex_label")
        return
    if spark.catalog.functionExists("try_spindex_label"):  # the extension is in: nothing to add
        return
    registrar = spark.sparkContext._jvm.io.spindex.spark.sql.SpindexFunctions
    if type(registrar).__name__ == "JavaPackage":  # py4j: no such class on the class path
        raise SpindexUnavailableError(_classic_missing_message())
    try:
        registrar.register(spark._jsparkSession)
    except Exception as e:  # py4j.protocol.Py4JJavaError; its Java trace is in the driver's log
        cause = str(getattr(e, "java_exception", e)).strip().splitlines()[0]
        raise SpindexUnavailableError(
            "spindex: SpindexFunctions.register failed (%s): start the session with the extension"
            " instead: spindex.configure(SparkSession.builder), or --conf spark.sql.extensions=%s"
            % (cause, EXTENSIONS)
        ) from None


def _call(method, name, ip, *args):
    _check_arguments(name, ip, args)
    if _is_remote_column(ip):
        return _remote_call(name, ip, *args)
    return _classic_call(method, ip, *args)


def _check_arguments(name, ip, args):
    """A wrong argument is a TypeError naming the function and what it takes, before any call to
    the JVM or the server (whose answer would be a Py4J or gRPC trace)."""
    if not isinstance(ip, str) and not type(ip).__module__.startswith("pyspark.sql."):
        raise TypeError("%s: ip must be a Column or a column name (str), got %s %r"
                        % (name, type(ip).__name__, ip))
    for index in args:
        if not isinstance(index, str) or not index.strip():
            raise TypeError("%s: index must be an index name or path (a non-empty str), got %s %r"
                            % (name, type(index).__name__, index))


def _is_remote_column(col):
    """Whether a helper's Column argument belongs to Spark Connect. A Column says it by its class
    (pyspark.sql.connect.column.Column, in 3.5 and 4.x; classic ones live in pyspark.sql.column
    (3.5) or pyspark.sql.classic.column (4.x)); a column name follows the process's mode, which
    pyspark's builder sets when it creates a remote session (pyspark.sql.utils.is_remote, both
    lines)."""
    if not isinstance(col, str):
        module = type(col).__module__
        if module.startswith("pyspark.sql.connect."):
            return True
        if module.startswith("pyspark.sql."):
            return False
    from pyspark.sql.utils import is_remote

    return is_remote()


def _is_remote_session(spark):
    return type(spark).__module__.startswith("pyspark.sql.connect.")


def _remote_call(name, ip, *args):
    try:  # pyspark 4.x
        from pyspark.sql.connect.functions import builtin as F
    except ImportError:  # pyspark 3.5
        from pyspark.sql.connect import functions as F
    from pyspark.sql.connect.session import SparkSession

    session = SparkSession.getActiveSession() or getattr(SparkSession, "_default_session", None)
    if session is not None:
        _require(session, name)
    return F.call_function(name, ip, *(F.lit(a) for a in args))


def _require(session, name):
    """Raises SpindexUnavailableError unless the Connect server of ``session`` knows ``name``."""
    with _seen_lock:
        known = _seen.get(session, frozenset())
    if name in known:
        return
    rows = session.sql("SHOW FUNCTIONS LIKE '*spindex_*'").collect()
    found = frozenset(r[0].rsplit(".", 1)[-1] for r in rows)
    if name not in found:
        raise SpindexUnavailableError(_remote_missing_message(session, name))
    with _seen_lock:
        _seen[session] = found


def _remote_missing_message(session, name):
    try:
        version = session.version
    except Exception:  # the message matters more than the version in it
        version = None
    line = spark_line(version) or "4.x_2.13"
    jar = _carried_jar_name(line) or "spindex-spark-%s-<version>-job.jar" % line
    message = (
        "spindex: the Spark Connect server has no function %s: start the server with the job jar"
        " (--jars %s) and --conf spark.sql.extensions=%s" % (name, jar, EXTENSIONS)
    )
    if name in _JAVA_UDFS:
        cls, kind = _JAVA_UDFS[name]
        message += (
            ", or (jar only) register the Java UDF: spark.udf.registerJavaFunction(\"%s\","
            " \"io.spindex.spark.sql.SpindexUdfs$%s\", \"%s\")" % (name, cls, kind)
        )
    return message


def _carried_jar_name(line):
    import glob
    import os

    jars = sorted(glob.glob(os.path.join(JARS_DIR, "spindex-spark-%s-*-job.jar" % line)))
    return os.path.basename(jars[-1]) if jars else None


def _classic_call(method, ip, *args):
    from pyspark import SparkContext

    try:  # pyspark 4.x
        from pyspark.sql.classic.column import Column, _to_java_column
    except ImportError:  # pyspark 3.5
        from pyspark.sql.column import Column, _to_java_column

    sc = SparkContext._active_spark_context
    if sc is None:
        raise SpindexUnavailableError(
            "spindex: no active SparkSession (create one first, e.g."
            " spindex.configure(SparkSession.builder).getOrCreate())"
        )
    functions = sc._jvm.io.spindex.spark.sql.functions
    if type(functions).__name__ == "JavaPackage":  # py4j: no such class on the class path
        raise SpindexUnavailableError(_classic_missing_message())
    return Column(getattr(functions, method)(_to_java_column(ip), *args))


def _classic_missing_message():
    return (
        "spindex: the Spindex job jar is not on the Spark driver's class path: create the session"
        " with spindex.configure(SparkSession.builder), or give the job jar to --jars / spark.jars"
    )
