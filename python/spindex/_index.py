#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""A Spindex index read in place from Python (numpy and pyarrow; no JVM): ``spindex.open(path)``.

A private snapshot of the file is mapped read-only (``_snapshot``: nothing done to the file
afterwards can fault the process); the header, the directory and every section checksum are
checked at open in the order of docs/FORMAT.md "Validation", with the Java loaders' messages. Lookups take a
whole batch: the addresses are parsed column-wise (``spindex._parse``), sorted, and searched with
one ``numpy.searchsorted`` over the mapped sections (sorted queries walk the rows in order, which
is several times faster than searching them in arrival order).
"""

import mmap
import numbers
import os
import struct
import sys
import threading

import numpy as np
import pyarrow as pa

from spindex import _parse, _snapshot
from spindex._errors import CorruptIndexError

MAGIC = b"\x89SPX\r\n\x1a\n"
MAJOR = 1  # the format this reader reads: 1.x, any minor (docs/FORMAT.md)
OPTIONAL = 1  # section flag bit 0: a reader that does not know the id skips the section
HEADER = 128
DIR_ENTRY = 32
ALIGN = 64
MAX_SECTIONS = 64
MAX_ELEMENTS = 2 ** 31 - 9
PREFIX16_ENTRIES = 65537
SUB_MAP_INTS = 32768
SUB_TABLE_INTS = 128
PREFIX6_LEAST = 65536 + 3 + 2  # Prefix6.MAP_INTS + HEAD_INTS + 2: a block map and one table

# id: (name, element width), docs/FORMAT.md "Sections"
SECTIONS = dict(enumerate([
    ("keys", 4), ("prefix16", 4), ("keys6_hi", 8), ("keys6_lo", 8), ("prefix16_v6", 4),
    ("prefix6", 4), ("range_starts_low", 1), ("row_label_ids", 1), ("prefix24", 4),
    ("range6_starts_hi", 8), ("range6_starts_lo", 8), ("range6_rows", 8), ("label_offsets", 4),
    ("label_bytes", 1), ("label_fields", 1), ("label_types", 1), ("field_value_counts", 4),
    ("field_value_offsets", 4), ("field_value_bytes", 1), ("label_value_ids", 1),
    ("ipv4_aliases", 8), ("id_hashes", 8), ("product_ints", 4), ("column_names", 1),
    ("id_offsets", 4), ("id_bytes", 1), ("source_info", 1)], 1))
KINDS = {1: "set", 2: "ranges", 3: "products"}
KIND_ENUM = {1: "IPV4_SET", 2: "IPV4_RANGES", 3: "PRODUCTS"}
KIND_TEXT = {1: "an IP set index", 2: "an IP range index", 3: "a product index"}
TYPES = ("string", "bigint", "double", "boolean", "decimal(20,0)")
FLIP32 = np.uint32(0x80000000)
FLIP64 = np.uint64(0x8000000000000000)


# The sections of each kind, in docs/FORMAT.md's order (the table of Java's Layout.rules): name,
# required (None: when the file has IPv4 rows), the section it needs beside it, the section it
# excludes, and its count (COUNTS).
RULES = {
    1: (("keys", True, None, None, "rows - v6"), ("prefix16", False, None, None, "prefix"),
        ("keys6_hi", False, None, None, "any"), ("keys6_lo", True, "keys6_hi", None, "v6"),
        ("prefix16_v6", False, "keys6_hi", None, "prefix"),
        ("prefix6", False, "prefix16_v6", None, "tables6"),
        ("source_info", False, None, None, "any")),
    2: (("range_starts_low", True, None, None, "2 v4"), ("row_label_ids", True, None, None, "ids"),
        ("prefix16", None, None, None, "prefix"), ("prefix24", False, "prefix16", None, "sub"),
        ("range6_starts_hi", False, None, None, "any"),
        ("range6_starts_lo", False, "range6_starts_hi", None, "v6"),
        ("range6_rows", True, "range6_starts_hi", None, "v6"),
        ("prefix16_v6", True, "range6_starts_hi", None, "prefix"),
        ("prefix6", False, "prefix16_v6", None, "tables6"),
        ("label_offsets", True, None, "label_fields", "first"),
        ("label_bytes", True, None, "label_fields", "any"),
        ("label_fields", False, None, None, "fields"),
        ("label_types", False, "label_fields", None, "any"),
        ("field_value_counts", True, "label_fields", None, "any"),
        ("field_value_offsets", True, "label_fields", None, "first"),
        ("field_value_bytes", True, "label_fields", None, "any"),
        ("label_value_ids", True, "label_fields", None, "any"),
        ("ipv4_aliases", False, None, None, "triples"), ("source_info", False, None, None, "any")),
    3: (("id_hashes", True, None, None, "rows"), ("prefix16", False, None, None, "prefix"),
        ("product_ints", True, None, None, "any"), ("column_names", True, None, None, "any"),
        ("id_offsets", True, None, None, "rows + 1"), ("id_bytes", True, None, None, "any"),
        ("source_info", False, None, None, "any")),
}


def _exactly(e, w, n):
    return None if e == n else "%d elements (%d bytes)" % (n, n * w)


def _ids(e, v4):
    per_row = e // v4 if v4 else 1
    return None if e == per_row * v4 and 1 <= per_row <= 4 else \
        "1 to 4 bytes a row for %d rows" % v4


def _sub(e):
    t = e - SUB_MAP_INTS
    ok = t >= SUB_TABLE_INTS and t % SUB_TABLE_INTS == 0 and t // SUB_TABLE_INTS <= 65535
    return None if ok else "32768 + k x 128 elements (0 < k < 65536)"


# count(elements, width, rows, v4, v6): None, or what the section must have
COUNTS = {
    "any": lambda e, w, r, v4, v6: None,
    "rows": lambda e, w, r, v4, v6: _exactly(e, w, r),
    "rows + 1": lambda e, w, r, v4, v6: _exactly(e, w, r + 1),
    "rows - v6": lambda e, w, r, v4, v6: _exactly(e, w, r - v6),
    "v6": lambda e, w, r, v4, v6: _exactly(e, w, v6),
    "2 v4": lambda e, w, r, v4, v6: _exactly(e, w, 2 * v4),
    "prefix": lambda e, w, r, v4, v6: _exactly(e, w, PREFIX16_ENTRIES),
    "ids": lambda e, w, r, v4, v6: _ids(e, v4),
    "sub": lambda e, w, r, v4, v6: _sub(e),
    "tables6": lambda e, w, r, v4, v6:
        None if e >= PREFIX6_LEAST else "at least %d elements" % PREFIX6_LEAST,
    "first": lambda e, w, r, v4, v6: None if e >= 1 else "at least 1 element",
    "fields": lambda e, w, r, v4, v6:
        None if e >= 2 else "a delimiter line and at least one field name",
    "triples": lambda e, w, r, v4, v6: None if e % 3 == 0 else "a multiple of 3 elements",
}


def _crc32c():
    try:
        import google_crc32c
    except ImportError as e:  # pragma: no cover - a dependency of the package
        raise ImportError("spindex.open needs google-crc32c (pip install google-crc32c)") from e
    return google_crc32c.value


class Section:
    __slots__ = ("id", "name", "width", "offset", "length", "crc", "at")

    def __init__(self, sid, name, width, offset, length, crc, at):
        self.id, self.name, self.width = sid, name, width
        self.offset, self.length, self.crc, self.at = offset, length, crc, at

    @property
    def elements(self):
        return self.length // self.width


class Index:
    """An open Spindex index (``spindex.open``). Thread-safe for lookups; ``close()`` unmaps it
    (arrays it returned stay valid: they are copies)."""

    def __init__(self, path, threads=None):
        self.path = os.fspath(path)
        # Threads for one large batch (numpy releases the GIL in its loops): the CPUs by default;
        # 1 where something else parallelizes already (spindex.udf: Spark's Python workers).
        self.threads = _threads(threads)
        self.unparseable = 0  # addresses that did not parse, over every call (they answer null)
        self._lock = threading.Lock()
        self._dictionary = None
        self._typed = None
        try:
            if os.path.isdir(self.path):
                raise IsADirectoryError(self.path)
            if os.path.getsize(self.path) < HEADER:
                self._fail("header", 0, "at least 128 bytes",
                           "fewer: a truncated index, or not a Spindex index")
            # A private snapshot, never the file itself: a file written over in place under a
            # mapping would kill the process (_snapshot).
            with open(_snapshot.of(self.path), "rb") as f:
                size = os.fstat(f.fileno()).st_size
                self._mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except IsADirectoryError:
            raise CorruptIndexError("%s: not a file (a directory)" % self.path) from None
        self._buf = memoryview(self._mm)
        self.file_size = size
        self._checked = set()
        self._read_header()
        self._load()

    # ---- validation -------------------------------------------------------------------------

    def _fail(self, section, offset, expected, found):
        raise CorruptIndexError.at(self.path, section, offset, expected, found)

    def _read_header(self):
        b = self._buf
        size = self.file_size
        if bytes(b[0:8]) != MAGIC:
            self._fail("header", 0, "magic 89 53 50 58 0D 0A 1A 0A (a Spindex index)",
                       "other bytes: not a Spindex index")
        version, kind, flags, rows, created, length, count = struct.unpack_from(
            "<HHiqqqI", b, 8)
        text = "%d.%d" % (version >> 8, version & 0xFF)
        if version >> 8 < MAJOR:
            raise CorruptIndexError(
                "%s: written by a pre-release Spindex (format %s); Spindex 1.x reads format 1 "
                "only: rebuild it with 'spindex build'" % (self.path, text))
        if version >> 8 > MAJOR:
            raise CorruptIndexError(
                "%s: written by a newer Spindex (format %s); Spindex 1.x reads format 1 only: "
                "upgrade Spindex to read it" % (self.path, text))
        if count > MAX_SECTIONS:
            self._fail("header", 40, "at most 64 sections", count)
        need = HEADER + DIR_ENTRY * count
        if need > size:
            self._fail("directory", HEADER, "%d bytes of header and directory" % need,
                       "%d bytes in the file" % size)
        crc = _crc32c()
        stored = struct.unpack_from("<I", b, 124)[0]
        actual = crc(bytes(b[0:124]) + bytes(b[HEADER:need]))
        if stored != actual:
            self._fail("header", 124, "header checksum %08x" % stored,
                       "%08x (header or directory damaged)" % actual)
        if kind not in KINDS:
            self._fail("header", 10, "a known index kind (1, 2 or 3)", kind)
        for at in (44, 80, 88, 96, 104, 112, 120):
            width = 4 if at in (44, 120) else 8
            v = struct.unpack_from("<i" if width == 4 else "<q", b, at)[0]
            if v != 0:
                self._fail("header", at, "reserved bytes %d-%d zero" % (at, at + width - 1),
                           "0x%x" % (v & (2 ** 64 - 1) if v < 0 else v))
        if flags != 0:
            self._fail("header", 12, "flags 0", "0x%08x" % (flags & 0xFFFFFFFF))
        if length != size:
            self._fail("header", 32, "a file of %d bytes (as written)" % length,
                       "%d bytes (truncated or extended)" % size)
        if rows < 0 or rows > MAX_ELEMENTS:
            self._fail("header", 16, "a row count in [0, 2^31-9]", rows)
        self.version, self.format_version = version, text
        self.kind_code, self.rows, self.created = kind, rows, created
        self.kind = KINDS[kind]
        self.source_digest = bytes(b[48:80]).hex()
        self.header_crc = stored
        first = (HEADER + DIR_ENTRY * count + ALIGN - 1) // ALIGN * ALIGN
        sections, self.skipped = {}, []
        for i in range(count):
            at = HEADER + i * DIR_ENTRY
            sid, width, flags, offset, slen, scrc, res = struct.unpack_from("<IHHqqIi", b, at)
            if any(s.id == sid for s in list(sections.values()) + self.skipped):
                self._fail("directory", at, "a section id not listed before", sid)
            if flags & ~OPTIONAL:
                self._fail("directory", at + 6, "section flags 0 or 1 (bit 0: optional)",
                           "0x%x" % flags)
            if res != 0:
                self._fail("directory", at + 28, "reserved directory bytes zero",
                           "0x%x" % (res & 0xFFFFFFFF))
            spec = SECTIONS.get(sid)
            if spec is None and not flags & OPTIONAL:
                raise CorruptIndexError("%s: directory at offset %d: needs a newer Spindex "
                                        "(section id %d)" % (self.path, at, sid))
            sname = spec[0] if spec else "id %d" % sid
            name = "section '%s'" % sname
            if width != spec[1] if spec else width not in (1, 2, 4, 8):
                self._fail("directory", at + 4, "%s width %s" % (
                    name, spec[1] if spec else "1, 2, 4 or 8"), width)
            if offset < first or offset % ALIGN:
                self._fail("directory", at + 8, "%s offset aligned to 64 and >= %d" % (name, first),
                           offset)
            if slen < 0 or slen % width or slen > size - offset:
                self._fail("directory", at + 16, "%s length, a multiple of %d ending within %d bytes"
                           % (name, width, size), "%d bytes at offset %d" % (slen, offset))
            if spec and slen // width > MAX_ELEMENTS:
                self._fail("directory", at + 16, "%s of at most %d elements (rows are Java int "
                           "indexes; a larger list is split over indexes)" % (name, MAX_ELEMENTS),
                           "%d elements" % (slen // width))
            s_ = Section(sid, sname, width, offset, slen, scrc, at)
            if spec:
                sections[sname] = s_
            else:
                self.skipped.append(s_)
        ordered = sorted(list(sections.values()) + self.skipped, key=lambda s: s.offset)
        for prev, nxt in zip(ordered, ordered[1:]):
            if prev.offset + prev.length > nxt.offset:
                self._fail("directory", HEADER, "section '%s' to start after '%s' ends at %d"
                           % (nxt.name, prev.name, prev.offset + prev.length),
                           "offset %d" % nxt.offset)
        self.sections = sections
        self._check_sections()

    def _check_sections(self):
        """The kind's sections against RULES: none of another kind, each with the sections it
        needs and without those it excludes, each of its element count."""
        sec, rules = self.sections, RULES[self.kind_code]
        v6 = sum(sec[n].elements for n in ("keys6_hi", "range6_starts_hi") if n in sec)
        names = {r[0] for r in rules}
        for s in sorted(sec.values(), key=lambda s: s.at):
            if s.name not in names:
                self._fail("section '%s'" % s.name, s.offset, "no '%s' in %s file"
                           % (s.name, KIND_TEXT[self.kind_code]), "%d bytes" % s.length)
        for name, required, with_, without, count in rules:
            s = sec.get(name)
            lacks = with_ is not None and with_ not in sec
            beside = without is not None and without in sec
            if s is None:
                if (self.rows > v6 if required is None else required) and not lacks and not beside:
                    self._fail("directory", HEADER, "a '%s' section for kind %s"
                               % (name, KIND_ENUM[self.kind_code]), "none")
                continue
            if lacks or beside:
                self._fail("section '%s'" % name, s.offset, "no '%s' %s '%s'" % (
                    name, "without" if lacks else "beside", with_ if lacks else without),
                    "%d bytes" % s.length)
            wrong = COUNTS[count](s.elements, s.width, self.rows, self.rows - v6, v6)
            if wrong is not None:
                self._fail("section '%s'" % name, s.offset, wrong,
                           "%d elements (%d bytes)" % (s.elements, s.length))

    def _array(self, name, dtype):
        """The section as a read-only numpy view of the mapping, its CRC32C checked first."""
        s = self.sections.get(name) if isinstance(name, str) else name
        if s is None:
            return None
        view = self._buf[s.offset:s.offset + s.length]
        if s.id not in self._checked:
            # A numpy view: google-crc32c's C extension reads it in place (not a memoryview).
            actual = _crc32c()(np.frombuffer(view, dtype=np.uint8))
            if actual != s.crc:
                self._fail("section '%s'" % s.name, s.offset, "CRC32C %08x" % s.crc,
                           "%08x (its %d bytes are damaged)" % (actual, s.length))
            self._checked.add(s.id)
        return np.frombuffer(view, dtype=dtype)

    def _check_prefix(self, name, table, rows):
        if table is None:
            return
        s = self.sections[name]
        if table[0] != 0 or table[-1] != rows:
            self._fail("section '%s'" % name, s.offset, "entries from 0 to %d" % rows,
                       "from %d to %d" % (table[0], table[-1]))
        self._non_decreasing(s, table, "entries")

    def _non_decreasing(self, s, values, what):
        bad = np.flatnonzero(values[1:] < values[:-1])
        if bad.size:
            i = int(bad[0]) + 1
            self._fail("section '%s'" % s.name, s.offset + 4 * i,
                       "%s in ascending order, at least %d" % (what, values[i - 1]), values[i])

    def _ids_within(self, name, ids, count, width):
        """Every label id of the rows in the dictionary, or -1 (a gap row)."""
        bad = np.flatnonzero(((ids < 0) | (ids >= count)) & (ids != -1))
        if bad.size:
            i = int(bad[0])
            s = self.sections[name]
            self._fail("section '%s'" % name, s.offset + width * i,
                       "a label id in [0, %d) or -1 (a gap)" % count, ids[i])

    def _text(self, name):
        a = self._array(name, np.uint8)
        return None if a is None else a.tobytes().decode("utf-8", "replace")

    def _load(self):
        le = "<"
        i32, i64 = np.dtype(le + "i4"), np.dtype(le + "i8")
        for s in self.skipped:  # optional sections of later minor versions: checksums only
            self._array(s, np.uint8)
        self.prefix16 = self._array("prefix16", i32)
        self.starts = self.labels = self.keys = None
        self._label_offsets = self._label_bytes = self._join_labels = None
        self.starts6_hi = self.keys6_hi = None
        self.schema = None
        self.aliases = np.zeros((0, 3), dtype=np.int64)
        self.source_info = []
        info = self._text("source_info")
        if info:
            self.source_info = [tuple(line.split("\t", 1)) for line in info.split("\n")]
        if self.kind_code == 3:
            hashes = self._array("id_hashes", i64)
            ints = self.sections["product_ints"]
            self._array("product_ints", i32)
            names_s = self.sections["column_names"]
            names = self._text("column_names")
            offsets_s = self.sections["id_offsets"]
            offsets = self._array("id_offsets", i32)
            ids_s = self.sections["id_bytes"]
            self._array("id_bytes", np.uint8)
            self._check_prefix("prefix16", self.prefix16, len(hashes))
            cols = names.split("\n")
            fixed = ["price_pc", "shipping", "content_hash"]
            if cols[:3] != fixed or any(not c for c in cols) or len(set(cols)) != len(cols):
                self._fail("section 'column_names'", names_s.offset,
                           "distinct, non-empty names starting " + ",".join(fixed),
                           "'%s'" % ",".join(cols))
            if ints.elements != len(cols) * self.rows:
                self._fail("section 'product_ints'", ints.offset, "%d elements (%d rows x %d "
                           "columns)" % (len(cols) * self.rows, self.rows, len(cols)),
                           "%d elements" % ints.elements)
            if offsets[0] != 0 or offsets[-1] != ids_s.length:
                self._fail("section 'id_offsets'", offsets_s.offset,
                           "offsets from 0 to %d (the id bytes)" % ids_s.length,
                           "from %d to %d" % (offsets[0], offsets[-1]))
            self._non_decreasing(offsets_s, offsets, "offsets")
            self.column_names = cols
            self._check_rest()
            return
        if self.kind_code == 1:
            self.keys = self._array("keys", i32)
            self._check_prefix("prefix16", self.prefix16, len(self.keys))
            if "keys6_hi" in self.sections:
                self.keys6_hi = self._array("keys6_hi", i64)
                self.keys6_lo = self._array("keys6_lo", i64)
                p6 = self._array("prefix16_v6", i32)
                self._check_prefix("prefix16_v6", p6, len(self.keys6_hi))
            self._check_rest()
            return
        # The rows of ranges and the gaps between them: each row ends where the next starts, the
        # last at the top of the space, and a gap row's label id is -1.
        self.starts, self.labels = self._packed_rows()
        self._read_schema()
        if "label_value_ids" in self.sections:
            # Labels by field: checked now, joined at their first use (label_offsets, label_bytes).
            self.label_count, self._join_labels = self._labels_by_field(i32)
        else:
            self._label_offsets = self._array("label_offsets", i32)
            self._label_bytes = self._array("label_bytes", np.uint8)
            self._spans("label_offsets", self._label_offsets, "label_bytes")
            self.label_count = len(self._label_offsets) - 1
        sub = self._array("prefix24", i32)
        count = self.label_count
        width = self.sections["row_label_ids"].length // max(1, len(self.labels))
        self._ids_within("row_label_ids", self.labels, count, width)
        if sub is not None:
            self._check_sub(sub)
        if "range6_starts_hi" in self.sections:
            self.starts6_hi = self._array("range6_starts_hi", i64)
            lo = self._array("range6_starts_lo", i64)  # absent: every low half is 0
            self.starts6_lo = np.full(len(self.starts6_hi), np.iinfo(np.int64).min, i64) \
                if lo is None else lo
            p6 = self._array("prefix16_v6", i32)
            self._check_prefix("prefix16_v6", p6, len(self.starts6_hi))
            # A row's label id plus one in its low 31 bits; this reader searches the starts.
            rows = self._array("range6_rows", i64)
            self.labels6 = ((rows & 0x7FFFFFFF) - 1).astype(i32)
            self._ids_within("range6_rows", self.labels6, count, 8)
        al = self._array("ipv4_aliases", i64)
        if al is not None:
            self._check_aliases(al)
        self._check_rest()

    def _packed_rows(self):
        """The flipped starts and label ids of the IPv4 rows: the rows ``prefix16`` puts in block
        b start at b << 16 and their 16 low bits; a label id of all bits set is a gap's, -1."""
        low = self._array("range_starts_low", np.dtype("<u2"))
        raw = self._array("row_label_ids", np.uint8)
        if not len(low):  # no IPv4 rows (and maybe no prefix16)
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32)
        self._check_prefix("prefix16", self.prefix16, len(low))
        blocks = np.repeat(np.arange(65536, dtype=np.int64), np.diff(self.prefix16))
        starts = (((blocks << 16) | low.astype(np.int64)) ^ 0x80000000).astype(np.uint32)
        width = len(raw) // len(low)
        ids = np.zeros(len(low), dtype=np.int64)
        for b in range(width):
            ids |= raw[b::width].astype(np.int64) << (8 * b)
        ids[ids == (1 << (8 * width)) - 1] = -1
        return starts.view(np.int32), ids.astype(np.int32)

    def _spans(self, name, offsets, of):
        """Offsets into section ``of``: from 0 to its length, in ascending order."""
        s, length = self.sections[name], self.sections[of].length
        if offsets[0] != 0 or offsets[-1] != length:
            self._fail("section '%s'" % name, s.offset,
                       "offsets from 0 to %d (the bytes of '%s')" % (length, of),
                       "from %d to %d" % (offsets[0], offsets[-1]))
        self._non_decreasing(s, offsets, "offsets")

    def _labels_by_field(self, i32):
        """The labels of sections ``field_value_*`` and ``label_value_ids``, checked:
        their count, and a function that gives them as offsets and bytes, as ``label_offsets`` and
        ``label_bytes`` hold them (each label's values joined by the delimiter of
        ``label_fields``)."""
        delimiter, names = self.schema[0].encode("utf-8"), self.schema[1]
        sec = self.sections
        counts_s, ids_s = sec["field_value_counts"], sec["label_value_ids"]
        if counts_s.elements != len(names):
            self._fail("section 'field_value_counts'", counts_s.offset,
                       "%d elements (one a field of 'label_fields')" % len(names),
                       "%d elements" % counts_s.elements)
        counts = self._array("field_value_counts", i32).astype(np.int64)
        for j, c in enumerate(counts):
            if c < 0:
                self._fail("section 'field_value_counts'", counts_s.offset + 4 * j,
                           "a count of values, at least 0", c)
        widths = [1 if c <= 1 << 8 else 2 if c <= 1 << 16 else 3 if c <= 1 << 24 else 4
                  for c in counts]
        stride = sum(widths)
        offsets_s = sec["field_value_offsets"]
        if offsets_s.elements != counts.sum() + 1:
            self._fail("section 'field_value_offsets'", offsets_s.offset,
                       "%d elements (the values 'field_value_counts' counts, and one)"
                       % (counts.sum() + 1), "%d elements" % offsets_s.elements)
        if ids_s.length % stride:
            self._fail("section 'label_value_ids'", ids_s.offset,
                       "a multiple of %d bytes (a label's value ids)" % stride,
                       "%d bytes" % ids_s.length)
        voff = self._array("field_value_offsets", i32).astype(np.int64)
        self._spans("field_value_offsets", voff, "field_value_bytes")
        values = self._array("field_value_bytes", np.uint8)
        ids = self._array("label_value_ids", np.uint8).reshape(-1, stride)
        n = len(ids)
        value = []
        base = col = 0
        for j, w in enumerate(widths):
            v = np.zeros(n, dtype=np.int64)
            for b in range(w):
                v |= ids[:, col + b].astype(np.int64) << (8 * b)
            bad = np.flatnonzero(v >= counts[j])
            if bad.size:
                i = int(bad[0])
                self._fail("section 'label_value_ids'", ids_s.offset + i * stride + col,
                           "label %d's value id of field %d below %d (its count in "
                           "'field_value_counts' at offset %d)"
                           % (i, j, counts[j], counts_s.offset + 4 * j), v[i])
            col += w
            value.append(v + base)
            base += counts[j]

        def join():
            lengths = np.full(n, len(delimiter) * (len(names) - 1), dtype=np.int64)
            for v in value:
                lengths += voff[v + 1] - voff[v]
            offsets = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(lengths, out=offsets[1:])
            if offsets[-1] > np.iinfo(np.int32).max:
                self._fail("section 'label_value_ids'", ids_s.offset,
                           "labels of at most 2 GiB in all", "%d bytes" % offsets[-1])
            # Each field's values copied to their places in one gather a field (numpy only: the
            # reader needs no Arrow compute kernels).
            out = np.empty(int(offsets[-1]), dtype=np.uint8)
            at = offsets[:-1].copy()
            for j, v in enumerate(value):
                if j:
                    for d, byte in enumerate(delimiter):
                        out[at + d] = byte
                    at += len(delimiter)
                src, length = voff[v], voff[v + 1] - voff[v]
                within = np.arange(int(length.sum())) - np.repeat(np.cumsum(length) - length,
                                                                  length)
                out[np.repeat(at, length) + within] = values[np.repeat(src, length) + within]
                at += length
            return offsets.astype(i32), out

        return n, join

    def _check_sub(self, sub):
        s = self.sections["prefix24"]
        halves = sub.view("<u2")
        tables = (len(sub) - SUB_MAP_INTS) // SUB_TABLE_INTS
        block_map = halves[:65536]
        bad = np.flatnonzero(block_map > tables)
        if bad.size:
            p = int(bad[0])
            self._fail("section 'prefix24'", s.offset + 2 * p,
                       "block %d: 0 or a sub-table number in [1, %d]" % (p, tables), block_map[p])
        used = np.flatnonzero(block_map)
        if not used.size:
            return
        t = block_map[used].astype(np.intp) - 1
        rows = (self.prefix16[used + 1] - self.prefix16[used]).astype(np.int64)
        tables_ = halves[2 * SUB_MAP_INTS:].reshape(-1, 256)[t]
        wrong = (tables_ > rows[:, None])
        wrong[:, 0] |= tables_[:, 0] != 0
        bad = np.flatnonzero(wrong.any(axis=1))
        if bad.size:
            i = int(bad[0])
            p, tt, n = int(used[i]), int(t[i]), int(rows[i])
            q = int(np.flatnonzero(wrong[i])[0])
            self._fail("section 'prefix24'", s.offset + 4 * (SUB_MAP_INTS + SUB_TABLE_INTS * tt)
                       + 2 * q, "block %d, /24 0: 0" % p if q == 0 else
                       "block %d, /24 %d: at most the block's %d rows" % (p, q, n),
                       tables_[i, q])

    def _check_aliases(self, al):
        s = self.sections["ipv4_aliases"]
        if len(al) % 3:
            self._fail("section 'ipv4_aliases'", s.offset,
                       "a multiple of 3 int64 (prefix high, low, length)", len(al))
        t = al.reshape(-1, 3)
        for i, (hi, lo, n) in enumerate(t.tolist()):
            if n < 0 or n > 96:
                self._fail("section 'ipv4_aliases'", s.offset, "prefix lengths 0 to 96",
                           "%d in alias %d" % (n, i))
            mhi, mlo = _mask128(n)
            if (hi & 0xFFFFFFFFFFFFFFFF) & ~mhi or (lo & 0xFFFFFFFFFFFFFFFF) & ~mlo:
                self._fail("section 'ipv4_aliases'", s.offset,
                           "no bit set past a prefix's length", "one in alias %d" % i)
        self.aliases = t

    def _read_schema(self):
        fields = self._text("label_fields")
        types = self._text("label_types")
        if fields is None:  # and no label_types: the table allows them only together
            return
        lines = fields.split("\n")
        delimiter, names = lines[0], lines[1:]
        if types is None:
            kinds = ["string"] * len(names)
        else:
            kinds = types.split("\n")
            for t in kinds:
                if t not in TYPES:
                    self._fail("section 'label_types'", self.sections["label_types"].offset,
                               "one of %s a line" % ", ".join(TYPES),
                               "'%s'" % types.replace("\n", "\\n"))
        if not names or len(names) != len(kinds) or not delimiter or \
                any(not n.strip() for n in names) or len(set(names)) != len(names):
            self._fail("section 'label_fields'", self.sections["label_fields"].offset,
                       "a delimiter line, non-empty field names and as many types",
                       "'%s'" % fields.replace("\n", "\\n"))
        self.schema = (delimiter, names, kinds, types is not None)

    def _check_rest(self):
        """The CRC32C of every section no lookup reads (``prefix6``, the products' columns)."""
        for s in self.sections.values():
            self._array(s, np.uint8)

    # ---- properties -------------------------------------------------------------------------

    @property
    def label_fields(self):
        """The label's field names, or None (then ``lookup`` gives ``struct<label>``)."""
        return None if self.schema is None else list(self.schema[1])

    @property
    def label_types(self):
        return None if self.schema is None else list(self.schema[2])

    def arrow_type(self):
        """The pyarrow type of ``lookup``: a struct of the label fields, each of its type."""
        if self.schema is None:
            return pa.struct([("label", pa.string())])
        return pa.struct([(n, _ARROW[t]()) for n, t in zip(self.schema[1], self.schema[2])])

    def __repr__(self):
        return "<spindex.Index %s: %s, format %s, %d rows>" % (
            self.path, self.kind, self.format_version, self.rows)

    @property
    def label_offsets(self):
        """The label dictionary's ``label_count + 1`` offsets into ``label_bytes`` (int32)."""
        self._joined()
        return self._label_offsets

    @property
    def label_bytes(self):
        """The labels' bytes, each distinct label once (uint8)."""
        self._joined()
        return self._label_bytes

    def _joined(self):
        join = self._join_labels
        if join is not None:
            self._label_offsets, self._label_bytes = join()
            self._join_labels = None

    def close(self):
        """Drops this object's views of the mapping; the mapping goes with the last array that
        still views it (arrays returned by lookups are copies and never do)."""
        for name in ("starts", "labels", "keys", "keys6_hi", "keys6_lo", "starts6_hi", "starts6_lo",
                     "labels6", "prefix16", "_label_offsets", "_label_bytes", "_join_labels",
                     "_dictionary", "_typed"):
            setattr(self, name, None)
        try:
            self._buf.release()
            self._mm.close()
        except BufferError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- lookups ----------------------------------------------------------------------------

    def _need(self, what):
        if self.kind_code == 3:
            raise TypeError("%s: a product index has no addresses to %s" % (self.path, what))
        if what != "contains" and self.kind_code != 2:
            raise TypeError("%s: %s needs a range index; this is a set index (use contains)"
                            % (self.path, what))

    def _ids(self, ips):
        """Label ids (int32, -1 for none), a null mask of the input, and the miss mask."""
        pool = _pool(self.threads)
        parsed = _parse.parse(ips, pool)
        if parsed.invalid:
            with self._lock:
                self.unparseable += parsed.invalid
        n = parsed.n
        out = np.full(n, -1, dtype=np.int32)
        if self.kind_code == 1:
            out[parsed.v4_rows] = _find_keys(self.keys, parsed.v4)
            if parsed.v6_rows.size and self.keys6_hi is not None:
                out[parsed.v6_rows] = _find_keys6(self.keys6_hi, self.keys6_lo, parsed.hi, parsed.lo)
            return out, parsed
        out[parsed.v4_rows] = self._label_ids4(parsed.v4, pool)
        if parsed.v6_rows.size:
            out[parsed.v6_rows] = self._label_ids6(parsed.hi, parsed.lo)
        return out, parsed

    def _label_ids4(self, addresses, pool=None):
        n = len(addresses)
        if pool is None or n < 1 << 18:
            return _find_ranges(self.starts, self.labels, addresses)
        parts = np.array_split(addresses, self.threads)  # each sorted and searched on its own
        return np.concatenate(list(pool.map(
            lambda part: _find_ranges(self.starts, self.labels, part), parts)))

    def _label_ids6(self, hi, lo):
        if self.starts6_hi is not None:
            ids = _find_ranges6(self.starts6_hi, self.starts6_lo, self.labels6, hi, lo)
        else:
            ids = np.full(len(hi), -1, dtype=np.int32)
        if len(self.aliases):
            miss = ids < 0
            for phi, plo, n in self.aliases.tolist():
                mhi, mlo = _mask128(n)
                inside = miss & ((hi & np.uint64(mhi)) == np.uint64(phi & 0xFFFFFFFFFFFFFFFF)) & \
                    ((lo & np.uint64(mlo)) == np.uint64(plo & 0xFFFFFFFFFFFFFFFF))
                if inside.any():
                    h, l_ = hi[inside], lo[inside]
                    if n == 0:
                        top = h
                    elif n < 64:
                        top = (h << np.uint64(n)) | (l_ >> np.uint64(64 - n))
                    else:
                        top = l_ << np.uint64(n - 64)
                    v4 = (top >> np.uint64(32)).astype(np.uint32)
                    ids[inside] = self._label_ids4(v4)
                    miss &= ~inside
        return ids

    def _label_dictionary(self):
        if self._dictionary is None:
            self._dictionary = pa.StringArray.from_buffers(
                self.label_count, pa.py_buffer(self.label_offsets), pa.py_buffer(self.label_bytes))
        return self._dictionary

    def label(self, ips):
        """The label of the range holding each address: a pyarrow StringArray, null where no range
        holds it, the address is null or does not parse (those are counted in ``unparseable``)."""
        self._need("label")
        ids, _ = self._ids(ips)
        return self._label_dictionary().take(pa.array(ids, mask=ids < 0))

    def contains(self, ips):
        """Whether the set holds each address (a range index: whether a range holds it): a pyarrow
        BooleanArray, null for a null or unparseable address."""
        self._need("contains")
        ids, parsed = self._ids(ips)
        return pa.array(ids >= 0, mask=parsed.null_or_invalid)

    def lookup(self, ips):
        """The label as a struct of the fields the index declares, each of its type (``struct<label>``
        without fields): a pyarrow StructArray, null where ``label`` is null."""
        self._need("lookup")
        ids, _ = self._ids(ips)
        fields = self._typed_dictionary()
        idx = pa.array(ids, mask=ids < 0)
        children = [f.take(idx) for f in fields]
        t = self.arrow_type()
        return pa.StructArray.from_arrays(children, fields=list(t), mask=pa.array(ids < 0))

    def _typed_dictionary(self):
        if self._typed is None:
            labels = self._label_dictionary().to_pylist()
            if self.schema is None:
                self._typed = [self._label_dictionary()]
            else:
                delimiter, names, kinds, typed = self.schema
                columns = [[] for _ in names]
                for text in labels:
                    parts = split_label(text, delimiter, len(names))
                    for i in range(len(names)):
                        v = parts[i] if i < len(parts) else None
                        if typed and v is not None:
                            v = parse_value(kinds[i], v)
                        columns[i].append(v)
                self._typed = [pa.array(c, type=_ARROW[k]()) for c, k in zip(columns, kinds)]
        return self._typed


