#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""spindex.open: the Python reader against the Java side's answers (the CLI's lookup --json), an
independent reference (ipaddress + bisect), the shared address-forms table and the Java side's
damaged-file fixtures with their expected messages."""

import bisect
import ipaddress
import os
import shutil
import struct

import pytest

np = pytest.importorskip("numpy")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("google_crc32c")

import spindex  # noqa: E402
from spindex import _parse  # noqa: E402
from spindex._errors import CorruptIndexError  # noqa: E402

from conftest import RESOURCES, TYPED, java_answers, spindex as cli  # noqa: E402

BAD = os.path.join(RESOURCES, "bad")


# ---- the address forms shared with the Java parser --------------------------------------------

def _unescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            i += 1
            out.append({"t": "\t", "r": "\r", "s": " ", "\\": "\\"}[s[i]])
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _forms():
    rows = []
    header = True
    with open(os.path.join(RESOURCES, "address-forms.tsv"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if header:
                header = False
                continue
            text, forms, answer, reason, note = line.split("\t")
            # A lookup line answers as it says; a plain line's answer is a lookup answer too, and
            # so is its reject, unless the reject is a form lookups allow (brackets, port).
            if forms == "lookup" or (forms == "plain" and reason not in (
                    "brackets-not-allowed", "port-not-allowed")):
                rows.append((n, _unescape(text), answer or None))
    return rows


FORMS = _forms()


def _canonicals(parsed):
    """Each row's canonical text (a dotted quad, RFC 5952 IPv6), None where it did not parse."""
    out = [None] * parsed.n
    for r, v in zip(parsed.v4_rows.tolist(), parsed.v4.tolist()):
        out[r] = str(ipaddress.IPv4Address(v))
    for r, h, l_ in zip(parsed.v6_rows.tolist(), parsed.hi.tolist(), parsed.lo.tolist()):
        out[r] = str(ipaddress.IPv6Address((h << 64) | l_))
    return out


def test_the_package_under_test():
    where = os.path.dirname(spindex.__file__)
    installed = "site-packages" in where
    assert installed == bool(os.environ.get("SPINDEX_TEST_INSTALLED")), where


def test_forms_table_has_lookup_lines():
    assert len(FORMS) > 50
    assert any(a is None for _, _, a in FORMS) and any(":" in (a or "") for _, _, a in FORMS)


@pytest.mark.parametrize("line,text,answer", FORMS, ids=[str(r[0]) for r in FORMS])
def test_address_forms_one_by_one(line, text, answer):
    p = _parse.parse([text])
    assert _canonicals(p)[0] == answer, "address-forms.tsv:%d %r" % (line, text)
    assert p.invalid == (answer is None)


def test_address_forms_as_one_batch():
    """The same lines in one batch: the dotted quads go through the column-wise parser."""
    texts = [t for _, t, _ in FORMS] * 3
    p = _parse.parse(pa.array(texts))
    got = _canonicals(p)
    assert got == [a for _, _, a in FORMS] * 3
    assert p.invalid == 3 * sum(a is None for _, _, a in FORMS)


def test_column_wise_quads_against_ipaddress():
    rng = np.random.default_rng(11)
    values = rng.integers(0, 2 ** 32, 20000, dtype=np.uint64)
    texts = [str(ipaddress.IPv4Address(int(v))) for v in values]
    # Damaged variants: leading zeros, octets over 255, missing or extra parts, stray bytes.
    texts += ["01.2.3.4", "1.2.3.04", "256.1.1.1", "1.2.3", "1.2.3.4.5", "1..2.3", "1.2.3.4a",
              "1.2.3.-4", "1.2.3.4 ", " 1.2.3.4", "1.2.3.999", "00.0.0.0", "1.2.3.4/", "a.b.c.d",
              "1.2.3.4\x00", "1.2.3.255", "255.255.255.255", "0.0.0.0", "9.99.199.249"]
    got = _canonicals(_parse.parse(pa.array(texts)))
    for i, t in enumerate(texts):
        try:
            ipaddress.IPv4Address(t.strip(" "))
            want = str(ipaddress.IPv4Address(t.strip(" ")))
        except ValueError:
            want = None
        assert got[i] == want, t


