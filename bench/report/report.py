#!/usr/bin/env python3
# Licensed under the Apache License, Version 2.0: http://www.apache.org/licenses/LICENSE-2.0
"""Turns the JMH JSON written by scripts/bench into the tables and charts of BENCHMARKS.md.

Tables replace the blocks between '<!-- BEGIN generated:NAME -->' and '<!-- END generated:NAME -->'
in the markdown file; everything else in it is prose kept as written. Every ratio is between two
results of the same run; its error bar comes from the JMH 99.9% confidence intervals of both.
"""
import argparse
import csv
import glob
import json
import math
import os
import re
import statistics

import charts
from specs import SQL_LABELS, mb_per_s, sql_stats  # noqa: E402
from specs import ARTICLE_WRITE, CITY_BUILD, CITY_LOOKUP, COPY, DUAL_STACK, EP, EP_TRANSFORM
from specs import IPV6_BUILD, IPV6_LOOKUP
from specs import IPV6_QUERIES, RANGE_LOAD, RANGE_LOOKUP, SET_LOAD, SET_LOOKUP, STAGE_CHECKS

PKG = "io.spindex.bench."


class Result:
    def __init__(self, entry):
        cls, self.method = entry["benchmark"][len(PKG):].rsplit(".", 1)
        self.cls = cls
        self.params = entry.get("params", {})
        m = entry["primaryMetric"]
        self.score = float(m["score"])
        self.err = to_float(m["scoreError"])
        self.unit = m["scoreUnit"]
        self.secondary = {k: float(v["score"]) for k, v in entry.get("secondaryMetrics", {}).items()}
        # Per-iteration values of each secondary metric (all forks), for paired ratios.
        self.secondary_raw = {k: [x for fork in v.get("rawData", []) for x in fork]
                              for k, v in entry.get("secondaryMetrics", {}).items()}
        self.iterations = entry["measurementIterations"]


def to_float(v):
    try:
        f = float(v)
        return f if math.isfinite(f) else float("nan")
    except (TypeError, ValueError):
        return float("nan")


class Run:
    def __init__(self, results_dir):
        self.dir = results_dir
        self.entries = []
        self.jvm = None
        for path in sorted(glob.glob(os.path.join(results_dir, "*.json"))):
            with open(path, encoding="utf-8") as f:
                for e in json.load(f):
                    self.entries.append(Result(e))
                    self.jvm = self.jvm or (e.get("jdkVersion"), e.get("vmName"), e.get("vmVersion"))
        self.machine = read_properties(os.path.join(results_dir, "machine.properties"))

    def find(self, cls, bench_method, **params):
        """The result of cls.bench_method (with these parameter values, when given), or None."""
        for r in self.entries:
            if r.cls == cls and r.method == bench_method and all(
                    r.params.get(k) == v for k, v in params.items()):
                return r
        return None

    def get(self, cls, method):
        return self.find(cls, method)

    def of_class(self, cls):
        return [r for r in self.entries if r.cls == cls]

    def csv(self, name):
        """Rows (dicts) of a CSV file a script group wrote into the results directory, or []."""
        path = os.path.join(self.dir, name)
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))

    def param(self, cls, name):
        for r in self.of_class(cls):
            if name in r.params:
                return r.params[name]
        return None


def read_properties(path):
    props = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    props[k] = v
    return props


def num(x, digits=3):
    """A number with about `digits` significant figures and thousands separators."""
    if x is None or not math.isfinite(x):
        return "n/a"
    if x == 0:
        return "0"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    return f"{x:,.{decimals}f}"


def pm(value, err, scale=1.0):
    if value is None:
        return "n/a"
    e = "" if not math.isfinite(err) else f" ± {num(err * scale, 2)}"
    return f"{num(value * scale)}{e}"


def ratio(a, b):
    """a / b with its error bar, from the scores and confidence half-widths of both."""
    if a is None or b is None or b.score == 0:
        return None, float("nan")
    r = a.score / b.score
    rel = math.sqrt(rel_err(a) ** 2 + rel_err(b) ** 2)
    return r, r * rel


def rel_err(r):
    return r.err / r.score if math.isfinite(r.err) and r.score else float("nan")


def times(a, b):
    r, e = ratio(a, b)
    return "n/a" if r is None else f"{pm(r, e)}×"


# Student's t for a two-sided 99.9% interval (JMH's error bars), by degrees of freedom.
T_999 = {1: 636.6, 2: 31.60, 3: 12.92, 4: 8.610, 5: 6.869, 6: 5.959, 7: 5.408, 8: 5.041,
         9: 4.781, 10: 4.587, 12: 4.318, 15: 4.073, 20: 3.850, 30: 3.646, 60: 3.460}


def t_999(df):
    return T_999[max(k for k in T_999 if k <= df)] if df < 120 else 3.291


def paired_ratio(r, num, den):
    """Mean and 99.9% half-width of num/den over the iterations of one result's secondary
    metrics (both measured in the same iterations, so the load they shared cancels)."""
    if r is None or num not in r.secondary_raw or den not in r.secondary_raw:
        return None, float("nan")
    xs = [a / b for a, b in zip(r.secondary_raw[num], r.secondary_raw[den]) if b]
    if not xs:
        return None, float("nan")
    mean = sum(xs) / len(xs)
    if len(xs) < 2:
        return mean, float("nan")
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    return mean, t_999(len(xs) - 1) * sd / math.sqrt(len(xs))


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def measured(run, cls, spec):
    """(result, *rest) for each (method, *rest) of `spec` that the run measured, in spec order."""
    for m, *rest in spec:
        r = run.get(cls, m)
        if r:
            yield (r, *rest)


def set_load(run):
    cls = "SetLoadBenchmark"
    memcpy, nio = run.get(cls, "memcpy"), run.get(cls, "nio")
    rows = [[label, pm(r.score, r.err), times(r, memcpy), times(r, nio)]
            for r, label, _ in measured(run, cls, SET_LOAD)]
    return table(["loader", "ms per load", "÷ memcpy", "÷ nio"], rows)