_ARROW = {"string": pa.string, "bigint": pa.int64, "double": pa.float64, "boolean": pa.bool_,
          "decimal(20,0)": lambda: pa.decimal128(20, 0)}


def _mask128(n):
    mhi = 0 if n == 0 else (0xFFFFFFFFFFFFFFFF if n >= 64 else (0xFFFFFFFFFFFFFFFF << (64 - n))
                            & 0xFFFFFFFFFFFFFFFF)
    mlo = 0 if n <= 64 else (0xFFFFFFFFFFFFFFFF << (128 - n)) & 0xFFFFFFFFFFFFFFFF
    return mhi, mlo


_POOLS = {}


def _threads(threads):
    """``threads`` checked: a positive int, or None for the CPUs (0 and -1 were taken as the CPUs
    and as 1 without a word)."""
    if threads is None:
        return os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError("spindex.open: threads must be an int (None: the CPUs), got %s %r"
                        % (type(threads).__name__, threads))
    if threads < 1:
        raise ValueError("spindex.open: threads must be at least 1 (None: the CPUs), got %d"
                         % threads)
    return int(threads)


def _pool(threads):
    """A shared thread pool of ``threads`` workers, or None for one thread."""
    if threads <= 1:
        return None
    pool = _POOLS.get(threads)
    if pool is None:
        from concurrent.futures import ThreadPoolExecutor

        pool = _POOLS.setdefault(threads, ThreadPoolExecutor(threads, "spindex"))
    return pool


