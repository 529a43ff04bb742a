#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""python/README.md's pandas, polars and DuckDB examples, run as they are written (the code block
after "pandas, polars and DuckDB"), on the typed fixture index; and a MaxMind-built index against
MaxMind's own reader."""

import os

import pytest

pytest.importorskip("numpy")
pa = pytest.importorskip("pyarrow")

import spindex  # noqa: E402

from conftest import ROOT, spindex as cli  # noqa: E402


def _block(after):
    text = open(os.path.join(ROOT, "python", "README.md"), encoding="utf-8").read()
    start = text.index("```python\n", text.index(after)) + len("```python\n")
    return text[start:text.index("```", start)]


def test_readme_pandas_polars_duckdb(fixtures):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pytest.importorskip("duckdb")
    idx = spindex.open(fixtures["typed"])
    scope = {"idx": idx}
    exec(compile(_block("pandas, polars and DuckDB"), "README.md", "exec"), scope)
    df, pf, con = scope["df"], scope["pf"], scope["con"]
    assert isinstance(df, pd.DataFrame)
    assert df["geo"].tolist()[:2] == ["AU|-33.5|13335", "DE|52.5|3320"]
    assert df["geo"].isna().tolist() == [False, False, True]
    assert isinstance(pf, pl.DataFrame)
    assert pf.columns == ["ip", "geo", "country", "lat", "asn"]
    assert pf.row(0) == ("1.0.0.7", "AU|-33.5|13335", "AU", -33.5, 13335)
    assert pf.row(1) == ("2001:db8::7", "DE|52.5|3320", "DE", 52.5, 3320)
    rows = con.sql("SELECT ip, spindex_label(ip) AS geo FROM (VALUES ('1.0.0.7'), ('9.9.9.9')) "
                   "t(ip)").fetchall()
    assert sorted(rows) == [("1.0.0.7", "AU|-33.5|13335"), ("9.9.9.9", None)]


def test_maxmind_built_index_against_maxminddb(tmp_path):
    """A small MaxMind database (written with mmdb-writer: an IPv6 tree holding IPv4 networks, so
    the index has ipv4_aliases), built into an index by the CLI: every address answers as
    MaxMind's reader answers it."""
    mmdb_writer = pytest.importorskip("mmdb_writer")
    maxminddb = pytest.importorskip("maxminddb")
    from netaddr import IPSet

    from conftest import cli_jar_built
    if not cli_jar_built():
        pytest.skip("the CLI jar is not built")
    w = mmdb_writer.MMDBWriter(ip_version=6, ipv4_compatible=True, database_type="City-test")
    nets = {"1.0.0.0/24": ("AU", -33.5, 13335), "2.16.0.0/13": ("FR", 48.8, 20940),
            "81.2.69.0/24": ("GB", 51.5, 1), "2001:db8::/32": ("DE", 52.5, 3320),
            "2a02:ec0::/29": ("NL", 52.3, 1136)}
    for net, (country, lat, asn) in nets.items():
        w.insert_network(IPSet([net]), {"country": {"iso_code": country},
                                        "location": {"latitude": lat}, "asn": asn})
    mmdb = str(tmp_path / "t.mmdb")
    w.to_db_file(mmdb)
    spx = str(tmp_path / "t.spx")
    cli("build", "ranges", mmdb, "-o", spx, "--field", "country=country.iso_code",
        "--field", "lat=location.latitude", "--field", "asn=asn")
    idx = spindex.open(spx)
    assert idx.label_fields == ["country", "lat", "asn"]
    queries = ["1.0.0.1", "1.0.1.1", "2.17.3.4", "81.2.69.160", "2001:db8::1", "2a02:ec7::1",
               "2a02:ec8::1", "::1.0.0.9", "2002:100:1::", "9.9.9.9"]
    got = idx.lookup(queries).to_pylist()
    with maxminddb.open_database(mmdb, maxminddb.MODE_MMAP_EXT) as r:
        for q, g in zip(queries, got):
            rec = r.get(q)
            want = None if rec is None else {"country": rec["country"]["iso_code"],
                                             "lat": rec["location"]["latitude"], "asn": rec["asn"]}
            assert g == want, q
    assert sum(g is not None for g in got) >= 6
    # Where the two differ by design: an IPv4-mapped address is its IPv4 address in every index
    # (this database has no alias for ::ffff:0:0/96, so MaxMind's reader finds nothing there).
    assert idx.lookup(["::ffff:81.2.69.1"]).to_pylist() == [{"country": "GB", "lat": 51.5, "asn": 1}]