def _random_ipv6_texts(rng, n):
    """IPv6 text of random addresses in every spelling (full, compressed anywhere, upper case,
    leading zeros, an embedded quad), then damaged: a byte changed, dropped or doubled, a colon
    added, a group lengthened."""
    out = []
    for _ in range(n):
        groups = [int(g) if rng.random() < 0.6 else 0 for g in rng.integers(0, 1 << 16, 8)]
        quad = rng.random() < 0.2
        parts = ["%x" % g if rng.random() < 0.7 else "%04x" % g for g in groups]
        if rng.random() < 0.2:
            parts = [p.upper() for p in parts]
        if quad:
            parts[6:] = ["%d.%d.%d.%d" % ((groups[6] >> 8), groups[6] & 255, groups[7] >> 8,
                                          groups[7] & 255)]
        if rng.random() < 0.7:  # compress a run of groups (one or more) to "::"
            i = int(rng.integers(0, len(parts)))
            j = int(rng.integers(i + 1, len(parts) + 1))
            if not (quad and j == len(parts)):
                t = ":".join(parts[:i]) + "::" + ":".join(parts[j:])
            else:
                t = ":".join(parts)
        else:
            t = ":".join(parts)
        if rng.random() < 0.4:
            b = list(t)
            k = int(rng.integers(0, len(b) + 1))
            what = rng.integers(0, 5)
            if what == 0 and b:
                b[min(k, len(b) - 1)] = "0123456789abcdefABCDEFg:.x%"[int(rng.integers(0, 27))]
            elif what == 1 and b:
                del b[min(k, len(b) - 1)]
            elif what == 2:
                b.insert(k, ":")
            elif what == 3:
                b.insert(k, "0")
            else:
                b.insert(k, ".")
            t = "".join(b)
        out.append(t)
    return out


def _scalar(texts):
    """The scalar parser's answer (parse_text) of each text, as canonical text."""
    out = []
    for t in texts:
        a = _parse.parse_text(t)
        out.append(None if a is None else str(ipaddress.IPv4Address(a[1])) if a[0] == 4
                   else str(ipaddress.IPv6Address((a[1] << 64) | a[2])))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_column_wise_ipv6_against_the_scalar_parser_and_ipaddress(seed):
    rng = np.random.default_rng(seed)
    texts = _random_ipv6_texts(rng, 20000)
    got = _canonicals(_parse.parse(pa.array(texts)))
    want = _scalar(texts)
    for t, g, w in zip(texts, got, want):
        assert g == w, "seed %d: %r: column-wise %r, scalar %r" % (seed, t, g, w)
        if w is not None and ":" in w:
            assert w == str(ipaddress.IPv6Address(t)), "seed %d: %r" % (seed, t)
    assert sum(w is not None for w in want) > 8000 and sum(w is None for w in want) > 2000


@pytest.mark.parametrize("seed", [4, 5])
def test_column_wise_brackets_and_ports_against_the_scalar_parser(seed):
    """[addr], [addr]:port and a.b.c.d:port, clean and damaged, read column-wise (_wrapped) as
    the scalar parser reads them one by one."""
    rng = np.random.default_rng(seed)
    six = _random_ipv6_texts(rng, 3000)
    four = [str(ipaddress.IPv4Address(int(v))) for v in rng.integers(0, 2 ** 32, 3000)]
    ports = ["0", "80", "443", "08080", "65535", "65536", "123456", "", "8a", "99999"]
    texts = []
    for i in range(12000):
        a = six[i % 3000] if i % 2 else four[i % 3000]
        p = ports[int(rng.integers(0, len(ports)))]
        form = int(rng.integers(0, 4))
        t = "[%s]" % a if form == 0 else "[%s]:%s" % (a, p) if form == 1 else \
            "%s:%s" % (a, p) if form == 2 else "[%s]%s" % (a, p)
        if rng.random() < 0.1:
            b = list(t)
            k = int(rng.integers(0, len(b)))
            b[k] = "[]:.0 \"x"[int(rng.integers(0, 8))]
            t = "".join(b)
        texts.append(t)
    got = _canonicals(_parse.parse(pa.array(texts)))
    want = _scalar(texts)
    for t, g, w in zip(texts, got, want):
        assert g == w, "seed %d: %r: column-wise %r, scalar %r" % (seed, t, g, w)
    assert sum(w is not None for w in want) > 4000 and sum(w is None for w in want) > 2000


