#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""The golden files of format 1 (core/src/test/resources/format-1), read by the Python reader:
the answers of each file's .expected.tsv (computed from its source by the Java side's references,
not by any reader). The Python reader is written from docs/FORMAT.md; these show that the
specification can be implemented by a second reader and give the Java reader's answers."""

import decimal
import os

import pytest

np = pytest.importorskip("numpy")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("google_crc32c")

import spindex  # noqa: E402

from conftest import RESOURCES  # noqa: E402

GOLDEN = os.path.join(RESOURCES, "format-1")
NAMES = sorted(n[:-len(".spx")] for n in os.listdir(GOLDEN) if n.endswith(".spx"))


def _rows(name):
    with open(os.path.join(GOLDEN, name + ".expected.tsv"), encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]


def test_every_kind_has_a_golden_file():
    assert NAMES == ["dual-stack-ranges", "dual-stack-set", "ipv4-aliases", "ipv4-ranges",
                     "ipv4-set", "ipv6-ranges", "products", "typed-fields"]


def _value(kind, text):
    """A field's value in the .tsv as the type's Python value (\\N: None)."""
    if text == "\\N":
        return None
    return {"double": float, "bigint": int, "boolean": lambda t: t == "true",
            "decimal(20,0)": decimal.Decimal}.get(kind, str)(text)


@pytest.mark.parametrize("name", NAMES)
def test_the_answers_of_the_golden_file(name):
    idx = spindex.open(os.path.join(GOLDEN, name + ".spx"))
    rows = _rows(name)
    assert idx.format_version == "1.0" and len(rows) >= 8
    if idx.kind == "products":
        # This reader checks a product index and looks up addresses only.
        assert idx.rows == sum(r[1] == "true" for r in rows)
        assert idx.column_names == ["price_pc", "shipping", "content_hash", "review_count"]
        return
    queries = [r[0] for r in rows]
    if idx.kind == "set":
        assert idx.contains(queries).to_pylist() == [r[1] == "true" for r in rows]
        return
    labels = idx.label(queries).to_pylist()
    assert labels == [r[2] if r[1] == "true" else None for r in rows]
    if idx.label_types is not None and name == "typed-fields":
        got = idx.lookup(queries).to_pylist()
        for r, g in zip(rows, got):
            if r[1] == "true":
                want = [_value(k, t) for k, t in zip(idx.label_types, r[3:])]
                assert list(g.values()) == want, r[0]
            else:
                assert g is None, r[0]
