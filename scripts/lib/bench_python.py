"""Python side of scripts/bench-python: spindex.open's label against MaxMind's C reader
(maxminddb, MODE_MMAP_EXT, one get per address) and maxminddb-polars, on the same database.

  bench_python.py make WORK [6]      ranges.txt (spindex gen ranges --shape real) -> city.mmdb
                                     (mmdb-writer: every range's CIDRs, a record of four strings);
                                     with 6: ranges6.txt (IPv6 ranges) -> city6.mmdb
  bench_python.py queries6 WORK N    queries6.txt: N IPv6 addresses, each in a range of
                                     ranges6.txt picked at random (seed 7), as RFC 5952 text
  bench_python.py run WORK REPEATS [6]  the timings, ratios with min/median/max over the repeats
                                     (with 6: city6 and queries6.txt, no uint32 row)

WORK holds ranges.txt, city.mmdb, city.spx (built by the CLI from city.mmdb, so both answer from
the same networks) and queries.txt (IPv4 addresses, one a line).
"""
import os
import statistics
import sys
import time


def make(work, family="4"):
    import mmdb_writer
    from netaddr import IPSet, iprange_to_cidrs

    six = family == "6"
    w = mmdb_writer.MMDBWriter(ip_version=6 if six else 4, database_type="Spindex-City-bench",
                               description={"en": "real-shaped ranges of spindex gen ranges"})
    name = "city6.mmdb" if six else "city.mmdb"
    by_label = {}
    with open(os.path.join(work, "ranges6.txt" if six else "ranges.txt"), encoding="utf-8") as f:
        for line in f:
            start, end, label = line.rstrip("\n").split("|", 2)
            by_label.setdefault(label, []).extend(iprange_to_cidrs(start, end))
    for label, cidrs in by_label.items():
        country, region, city, isp = (label.split("|") + ["", "", "", ""])[:4]
        w.insert_network(IPSet(cidrs), {"country": country, "region": region, "city": city,
                                        "isp": isp})
    w.to_db_file(os.path.join(work, name))
    print("%s: %d labels, %d bytes" % (name, len(by_label),
                                       os.path.getsize(os.path.join(work, name))))


def queries6(work, n):
    import ipaddress
    import random

    rng = random.Random(7)
    ranges = []
    with open(os.path.join(work, "ranges6.txt"), encoding="utf-8") as f:
        for line in f:
            start, end = line.split("|", 2)[:2]
            ranges.append((int(ipaddress.IPv6Address(start)), int(ipaddress.IPv6Address(end))))
    with open(os.path.join(work, "queries6.txt"), "w", encoding="utf-8") as out:
        for _ in range(n):
            a, b = ranges[rng.randrange(len(ranges))]
            out.write(str(ipaddress.IPv6Address(rng.randint(a, b))) + "\n")


def timed(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return times, result


def run(work, repeats, family="4"):
    import pyarrow as pa

    import maxminddb
    import spindex

    six = family == "6"
    city = "city6" if six else "city"
    with open(os.path.join(work, "queries6.txt" if six else "queries.txt"),
              encoding="utf-8") as f:
        texts = [t.rstrip("\n") for t in f]
    n = len(texts)
    strings = pa.array(texts)
    idx = spindex.open(os.path.join(work, city + ".spx"))
    from spindex import _parse
    parsed = _parse.parse(strings)
    assert parsed.invalid == 0
    ints = parsed.v4  # uint32, one per text (all parse)
    assert six or len(ints) == n
    reader = maxminddb.open_database(os.path.join(work, city + ".mmdb"), maxminddb.MODE_MMAP_EXT)
    get = reader.get

    rows = {}
    rows["maxminddb get (C, MODE_MMAP_EXT), strings"], mm = timed(
        lambda: [get(t) for t in texts], repeats)
    rows["spindex label, strings"], got = timed(lambda: idx.label(strings), repeats)
    if not six:
        rows["spindex label, uint32"], got_i = timed(lambda: idx.label(ints), repeats)
    rows["spindex parse only (_parse.parse), strings"], _ = timed(
        lambda: _parse.parse(strings), repeats)
    rows["spindex lookup (typed struct), strings"], _ = timed(lambda: idx.lookup(strings), repeats)
    # Same answers: every address MaxMind finds, spindex finds, with the same fields.
    labels = got.to_pylist()
    assert six or got.equals(got_i)
    for t, r, l_ in zip(texts, mm, labels):
        want = None if r is None else "|".join([r["country"], r["region"], r["city"], r["isp"]])
        assert l_ == want, (t, l_, want)
    try:
        import maxminddb_polars
        import polars as pl

        frame = pl.DataFrame({"ip": texts})
        dtype = pl.Struct({"country": pl.String, "region": pl.String, "city": pl.String,
                           "isp": pl.String})
        db = os.path.join(work, city + ".mmdb")
        rows["maxminddb-polars lookup, strings"], _ = timed(
            lambda: frame.select(maxminddb_polars.lookup("ip", db, dtype=dtype)), repeats)
    except ImportError as e:
        print("maxminddb-polars: not installed (%s)" % e)

    base = statistics.median(rows["maxminddb get (C, MODE_MMAP_EXT), strings"])
    print("\n%d addresses, %d repeats; times in ms (min / median / max), ns per address (median),"
          " speed-up over maxminddb's get (median; min-max from the slowest and fastest runs)" % (
              n, repeats))
    print("%-42s %26s %9s %22s" % ("", "ms min/median/max", "ns/addr", "x maxminddb get"))
    for name, times in rows.items():
        med = statistics.median(times)
        print("%-42s %8.1f %8.1f %8.1f %9.0f %6.2f (%5.2f-%5.2f)" % (
            name, min(times) * 1e3, med * 1e3, max(times) * 1e3, med / n * 1e9, base / med,
            base / max(times), base / min(times)))
    if "maxminddb-polars lookup, strings" in rows:
        pol = statistics.median(rows["maxminddb-polars lookup, strings"])
        print("spindex label (strings) over maxminddb-polars: %.2fx (median)"
              % (pol / statistics.median(rows["spindex label, strings"])))

    if six:
        return
    # Open: map + header + every section checksum.
    times, _ = timed(lambda: spindex.open(os.path.join(work, "city.spx")).close(), max(repeats, 5))
    print("spindex.open of city.spx (%d bytes): %.2f ms median (min %.2f, max %.2f)" % (
        os.path.getsize(os.path.join(work, "city.spx")), statistics.median(times) * 1e3,
        min(times) * 1e3, max(times) * 1e3))
    if os.path.exists(os.path.join(work, "big.spx")):
        times, _ = timed(lambda: spindex.open(os.path.join(work, "big.spx")).close(), 8)
        times = times[1:]  # the first maps pages from disk; Java bench-load warms up too
        print("spindex.open of big.spx (%d bytes): %.2f ms median (min %.2f, max %.2f)" % (
            os.path.getsize(os.path.join(work, "big.spx")), statistics.median(times) * 1e3,
            min(times) * 1e3, max(times) * 1e3))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], *sys.argv[3:4])
    elif sys.argv[1] == "queries6":
        queries6(sys.argv[2], int(sys.argv[3]))
    else:
        run(sys.argv[2], int(sys.argv[3]), *sys.argv[4:5])