# ---- answers against Java and against a reference --------------------------------------------

def _check_against_java(index, queries):
    java = java_answers(index, queries)
    idx = spindex.open(index)
    labels = idx.label(queries).to_pylist()
    looked = idx.lookup(queries).to_pylist()
    checked = hits = 0
    for q, label, struct_ in zip(queries, labels, looked):
        if q in java:
            j = java[q]
            assert (label is None) == (j is None), q
            assert struct_ == j, q
            checked += 1
            hits += j is not None
        else:
            assert label is None and struct_ is None, q  # Java could not parse it either
    return idx, checked, hits


def test_dual_stack_against_java(fixtures, queries):
    idx, checked, hits = _check_against_java(fixtures["ranges"], queries)
    assert idx.format_version == "1.0" and idx.starts6_hi is not None
    assert checked > 5000 and hits > 4000
    assert idx.unparseable > 0


def test_ipv4_only_against_java(fixtures, queries):
    _check_against_java(fixtures["v4"], queries)


def test_sub_tables_against_java(fixtures, queries):
    extra = spindex.open(fixtures["dense"])
    # Real-shaped ranges: dense blocks, with /24 sub-tables (prefix24).
    assert "prefix24" in extra.sections
    with open(fixtures["dense_txt"]) as f:
        edges = [x for i, line in enumerate(f) if i % 11 == 0 for x in line.split("|")[:2]]
    _check_against_java(fixtures["dense"], queries[:3000] + edges)


def test_damaged_ipv4_rows_are_refused(fixtures, tmp_path):
    """The IPv4 rows (2 bytes a start below its /16 block, the label id in the bytes the labels
    need): a label id neither in the dictionary nor a gap's, a prefix table going down."""
    path = fixtures["dense"]
    b = spindex.open(path)
    rows = len(b.starts)
    assert b.sections["range_starts_low"].length == 2 * rows
    width = b.sections["row_label_ids"].length // rows
    assert (width == 1) == (b.label_count <= 255) and 1 <= width <= 4
    bad = str(tmp_path / "bad.spx")
    top = (1 << (8 * width)) - 1
    _rewrite_section(path, bad, "row_label_ids",
                     lambda body: body.__setitem__(slice(width, 2 * width),
                                                   list((top - 1).to_bytes(width, "little"))))
    with pytest.raises(CorruptIndexError, match=r"section 'row_label_ids' at offset %d: expected "
                                                r"a label id in \[0, %d\) or -1 \(a gap\), "
                                                r"found %d" % (b.sections["row_label_ids"].offset
                                                               + width, b.label_count, top - 1)):
        spindex.open(bad)
    p = b.prefix16
    block = int(np.flatnonzero(np.diff(p))[0])  # the first block with rows
    _rewrite_section(path, bad, "prefix16",
                     lambda body: body.view("<i4").__setitem__(block + 2, 0))
    with pytest.raises(CorruptIndexError, match=r"section 'prefix16' at offset \d+: expected "
                                                r"entries in ascending order, at least \d+, "
                                                r"found 0"):
        spindex.open(bad)


