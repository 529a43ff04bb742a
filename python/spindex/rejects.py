#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Reading Spindex reject records (docs/BAD-INPUT.md "The reject record").

Every job on every engine (``OUT/_rejects/part-*``) and every command that writes rejects
(``spindex ep transform|diff --rejects``) writes the same record, one per rejected line::

    source TAB offset TAB reason TAB detail TAB line LF

``offset`` is the byte offset of the line in its (decompressed) file. In the first four fields a
backslash, tab, LF and CR are escaped (``\\\\``, ``\\t``, ``\\n``, ``\\r``); ``line`` is the rest
of the record, the rejected line's bytes as read. Records end with LF only: a CR inside a line
is part of it.

Pure Python; :func:`spark_rejects` imports pyspark only when called.
"""

import glob
import gzip
import os
from collections import namedtuple

__all__ = ["Reject", "parse_reject", "read_rejects", "spark_rejects", "SPARK_SCHEMA"]

#: The columns as :func:`spark_rejects` gives them.
SPARK_SCHEMA = "source STRING, offset BIGINT, reason STRING, detail STRING, line STRING"

#: One reject record. ``line`` is bytes (the rejected line as read, without its line end).
Reject = namedtuple("Reject", ["source", "offset", "reason", "detail", "line"])

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}


def _unescape(b):
    s = b.decode("utf-8", "replace")
    if "\\" not in s:
        return s
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            i += 1
            out.append(_ESCAPES.get(s[i], s[i]))
        else:
            out.append(c)
        i += 1
    return "".join(out)


def parse_reject(record):
    """Parses one record (bytes, without its LF) into a :class:`Reject`."""
    if isinstance(record, str):
        record = record.encode("utf-8")
    f = record.split(b"\t", 4)
    if len(f) != 5:
        raise ValueError("reject record: expected 5 tab-separated fields, found %d" % len(f))
    try:
        offset = int(f[1])
    except ValueError:
        raise ValueError("reject record: expected a byte offset, found %r" % f[1].decode("utf-8", "replace"))
    return Reject(_unescape(f[0]), offset, _unescape(f[2]), _unescape(f[3]), f[4])


def _open(path):
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def _files(path):
    if os.path.isdir(path):
        d = os.path.join(path, "_rejects") if os.path.isdir(os.path.join(path, "_rejects")) else path
        return sorted(glob.glob(os.path.join(d, "part-*")))
    return [path]


def read_rejects(source):
    """Yields the :class:`Reject` records of ``source``.

    ``source`` is a rejects file (``.gz`` read as gzip), a job's output directory (its
    ``_rejects/part-*``), a ``_rejects`` directory, or a binary file object.
    """
    if hasattr(source, "read"):
        for r in _records(source):
            yield r
        return
    for path in _files(os.fspath(source)):
        with _open(path) as f:
            for r in _records(f):
                yield r


def _records(f):
    rest = b""
    n = 0
    while True:
        chunk = f.read(1 << 16)
        if not chunk:
            break
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        for line in lines:
            n += 1
            yield _numbered(line, n)
    if rest:
        yield _numbered(rest, n + 1)


def _numbered(line, n):
    try:
        return parse_reject(line)
    except ValueError as e:
        raise ValueError(str(e).replace("reject record", "reject record %d" % n, 1)) from None


def spark_rejects(spark, path):
    """The records under ``path`` (``OUT/_rejects``, any part files) as a DataFrame of
    :data:`SPARK_SCHEMA`: lines split at LF only, then on the first four tabs. The first four
    fields keep their escapes (which only a path or detail with a tab, LF, CR or backslash has).
    """
    from pyspark.sql import functions as F

    f = F.split(F.col("value"), "\t", 5)
    return spark.read.option("lineSep", "\n").text(path).select(
        f.getItem(0).alias("source"),
        f.getItem(1).cast("bigint").alias("offset"),
        f.getItem(2).alias("reason"),
        f.getItem(3).alias("detail"),
        f.getItem(4).alias("line"),
    )