def range_load(run):
    cls = "RangeLoadBenchmark"
    nio, mapped = run.get(cls, "nio"), run.get(cls, "mapped")
    rows = [[label, pm(r.score, r.err), times(r, nio), times(r, mapped)]
            for r, label, _ in measured(run, cls, RANGE_LOAD)]
    return table(["open until ready", "ms", "÷ Spindex nio", "÷ Spindex mapped"], rows)


def lookups(run, cls, spec):
    base = run.get(cls, "binarySearch")
    rows = [[label, pm(r.score, r.err, 1e-6), times(r, base)]
            for r, label, _ in measured(run, cls, spec)]
    return table(["lookup", "M lookups/s", "× binary search"], rows)


SHAPES = [("uniform", "uniform", "uniform ranges, uniform addresses"),
          ("uniform", "ranges", "uniform ranges, addresses by range"),
          ("real", "uniform", "real-shaped ranges, uniform addresses"),
          ("real", "ranges", "real-shaped ranges, addresses by range")]


def shape_results(run, shape, query):
    """{method: result} of ShapeLookupBenchmark for one shape and query set."""
    return {r.method: r for r in run.of_class("ShapeLookupBenchmark")
            if r.params.get("shape") == shape and r.params.get("query") == query}


def search_anchors(run):
    """ShapeLookupBenchmark's searches beside a B+-tree of PlanB's class, a binary search,
    ip2region, and the floors (the answers read without a search, memory latency)."""
    if not run.get("ShapeLookupBenchmark", "treeBatch"):
        return "(no results in this run: scripts/bench --only shapes)"
    rows = []
    for shape, query, label in SHAPES:
        g = shape_results(run, shape, query)

        def m(name):
            r = g.get(name)
            return pm(r.score, r.err, 1e-6) if r else "n/a"
        rows.append([label, m("heapSingle"), m("heapBatch"), m("mappedSingle"), m("mappedBatch"),
                     m("treeSingle"), m("treeBatch"), m("vectorSingle"), m("vectorBatch"),
                     m("binarySearch"), m("ip2region"),
                     m("readAnswer"), m("chase"), times(g.get("heapBatch"), g.get("ip2region")),
                     times(g.get("mappedBatch"), g.get("ip2region")),
                     times(g.get("heapSingle"), g.get("ip2region")),
                     times(g.get("treeBatch"), g.get("heapBatch")),
                     times(g.get("vectorBatch"), g.get("heapBatch"))])
    return table(["ranges, queries", "heap single", "heap batch", "mapped single", "mapped batch",
                  "B+-tree single", "B+-tree batch", "SIMD B+-tree single", "SIMD B+-tree batch",
                  "binary search", "ip2region",
                  "answers read, no search", "memory latency", "heap batch ÷ ip2region",
                  "mapped batch ÷ ip2region", "heap single ÷ ip2region", "B+-tree ÷ heap batch",
                  "SIMD B+-tree ÷ heap batch"],
                 rows)


def shape_lookup(run):
    if not run.of_class("ShapeLookupBenchmark"):
        return "(no results in this run: scripts/bench --only shapes)"
    rows = []
    for shape, query, label in SHAPES:
        g = shape_results(run, shape, query)

        def m(name):
            r = g.get(name)
            return pm(r.score, r.err, 1e-6) if r else "n/a"
        chase = g.get("chase")
        rows.append([label, m("heapSingle"), m("heapBatch"), times(g.get("heapBatch"), g.get("heapSingle")),
                     m("mappedSingle"), m("mappedBatch"), m("heapLabelText"), m("heapBatchLabelText"),
                     m("ip2region"), m("maxmindMemory"),
                     f"{1e9 / chase.score:.1f}" if chase else "n/a"])
    out = table(["ranges, queries", "heap single", "heap batch", "batch ÷ single", "mapped single",
                 "mapped batch", "label text, single", "label text, batch", "ip2region",
                 "MaxMind MEMORY", "memory latency ns"], rows)
    rows = []
    for shape, query, label in SHAPES:
        g = shape_results(run, shape, query)
        rows.append([label, times(g.get("heapLabelText"), g.get("ip2region")),
                     times(g.get("heapBatchLabelText"), g.get("ip2region")),
                     times(g.get("heapLabelText"), g.get("maxmindMemory")),
                     times(g.get("heapBatchLabelText"), g.get("maxmindMemory")),
                     times(g.get("heapBatchLabelText"), g.get("heapLabelText"))])
    out += "\n\n" + table(["label text, one thread", "single ÷ ip2region", "batch ÷ ip2region",
                            "single ÷ MaxMind", "batch ÷ MaxMind", "batch ÷ single"], rows)
    rows = []
    for shape, query, label in SHAPES:
        g = shape_results(run, shape, query)
        if not g.get("heapSingleNoSubTables"):
            continue

        def m(name):
            r = g.get(name)
            return pm(r.score, r.err, 1e-6) if r else "n/a"
        rows.append([label, m("heapSingleNoSubTables"), m("heapSingle"),
                     times(g.get("heapSingle"), g.get("heapSingleNoSubTables")),
                     m("heapBatchNoSubTables"), m("heapBatch"),
                     times(g.get("heapBatch"), g.get("heapBatchNoSubTables"))])
    if rows:
        out += "\n\n" + table(["label ids, heap, M/s", "single, /16 table only", "single, with /24 sub-tables",
                                "speed-up", "batch, /16 table only", "batch, with /24 sub-tables",
                                "speed-up"], rows)
    return out


def build(run):
    cls = "BuildBenchmark"
    naive = run.get(cls, "naive")
    rows = []
    for m, label in [("spindex", "Spindex `IpSetBuilder` (all cores)"),
                     ("naive", "naive: `readLine` + `split` + `Arrays.sort` + dedupe + `DataOutputStream`")]:
        r = run.get(cls, m)
        if r:
            heap = r.secondary.get("peak.heap")
            speed = times(naive, r) if m == "spindex" else "1×"
            rows.append([label, pm(r.score, r.err, 1e-3), speed, num(heap) if heap else "n/a"])
    return table(["build", "s per build", "speed-up vs naive", "peak heap MB"], rows)