def test_ipv6_rows_without_low_halves(tmp_path):
    """IPv6 ranges of /64s and wider: no range6_starts_lo (every start's low half is 0), the label
    ids in range6_rows; the same answers as Java; a row's label id beyond the dictionary refused."""
    lines, hi = [], 0x20010DB8 << 32
    for i in range(500):
        n = 1 + (i * 7919) % 5
        lines.append("%s|%s|n%d" % (ipaddress.IPv6Address(hi << 64),
                                    ipaddress.IPv6Address(((hi + n) << 64) - 1), i % 13))
        hi += n + (i % 3 == 0) * 1000
    src = str(tmp_path / "six.txt")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    path = str(tmp_path / "six.spx")
    cli("build", "ranges", src, "-o", path)
    b = spindex.open(path)
    assert "range6_starts_lo" not in b.sections and "range6_rows" in b.sections
    assert "prefix16" not in b.sections  # no IPv4 rows: nothing to place
    assert (b.starts6_lo == np.iinfo(np.int64).min).all()
    q = [line.split("|")[k] for line in lines for k in (0, 1)]
    q += [str(ipaddress.IPv6Address(((0x20010DB8 << 32) + i * 977) << 64 | i)) for i in range(3000)]
    _check_against_java(path, q)
    bad = str(tmp_path / "bad.spx")
    count = b.label_count
    _rewrite_section(path, bad, "range6_rows",
                     lambda body: body.view("<u8").__setitem__(
                         3, (int(body.view("<u8")[3]) & ~0x7FFFFFFF) | (count + 1)))
    with pytest.raises(CorruptIndexError, match=r"section 'range6_rows' at offset %d: expected "
                                                r"a label id in \[0, %d\) or -1 \(a gap\), "
                                                r"found %d" % (b.sections["range6_rows"].offset
                                                               + 24, count, count)):
        spindex.open(bad)


def test_labels_by_field_read_as_whole_labels(fixtures, queries, tmp_path):
    """The dual-stack ranges with four declared fields, their labels stored by field
    (label_value_ids), and without fields (whole): the same label bytes, the same answers as Java
    and as each other; the typed fixture (quoted fields with the delimiter inside, NULLs, empty
    fields) likewise."""
    fields = "country,region,city,isp"
    for src, extra in ((fixtures["ranges_txt"], ["--label-fields", fields]),
                       (fixtures["typed_txt"], ["--label-fields", "country,lat:double,asn:bigint"])):
        paths = {}
        for how, more in (("whole", []), ("fields", extra)):
            paths[how] = str(tmp_path / (how + ".spx"))
            cli("build", "ranges", src, "-o", paths[how], *more)
        a, b = spindex.open(paths["whole"]), spindex.open(paths["fields"])
        assert "label_bytes" in a.sections and "label_value_ids" not in a.sections
        assert "label_bytes" not in b.sections and "label_value_ids" in b.sections
        assert np.array_equal(a.label_offsets, b.label_offsets)
        assert np.array_equal(a.label_bytes, b.label_bytes)
        _check_against_java(paths["fields"], queries + [r[0] for r in TYPED])
        assert a.label(queries).to_pylist() == b.label(queries).to_pylist()
    # Each distinct value once: fewer bytes for the generated ranges' labels.
    assert b.sections["field_value_bytes"].length < a.sections["label_bytes"].length


def test_damaged_labels_by_field_are_refused(fixtures, tmp_path):
    src, path = str(tmp_path / "fields.spx"), str(tmp_path / "bad.spx")
    cli("build", "ranges", fixtures["ranges_txt"], "-o", src,
        "--label-fields", "country,region,city,isp")
    idx = spindex.open(src)
    countries = int(np.frombuffer(idx._buf, dtype="<i4", count=1,
                                  offset=idx.sections["field_value_counts"].offset)[0])
    stride = idx.sections["label_value_ids"].length // idx.label_count
    idx.close()
    _rewrite_section(src, path, "label_value_ids", lambda body: body.__setitem__(stride, countries))
    with pytest.raises(CorruptIndexError, match=r"section 'label_value_ids' at offset \d+: "
                                                r"expected label 1's value id of field 0 below "
                                                r"%d \(its count in 'field_value_counts' at offset "
                                                r"\d+\), found %d" % (countries, countries)):
        spindex.open(path)
    _rewrite_section(src, path, "field_value_offsets",
                     lambda body: body.view("<i4").__setitem__(3, 0))
    with pytest.raises(CorruptIndexError, match=r"section 'field_value_offsets' at offset \d+: "
                                                r"expected offsets in ascending order, at least "
                                                r"\d+, found 0"):
        spindex.open(path)


