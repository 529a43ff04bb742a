# Licensed under the Apache License, Version 2.0: http://www.apache.org/licenses/LICENSE-2.0
"""Which benchmark methods the report shows, in which order, under which label and colour; and
the original articles' own figures, shown next to ours for reference; and the figures of the sql
group, which the tables and the charts both use."""
import os
import statistics

SPINDEX, BASELINE, COMPETITOR = "#1f77b4", "#7f7f7f", "#ff7f0e"


def mb_per_s(size_bytes, seconds):
    """MB/s, or NaN when the time is below the millisecond the scripts record (too fast to time)."""
    return size_bytes / 1e6 / seconds if seconds > 0 else float("nan")


SET_LOAD = [
    ("textNaive", "text, naive (article: `readLine` + `split` + `Long.parseLong`)", BASELINE),
    ("textSpindex", "text, Spindex parser (parse + sort + dedupe)", SPINDEX),
    ("io", "io (`DataInputStream` over `BufferedInputStream`)", SPINDEX),
    ("nio", "nio (`FileChannel` + direct buffer → int[])", SPINDEX),
    ("mapped", "mapped (zero-copy, CRC32C checked)", SPINDEX),
    ("mappedUnchecked", "mapped, unchecked (header only)", SPINDEX),
    ("memcpy", "memcpy reference (`System.arraycopy` into a fresh int[])", BASELINE),
    ("roaringMapped", "RoaringBitmap, mapped `ImmutableRoaringBitmap`", COMPETITOR),
    ("roaringHeap", "RoaringBitmap, deserialized to the heap", COMPETITOR),
]
RANGE_LOAD = [
    ("textSpindex", "Spindex text loader (parse range text)", SPINDEX),
    ("nio", "Spindex nio", SPINDEX),
    ("mapped", "Spindex mapped (CRC32C checked)", SPINDEX),
    ("mappedUnchecked", "Spindex mapped, unchecked", SPINDEX),
    ("ip2regionContent", "ip2region 2.7.0, content mode (`loadContentFromFile` + `newWithBuffer`)", COMPETITOR),
    ("maxmindMemory", "MaxMind DB reader 3.2.0, `MEMORY`", COMPETITOR),
    ("maxmindMapped", "MaxMind DB reader 3.2.0, `MEMORY_MAPPED`", COMPETITOR),
]
SET_LOOKUP = [
    ("heapPrefix", "Spindex heap (nio), /16 prefix table", SPINDEX),
    ("heapNoPrefix", "Spindex heap (nio), no prefix table", SPINDEX),
    ("mappedPrefix", "Spindex mapped, /16 prefix table", SPINDEX),
    ("mappedNoPrefix", "Spindex mapped, no prefix table", SPINDEX),
    ("heapPrefixBatch", "Spindex `containsAll` (16 interleaved searches), heap", SPINDEX),
    ("mappedPrefixBatch", "Spindex `containsAll` (16 interleaved searches), mapped", SPINDEX),
    ("binarySearch", "`Arrays.binarySearch` on the same int[] (baseline)", BASELINE),
    ("roaringMapped", "RoaringBitmap mapped `contains`", COMPETITOR),
    ("roaringHeap", "RoaringBitmap heap `contains`", COMPETITOR),
    ("chase", "memory latency: dependent random reads over an array of the index's size", BASELINE),
]
RANGE_LOOKUP = [
    ("heapPrefix", "Spindex `labelId`, heap, /16 prefix table", SPINDEX),
    ("mappedPrefix", "Spindex `labelId`, mapped, /16 prefix table", SPINDEX),
    ("heapPrefixBatch", "Spindex `labelIds` (16 interleaved searches), heap", SPINDEX),
    ("mappedPrefixBatch", "Spindex `labelIds` (16 interleaved searches), mapped", SPINDEX),
    ("binarySearch", "binary search over int[] starts/ends (baseline)", BASELINE),
    ("labelText", "Spindex `label` (String), heap, prefix table", SPINDEX),
    ("ip2region", "ip2region `search` (String), content mode", COMPETITOR),
    ("maxmindMemory", "MaxMind `get` (Map), `MEMORY`", COMPETITOR),
    ("maxmindMemoryCached", "MaxMind `get` (Map), `MEMORY` + `CHMCache`", COMPETITOR),
    ("maxmindMapped", "MaxMind `get` (Map), `MEMORY_MAPPED`", COMPETITOR),
]
# The city group: MmdbBuildBenchmark and CityLookupBenchmark on a City-sized MaxMind database.
CITY_BUILD = [
    ("spindex", "Spindex `build ranges city.mmdb --field ...` (7 fields)", SPINDEX),
    ("maxmindNetworks", "MaxMind reader alone: `networks(Map.class)` + the 7 values of each record "
                        "(the goal's baseline)", COMPETITOR),
    ("maxmindNetworksCached", "the same with the reader's `CHMCache` (reference)", COMPETITOR),
]
CITY_LOOKUP = [
    ("spindexHeap", "Spindex `labelValues(labelId(ip))`, heap (nio)", SPINDEX),
    ("spindexMapped", "Spindex `labelValues(labelId(ip))`, mapped", SPINDEX),
    ("spindexHeapBatch", "Spindex `labelIds` of 1,024, then `labelValues` of each, heap", SPINDEX),
    ("spindexHeapSearchOnly", "Spindex `labelId(ip)` alone, heap: the range search, no values "
                              "(the floor under the rows above)", SPINDEX),
    ("spindexHeapBatchSearchOnly", "Spindex `labelIds` of 1,024 alone, heap: the batch's search, "
                                   "no values", SPINDEX),
    ("maxmind", "MaxMind `get(ip, Map.class)` + the 7 values (`MEMORY_MAPPED`, no cache)", COMPETITOR),
    ("maxmindCached", "MaxMind `get(ip, Map.class)` + the 7 values, with `CHMCache`", COMPETITOR),
]
# Ipv6LookupBenchmark (group ipv6): each method is run on both query pools (`query` parameter).
IPV6_LOOKUP = [
    ("heapLabelId", "Spindex `labelId(hi, lo)`, heap (nio), `prefix6` tables", SPINDEX),
    ("mappedLabelId", "Spindex `labelId(hi, lo)`, mapped, `prefix6` tables", SPINDEX),
    ("heapLabelIdBatch", "Spindex `labelIds(hi, lo, n, out)` of 1,024 (lock step), heap", SPINDEX),
    ("heapLabelIdNoTables", "Spindex `labelId(hi, lo)`, heap, the same ranges without `prefix6` (/16 table only)", SPINDEX),
    ("heapIpv4LabelId", "(IPv4) Spindex `labelId(int)`, heap, as many real-shaped IPv4 ranges", SPINDEX),
    ("heapLabel", "Spindex `label(hi, lo)` (String), heap (nio)", SPINDEX),
    ("mappedLabel", "Spindex `label(hi, lo)` (String), mapped", SPINDEX),
    ("maxmindMemory", "MaxMind `get` (Map), `MEMORY`, IPv6 database", COMPETITOR),
    ("ip2region", "ip2region 3.1.0 `search(byte[])` (String), content mode, IPv6 xdb", COMPETITOR),
    ("treeSingle", "B+-tree of PlanB's class (`StaticTree6`, written for the benchmark), one at a time", BASELINE),
    ("treeBatch", "the same B+-tree, batches of 1,024 walked level by level", BASELINE),
    ("vectorSingle", "the same B+-tree, a node counted in one 512-bit compare (Vector API), one at a time", BASELINE),
    ("vectorBatch", "the SIMD B+-tree, batches of 1,024 walked level by level", BASELINE),
    ("binarySearch", "binary search over the 128-bit starts (baseline)", BASELINE),
]
IPV6_QUERIES = [("ranges", "weighted by ranges"), ("uniform", "uniform over 2000::/3")]
# DualStackLookupBenchmark: (method prefix, label) of the pairs PREFIX + "V4Only" / PREFIX + "Dual".
DUAL_STACK = [("heap", "heap (nio)"), ("mapped", "mapped")]
IPV6_BUILD = [
    ("ipv6", "IPv6 CIDR lines (`address/len,label`)"),
    ("ipv4", "IPv4 range lines (start, end, label), as many generated (reference)"),
]
EP = [
    ("byteLoopBufferedStreams", "byte loop, `BufferedInputStream` → `BufferedOutputStream` (test 1)", 7034),
    ("channelCopy", "`FileChannel` + 1 MB direct buffer (test 2)", 280),
    ("lineBufferedReader", "line-wise `BufferedReader` → `BufferedWriter` (test 3)", 1602),
    ("lineNioPerByte", "line-wise nio, a `get()` per byte, a write per line (test 4)", 2484),
    ("lineBytes", "line-wise on bytes, Spindex `LineReader` (no Strings)", None),
]
ARTICLE_WRITE = {1: 14368, 2: 7474, 10: 1692, 100: 180, 1000: 28, 8000: 13, 80000: 12}
EP_TRANSFORM = [
    ("channelCopy", "`FileChannel` byte copy, 1 MB direct buffer (baseline)", BASELINE),
    ("lineBufferedReader", "`BufferedReader` → `BufferedWriter` line copy (baseline)", BASELINE),
    ("transformOneThread", "`spindex ep transform`, example spec, 1 thread", SPINDEX),
    ("transformTwoThreads", "`spindex ep transform`, example spec, 2 threads", SPINDEX),
]
# CopyBenchmark's `method` values, in the article's order, with its labels.
COPY = [
    ("stream-byte", "buffered streams, a byte per call (8 KiB buffers)"),
    ("stream-array", "streams, 8 KiB `byte[]` per call"),
    ("channel-8k", "`FileChannel` + 8 KiB direct buffer"),
    ("channel-1m", "`FileChannel` + 1 MiB direct buffer"),
    ("map", "map the source + `FileChannel.write`"),
    ("transfer-to", "`FileChannel.transferTo` (what `stage` uses)"),
    ("transfer-from", "`FileChannel.transferFrom`"),
    ("files-copy", "`Files.copy`"),
]
STAGE_CHECKS = [
    ("size", "`stage --check size` (length only)"),
    ("checksums", "`stage` (default: header + every section's CRC32C on the copy)"),
    ("deep", "`stage --check deep` (everything `verify` checks)"),
]