def city(run):
    b, lk = "MmdbBuildBenchmark", "CityLookupBenchmark"
    if not run.of_class(b) and not run.of_class(lk):
        return "(no City database results in this run: scripts/bench --only city)"
    out = []
    base = run.get(b, "maxmindNetworks")
    rows = [[label, pm(r.score, r.err, 1e-3), times(r, base)]
            for r, label, _ in measured(run, b, CITY_BUILD)]
    if rows:
        out.append(table(["build from the City-sized database", "s per build",
                          "÷ MaxMind `networks()` alone"], rows))
    s = run.get(b, "spindex") or run.get(b, "maxmindNetworks")
    if s:
        d = s.secondary
        facts = [["generated ranges", f"{int(s.params.get('ranges', 0)):,}"],
                 ["networks (`networks()` yields)", f"{d.get('data.networks', 0):,.0f}"],
                 ["distinct records", f"{d.get('data.records', 0):,.0f}"],
                 [".mmdb file", f"{num(d.get('data.mmdb'))} MB"]]
        if "data.index" in d:
            facts += [["Spindex index (7 typed fields)", f"{num(d['data.index'])} MB"],
                      ["index ÷ .mmdb", f"{d['data.index/mmdb']:.3f}×"]]
        out.append(table(["the database", ""], facts))
    mm, mc = run.get(lk, "maxmind"), run.get(lk, "maxmindCached")
    rows = [[label, pm(r.score, r.err, 1e-6), times(r, mm), times(r, mc)]
            for r, label, _ in measured(run, lk, CITY_LOOKUP)]
    if rows:
        out.append(table(["7 typed fields of an address, one thread", "M lookups/s",
                          "× MaxMind", "× MaxMind + `CHMCache`"], rows))
    return "\n\n".join(out)


def ipv6_lookup(run):
    cls = "Ipv6LookupBenchmark"
    if not run.of_class(cls):
        return "(no IPv6 results in this run: scripts/bench --only ipv6)"
    base = {q: run.find(cls, "maxmindMemory", query=q) for q, _ in IPV6_QUERIES}
    rows = []
    for m, label, _ in IPV6_LOOKUP:
        cells = [label]
        for q, _ in IPV6_QUERIES:
            r = run.find(cls, m, query=q)
            cells += [pm(r.score, r.err, 1e-6) if r else "n/a", times(r, base[q])]
        rows.append(cells)
    header = ["IPv6 lookup"]
    for _, qlabel in IPV6_QUERIES:
        header += [f"{qlabel}: M lookups/s", "× MaxMind"]
    out = table(header, rows)
    paired = [(q, run.find(cls, "heapPaired", query=q)) for q, _ in IPV6_QUERIES]
    prow = []
    for q, r in paired:
        w, we = paired_ratio(r, "mappedNanos", "rowsNanos")
        t, te = paired_ratio(r, "noTablesNanos", "rowsNanos")
        v, ve = paired_ratio(r, "rowsNanos", "ipv4Nanos")
        if w is not None:
            prow.append([dict(IPV6_QUERIES)[q], f"{pm(w, we)}×", f"{pm(t, te)}×",
                         f"{pm(v, ve)}×"])
    if prow:
        out += "\n\n" + table(["paired, interleaved (heap, `heapPaired`)",
                                "heap rows: throughput ÷ mapped's (in place)",
                                "prefix6 tables (heap): throughput ÷ the /16 table's",
                                "IPv6 hit time (rows) ÷ IPv4 hit time"], prow)
    return out


def dual_stack(run):
    cls = "DualStackLookupBenchmark"
    if not run.of_class(cls):
        return "(no dual-stack results in this run: scripts/bench --only ipv6)"
    rows = []
    for prefix, label in DUAL_STACK:
        v4, dual = run.get(cls, prefix + "V4Only"), run.get(cls, prefix + "Dual")
        p, e = paired_ratio(run.get(cls, prefix + "Paired"), "v4OnlyNanos", "dualNanos")
        rows.append([f"`labelId(int)`, {label}", pm(v4.score, v4.err, 1e-6) if v4 else "n/a",
                     pm(dual.score, dual.err, 1e-6) if dual else "n/a", times(dual, v4),
                     "n/a" if p is None else f"{pm(p, e)}×"])
    return table(["IPv4 lookup", "v4-only index: M lookups/s", "dual-stack index: M lookups/s",
                  "dual ÷ v4-only (separate runs)", "dual ÷ v4-only (paired, interleaved)"], rows)


def ipv6_build(run):
    cls = "Ipv6BuildBenchmark"
    if not run.of_class(cls):
        return "(no IPv6 build results in this run: scripts/bench --only ipv6)"
    lines = int(run.param(cls, "lines") or 0)
    v4 = run.get(cls, "ipv4")
    rows = []
    for m, label in IPV6_BUILD:
        r = run.get(cls, m)
        if r:
            heap = r.secondary.get("peak.heap")
            rows.append([label, f"{lines:,}", pm(r.score, r.err, 1e-3), num(lines / (r.score / 1e3) / 1e6),
                         num(heap) if heap else "n/a", times(r, v4)])
    return table(["build (`IpRangeBuilder`, prefix table)", "lines", "s per build", "M lines/s",
                  "peak heap MB", "time ÷ IPv4 build"], rows)


def buffers(run):
    cls = "BufferSizeBenchmark"
    rows = []
    w1, r1 = None, None
    sizes = sorted({int(r.params["bufferBytes"]) for r in run.of_class(cls)})
    for size in sizes:
        w = run.find(cls, "write", bufferBytes=str(size))
        r = run.find(cls, "read", bufferBytes=str(size))
        w1, r1 = w1 or w, r1 or r
        rows.append([f"{size:,}", pm(w.score, w.err) if w else "n/a", times(w1, w),
                     pm(r.score, r.err) if r else "n/a", times(r1, r),
                     f"{ARTICLE_WRITE[size]:,}" if size in ARTICLE_WRITE else ""])
    return table(["buffer bytes", "write ms", "write speed-up vs 1 B", "read ms",
                  "read speed-up vs 1 B", "article write ms (10 MB, its machine)"], rows)


