#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Addresses of a whole batch, as the Java parser (io.spindex.text.AddressText, the LOOKUP forms)
reads them: IPv4 and IPv6 text, optionally double-quoted and padded with blanks, ``[addr]``,
``[addr]:port`` and ``a.b.c.d:port``; IPv4-mapped IPv6 answers as IPv4. Integers are unsigned IPv4
values (an int32 as its unsigned bits, as Spark's INT); 4- or 16-byte binaries are addresses in
network order.

Plain dotted quads, nearly every address of a log, are parsed column-wise from the Arrow buffer:
each string's first 16 bytes are gathered into a fixed-width uint8 matrix and its columns run
through one digit-and-dot state machine in numpy, a few byte operations per column for the whole
batch. IPv6 text of hex digits, colons and an embedded quad (nothing around it) is parsed the same
way, at most 45 bytes a row: one pass over the columns finds the groups, their values and the
``::``, with Ipv6Text's accept and reject decisions (_hex6). ``[addr]``, ``[addr]:port`` and
``a.b.c.d:port`` are unwrapped with whole-matrix operations and their addresses read by the same
two (_wrapped). The rest (quotes, blanks, zone ids, and the rows the column-wise parsers do not
accept or refuse, to say why) is read by a strict scalar parser, once per distinct string.
"""

import re
import socket

import numpy as np
import pyarrow as pa

_QUAD = re.compile(r"(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
                   r"(?:\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])){3}\Z")
_OCTET = re.compile(r"25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9]")
_BLANKS = " \t\r\f\x0b"
_HEX = set("0123456789abcdefABCDEF:.")
MAPPED_HI = 0
MAPPED_LO_TOP = 0x0000FFFF


class Parsed:
    """A batch's addresses: the rows that are IPv4 (``v4_rows``, ``v4`` uint32) and IPv6
    (``v6_rows``, ``hi``/``lo`` uint64), the count that did not parse, and the mask of rows that
    are null or did not parse."""

    __slots__ = ("n", "v4_rows", "v4", "v6_rows", "hi", "lo", "invalid", "null_or_invalid")


def _each_chunk(chunk, m, pool):
    """Calls ``chunk(a)`` for the start ``a`` of each ``_CHUNK`` rows of ``m``: on the pool when
    there is one and the batch is large (numpy releases the GIL in its loops, so the chunks run side
    by side), else one after another."""
    chunks = range(0, m, _CHUNK)
    if pool is None or m < 2 * _CHUNK:
        for a in chunks:
            chunk(a)
    else:
        list(pool.map(chunk, chunks))


def _quad(s):
    m = _QUAD.match(s)
    if m is None or not s.isascii():
        return -1
    a, b, c, d = s.split(".")
    return (int(a) << 24) | (int(b) << 16) | (int(c) << 8) | int(d)


def _port(s):
    return 1 <= len(s) <= 5 and s.isascii() and s.isdigit() and int(s) <= 0xFFFF


def _ipv6(s):
    """IPv6 text strictly as RFC 4291 (no zone id), as (hi, lo), or None."""
    if not s or "%" in s or not s.isascii() or not set(s) <= _HEX:
        return None
    if "." in s:
        last = s.rsplit(":", 1)[-1]
        if "." in s[:len(s) - len(last)] or _quad(last) < 0:
            return None
    try:  # the C library's parser (strict RFC 4291 text; the checks above keep out the rest)
        v = int.from_bytes(socket.inet_pton(socket.AF_INET6, s), "big")
    except (OSError, ValueError):
        return None
    return v >> 64, v & 0xFFFFFFFFFFFFFFFF


def _address(s):
    """A dotted quad or IPv6 text: (4, value) or (6, hi, lo), mapped folded, or None."""
    q = _quad(s)
    if q >= 0:
        return 4, q
    if ":" not in s:
        return None
    six = _ipv6(s)
    if six is None:
        return None
    hi, lo = six
    if hi == 0 and (lo >> 32) == MAPPED_LO_TOP:
        return 4, lo & 0xFFFFFFFF
    return 6, hi, lo


def parse_text(text):
    """One address in the LOOKUP forms: (4, value), (6, hi, lo) or None when it does not parse."""
    s = text.strip(_BLANKS)
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        s = s[1:-1]
    q = _quad(s)
    if q >= 0:
        return 4, q
    if not s:
        return None
    if s[0] == "[":
        close = s.find("]", 1)
        port = close >= 0 and close + 1 < len(s)
        if close < 0 or (port and (s[close + 1] != ":" or not _port(s[close + 2:]))):
            return None
        return _address(s[1:close])
    colons = s.count(":")
    if colons == 0:
        return None
    if colons == 1:
        head, tail = s.split(":")
        a = _quad(head)
        if a >= 0 and _port(tail):
            return 4, a
    return _address(s)


def _arrow(ips):
    """The batch as one pyarrow Array, or a TypeError naming what it is."""
    if isinstance(ips, pa.ChunkedArray):
        return ips.combine_chunks() if ips.num_chunks != 1 else ips.chunk(0)
    if isinstance(ips, pa.Array):
        return ips
    if isinstance(ips, np.ndarray):
        if ips.ndim != 1:  # pyarrow said ArrowInvalid ("only handle 1-dimensional arrays")
            raise TypeError("spindex: addresses as a numpy array of %d dimensions %s are not "
                            "supported (one address an element of a 1-D array: .ravel() makes "
                            "one)" % (ips.ndim, ips.shape))
        if ips.dtype.kind in "iu":
            return pa.array(ips)
        if ips.dtype.kind in "UOS":
            return pa.array(ips, type=pa.string() if ips.dtype.kind != "S" else pa.binary()) \
                if ips.dtype.kind != "O" else _from_objects(list(ips))
        raise TypeError("spindex: addresses as a numpy array of %s are not supported (text, "
                        "integers or bytes)" % ips.dtype)
    if hasattr(ips, "__arrow_c_array__") or hasattr(ips, "__arrow_c_stream__") or \
            type(ips).__module__.startswith(("pandas", "polars")):
        to_arrow = getattr(ips, "to_arrow", None)
        if to_arrow is not None:  # polars Series
            return _arrow(to_arrow())
        return _arrow(pa.array(ips) if not hasattr(ips, "__arrow_c_stream__")
                      else pa.chunked_array(ips))
    if isinstance(ips, (list, tuple)):
        return _from_objects(list(ips))
    raise TypeError("spindex: addresses as %s are not supported (a pyarrow array, a numpy array, a "
                    "pandas or polars Series, or a list)" % type(ips).__name__)


def _from_objects(values):
    if all(v is None or isinstance(v, str) for v in values):
        return pa.array(values, type=pa.string())
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        raise TypeError("spindex: addresses must all be text, all integers or all bytes; found %s"
                        % sorted({type(v).__name__ for v in values if v is not None})) from None


def parse(ips, pool=None):
    """The addresses of a batch (see the module's text); ``pool``, a thread pool, parses the
    dotted quads of a large batch in parallel."""
    arr = _arrow(ips)
    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.cast(t.value_type)
        t = arr.type
    if pa.types.is_string_view(t) if hasattr(pa.types, "is_string_view") else False:
        arr = arr.cast(pa.large_string())
        t = arr.type
    if pa.types.is_binary_view(t) if hasattr(pa.types, "is_binary_view") else False:
        arr = arr.cast(pa.large_binary())
        t = arr.type
    n = len(arr)
    nulls = np.zeros(n, dtype=bool) if arr.null_count == 0 else \
        arr.is_null().to_numpy(zero_copy_only=False)
    kind = np.zeros(n, dtype=np.int8)  # 0 null, -1 invalid, 4, 6
    v4 = np.zeros(n, dtype=np.uint32)
    six = []
    if pa.types.is_null(t):
        pass
    elif pa.types.is_integer(t):
        _integers(arr, t, nulls, kind, v4)
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        six = _strings(arr, nulls, kind, v4, pool)
    elif pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        six = _binaries(arr, nulls, kind, v4)
    else:
        raise TypeError("spindex: addresses of type %s are not supported (string, large_string, "
                        "string_view, integers, binary of 4 or 16 bytes)" % t)
    p = Parsed()
    p.n = n
    p.v4_rows = np.flatnonzero(kind == 4)
    p.v4 = v4[p.v4_rows]
    blocks = [t for t in six if isinstance(t[0], np.ndarray)]  # from _plain6
    single = [t for t in six if not isinstance(t[0], np.ndarray)]  # from the scalar parser
    if single:
        blocks.append((np.fromiter((r for r, _, _ in single), dtype=np.intp, count=len(single)),
                       np.fromiter((h for _, h, _ in single), dtype=np.uint64, count=len(single)),
                       np.fromiter((x for _, _, x in single), dtype=np.uint64, count=len(single))))
    if blocks:
        p.v6_rows = np.concatenate([b[0] for b in blocks]).astype(np.intp)
        p.hi = np.concatenate([b[1] for b in blocks])
        p.lo = np.concatenate([b[2] for b in blocks])
    else:
        p.v6_rows = np.zeros(0, dtype=np.intp)
        p.hi = p.lo = np.zeros(0, dtype=np.uint64)
    invalid = kind < 0
    p.invalid = int(invalid.sum())
    p.null_or_invalid = invalid | nulls
    return p


def _integers(arr, t, nulls, kind, v4):
    a = arr.to_numpy(zero_copy_only=False) if arr.null_count == 0 else \
        arr.fill_null(0).to_numpy(zero_copy_only=False)
    if t == pa.int32():
        v4[:] = a.view(np.uint32)
        ok = ~nulls
    elif pa.types.is_unsigned_integer(t):
        ok = ~nulls & (a <= 0xFFFFFFFF)
        v4[ok] = a[ok]
    else:
        a = a.astype(np.int64)
        ok = ~nulls & (a >= 0) & (a <= 0xFFFFFFFF)
        v4[ok] = a[ok]
    kind[ok] = 4
    kind[~ok & ~nulls] = -1


def _buffers(arr):
    """Offsets (int64, one past each row) and the data bytes of a string or binary array."""
    bufs = arr.buffers()
    wide = pa.types.is_large_string(arr.type) or pa.types.is_large_binary(arr.type)
    off = np.frombuffer(bufs[1], dtype=np.int64 if wide else np.int32,
                        count=len(arr) + 1 + arr.offset)[arr.offset:]
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None and bufs[2].size else \
        np.zeros(0, dtype=np.uint8)
    return off, data


def _windows(data, width):
    """A read-only view of the data (zero past its end) whose row i is the ``width`` bytes from
    byte i: ``view[starts]`` gathers strings into a rows x width matrix."""
    padded = np.zeros(len(data) + width, dtype=np.uint8)
    padded[:len(data)] = data
    return np.lib.stride_tricks.as_strided(padded, shape=(len(data) + 1, width), strides=(1, 1),
                                           writeable=False)


def _shapes():
    """The 81 shapes of a dotted quad of octet lengths 1 to 3, keyed by the 16-bit mask the column
    loop builds (bit 15 - j set where column j is not a dot; the string's end is a dot): shape id
    (0: no quad), the column of each octet's last digit, and the least value of each octet (10 for
    a 2-digit one, 100 for 3: a smaller value had a leading zero)."""
    table = np.zeros(65536, dtype=np.uint8)
    last = np.zeros((82, 4), dtype=np.intp)
    least = np.zeros((82, 4), dtype=np.uint16)
    sid = 0
    for l1 in (1, 2, 3):
        for l2 in (1, 2, 3):
            for l3 in (1, 2, 3):
                for l4 in (1, 2, 3):
                    sid += 1
                    ends, at = [], -1
                    for k, n in enumerate((l1, l2, l3, l4)):
                        at += n + 1
                        ends.append(at)
                        last[sid, k] = at - 1
                        least[sid, k] = 0 if n == 1 else 10 ** (n - 1)
                    mask = 0xFFFF
                    for e in ends:
                        mask &= ~(1 << (15 - e))
                    table[mask] = sid
    return table, last, least


_SHAPES = None
_CHUNK = 1 << 16


def _quads(win, starts, length, pool=None):
    """Dotted quads of the strings at ``starts`` (7 to 15 bytes each) of the window view ``win``
    (_windows: each string's 16 bytes as a row, gathered chunk by chunk): the address of each row and whether the row is a plain quad (four octets 0..255
    of 1 to 3 digits without leading zeros, nothing else). Column-wise, in chunks that stay in
    cache: 9 byte operations a column build the running octet value, the digit count and the mask
    of dots; the mask's shape then says where each octet ends."""
    global _SHAPES
    if _SHAPES is None:
        _SHAPES = _shapes()
    table, last, least = _SHAPES
    m = len(length)
    out = np.zeros(m, dtype=np.uint32)
    ok = np.zeros(m, dtype=bool)

    def chunk(a):
        b = min(m, a + _CHUNK)
        n = b - a
        mat = win[starts[a:b]]  # a copy: rows x 16
        ln = length[a:b]
        mat[np.arange(n), ln] = 46  # the end is the fourth terminator
        cols = np.ascontiguousarray(mat.T)
        for j in range(8, 16):
            np.copyto(cols[j], 0, where=ln < j)  # the next strings' bytes
        hist = np.empty((16, n), dtype=np.uint16)
        cur = np.zeros(n, dtype=np.uint16)
        d = np.empty(n, dtype=np.uint8)
        digit = np.empty(n, dtype=bool)
        notdot = np.empty(n, dtype=bool)
        ndig = np.zeros(n, dtype=np.uint8)
        mask = np.zeros(n, dtype=np.uint16)
        for j in range(16):
            c = cols[j]
            np.subtract(c, 48, out=d)
            np.less(d, 10, out=digit)
            np.not_equal(c, 46, out=notdot)
            ndig += digit
            mask <<= 1
            mask |= notdot
            h = hist[j]
            np.multiply(cur, 10, out=h)
            h += d
            np.multiply(h, notdot, out=cur)
        sid = table[mask]
        good = (sid > 0) & (ndig == ln - 3)
        flat = hist.ravel()
        addr = np.zeros(n, dtype=np.uint32)
        idx = np.arange(n)
        for k in range(4):
            octet = flat[last[sid, k] * n + idx]
            good &= (octet <= 255) & (octet >= least[sid, k])
            addr <<= 8
            addr |= octet.astype(np.uint32) & 0xFF
        out[a:b] = addr
        ok[a:b] = good

    _each_chunk(chunk, m, pool)
    return out, ok




_WIDTH6 = 46  # IPv6 text is at most 45 bytes (six groups and a dotted quad)


def _groups6(mat, ln):
    """The column pass of _hex6 over ``mat`` (rows x width bytes, row i's text its first ln[i]):
    (hi, lo, ok, plain, dot): the address of each row that is IPv6 text of hex digits and colons,
    whether it is, whether the row is of hex digits and colons only (its verdict is then final),
    and whether it has a dot (and is of hex digits, colons and dots only)."""
    n, width = mat.shape
    cols = np.ascontiguousarray(mat.T)
    ln8 = ln.astype(np.uint8)
    words = np.zeros((9, n), dtype=np.uint16)  # each group's value at its number (8: too many)
    flat = words.ravel()
    cur = np.zeros(n, dtype=np.uint16)
    ndig = np.zeros(n, dtype=np.uint8)
    maxdig = np.zeros(n, dtype=np.uint8)
    count = np.zeros(n, dtype=np.uint8)
    npair = np.zeros(n, dtype=np.uint8)
    head = np.zeros(n, dtype=np.uint8)
    other = np.zeros(n, dtype=bool)
    dot = np.zeros(n, dtype=bool)
    anyc = np.zeros(n, dtype=bool)
    prevx = np.zeros(n, dtype=bool)
    prevc = np.zeros(n, dtype=bool)
    isx = np.empty(n, dtype=bool)
    isc = np.empty(n, dtype=bool)
    inside = np.empty(n, dtype=bool)
    t = np.empty(n, dtype=bool)
    e = np.empty(n, dtype=bool)
    d = np.empty(n, dtype=np.uint8)
    u = np.empty(n, dtype=np.uint8)
    for j in range(width):
        x = cols[j]
        np.greater(ln8, j, out=inside)
        np.subtract(x, 48, out=d)
        np.bitwise_or(x, 32, out=u)
        u -= 97
        np.less(u, 6, out=isx)  # a-f, A-F
        u += 10
        np.less(d, 10, out=t)
        np.minimum(u, d, out=u)  # the digit's value (a digit's u, a letter's d: above 16)
        isx |= t
        isx &= inside
        np.greater(prevx, isx, out=e)  # a group ended at j - 1
        ends = np.flatnonzero(e)
        if ends.size:
            flat[np.minimum(count[ends], 8).astype(np.intp) * n + ends] = cur[ends]
            count += e.view(np.uint8)
        cur <<= 4
        cur |= u
        cur *= isx
        ndig += 1
        ndig *= isx.view(np.uint8)
        np.maximum(maxdig, ndig, out=maxdig)
        np.equal(x, 58, out=isc)
        isc &= inside
        anyc |= isc
        np.equal(x, 46, out=t)
        t &= inside
        dot |= t
        t |= isx
        t |= isc
        np.greater(inside, t, out=t)
        other |= t
        np.logical_and(isc, prevc, out=e)  # a "::"
        if e.any():
            e8 = e.view(np.uint8)
            npair += e8
            np.multiply(count, e8, out=d)
            head += d  # the groups before the "::" (more than one "::": refused below)
        prevx, isx = isx, prevx
        prevc, isc = isc, prevc
    rows = np.arange(n)
    lead = (mat[:, 0] == 58) & (mat[:, 1] != 58)  # a lone leading colon
    trail = (mat[rows, ln - 1] == 58) & (mat[rows, np.maximum(ln - 2, 0)] != 58)  # trailing
    plain = ~other & ~dot & anyc
    ok = plain & (maxdig <= 4) & (npair <= 1) & ~lead & ~trail
    ok &= np.where(npair == 0, count == 8, count <= 7)
    # Groups before the "::" stay where they are, those after it go to the right end.
    head[npair == 0] = 8
    tail = count.astype(np.intp) - head
    hi = np.zeros(n, dtype=np.uint64)
    lo = np.zeros(n, dtype=np.uint64)
    for p in range(8):
        src = np.where(p < head, p, p - 8 + count.astype(np.intp))
        w = flat[np.clip(src, 0, 8) * n + rows].astype(np.uint64)
        w *= (p < head) | (p >= 8 - tail)
        if p < 4:
            hi |= w << np.uint64(48 - 16 * p)
        else:
            lo |= w << np.uint64(112 - 16 * p)
    return hi, lo, ok, plain, dot & ~other & anyc


def _hex6(win, starts, length, pool=None):
    """IPv6 text of the strings at ``starts`` (2 to 45 bytes each) of the window view ``win``
    (_windows, 46 bytes wide), column-wise as Ipv6Text.parse reads it: (hi, lo, state) with state
    1 where the row is IPv6 text (groups of 1 to 4 hex digits, at most one ``::`` standing for one
    group or more, an embedded dotted quad last), -1 where it is not and the scalar parser would
    say so too (hex digits and colons only), 0 where this does not decide (other bytes, or a dot
    in a row it does not accept: an ``a.b.c.d:port`` say). Each chunk's bytes are gathered into a
    matrix and its columns run through one pass of byte operations (_groups6); a row with a dot
    is read again with its quad (_quads) replaced by "0:0", two groups, as Ipv6Text counts it."""
    m = len(length)
    hi = np.zeros(m, dtype=np.uint64)
    lo = np.zeros(m, dtype=np.uint64)
    state = np.zeros(m, dtype=np.int8)
    width = int(length.max()) + 1 if m else 1
    col = np.arange(width)

    def chunk(a):
        b = min(m, a + _CHUNK)
        st, ln = starts[a:b], length[a:b]
        mat = win[st, :width]  # a copy: rows x width
        h, l_, ok, plain, dot = _groups6(mat, ln)
        s = np.zeros(b - a, dtype=np.int8)
        s[ok] = 1
        s[plain & ~ok] = -1
        drows = np.flatnonzero(dot)
        if drows.size:
            sub = mat[drows]
            inside = col[None, :] < ln[drows][:, None]
            lc = np.where((sub == 58) & inside, col, -1).max(axis=1)
            first_dot = np.where((sub == 46) & inside, col, width).min(axis=1)
            qlen = ln[drows] - lc - 1
            cand = (lc >= 0) & (first_dot > lc) & (qlen >= 7) & (qlen <= 15)
            qv, qok = _quads(win, (st[drows] + lc + 1)[cand], qlen[cand])
            good = np.flatnonzero(cand)[qok]
            if good.size:
                g = drows[good]
                sub = mat[g]
                gl = lc[good]
                k = np.arange(g.size)
                sub[k, gl + 1] = 48  # "0:0"
                sub[k, gl + 2] = 58
                sub[k, gl + 3] = 48
                h2, l2, ok2, _, _ = _groups6(sub, gl + 4)
                h[g] = h2
                l_[g] = l2 | qv[qok].astype(np.uint64)
                s[g[ok2]] = 1  # the others: the scalar parser says why
        hi[a:b] = h
        lo[a:b] = l_
        state[a:b] = s

    _each_chunk(chunk, m, pool)
    return hi, lo, state


def _strings(arr, nulls, kind, v4, pool=None):
    off, data = _buffers(arr)
    starts = off[:-1]
    length = off[1:] - starts
    fast = np.flatnonzero(~nulls & (length >= 7) & (length <= 15))
    six = []
    rest_mask = ~nulls
    if fast.size:
        values, ok = _quads(_windows(data, 16), starts[fast].astype(np.intp),
                            length[fast].astype(np.intp), pool)
        rows = fast[ok]
        v4[rows] = values[ok]
        kind[rows] = 4
        rest_mask[rows] = False
    rest = np.flatnonzero(rest_mask)
    if rest.size > 64:
        rest = _plain6(data, starts, length, rest, kind, v4, six, pool)
    if rest.size > 64:
        rest = _wrapped(data, starts, length, rest, kind, v4, six)
    if rest.size:
        texts = arr.take(pa.array(rest)).to_pylist()
        memo = {}
        for r, s in zip(rest.tolist(), texts):
            a = memo.get(s, False)
            if a is False:
                a = memo[s] = parse_text(s)
            if a is None:
                kind[r] = -1
            elif a[0] == 4:
                kind[r] = 4
                v4[r] = a[1]
            else:
                kind[r] = 6
                six.append((r, a[1], a[2]))
    return six


def _plain6(data, starts, length, rest, kind, v4, six, pool=None):
    """Of the rows ``rest``, the IPv6 text of hex digits, colons and an embedded quad (nothing
    around it) read column-wise (_hex6) into numpy; returns the rows left for the scalar parser
    (brackets, ports, quotes, blanks, zone ids, other text, and the rows _hex6 does not decide)."""
    ln = length[rest]
    fit = (ln >= 2) & (ln <= _WIDTH6 - 1)
    rows = rest[fit]
    if not rows.size:
        return rest
    hi, lo, state = _hex6(_windows(data, _WIDTH6), starts[rows].astype(np.intp),
                          ln[fit].astype(np.intp), pool)
    kind[rows[state < 0]] = -1
    good = state > 0
    mapped = good & (hi == 0) & ((lo >> np.uint64(32)) == MAPPED_LO_TOP)
    kind[rows[mapped]] = 4
    v4[rows[mapped]] = (lo[mapped] & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    rest6 = good & ~mapped
    six.append((rows[rest6], hi[rest6], lo[rest6]))
    kind[rows[rest6]] = 6
    left = np.ones(len(rest), dtype=bool)
    left[np.flatnonzero(fit)[state != 0]] = False
    return rest[left]


def _wrapped(data, starts, length, rest, kind, v4, six):
    """Of the rows ``rest``, those of the forms ``[addr]``, ``[addr]:port`` and ``a.b.c.d:port``
    (nothing else around them) whose address the column-wise parsers accept (_quads, _hex6): the
    brackets, the colon and the port (1 to 5 digits, at most 65535) found with whole-matrix
    operations, chunk by chunk; returns the rows left for the scalar parser (it also says why a row
    is refused: this only accepts)."""
    ln = length[rest]
    fit = (ln >= 3) & (ln <= 54)
    cand = rest[fit]
    if not cand.size:
        return rest
    width = 55
    win = _windows(data, width)
    win6 = _windows(data, _WIDTH6)
    col = np.arange(width)
    done = np.zeros(len(cand), dtype=bool)
    for a in range(0, len(cand), _CHUNK):
        rows = cand[a:a + _CHUNK]
        n = len(rows)
        st = starts[rows].astype(np.intp)
        L = length[rows].astype(np.intp)
        mat = win[st]
        inside = col[None, :] < L[:, None]
        colon = (mat == 58) & inside
        brk = mat[:, 0] == 91
        close = np.where((mat == 93) & inside, col, width).min(axis=1)  # the first ']'
        lastc = np.where(colon, col, -1).max(axis=1)
        one = colon.sum(axis=1) == 1
        r = np.arange(n)
        after = L - close - 1
        ok = np.where(brk, (close < L) & ((after == 0) | (mat[r, np.minimum(close + 1, width - 1)]
                                                          == 58)), one & ~brk)
        pstart = np.where(brk, close + 2, lastc + 1)
        plen = np.where(brk, np.maximum(after - 1, 0), L - lastc - 1)
        has_port = ~brk | (after > 0)
        ok &= ~has_port | ((plen >= 1) & (plen <= 5))
        inport = (col[None, :] >= pstart[:, None]) & inside
        ok &= ~(inport & ((mat - 48) >= 10)).any(axis=1)
        port = np.zeros(n, dtype=np.int64)
        for k in range(5):
            d = mat[r, np.minimum(pstart + k, width - 1)].astype(np.int64) - 48
            port = np.where(k < plen, port * 10 + d, port)
        ok &= ~has_port | (port <= 0xFFFF)
        istart = st + brk
        ilen = np.where(brk, close - 1, lastc)
        # The address: a dotted quad (7 to 15 bytes, no colon) or, in brackets, IPv6 text.
        q = np.flatnonzero(ok & (ilen >= 7) & (ilen <= 15))
        if q.size:
            qv, qok = _quads(win, istart[q], ilen[q])
            g = q[qok]
            kind[rows[g]] = 4
            v4[rows[g]] = qv[qok]
            done[a + g] = True
        h = np.flatnonzero(ok & brk & (ilen >= 2) & (ilen <= _WIDTH6 - 1) & ~done[a:a + n])
        if h.size:
            hi, lo, state = _hex6(win6, istart[h], ilen[h])
            good = state > 0
            mapped = good & (hi == 0) & ((lo >> np.uint64(32)) == MAPPED_LO_TOP)
            g = rows[h[mapped]]
            kind[g] = 4
            v4[g] = (lo[mapped] & np.uint64(0xFFFFFFFF)).astype(np.uint32)
            s6 = good & ~mapped
            g = rows[h[s6]]
            kind[g] = 6
            six.append((g, hi[s6], lo[s6]))
            done[a + h[good]] = True
    left = np.ones(len(rest), dtype=bool)
    left[np.flatnonzero(fit)[done]] = False
    return rest[left]


def _binaries(arr, nulls, kind, v4):
    six = []
    values = arr.to_pylist()
    for r, b in enumerate(values):
        if b is None:
            continue
        if len(b) == 4:
            kind[r] = 4
            v4[r] = int.from_bytes(b, "big")
        elif len(b) == 16:
            v = int.from_bytes(b, "big")
            hi, lo = v >> 64, v & 0xFFFFFFFFFFFFFFFF
            if hi == 0 and (lo >> 32) == MAPPED_LO_TOP:
                kind[r] = 4
                v4[r] = lo & 0xFFFFFFFF
            else:
                kind[r] = 6
                six.append((r, hi, lo))
        else:
            kind[r] = -1
    return six