_RANGE = np.zeros(0, dtype=np.uint32)


def _positions(n):
    global _RANGE
    if len(_RANGE) < n:
        _RANGE = np.arange(max(n, 1 << 16), dtype=np.uint32)
    return _RANGE[:n]


def _sorted(addresses):
    """The addresses sorted (as flipped int32) and the permutation back: one sort of uint64 keys
    (address in the high half, position in the low half) is several times faster than an
    argsort, and sorted queries walk the rows in order."""
    n = len(addresses)
    key = np.empty(n, dtype=np.uint64)
    halves = key.view(np.uint32)  # [low, high] of each key on a little-endian host
    hi, lo = (halves[1::2], halves[0::2]) if sys.byteorder == "little" else \
        (halves[0::2], halves[1::2])
    hi[:] = addresses
    lo[:] = _positions(n)
    key.sort()
    q = hi ^ FLIP32
    return q.view(np.int32), lo


def _find_ranges(starts, labels, addresses):
    """The label id of the row each address is in (-1: before the first row, or a gap row)."""
    out = np.full(len(addresses), -1, dtype=np.int32)
    if len(addresses) == 0 or len(starts) == 0:
        return out
    q, order = _sorted(addresses)
    r = np.searchsorted(starts, q, side="right") - 1
    out[order] = np.where(r >= 0, labels[np.maximum(r, 0)], -1)
    return out