def streams(run):
    cls = "StreamStrategyBenchmark"
    spec = [("ByteAtATime", "one call per byte (example 1)", "14,092", "5,003"),
            ("BufferedStream", "`Buffered*Stream`, 8 KB, one call per byte (example 3)", "102", "94"),
            ("AllAtOnce", "whole file in one call (example 4)", "15", "3")]
    rows = []
    for suffix, label, aw, ar in spec:
        w, r = run.get(cls, "write" + suffix), run.get(cls, "read" + suffix)
        rows.append([label, pm(w.score, w.err) if w else "n/a", pm(r.score, r.err) if r else "n/a",
                     aw, ar])
    return table(["strategy", "write ms", "read ms", "article write ms", "article read ms"], rows)


def ep(run):
    cls = "EpFileBenchmark"
    mb = float(run.param(cls, "mb") or "nan")
    base = run.get(cls, "lineBufferedReader")
    rows = [[label, pm(r.score, r.err), num(mb / (r.score / 1e3)), times(base, r),
             f"{article:,}" if article else ""] for r, label, article in measured(run, cls, EP)]
    return table(["copy strategy", "ms", "MB/s", "speed-up vs `BufferedReader`",
                  "article ms (200 MB, its machine)"], rows)


def ep_transform(run):
    cls = "EpFileBenchmark"
    mb = float(run.param(cls, "mb") or "nan")
    chan, rdr = run.get(cls, "channelCopy"), run.get(cls, "lineBufferedReader")
    rows = []
    for r, label, _ in measured(run, cls, EP_TRANSFORM):
        cpu = r.secondary.get("cpu.ms")
        rows.append([label, pm(r.score, r.err), num(mb / (r.score / 1e3)),
                     num(cpu) if cpu else "n/a", num(mb / (cpu / 1e3)) if cpu else "n/a",
                     times(rdr, r), times(r, chan)])
    return table(["", "ms", "MB/s", "CPU ms (all threads)", "MB per CPU-second",
                  "speed-up vs `BufferedReader`", "time ÷ `FileChannel` copy"], rows)


def range_rows(run):
    """RangeRowsBenchmark: one file's rows on the heap and read in place, timed in turn (paired)."""
    cls = "RangeRowsBenchmark"
    if not run.of_class(cls):
        return "(no results in this run: scripts/bench --only ranges)"
    count = int(run.param(cls, "count") or 0)
    rows = []
    for m, label in [("paired", "single `labelId`"), ("batchPaired", "batch `labelIds` of 1,024")]:
        r = run.get(cls, m)
        if r:
            p, e = paired_ratio(r, "mappedNanos", "heapNanos")
            rows.append([label, "n/a" if p is None else f"{pm(p, e)}×"])
    return table([f"time of a lookup, {count:,} real-shaped ranges (paired, interleaved)",
                  "`mapped` (in place) ÷ heap (`nio`)"], rows)


def line_lookup(run):
    cls = "LineLookupBenchmark"
    one = run.get(cls, "oneAtATime")
    spec = [("oneAtATime", "one line at a time (`LineLookup.apply`)"),
            ("batches", "64 lines at a time (`LineBatch`, `LineLookup.applyAll`: the jobs)")]
    rows = [[label, pm(r.score, r.err), times(one, r)] for r, label in measured(run, cls, spec)]
    return table(["ip-lookup per line (locate, look up, build the record)", "ns per line",
                  "speed-up"], rows)


def copy_methods(run):
    cls = "CopyBenchmark"
    mb = float(run.param(cls, "mb") or "nan")
    slowest, default = run.find(cls, "copy", method="stream-byte"), run.find(cls, "copy", method="transfer-to")
    rows = []
    for m, label in COPY:
        r = run.find(cls, "copy", method=m)
        if r:
            rows.append([label, pm(r.score, r.err), num(mb / (r.score / 1e3)), times(slowest, r),
                         times(r, default)])
    idx_mb = float(run.param("StageIndexBenchmark", "mb") or "nan")
    for check, label in STAGE_CHECKS:
        r = run.find("StageIndexBenchmark", "stage", check=check)
        if r:
            rows.append([f"{label}, {num(idx_mb)} MB index", pm(r.score, r.err),
                         num(idx_mb / (r.score / 1e3)), times(slowest, r), times(r, default)])
    return table(["copy", "ms", "MB/s", "speed-up vs a byte per call", "time ÷ `transferTo`"], rows)


def fetch_rows(run):
    """fetch.csv rows with their rates: (row, limit N·R MB/s or None, wall MB/s, transfer MB/s)."""
    out = []
    for row in run.csv("fetch.csv"):
        size, n = float(row["bytes"]), int(row["n"])
        limit = float(row["rate_bytes_per_s"]) * n / 1e6 if row["limited"] == "1" else None
        out.append((row, limit, mb_per_s(size, float(row["wall_s"])), mb_per_s(size, float(row["transfer_s"]))))
    return out


def fetch(run):
    rows = []
    for row, limit, wall, transfer in fetch_rows(run):
        rows.append([row["tool"], row["n"], num(limit) if limit else "no limit", row["wall_s"],
                     num(wall), num(wall / limit) if limit else "", num(transfer),
                     num(transfer / limit) if limit else ""])
    if not rows:
        return "(no fetch results in this run: scripts/bench --only fetch)"
    return table(["tool", "connections N", "N·R MB/s", "wall s", "MB/s (wall)", "÷ N·R",
                  "MB/s (transfer)", "÷ N·R"], rows)


def spark_readiness(run):
    rows = run.csv(os.path.join("spark", "readiness.csv"))
    if not rows:
        return "(no Spark results in this run: scripts/bench --only spark)"
    return table(["variant (per executor)", "executors", "in-task ms to first lookup",
                  "job start → first lookup ms", "driver heap growth MB",
                  "in-task speed-up vs broadcast", "job-start speed-up vs broadcast"],
                 [[r["variant"], r["executors"], num(float(r["in_task_ms"])),
                   num(float(r["job_start_to_first_lookup_ms"])), num(float(r["driver_heap_growth_mb"])),
                   f"{float(r['in_task_x_faster_than_broadcast']):.1f}×",
                   f"{float(r['job_start_x_faster']):.2f}×"] for r in rows])