def _rewrite_section(src, dst, name, change):
    """A copy of index ``src`` whose section ``name`` is changed by ``change(numpy uint8 array)``,
    with its CRC32C and the header checksum made to agree (a damage only the structural checks
    can find)."""
    import google_crc32c
    idx = spindex.open(src)
    sec = idx.sections[name]
    b = bytearray(open(src, "rb").read())
    idx.close()
    body = np.frombuffer(b, dtype=np.uint8)[sec.offset:sec.offset + sec.length].copy()
    change(body)
    b[sec.offset:sec.offset + sec.length] = body.tobytes()
    struct.pack_into("<I", b, sec.at + 24, google_crc32c.value(body.tobytes()))
    count = struct.unpack_from("<I", b, 40)[0]
    struct.pack_into("<I", b, 124, google_crc32c.value(bytes(b[:124]) +
                                                       bytes(b[128:128 + 32 * count])))
    open(dst, "wb").write(b)


def test_sub_table_damage_is_found_at_open(fixtures, tmp_path):
    """The prefix24 checks of SectionSource.tablesWithin (Java's SubTablesTest makes these files
    at run time too): a map entry past the sub-tables, a sub-table entry past its block's rows, a
    first entry that is not 0; and label offsets out of order."""
    path = str(tmp_path / "d.spx")
    idx = spindex.open(fixtures["dense"])
    halves = np.frombuffer(idx._array("prefix24", np.uint8).tobytes(), dtype="<u2")
    used = int(np.flatnonzero(halves[:65536])[0])
    t = int(halves[used]) - 1
    rows = int(idx.prefix16[used + 1] - idx.prefix16[used])
    tables = (len(halves) - 65536) // 256
    off = idx.sections["prefix24"].offset
    idx.close()

    def put(at, value):
        return lambda body: body.view("<u2").__setitem__(at, value)

    _rewrite_section(fixtures["dense"], path, "prefix24", put(used, tables + 1))
    with pytest.raises(CorruptIndexError) as e:
        spindex.open(path)
    assert str(e.value) == ("%s: section 'prefix24' at offset %d: expected block %d: 0 or a "
                            "sub-table number in [1, %d], found %d"
                            % (path, off + 2 * used, used, tables, tables + 1))
    _rewrite_section(fixtures["dense"], path, "prefix24", put(65536 + 256 * t + 7, rows + 1))
    with pytest.raises(CorruptIndexError) as e:
        spindex.open(path)
    assert str(e.value) == ("%s: section 'prefix24' at offset %d: expected block %d, /24 7: at "
                            "most the block's %d rows, found %d"
                            % (path, off + 4 * (32768 + 128 * t) + 14, used, rows, rows + 1))
    _rewrite_section(fixtures["dense"], path, "prefix24", put(65536 + 256 * t, 1))
    with pytest.raises(CorruptIndexError, match=r"expected block %d, /24 0: 0, found 1" % used):
        spindex.open(path)
    _rewrite_section(fixtures["dense"], path, "label_offsets",
                     lambda body: body.view("<i4").__setitem__(3, 0))
    with pytest.raises(CorruptIndexError, match=r"section 'label_offsets' at offset \d+: expected "
                                                r"offsets in ascending order, at least \d+, found 0"):
        spindex.open(path)


def test_typed_fields_against_java(fixtures):
    queries = ["1.0.0.7", "1.0.2.1", "1.0.4.0", "10.1.2.3", "2001:db8::7", "2a00::1", "9.9.9.9",
               "::ffff:1.0.0.9", "[2001:db8::1]:443", "1.0.0.1:80", "bogus"]
    idx, checked, hits = _check_against_java(fixtures["typed"], queries)
    assert idx.label_fields == ["country", "lat", "asn"]
    assert idx.label_types == ["string", "double", "bigint"]
    assert hits == 9
    got = idx.lookup(queries)
    assert got.type == pa.struct([("country", pa.string()), ("lat", pa.float64()),
                                  ("asn", pa.int64())])
    rows = got.to_pylist()
    assert rows[1] == {"country": "Sydney| NSW", "lat": 1.0e-5, "asn": -42}
    assert rows[2] == {"country": "NZ", "lat": None, "asn": None}
    assert rows[3] == {"country": "", "lat": 0.0, "asn": 9223372036854775807}
    assert rows[5] == {"country": 'say "hi"', "lat": 0.5, "asn": 7}
    assert idx.label(["2a00::1"]).to_pylist() == [TYPED[5][2]]