def test_udf_bodies_without_spark(fixtures):
    """What spindex.udf's UDFs run in a Python worker, without Spark: the Arrow body is the index's
    own call; the pandas one (Spark before 4.1) converts a Series in and out."""
    pd = pytest.importorskip("pandas")
    from spindex import udf

    ips = ["1.0.0.7", "2001:db8::7", "bogus", None, "9.9.9.9"]
    idx = udf.index(fixtures["typed"])
    assert udf.index(fixtures["typed"]) is idx  # opened once per process
    assert idx.threads == 1
    label = udf._pandas_fn(idx.label)(pd.Series(ips))
    assert label.tolist()[:2] == ["AU|-33.5|13335", "DE|52.5|3320"]
    assert label.isna().tolist() == [False, False, True, True, True]
    fields = udf._pandas_fn(idx.lookup, struct=True)(pd.Series(ips))
    assert list(fields.columns) == ["country", "lat", "asn"]
    assert fields.iloc[0].tolist() == ["AU", -33.5, 13335]
    assert fields["country"].isna().tolist() == [False, False, True, True, True]
    # Back to Arrow as Spark 3.5 takes a pandas UDF's answer (pa.Array.from_pandas, the nulls as a
    # mask unless the column converts itself, unchecked): every field as the index gives it, the
    # BIGINT extremes beside NULLs too.
    wide = ["10.1.2.3", "1.0.4.0", "bogus", None, "1.0.1.9"]
    fields = udf._pandas_fn(idx.lookup, struct=True)(pd.Series(wide))
    want = idx.lookup(wide)
    for i, f in enumerate(want.type):
        col = fields[f.name]
        mask = None if hasattr(col.array, "__arrow_array__") else col.isnull().to_numpy()
        back = pa.Array.from_pandas(col, mask=mask, type=f.type, safe=False)
        assert back.to_pylist() == want.field(i).to_pylist(), f.name
    assert 2 ** 63 - 1 in want.field(2).to_pylist() and None in want.field(2).to_pylist()
    assert udf._ddl(idx.arrow_type()) == "STRUCT<`country`: STRING, `lat`: DOUBLE, `asn`: BIGINT>"
    with pytest.raises(FileNotFoundError, match="ship it with spindex.udf.ship"):
        udf.index("/nonexistent/dir/none.spx")
    with pytest.raises(TypeError, match="the index is a path"):
        udf.label(5)


class _Session:
    """What ship calls on a classic session: sparkContext.addFile, recorded."""

    def __init__(self):
        self.added = []
        self.sparkContext = self

    def addFile(self, path):  # noqa: N802 - pyspark's name
        self.added.append(path)


def test_ship_sends_only_an_index_and_lookup_names_the_client(fixtures, tmp_path):
    """ship checks the file as spindex.open does before sending it (it sent /etc/passwd, and each
    task failed later with a worker's trace); lookup, which reads the fields on the client, says
    so of a path it cannot read there (it said "not on this worker")."""
    from spindex import udf

    session = _Session()
    assert udf.ship(session, fixtures["typed"]) == fixtures["typed"]
    assert session.added == [fixtures["typed"]]
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(spindex.CorruptIndexError, match=r"^spindex.udf.ship: .*passwd: header"):
        udf.ship(session, str(text))
    with pytest.raises(FileNotFoundError, match=r"^spindex.udf.ship: /missing.spx: no such file"):
        udf.ship(session, "/missing.spx")
    with pytest.raises(FileNotFoundError, match="a directory, not an index file"):
        udf.ship(session, str(tmp_path))
    assert session.added == [fixtures["typed"]]  # nothing else was sent
    with pytest.raises(FileNotFoundError, match=r"^spindex.udf.lookup: index /missing.spx is not "
                                                r"readable here, on the client"):
        udf.lookup("/missing.spx")