def spark_throughput_best(run):
    """Per job, the best (shortest) of its runs: {job: (seconds, MB/s)}."""
    best = {}
    for r in run.csv(os.path.join("spark", "throughput.csv")):
        sec, rate = float(r["seconds"]), float(r["MB_per_s"])
        if r["job"] not in best or sec < best[r["job"]][0]:
            best[r["job"]] = (sec, rate)
    return best


def spark_throughput(run):
    best = spark_throughput_best(run)
    if not best:
        return "(no Spark results in this run: scripts/bench --only spark)"
    labels = {"identity-strings": "Spark identity pass, `textFile` → `saveAsTextFile` (Strings)",
              "identity-bytes": "Spark identity pass on bytes (`Text` end to end)",
              "lookup-nio": "`ip-lookup` annotate, 700,000 ranges, `nio` loader",
              "lookup-mapped": "`ip-lookup` annotate, 700,000 ranges, `mapped` loader"}
    base = best.get("identity-strings")
    rows = []
    for job, label in labels.items():
        if job in best:
            sec, rate = best[job]
            rows.append([label, f"{sec:.2f}", num(rate),
                         f"{base[0] / sec:.2f}×" if base else "n/a"])
    out = table(["job (local[2], best of 2 runs)", "s", "MB/s", "speed vs Strings identity pass"], rows)
    cli, spark = best.get("ep-cli"), best.get("ep-spark")
    if cli and spark:
        out += "\n\n" + table(
            ["EP feed, example spec (best of 2 runs)", "s", "MB/s", "time vs the command"],
            [["`spindex ep transform`, 2 threads", f"{cli[0]:.2f}", num(cli[1]), "1.00×"],
             ["`ep-transform` on Spark, local[2]", f"{spark[0]:.2f}", num(spark[1]),
              f"{spark[0] / cli[0]:.2f}×"]])
    return out


def spark_build_runs(run):
    """Per job, its times over the runs: {job: [seconds, ...]}."""
    runs = {}
    for r in run.csv(os.path.join("spark", "build.csv")):
        runs.setdefault(r["job"], []).append(float(r["seconds"]))
    return runs


def spark_build_kinds_runs(run):
    """Per (kind, job), its times over the runs, from build-kinds.csv."""
    runs = {}
    for r in run.csv(os.path.join("spark", "build-kinds.csv")):
        runs.setdefault((r["kind"], r["job"]), []).append(float(r["seconds"]))
    return runs


def build_rows(jobs, cli):
    """Table rows of builds timed over several runs: label, min, median, max and the median time
    against the command's median ``cli`` (seconds lists; rows only for jobs that ran)."""
    rows = []
    for label, t in jobs:
        if t:
            med = statistics.median(t)
            rows.append([label, f"{min(t):.2f}", f"{med:.2f}", f"{max(t):.2f}",
                         f"{med / statistics.median(cli):.2f}×" if cli else "n/a"])
    return rows


def spark_build(run):
    runs = spark_build_runs(run)
    kinds = spark_build_kinds_runs(run)
    if not runs and not kinds:
        return "(no Spark results in this run: scripts/bench --only spark)"
    head = ["min s", "median s", "max s", "median time vs the command"]
    out = []
    if runs:
        jobs = [("`spindex build ips` (one machine, all cores)", runs.get("cli")),
                ("`build-index` on Spark, local[2]", runs.get("spark-local2")),
                ("`build-index` on Spark, local[1]", runs.get("spark-local1"))]
        out.append(table(["build of the same IP list"] + head, build_rows(jobs, runs.get("cli"))))
    if kinds:
        rows = []
        for kind in ("ranges", "products"):
            jobs = [(f"`spindex build {kind}` (one machine, all cores)", kinds.get((kind, "cli"))),
                    (f"`build-index --kind {kind}` on Spark, local[2]",
                     kinds.get((kind, "spark-local2")))]
            rows += build_rows(jobs, kinds.get((kind, "cli")))
        out.append(table(["build of the same ranges or feed"] + head, rows))
    return "\n\n".join(out)


def times_x(r):
    return f"{r:,.0f}×" if r >= 100 else f"{r:.2f}×"


def sql(run):
    st = sql_stats(run)
    if not st:
        return "(no SQL results in this run: scripts/bench --only sql)"
    sp = st.get("spindex")
    rows = []
    for m, label in SQL_LABELS.items():
        if m not in st:
            continue
        n, t, rate, lo, hi = st[m]
        rows.append([label, f"{n:,}", len(t), f"{min(t):.2f}", f"{statistics.median(t):.2f}",
                     f"{max(t):.2f}", "—" if m in ("scan", "scan6") else f"{num(rate)} ({num(lo)}–{num(hi)})",
                     "—" if m in ("scan", "scan6", "spindex") or not sp else times_x(sp[2] / rate)])
    return table(["query (Spark SQL, local[2])", "rows", "runs", "min s", "median s", "max s",
                  "lookup-stage rows/s, median (slowest–fastest run)",
                  "`spindex_label`'s rows/s ÷ this one's"], rows)