def test_set_against_java(fixtures):
    with open(fixtures["set_txt"]) as f:
        members = [line.strip() for line in f if line.strip()]
    others = ["1.2.3.4", "::2", "2001:db8::1"] + [m[:-1] + ("0" if m[-1] != "0" else "1")
                                                  for m in members[:500]]
    queries = members[:1500] + others
    java = java_answers(fixtures["set"], queries)
    idx = spindex.open(fixtures["set"])
    got = idx.contains(queries).to_pylist()
    assert got == [java.get(q) for q in queries]
    assert sum(got[:1500]) == 1500
    with pytest.raises(TypeError, match="set index"):
        idx.label(["1.2.3.4"])


def _reference(ranges_txt):
    v4, v6 = [], []
    with open(ranges_txt, encoding="utf-8") as f:
        for line in f:
            start, end, label = line.rstrip("\n").split("|", 2)
            a, b = ipaddress.ip_address(start), ipaddress.ip_address(end)
            (v4 if a.version == 4 else v6).append((int(a), int(b), label))
    return {4: sorted(v4), 6: sorted(v6)}


def _ref_label(ref, text):
    try:
        a = ipaddress.ip_address(text)
    except ValueError:
        return None
    if a.version == 6 and a.ipv4_mapped is not None:
        a = a.ipv4_mapped
    rows = ref[a.version]
    i = bisect.bisect_right(rows, (int(a), float("inf"))) - 1
    return rows[i][2] if i >= 0 and rows[i][1] >= int(a) else None


def test_against_an_independent_reference(fixtures, queries):
    ref = _reference(fixtures["ranges_txt"])
    plain = [q for q in queries if q and "%" not in q]
    idx = spindex.open(fixtures["ranges"])
    got = idx.label(plain).to_pylist()
    want = [_ref_label(ref, q) for q in plain]
    assert got == want


def test_integers_and_numpy(fixtures, queries):
    idx = spindex.open(fixtures["v4"])
    texts = [q for q in queries if q.count(".") == 3 and ":" not in q]
    p = _parse.parse(texts)
    ints = p.v4
    strings = [str(ipaddress.IPv4Address(int(v))) for v in ints]
    want = idx.label(strings).to_pylist()
    assert idx.label(ints).to_pylist() == want
    assert idx.label(ints.astype(np.int64)).to_pylist() == want
    assert idx.label(ints.view(np.int32)).to_pylist() == want  # INT: its unsigned bits
    assert idx.label(pa.array(ints)).to_pylist() == want
    assert idx.label([int(v) for v in ints]).to_pylist() == want
    assert idx.label(np.array(strings)).to_pylist() == want
    assert idx.label(pa.array(strings, type=pa.large_string())).to_pylist() == want
    assert idx.label(pa.array(strings).dictionary_encode()).to_pylist() == want
    assert idx.contains(strings[:5]).to_pylist() == [w is not None for w in want[:5]]


def test_bad_addresses_are_null_and_counted(fixtures):
    idx = spindex.open(fixtures["ranges"])
    before = idx.unparseable
    got = idx.label(["1.2.3", None, "fe80::1%eth0", "", "x" * 100, 2 ** 40, -1][:5]).to_pylist()
    assert got == [None] * 5
    assert idx.unparseable - before == 4  # the null is no unparseable address
    assert idx.label(np.array([2 ** 40, -1, 5], dtype=np.int64)).null_count == 3
    assert idx.unparseable - before == 6
    assert idx.contains(["1.2.3", None]).to_pylist() == [None, None]


@pytest.mark.parametrize("value,name", [
    (pa.array([1.5]), "double"), (np.array([1.5]), "float64"), (pa.array([[1]]), "list"),
    ({"a": 1}, "dict"), ([1.5, 2.5], "double")])
def test_unsupported_types_are_a_type_error_naming_them(fixtures, value, name):
    idx = spindex.open(fixtures["ranges"])
    with pytest.raises(TypeError, match=name):
        idx.label(value)