def _find_keys(keys, addresses):
    out = np.full(len(addresses), -1, dtype=np.int32)
    if len(addresses) == 0 or len(keys) == 0:
        return out
    q, order = _sorted(addresses)
    r = np.searchsorted(keys, q, side="left")
    rr = np.minimum(r, len(keys) - 1)
    out[order] = np.where(keys[rr] == q, 0, -1)
    return out


def _last_le6(shi, slo, hi, lo):
    """For each (hi, lo) (flipped int64), the last row whose (high, low) is at most it, or -1."""
    r = np.searchsorted(shi, hi, side="right") - 1
    left = np.searchsorted(shi, hi, side="left")
    # Rows [left, r] share the query's high half: search their low halves (ascending) in steps.
    tie = left <= r
    if tie.any():
        lo_t, hi_b = left[tie], r[tie] + 1  # search [lo_t, hi_b) for the last low <= query
        q = lo[tie]
        base = lo_t - 1
        size = hi_b - lo_t
        step = 1
        while step * 2 <= int(size.max()):
            step *= 2
        while step:
            cand = base + step
            valid = cand < hi_b
            cc = np.where(valid, cand, 0)
            take = valid & (slo[cc] <= q)
            base = np.where(take, cand, base)
            step //= 2
        r[tie] = base
    return r