def goals(run):
    g = run.get
    rows = []

    def verdict(value, err, test):
        """A verdict on the mean, marked 'within noise' when the error bar crosses the threshold."""
        if value is None or not math.isfinite(value):
            return "n/a"
        v = "**met**" if test(value) else "**missed**"
        if math.isfinite(err) and test(value - err) != test(value + err):
            v += " (within noise)"
        return v

    def add(goal, value, err, test, measured):
        rows.append([goal, measured, verdict(value, err, test)])

    def joined(goal, parts):
        """One row for goals on the same results: parts of (value, err, test, measured); a part
        with measured None judges the figure of the part before it by another threshold."""
        shown = [m for *_, m in parts if m is not None]
        rows.append([goal, "; ".join(shown), "; ".join(verdict(v, e, t) for v, e, t, _ in parts)])

    def ratio_part(a, b, test):
        r, e = ratio(a, b)
        return r, e, test, "n/a" if r is None else f"{pm(r, e)}×"

    def ratio_row(goal, a, b, test, fmt="{}×"):
        r, e = ratio(a, b)
        add(goal, r, e, test, "n/a" if r is None else fmt.format(pm(r, e)))

    def value_row(goal, r, scale, unit, test):
        add(goal, r.score * scale if r else None, r.err * scale if r else float("nan"), test,
            pm(r.score, r.err, scale) + unit if r else "n/a")

    sl, rl, b = "SetLoadBenchmark", "RangeLoadBenchmark", "BuildBenchmark"
    ratio_row("set load: nio within 1.3× of memcpy", g(sl, "nio"), g(sl, "memcpy"), lambda r: r <= 1.3)
    ratio_row("set load: nio ≥ 15× faster than io", g(sl, "io"), g(sl, "nio"), lambda r: r >= 15)
    ratio_row("set load: nio ≥ 100× faster than naive text", g(sl, "textNaive"), g(sl, "nio"),
              lambda r: r >= 100)
    for m, label in [("mapped", "mapped (CRC checked)"), ("mappedUnchecked", "mapped, unchecked")]:
        value_row(f"set load: {label} ready < 5 ms", g(sl, m), 1, " ms", lambda v: v < 5)
    s = g(b, "spindex")
    value_row("build ≤ 1.5 s wall", s, 1e-3, " s", lambda v: v <= 1.5)
    ratio_row("build ≥ 8× faster than naive", g(b, "naive"), s, lambda r: r >= 8)
    # Membership has two goals, the first issue's and issue 15's (the 26 M set), on one figure.
    for cls, m, label, floor, floor15 in [
            ("RangeLookupBenchmark", "heapPrefix", "range lookups (heap)", 25, None),
            ("RangeLookupBenchmark", "mappedPrefix", "range lookups (mapped)", 25, None),
            ("SetLookupBenchmark", "heapPrefix", "membership (heap)", 8, 10),
            ("SetLookupBenchmark", "mappedPrefix", "membership (mapped)", 8, 10),
            ("RangeLookupBenchmark", "heapPrefixBatch", "range lookups, batch `labelIds` (heap)", 25, None),
            ("RangeLookupBenchmark", "mappedPrefixBatch", "range lookups, batch `labelIds` (mapped)", 25, None),
            ("SetLookupBenchmark", "heapPrefixBatch", "membership, batch `containsAll` (heap)", 8, 20),
            ("SetLookupBenchmark", "mappedPrefixBatch", "membership, batch `containsAll` (mapped)", 8, 20)]:
        if floor15 is None:
            value_row(f"{label} ≥ {floor} M/s", g(cls, m), 1e-6, " M/s", lambda v, f=floor: v >= f)
            continue
        r = g(cls, m)
        v, e = (r.score * 1e-6, r.err * 1e-6) if r else (None, float("nan"))
        joined(f"{label} ≥ {floor} M/s; ≥ {floor15} M/s (issue 15)",
               [(v, e, lambda x, f=floor: x >= f, pm(r.score, r.err, 1e-6) + " M/s" if r else "n/a"),
                (v, e, lambda x, f=floor15: x >= f, None)])
    rlk, slk = "RangeLookupBenchmark", "SetLookupBenchmark"
    for m, label in [("ip2region", "ip2region"), ("maxmindMemory", "MaxMind MEMORY"),
                     ("maxmindMapped", "MaxMind MEMORY_MAPPED")]:
        ratio_row(f"range lookups (label text) ≥ 10× {label}", g(rlk, "labelText"), g(rlk, m),
                  lambda r: r >= 10)
    cb, cl = "MmdbBuildBenchmark", "CityLookupBenchmark"
    ratio_row("City-sized `.mmdb` build ≤ 1.5× MaxMind's `networks()` + the 7 fields",
              g(cb, "spindex"), g(cb, "maxmindNetworks"), lambda r: r <= 1.5,
              "takes {}× as long")
    size = g(cb, "spindex")
    size = size.secondary.get("data.index/mmdb") if size else None
    add("City-sized `.mmdb` build: index ≤ 0.6× the `.mmdb` file", size, float("nan"),
        lambda v: v <= 0.6, "n/a" if size is None else f"{size:.3f}×")
    for m, label in [("spindexHeap", "heap"), ("spindexMapped", "mapped")]:
        for c, clabel in [("maxmind", "MaxMind `get(ip, Map.class)`"),
                          ("maxmindCached", "MaxMind `get(ip, Map.class)` with `CHMCache`")]:
            ratio_row(f"7 typed fields, City-sized database ({label}, one thread) ≥ 20× {clabel}",
                      g(cl, m), g(cl, c), lambda r: r >= 20)
    v6 = "Ipv6LookupBenchmark"
    for q, qlabel in [("ranges", "addresses weighted by ranges"), ("uniform", "uniform over 2000::/3")]:
        ratio_row(f"IPv6 lookups (label text) ≥ 10× MaxMind MEMORY, {qlabel}",
                  run.find(v6, "heapLabel", query=q), run.find(v6, "maxmindMemory", query=q),
                  lambda r: r >= 10)
        ratio_row(f"IPv6 lookups (label text) ≥ 10× ip2region 3.x, {qlabel}",
                  run.find(v6, "heapLabel", query=q), run.find(v6, "ip2region", query=q),
                  lambda r: r >= 10)
    paired = run.find(v6, "heapPaired", query="ranges")
    p, e = paired_ratio(paired, "rowsNanos", "ipv4Nanos")
    add("An IPv6 hit ≤ 1.5× the time of an IPv4 hit on as many real-shaped ranges (heap)", p, e,
        lambda r: r <= 1.5, "n/a" if p is None else f"{pm(p, e)}× the time (paired, interleaved)")
    p, e = paired_ratio(paired, "noTablesNanos", "rowsNanos")
    add("IPv6 hits: the prefix6 tables faster than the /16 table alone (heap)", p, e,
        lambda r: r > 1, "n/a" if p is None else f"{pm(p, e)}× the throughput (paired, interleaved)")
    for prefix, label in [("heap", "heap"), ("mapped", "mapped")]:
        goal = f"IPv4 lookups through a dual-stack index within 2% of a v4-only index ({label})"
        p, e = paired_ratio(g("DualStackLookupBenchmark", prefix + "Paired"), "v4OnlyNanos",
                            "dualNanos")
        if p is not None:
            add(goal, p, e, lambda r: r >= 0.98,
                f"{pm(p, e)}× the v4-only throughput (paired, interleaved)")
        else:
            ratio_row(goal, g("DualStackLookupBenchmark", prefix + "Dual"),
                      g("DualStackLookupBenchmark", prefix + "V4Only"), lambda r: r >= 0.98,
                      "{}× the v4-only throughput")
    for api, method in [("single", "heapLabelText"), ("batch", "heapBatchLabelText")]:
        for query, qlabel in [("ranges", "addresses by range"), ("uniform", "uniform addresses")]:
            sr = shape_results(run, "real", query)
            joined(f"real shape, {qlabel}: label text ({api} API, one thread) ≥ 10× ip2region; "
                   "≥ 30× MaxMind MEMORY",
                   [ratio_part(sr.get(method), sr.get("ip2region"), lambda r: r >= 10),
                    ratio_part(sr.get(method), sr.get("maxmindMemory"), lambda r: r >= 30)])
    for shape, query, label in SHAPES:
        sr = shape_results(run, shape, query)
        joined(f"batch ≥ 1.5× single (label ids; label text), {label}",
               [ratio_part(sr.get("heapBatch"), sr.get("heapSingle"), lambda r: r >= 1.5),
                ratio_part(sr.get("heapBatchLabelText"), sr.get("heapLabelText"), lambda r: r >= 1.5)])
    ratio_row("membership (mapped) ≥ RoaringBitmap mapped `contains`", g(slk, "mappedPrefix"),
              g(slk, "roaringMapped"), lambda r: r >= 1)
    ratio_row("membership (heap) ≥ RoaringBitmap heap `contains`", g(slk, "heapPrefix"),
              g(slk, "roaringHeap"), lambda r: r >= 1)
    slower = "their time ÷ ours = {}×"
    for a, bm, label in [("nio", "ip2regionContent", "Spindex nio vs ip2region content mode"),
                         ("nio", "maxmindMemory", "Spindex nio vs MaxMind MEMORY"),
                         ("mapped", "maxmindMapped", "Spindex mapped vs MaxMind MEMORY_MAPPED"),
                         ("mappedUnchecked", "maxmindMapped",
                          "Spindex mapped unchecked vs MaxMind MEMORY_MAPPED")]:
        ratio_row(f"range load faster: {label}", g(rl, bm), g(rl, a), lambda r: r > 1, slower)
    for a, bm, label in [("mapped", "roaringMapped", "Spindex mapped vs RoaringBitmap mapped"),
                         ("mappedUnchecked", "roaringMapped",
                          "Spindex mapped unchecked vs RoaringBitmap mapped"),
                         ("nio", "roaringHeap", "Spindex nio vs RoaringBitmap heap")]:
        ratio_row(f"set load faster: {label}", g(sl, bm), g(sl, a), lambda r: r > 1, slower)
    ep_cls = "EpFileBenchmark"
    one, two = g(ep_cls, "transformOneThread"), g(ep_cls, "transformTwoThreads")
    ep_mb = float(run.param(ep_cls, "mb") or "nan")
    if one and one.secondary.get("cpu.ms"):
        per_core = ep_mb / (one.secondary["cpu.ms"] / 1e3)
        add("EP transform ≥ 1 GB/s per core (MB per CPU-second, 1 thread)", per_core, float("nan"),
            lambda v: v >= 1000, f"{num(per_core)} MB per CPU-second")
    fastest = min((r for r in (one, two) if r), key=lambda r: r.score, default=None)
    ratio_row("EP transform ≥ 8× a `BufferedReader` line copy (faster thread count)",
              g(ep_cls, "lineBufferedReader"), fastest, lambda r: r >= 8)
    ratio_row("EP transform within 2× of a `FileChannel` byte copy (faster thread count)",
              fastest, g(ep_cls, "channelCopy"), lambda r: r <= 2, "takes {}× as long")
    for row, limit, wall, transfer in fetch_rows(run):
        if limit and row["tool"] == "spindex fetch":
            n = int(row["n"])
            floor = 0.9 if n == 1 else 0.8
            add(f"fetch, {n} connection{'s' if n > 1 else ''}: ≥ {floor} · N · R (transfer)",
                transfer / limit, float("nan"), lambda v, f=floor: v >= f,
                f"{num(transfer / limit)} · N · R (wall, JVM start included: {num(wall / limit)})")
    best = spark_throughput_best(run)
    if "lookup-mapped" in best and "identity-strings" in best:
        r = best["identity-strings"][0] / best["lookup-mapped"][0]
        add("Spark ip-lookup (mapped) ≥ 1.0× the throughput of Spark's identity pass", r,
            float("nan"), lambda v: v >= 1.0, f"{r:.2f}× (best of 2 runs each)")
    if "lookup-mapped" in best and "identity-bytes" in best:
        r = best["identity-bytes"][0] / best["lookup-mapped"][0]
        add("Spark ip-lookup annotate (mapped) ≥ 1.0× the bytes identity pass", r,
            float("nan"), lambda v: v >= 1.0, f"{r:.2f}× (best of 2 runs each)")
    b = spark_build_runs(run)
    if "cli" in b and "spark-local2" in b:
        r = statistics.median(b["spark-local2"]) / statistics.median(b["cli"])
        add("Spark build-index on local[2] within 2× of `spindex build ips` (same list)", r,
            float("nan"), lambda v: v <= 2.0, f"{r:.2f}× the command's time (medians of 3 runs)")
    if "spark-local1" in b and "spark-local2" in b:
        r = statistics.median(b["spark-local1"]) / statistics.median(b["spark-local2"])
        add("build-index: local[1] time ≥ 1.7× its local[2] time", r, float("nan"),
            lambda v: v >= 1.7, f"{r:.2f}× (medians of 3 runs)")
    st = sql_stats(run)
    sp = st.get("spindex")
    for m, floor, label in [("maxmind-udf", 10, "a Java UDF around the MaxMind reader"),
                            ("bucket-join", 20, "the /16-bucketed join"),
                            ("between-join", 1000, "the broadcast `BETWEEN` join (extrapolated)"),
                            ("spindex-udf", 1.5, "the same lookup as a plain Java UDF")]:
        if sp and m in st:
            r = sp[2] / st[m][2]
            add(f"SQL: `spindex_label` ≥ {floor:,}× {label}, lookup-stage rows/s", r, float("nan"),
                lambda v, f=floor: v >= f, f"{times_x(r)} (medians of {len(sp[1])} runs)")
    s6 = st.get("spindex6")
    if sp and s6:
        r = s6[2] / sp[2]
        add("SQL: `spindex_label` over IPv6 addresses ≥ 0.7× the IPv4 table's lookup-stage rows/s",
            r, float("nan"), lambda v: v >= 0.7, f"{r:.2f}× (medians of {len(s6[1])} runs)")
    sl, su = st.get("spindex-lookup"), st.get("maxmind-city-struct-udf")
    if sl and su:
        r = sl[2] / su[2]
        add("SQL: `spindex_lookup` of 7 City fields ≥ 30× a Java UDF around the MaxMind reader "
            "returning them as a STRUCT, lookup-stage rows/s", r, float("nan"), lambda v: v >= 30,
            f"{times_x(r)} (medians of {len(sl[1])} runs)")
    if sp and "scan" in st:
        r = statistics.median(sp[1]) / statistics.median(st["scan"][1])
        add("SQL: a `spindex_label` query within 1.3× of the scan-only query", r, float("nan"),
            lambda v: v <= 1.3, f"{r:.2f}× its time (medians)")
    if "ep-cli" in best and "ep-spark" in best:
        r = best["ep-spark"][0] / best["ep-cli"][0]
        add("ep-transform on Spark within 1.5× of `spindex ep transform` (same file, 2 cores)", r,
            float("nan"), lambda v: v <= 1.5, f"{r:.2f}× the command's time (best of 2 runs each)")
    return table(["goal (from the issues)", "measured (same run)", "verdict"], rows)