# The queries of the sql group (scripts/bench-sql; io.spindex.bench.SqlBench says what each is).
SQL_LABELS = {"scan": "scan only: `count(ip)`, `sum(hash(ip))` (no lookup)",
              "spindex": "`spindex_label(ip, 'geo')`, a batch at a time (`mapped`)",
              "spindex-rows": "the same, a row at a time (`spark.spindex.sql.batch=false`)",
              "spindex-udf": "the same lookup as a plain Java UDF (`SpindexUdfs$Label`)",
              "maxmind-udf": "Java UDF around the MaxMind DB reader (`MEMORY_MAPPED`, per JVM), "
                             "records `{label}`",
              "maxmind-city-udf": "the same MaxMind UDF, records shaped like a City database's",
              "spindex-lookup": "`spindex_lookup(ip, 'city')`: a STRUCT of 7 typed fields, index built "
                                "from a City-shaped `.mmdb`",
              "spindex-lookup-rows": "the same, a row at a time (`spark.spindex.sql.batch=false`)",
              "maxmind-city-struct-udf": "Java UDF around the MaxMind reader over that `.mmdb`, "
                                         "the same 7 fields as a STRUCT",
              "struct-only": "no lookup: a STRUCT of the same 7 types from the table's columns "
                             "(Spark's own cost of one)",
              "bucket-join": "join on /16 buckets + `BETWEEN`, narrowest match",
              "scan6": "scan only, a table of as many IPv6 addresses (no lookup)",
              "spindex6": "`spindex_label(ip, 'geo6')` over that table: as many realistic IPv6 "
                          "ranges, addresses drawn by range",
              "between-join": "broadcast `BETWEEN` join (on the first rows only)"}


def sql_stats(run):
    """Per query of the sql group: {method: (rows, [seconds...], lookup-stage rows/s by median,
    by slowest run, by fastest run)}; the lookup stage is the query's time minus the scan-only
    query's median (of the IPv6 table's scan for the IPv6 query; the BETWEEN join runs on so few
    rows that its scan is left in)."""
    runs = {}
    for r in run.csv(os.path.join("sql", "sql.csv")):
        runs.setdefault(r["method"], (int(r["rows"]), []))[1].append(float(r["seconds"]))
    if "scan" not in runs:
        return {}
    scan = statistics.median(runs["scan"][1])
    scan6 = statistics.median(runs["scan6"][1]) if "scan6" in runs else 0
    out = {}
    for m, (n, t) in runs.items():
        # The IPv6 query's lookup stage is its time minus the scan of its own table.
        base = 0 if m in ("scan", "scan6", "between-join") else scan6 if m == "spindex6" else scan

        def rate(sec):
            return n / (sec - base) if sec > base else float("nan")
        out[m] = (n, t, rate(statistics.median(t)), rate(max(t)), rate(min(t)))
    return out