def _flip6(hi, lo):
    return (hi ^ FLIP64).view(np.int64), (lo ^ FLIP64).view(np.int64)


def _find_ranges6(shi, slo, labels, hi, lo):
    if len(shi) == 0:
        return np.full(len(hi), -1, dtype=np.int32)
    fh, fl = _flip6(hi, lo)
    r = _last_le6(shi, slo, fh, fl)
    return np.where(r >= 0, labels[np.maximum(r, 0)], -1).astype(np.int32)


def _find_keys6(khi, klo, hi, lo):
    if len(khi) == 0:
        return np.full(len(hi), -1, dtype=np.int32)
    fh, fl = _flip6(hi, lo)
    r = _last_le6(khi, klo, fh, fl)
    rr = np.where(r >= 0, r, 0)
    return np.where((r >= 0) & (khi[rr] == fh) & (klo[rr] == fl), 0, -1).astype(np.int32)


# ---- label fields (io.spindex.index.LabelSchema) ----------------------------------------------

def _field_end(label, start, delimiter):
    if label.startswith('"', start):
        i = start + 1
        n = len(label)
        while i < n:
            if label[i] == '"':
                if i + 1 < n and label[i + 1] == '"':
                    i += 2
                    continue
                if i + 1 == n:
                    return -1
                if label.startswith(delimiter, i + 1):
                    return i + 1
                break
            i += 1
    return label.find(delimiter, start)


