#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""spindex.rejects against the golden file the Java writer is held to (RejectsTest)."""

import gzip
import importlib.util
import io
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "..", "core", "src", "test", "resources", "rejects", "rejects.tsv")

# Loaded by path: the package's __init__ imports pyspark, which this reader does not need.
_spec = importlib.util.spec_from_file_location(
    "spindex_rejects", os.path.join(HERE, "..", "spindex", "rejects.py")
)
rejects = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rejects)

# The cases RejectsTest.CASES writes, field for field.
WANT = [
    ("file:/data/logs/a.log", 0, "no-ip-found", "", b"GET / HTTP/1.1\t200"),
    ("hdfs://nn/x/b.gz", 1234567890123, "not-ipv4", "", b'1.2.3\t-\t"q"'),
    ("C:\\feeds\\ep.tsv", 42, "field-count", "11 fields,\theader has 12", b"a\tb"),
    ("feed with\ttab.tsv", 7, "map:brand", "no mapping for 'x'\nsecond line", b""),
    ("in.tsv", 99, "invalid-utf8", "byte 1", b"a\xc3b\rc"),
]


def test_reads_the_java_writers_records():
    got = list(rejects.read_rejects(GOLDEN))
    assert [tuple(r) for r in got] == WANT
    assert got[1].offset == 1234567890123 and got[1].reason == "not-ipv4"


def test_reads_a_job_output_directory_with_gzip_parts(tmp_path):
    with open(GOLDEN, "rb") as f:
        data = f.read()
    d = tmp_path / "out" / "_rejects"
    d.mkdir(parents=True)
    (d / "part-r-00000").write_bytes(data[: data.index(b"\n") + 1])
    with gzip.open(str(d / "part-r-00001.gz"), "wb") as g:
        g.write(data[data.index(b"\n") + 1 :])
    (d / "_SUCCESS").write_bytes(b"")
    assert [tuple(r) for r in rejects.read_rejects(str(tmp_path / "out"))] == WANT
    assert [tuple(r) for r in rejects.read_rejects(io.BytesIO(data))] == WANT


def test_a_broken_record_is_named():
    with pytest.raises(ValueError, match="reject record 2: expected 5 tab-separated fields, found 1"):
        list(rejects.read_rejects(io.BytesIO(b"s\t1\tr\td\tl\nno-tabs\n")))
    with pytest.raises(ValueError, match="expected a byte offset"):
        rejects.parse_reject(b"s\tx\tr\td\tl")