def run_info(run):
    m = run.machine
    jdk = " ".join(x for x in (run.jvm or ()) if x) or "n/a"
    any_r = run.entries[0] if run.entries else None
    groups = []
    for path in sorted(glob.glob(os.path.join(run.dir, "*.seconds"))):
        with open(path, encoding="utf-8") as f:
            groups.append((os.path.basename(path)[:-8], int(f.read().strip())))
    total = sum(sec for _, sec in groups)
    minutes = (f"{total / 60:.0f} min of benchmarks (" +
               ", ".join(f"{g} {sec / 60:.1f} min" for g, sec in groups) + ")") if groups else "n/a"
    parts = [(("SetLoadBenchmark", "count"), "{:,} IPs"),
             (("RangeLoadBenchmark", "count"), "{:,} generated ranges"),
             (("Ipv6LookupBenchmark", "count"), "{:,} IPv6 ranges"),
             (("MmdbBuildBenchmark", "ranges"), "{:,} ranges in the City-sized database"),
             (("BufferSizeBenchmark", "mb"), "{} MiB buffer-size file"),
             (("EpFileBenchmark", "mb"), "{} MB EP feed"),
             (("CopyBenchmark", "mb"), "{} MB copies")]
    sizes = [fmt.format(int(run.param(*key))) for key, fmt in parts if run.param(*key)]
    if run.csv("fetch.csv"):
        sizes.append(f"{fetch_size(run)} download")
    commits = {}
    for path in sorted(glob.glob(os.path.join(run.dir, "*.commit"))):
        with open(path, encoding="utf-8") as f:
            commits.setdefault(f.read().strip(), []).append(os.path.basename(path)[:-7])
    code = "; ".join(f"{c} ({', '.join(g)})" for c, g in commits.items()) if len(commits) > 1 \
        else (next(iter(commits)) if commits else m.get("commit", "n/a"))
    rows = [["mode", m.get("mode", "n/a")], ["date", m.get("date", "n/a")],
            ["machine", f"{m.get('cpu', 'n/a')}, {m.get('cores', '?')} cores, "
                        f"{m.get('memory_gib', '?')} GiB, {m.get('os', '')}"],
            ["JDK", jdk], ["code measured", code], ["sizes", "; ".join(sizes) or "n/a"],
            ["JMH", f"1 fork, {any_r.iterations if any_r else '?'} measurement iterations; "
                    "error = 99.9% confidence half-width"],
            ["duration", minutes]]
    return table(["", ""], rows)


