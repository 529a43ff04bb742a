#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Spindex lookups as Python UDFs: Spark without the job jar (Databricks serverless, standard
access mode, any Spark Connect server), answered by ``spindex.open`` in the Python workers.

    import spindex.udf
    path = spindex.udf.ship(spark, "/data/geo.spx")   # addArtifacts on Connect, addFile classic
    df.select(spindex.udf.label(path)("ip"), spindex.udf.lookup(path)("ip").alias("geo"))

``label``/``lookup``/``contains`` return UDFs of one column (text, integers or binary): Arrow UDFs
(``pyspark.sql.functions.arrow_udf``, pyarrow arrays in and out) where the Spark line has them
(4.1 and later), pandas UDFs otherwise. Each Python worker opens the index once (the whole file is
checked then) and keeps it for every later batch; when the file is replaced (``spindex update``),
a worker opens the new version at the first rows of its next task, so that a task, and a stream's
micro-batch, answers from one version. An address that does not parse is NULL, as the
``try_`` functions of the jar give it (with a pandas UDF, ``lookup`` of a miss is a struct of NULL
fields: a pandas UDF cannot return a NULL struct). ``lookup``'s STRUCT type is read from the index on the
driver, so the path must be readable there too.

The index reaches the workers as the session ships it: ``ship(spark, path)`` adds it with
``SparkSession.addArtifacts(path, file=True)`` on Spark Connect or ``SparkContext.addFile`` on a
classic session; a worker looks for the path as given, then for its file name in the worker's
working directory (Connect's artifacts) and in ``SparkFiles``. A path every worker can read
(a shared mount) needs no shipping.
"""

import os
import threading

import pyarrow as pa

__all__ = ["ship", "index", "label", "lookup", "contains"]

_open = {}  # resolved path -> (the file's identity, Index): the newest version opened
_task = {}  # resolved path -> (task, Index): the version a task answers from
_lock = threading.Lock()


def ship(spark, path):
    """Sends the index file to the session's workers: ``addArtifacts(path, file=True)`` on a Spark
    Connect session, ``sparkContext.addFile(path)`` on a classic one. Returns ``path``.

    The file is checked first as ``spindex.open`` checks it (header, every section checksum): a
    file that is missing is a ``FileNotFoundError``, one that is no valid index a
    ``CorruptIndexError``, each one line naming the file, before anything is sent (a file the
    workers cannot open failed later, as a worker's trace in every task)."""
    path = _path(path, "spindex.udf.ship")
    if not os.path.isfile(path):
        raise FileNotFoundError("spindex.udf.ship: %s: %s (ship sends a file of this machine to the "
                                "workers)" % (path, "a directory, not an index file"
                                              if os.path.isdir(path) else "no such file"))
    from spindex._errors import CorruptIndexError
    from spindex._index import Index

    try:
        Index(path, threads=1).close()
    except CorruptIndexError as e:
        raise CorruptIndexError("spindex.udf.ship: %s (not shipped)" % e) from None
    if type(spark).__module__.startswith("pyspark.sql.connect"):
        spark.addArtifacts(path, file=True)
    else:
        spark.sparkContext.addFile(path)
    return path


def _resolve(path):
    if os.path.isfile(path):
        return path
    name = os.path.basename(path)
    if os.path.isfile(name):  # Spark Connect artifacts: the session's directory is the cwd
        return os.path.abspath(name)
    try:
        from pyspark import SparkFiles

        shipped = SparkFiles.get(name)
        if os.path.isfile(shipped):
            return shipped
    except Exception:  # no SparkFiles root in this process
        pass
    raise FileNotFoundError("spindex: index %s is not on this worker (as given, as %s in %s, or "
                            "in SparkFiles): ship it with spindex.udf.ship(spark, path)"
                            % (path, name, os.getcwd()))


def _task_key():
    """The running Spark task (stage, partition, attempt), or None outside a task."""
    try:
        from pyspark import TaskContext

        tc = TaskContext.get()
    except Exception:  # no Spark in this process
        return None
    if tc is None:
        return None
    return (tc.stageId(), tc.partitionId(), tc.attemptNumber())


def index(path):
    """The index at ``path`` as this process opened it: once, and again when the file changed
    (another inode, size or modification time), at a task's first rows, so that every row of a
    task (and of a stream's micro-batch) answers from one version. The version before is let go
    (its mapping freed once no batch uses it): a worker holds one version of each index."""
    from spindex._index import Index

    real = _resolve(os.fspath(path))
    task = _task_key()
    with _lock:
        held = _task.get(real)
        if held is not None and task is not None and held[0] == task:
            return held[1]
        st = os.stat(real)
        identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        current = _open.get(real)
        if current is None or current[0] != identity:
            current = _open[real] = (identity, Index(real, threads=1))  # a worker per core
        _task[real] = (task, current[1])
        return current[1]


def _ddl(arrow_type):
    names = {pa.string(): "STRING", pa.int64(): "BIGINT", pa.float64(): "DOUBLE",
             pa.bool_(): "BOOLEAN", pa.decimal128(20, 0): "DECIMAL(20,0)"}
    return "STRUCT<%s>" % ", ".join("`%s`: %s" % (f.name.replace("`", "``"), names[f.type])
                                    for f in arrow_type)


def _pandas_fn(answer, struct=False):
    """The body of a pandas UDF (Spark before 4.1) over ``answer`` (pyarrow in, pyarrow out): a
    Series in, a Series out, or for a STRUCT a DataFrame of its fields (a pandas UDF has no NULL
    struct: a miss is a struct of NULL fields there). A BIGINT column with NULLs is a Series of
    Python ints and None: pandas' default, float64 with NaN, rounds what is beyond 2**53, and
    Spark 3.5 casts that back unchecked (9223372036854775807 came back as -9223372036854775808)."""
    import pandas as pd

    if struct:
        def pandas_struct(ips: pd.Series) -> pd.DataFrame:
            out = answer(pa.Array.from_pandas(ips))
            return pd.DataFrame({f.name: out.field(i).to_pandas(integer_object_nulls=True)
                                 for i, f in enumerate(out.type)})

        return pandas_struct

    def pandas_fn(ips: pd.Series) -> pd.Series:
        return answer(pa.Array.from_pandas(ips)).to_pandas(integer_object_nulls=True)

    return pandas_fn


def _udf(answer, return_type, struct=False):
    from pyspark.sql import functions as F

    arrow_udf = getattr(F, "arrow_udf", None)
    if arrow_udf is not None:
        def arrow_fn(ips: pa.Array) -> pa.Array:
            return answer(ips)

        return arrow_udf(arrow_fn, return_type)
    return F.pandas_udf(_pandas_fn(answer, struct), return_type)


def _path(path, who="spindex.udf"):
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise TypeError("%s: the index is a path (str), got %r" % (who, path))
    return os.fspath(path)


def label(path):
    """A UDF: the label of the range holding the address (STRING), NULL when none does or the
    address does not parse."""
    p = _path(path)
    return _udf(lambda ips: index(p).label(ips), "string")


def lookup(path):
    """A UDF: the label as a STRUCT of the index's typed fields (``STRUCT<label STRING>``
    without fields), NULL when no range holds the address."""
    from spindex._index import Index

    p = _path(path)
    try:
        real = _resolve(p)
    except FileNotFoundError:
        # On the client, not a worker: the STRUCT type is read from the index before any task.
        raise FileNotFoundError("spindex.udf.lookup: index %s is not readable here, on the client "
                                "(lookup reads the index's fields to type its STRUCT before any "
                                "worker runs): give the path of the file on this machine, the one "
                                "given to spindex.udf.ship" % p) from None
    local = Index(real)
    try:
        ddl = _ddl(local.arrow_type())
    finally:
        local.close()
    return _udf(lambda ips: index(p).lookup(ips), ddl, struct=True)


def contains(path):
    """A UDF: whether the set index holds the address (BOOLEAN), NULL when it does not parse."""
    p = _path(path)
    return _udf(lambda ips: index(p).contains(ips), "boolean")