def test_a_numpy_array_of_two_dimensions_is_the_documented_type_error(fixtures):
    idx = spindex.open(fixtures["ranges"])
    grid = np.array([["1.0.0.1", "1.0.0.2"], ["1.0.0.3", "9.9.9.9"]])
    with pytest.raises(TypeError, match=r"2 dimensions \(2, 2\).*\.ravel\(\)"):
        idx.label(grid)
    assert idx.label(grid.ravel()).to_pylist() == idx.label(list(grid.ravel())).to_pylist()


@pytest.mark.parametrize("threads,error", [(0, ValueError), (-1, ValueError), (1.5, TypeError),
                                           ("2", TypeError), (True, TypeError)])
def test_threads_is_a_positive_int(fixtures, threads, error):
    with pytest.raises(error, match="spindex.open: threads must be"):
        spindex.open(fixtures["ranges"], threads=threads)


def test_threads_none_is_the_cpus_and_a_numpy_int_is_an_int(fixtures):
    assert spindex.open(fixtures["ranges"]).threads == (os.cpu_count() or 1)
    assert spindex.open(fixtures["ranges"], threads=np.int64(3)).threads == 3


# ---- damaged files: the Java side's fixtures and verdicts -------------------------------------

def _expected_errors():
    rows = []
    with open(os.path.join(BAD, "expected-errors.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, stage, message = line.rstrip("\n").split("\t")
            rows.append((name, stage, message))
    return rows


EXPECTED = _expected_errors()


@pytest.mark.parametrize("name,stage,message", EXPECTED, ids=[r[0] for r in EXPECTED])
def test_damaged_fixtures_same_verdict_as_java(name, stage, message):
    path = os.path.join(BAD, name)
    if stage == "open":
        with pytest.raises(CorruptIndexError) as e:
            spindex.open(path)
        assert str(e.value) == message.replace("{file}", path)
        assert isinstance(e.value, ValueError)
    else:  # only `spindex verify` finds these: every loader opens them, as this reader does
        spindex.open(path).close()


def _rewrite(src, dst, version):
    import google_crc32c
    shutil.copyfile(src, dst)
    with open(dst, "r+b") as f:
        b = bytearray(f.read())
        struct.pack_into("<H", b, 8, version)
        count = struct.unpack_from("<I", b, 40)[0]
        struct.pack_into("<I", b, 124, google_crc32c.value(bytes(b[:124]) +
                                                           bytes(b[128:128 + 32 * count])))
        f.seek(0)
        f.write(b)


def test_major_versions_other_than_1_are_one_line(fixtures, tmp_path):
    """Major 0 (every pre-release file: versions 1 to 8) and major 2 are refused, each in one line
    naming what to do; any minor of major 1 is read."""
    path = str(tmp_path / "v.spx")
    for version, line in ((7, "written by a pre-release Spindex (format 0.7); Spindex 1.x reads "
                              "format 1 only: rebuild it with 'spindex build'"),
                          (2 << 8 | 1, "written by a newer Spindex (format 2.1); Spindex 1.x "
                                       "reads format 1 only: upgrade Spindex to read it")):
        _rewrite(fixtures["typed"], path, version)
        with pytest.raises(CorruptIndexError) as e:
            spindex.open(path)
        assert str(e.value) == path + ": " + line
    _rewrite(fixtures["typed"], path, 1 << 8 | 9)
    idx = spindex.open(path)
    assert idx.format_version == "1.9"
    assert idx.label(["1.0.0.7"]).to_pylist() == [TYPED[0][2]]


def _with_section(src, dst, sid, flags, damage=False):
    """``src`` with one more section (id ``sid``, width 8, ``flags``) after the others, every
    section moved to where the longer directory puts it, in format 1.1; ``damage`` flips a byte of
    the new section after its CRC is taken."""
    import google_crc32c
    b = bytes(open(src, "rb").read())
    count = struct.unpack_from("<I", b, 40)[0]
    entries = [bytearray(b[128 + 32 * i:160 + 32 * i]) for i in range(count)]
    bodies = [b[struct.unpack_from("<q", e, 8)[0]:][:struct.unpack_from("<q", e, 16)[0]]
              for e in entries]
    body = bytes(range(40))
    entries.append(bytearray(struct.pack("<IHHqqIi", sid, 8, flags, 0, len(body),
                                         google_crc32c.value(body), 0)))
    bodies.append(body)
    out = bytearray(b[:128])
    offset = (128 + 32 * (count + 1) + 63) // 64 * 64
    for e, part in zip(entries, bodies):
        struct.pack_into("<q", e, 8, offset)
        offset = (offset + len(part) + 63) // 64 * 64
    out += b"".join(entries)
    for e, part in zip(entries, bodies):
        at = struct.unpack_from("<q", e, 8)[0]
        out += bytes(at - len(out)) + part
    out += bytes(offset - len(out))
    if damage:
        out[struct.unpack_from("<q", entries[-1], 8)[0] + 5] ^= 1
    struct.pack_into("<H", out, 8, 1 << 8 | 1)
    struct.pack_into("<q", out, 32, len(out))
    struct.pack_into("<I", out, 40, count + 1)
    struct.pack_into("<I", out, 124, google_crc32c.value(bytes(out[:124]) +
                                                         bytes(out[128:128 + 32 * (count + 1)])))
    open(dst, "wb").write(out)
    return struct.unpack_from("<q", entries[-1], 8)[0]


def test_an_optional_section_of_a_later_minor_version_is_skipped(fixtures, tmp_path):
    """A section of an id 1.0 does not know, marked optional (flag bit 0): read past, its
    checksum still checked; not marked optional, the file needs a newer Spindex."""
    path = str(tmp_path / "later.spx")
    with open(fixtures["set_txt"]) as f:
        some = [line.strip() for line in f][::7] + ["1.2.3.4", "2001:db8::1"]
    for src in (fixtures["set"], fixtures["ranges"]):
        _with_section(src, path, 40, 1)
        idx = spindex.open(path)
        assert idx.format_version == "1.1" and [s.id for s in idx.skipped] == [40]
        a, b = spindex.open(src), idx
        ask = (lambda x: x.contains(some)) if a.kind == "set" else (lambda x: x.label(some))
        assert ask(a).to_pylist() == ask(b).to_pylist()
    offset = _with_section(fixtures["set"], path, 40, 1, damage=True)
    with pytest.raises(CorruptIndexError, match=r"later.spx: section 'id 40' at offset %d: "
                                                r"expected CRC32C [0-9a-f]{8}, found [0-9a-f]{8} "
                                                r"\(its 40 bytes are damaged\)" % offset):
        spindex.open(path)
    _with_section(fixtures["set"], path, 40, 0)
    with pytest.raises(CorruptIndexError, match=r"later.spx: directory at offset \d+: needs a "
                                                r"newer Spindex \(section id 40\)$"):
        spindex.open(path)


def test_truncation_at_every_length_is_one_error(fixtures, tmp_path):
    src = open(fixtures["typed"], "rb").read()
    path = str(tmp_path / "cut.spx")
    for n in list(range(0, 300, 7)) + [len(src) - 1, len(src) // 2]:
        with open(path, "wb") as f:
            f.write(src[:n])
        with pytest.raises(CorruptIndexError, match="cut.spx: (header|directory) at offset"):
            spindex.open(path)


def test_every_flipped_byte_is_one_error_or_the_same_answers(fixtures, tmp_path):
    src = open(fixtures["typed"], "rb").read()
    path = str(tmp_path / "flip.spx")
    for at in range(0, len(src), max(1, len(src) // 400)):
        b = bytearray(src)
        b[at] ^= 0x10
        with open(path, "wb") as f:
            f.write(b)
        try:
            spindex.open(path).label(["1.0.0.1"])
        except CorruptIndexError as e:
            assert str(e).startswith(path + ": ")
        # no other exception type may escape


def test_not_an_index(tmp_path):
    p = tmp_path / "text.spx"
    p.write_text("1.2.3.4|1.2.3.5|x\n" * 20)
    with pytest.raises(CorruptIndexError, match="not a Spindex index"):
        spindex.open(str(p))
    with pytest.raises(FileNotFoundError):
        spindex.open(str(tmp_path / "missing.spx"))