def fetch_size(run):
    rows = run.csv("fetch.csv")
    return f"{int(rows[0]['bytes']) / 1e6:,.0f} MB" if rows else "n/a"


def commands(run):
    lines = []
    for path in sorted(glob.glob(os.path.join(run.dir, "*.cmd"))):
        with open(path, encoding="utf-8") as f:
            lines.append(f.read().strip())
    return "```\n" + "\n".join(lines) + "\n```" if lines else "(no commands recorded)"


def replace_block(text, name, body):
    pattern = re.compile(rf"(<!-- BEGIN generated:{name} -->\n).*?(<!-- END generated:{name} -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"report: no block 'generated:{name}' in the markdown")
    return pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--markdown", required=True)
    ap.add_argument("--images", required=True)
    a = ap.parse_args()
    run = Run(a.results)
    with open(a.markdown, encoding="utf-8") as f:
        text = f.read()
    blocks = {"run": run_info, "goals": goals, "set-load": set_load, "range-load": range_load,
              "build": build, "set-lookup": lambda r: lookups(r, "SetLookupBenchmark", SET_LOOKUP),
              "range-lookup": lambda r: lookups(r, "RangeLookupBenchmark", RANGE_LOOKUP),
              "buffers": buffers, "streams": streams, "ep": ep, "ep-transform": ep_transform,
              "ipv6-lookup": ipv6_lookup, "shape-lookup": shape_lookup,
              "search-anchors": search_anchors, "city": city, "dual-stack": dual_stack, "ipv6-build": ipv6_build,
              "line-lookup": line_lookup, "range-rows": range_rows, "copy": copy_methods, "fetch": fetch, "spark-readiness": spark_readiness,
              "spark-throughput": spark_throughput, "spark-build": spark_build, "sql": sql, "commands": commands}
    for name, fn in blocks.items():
        text = replace_block(text, name, fn(run))
    with open(a.markdown, "w", encoding="utf-8") as f:
        f.write(text)
    print("report: charts", ", ".join(charts.make(run, a.images)))


if __name__ == "__main__":
    main()