def _unquoted(f):
    if len(f) >= 2 and f.startswith('"') and f.endswith('"'):
        inner = f[1:-1]
        if '"' not in inner.replace('""', ""):
            return inner.replace('""', '"')
    return f


def split_label(label, delimiter, max_fields):
    """A label's fields as LabelSchema.split: CSV-quote-aware, the last field takes the rest."""
    out = []
    start = 0
    while True:
        if max_fields > 0 and len(out) == max_fields - 1:
            out.append(_unquoted(label[start:]))
            return out
        end = _field_end(label, start, delimiter)
        if end < 0:
            out.append(_unquoted(label[start:]))
            return out
        out.append(_unquoted(label[start:end]))
        start = end + len(delimiter)


def parse_value(kind, s):
    """A field's text as its type (LabelSchema.parse): None for ``\\N``, for an empty non-string,
    and for text that does not parse as the type."""
    import re
    from decimal import Decimal
    if s == "\\N" or (s == "" and kind != "string"):
        return None
    if kind == "string":
        return s
    if kind == "bigint":
        if re.fullmatch(r"-?[0-9]{1,19}", s):
            v = int(s)
            return v if -2 ** 63 <= v < 2 ** 63 else None
        return None
    if kind == "double":
        if re.fullmatch(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?", s):
            v = float(s)
            return None if v in (float("inf"), float("-inf")) else v
        return None
    if kind == "boolean":
        low = s.lower()
        return True if low == "true" else False if low == "false" else None
    if kind == "decimal(20,0)":
        return Decimal(s) if re.fullmatch(r"[0-9]{1,20}", s) else None
    return None


def open_index(path):
    return Index(path)
