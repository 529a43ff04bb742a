#!/usr/bin/env python3
# Licensed under the Apache License, Version 2.0: http://www.apache.org/licenses/LICENSE-2.0
"""Turns the JMH JSON written by scripts/bench into the tables and charts of BENCHMARKS.md.

Tables replace the blocks between '<!-- BEGIN generated:NAME -->' and '<!-- END generated:NAME -->'
in the markdown file; everything else in it is prose kept as written. Every ratio is between two
results of the same run; its error bar comes from the JMH 99.9% confidence intervals of both.
"""
import argparse
import glob
import json
import math
import os
import re

import matplotlib
import matplotlib.patches

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PKG = "io.spindex.bench."
SPINDEX, BASELINE, COMPETITOR = "#1f77b4", "#7f7f7f", "#ff7f0e"


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

    def find(self, cls, method, **params):
        """The result of cls.method (with these parameter values, when given), or None."""
        for r in self.entries:
            if r.cls == cls and r.method == method and all(
                    r.params.get(k) == v for k, v in params.items()):
                return r
        return None

    def get(self, cls, method):
        return self.find(cls, method)

    def of_class(self, cls):
        return [r for r in self.entries if r.cls == cls]

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


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


SET_LOAD = [
    ("textNaive", "text, naive (article: `readLine` + `split` + `Long.parseLong`)", BASELINE),
    ("textSpindex", "text, Spindex parser (parse + sort + dedupe)", SPINDEX),
    ("io", "io (`DataInputStream` over `BufferedInputStream`)", SPINDEX),
    ("nio", "nio (`FileChannel` + direct buffer → int[])", SPINDEX),
    ("mmap", "mmap (map, bulk copy → int[])", SPINDEX),
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
    ("binarySearch", "`Arrays.binarySearch` on the same int[] (baseline)", BASELINE),
    ("roaringMapped", "RoaringBitmap mapped `contains`", COMPETITOR),
    ("roaringHeap", "RoaringBitmap heap `contains`", COMPETITOR),
]
RANGE_LOOKUP = [
    ("heapPrefix", "Spindex `labelId`, heap, /16 prefix table", SPINDEX),
    ("heapNoPrefix", "Spindex `labelId`, heap, no prefix table", SPINDEX),
    ("mappedPrefix", "Spindex `labelId`, mapped, /16 prefix table", SPINDEX),
    ("mappedNoPrefix", "Spindex `labelId`, mapped, no prefix table", SPINDEX),
    ("binarySearch", "binary search over int[] starts/ends (baseline)", BASELINE),
    ("labelText", "Spindex `label` (String), heap, prefix table", SPINDEX),
    ("ip2region", "ip2region `search` (String), content mode", COMPETITOR),
    ("maxmindMemory", "MaxMind `get` (Map), `MEMORY`", COMPETITOR),
    ("maxmindMemoryCached", "MaxMind `get` (Map), `MEMORY` + `CHMCache`", COMPETITOR),
    ("maxmindMapped", "MaxMind `get` (Map), `MEMORY_MAPPED`", COMPETITOR),
]
EP = [
    ("byteLoopBufferedStreams", "byte loop, `BufferedInputStream` → `BufferedOutputStream` (test 1)", 7034),
    ("channelCopy", "`FileChannel` + 1 MB direct buffer (test 2)", 280),
    ("lineBufferedReader", "line-wise `BufferedReader` → `BufferedWriter` (test 3)", 1602),
    ("lineNioPerByte", "line-wise nio, a `get()` per byte, a write per line (test 4)", 2484),
    ("lineBytes", "line-wise on bytes, Spindex `LineReader` (no Strings)", None),
]
ARTICLE_WRITE = {1: 14368, 2: 7474, 10: 1692, 100: 180, 1000: 28, 8000: 13, 80000: 12}


def set_load(run):
    cls = "SetLoadBenchmark"
    memcpy, nio = run.get(cls, "memcpy"), run.get(cls, "nio")
    rows = []
    for m, label, _ in SET_LOAD:
        r = run.get(cls, m)
        if r:
            rows.append([label, pm(r.score, r.err), times(r, memcpy), times(r, nio)])
    return table(["loader", "ms per load", "÷ memcpy", "÷ nio"], rows)


def range_load(run):
    cls = "RangeLoadBenchmark"
    nio, mapped = run.get(cls, "nio"), run.get(cls, "mapped")
    rows = []
    for m, label, _ in RANGE_LOAD:
        r = run.get(cls, m)
        if r:
            rows.append([label, pm(r.score, r.err), times(r, nio), times(r, mapped)])
    return table(["open until ready", "ms", "÷ Spindex nio", "÷ Spindex mapped"], rows)


def lookups(run, cls, spec):
    base = run.get(cls, "binarySearch")
    rows = []
    for m, label, _ in spec:
        r = run.get(cls, m)
        if r:
            rows.append([label, pm(r.score, r.err, 1e-6), times(r, base)])
    return table(["lookup", "M lookups/s", "× binary search"], rows)


INTERLEAVED = [
    ("oneAtATime", "`Ipv4Set.contains`, one key at a time (today)", SPINDEX),
    ("interleaved", "prototype: 16 keys in lock step, branch-free (bench module only)", BASELINE),
]


def interleaved(run):
    cls = "InterleavedLookupBenchmark"
    base = run.get(cls, "oneAtATime")
    rows = []
    for m, label, _ in INTERLEAVED:
        r = run.get(cls, m)
        if r:
            rows.append([label, pm(r.score, r.err, 1e-6), times(r, base)])
    return table(["membership, heap, prefix table", "M lookups/s", "× one at a time"], rows)


def build(run):
    cls = "BuildBenchmark"
    naive = run.get(cls, "naive")
    rows = []
    for m, label in [("spindex", "Spindex `Ipv4SetBuilder` (all cores)"),
                     ("naive", "naive: `readLine` + `split` + `Arrays.sort` + dedupe + `DataOutputStream`")]:
        r = run.get(cls, m)
        if r:
            heap = r.secondary.get("peak.heap")
            speed = times(naive, r) if m == "spindex" else "1×"
            rows.append([label, pm(r.score, r.err, 1e-3), speed, num(heap) if heap else "n/a"])
    return table(["build", "s per build", "speed-up vs naive", "peak heap MB"], rows)


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
    rows = []
    for m, label, article in EP:
        r = run.get(cls, m)
        if r:
            rows.append([label, pm(r.score, r.err), num(mb / (r.score / 1e3)), times(base, r),
                         f"{article:,}" if article else ""])
    return table(["copy strategy", "ms", "MB/s", "speed-up vs `BufferedReader`",
                  "article ms (200 MB, its machine)"], rows)


def goals(run):
    g = run.get
    rows = []

    def add(goal, value, ok, measured):
        verdict = "n/a" if value is None else ("**met**" if ok else "**missed**")
        rows.append([goal, measured, verdict])

    def ratio_row(goal, a, b, test, fmt="{}×"):
        r, e = ratio(a, b)
        add(goal, r, r is not None and test(r), "n/a" if r is None else fmt.format(pm(r, e)))

    sl, rl, b = "SetLoadBenchmark", "RangeLoadBenchmark", "BuildBenchmark"
    ratio_row("set load: nio within 1.3× of memcpy", g(sl, "nio"), g(sl, "memcpy"), lambda r: r <= 1.3)
    ratio_row("set load: nio ≥ 15× faster than io", g(sl, "io"), g(sl, "nio"), lambda r: r >= 15)
    ratio_row("set load: nio ≥ 100× faster than naive text", g(sl, "textNaive"), g(sl, "nio"),
              lambda r: r >= 100)
    for m, label in [("mapped", "mapped (CRC checked)"), ("mappedUnchecked", "mapped, unchecked")]:
        r = g(sl, m)
        add(f"set load: {label} ready < 5 ms", r, r and r.score < 5,
            pm(r.score, r.err) + " ms" if r else "n/a")
    s = g(b, "spindex")
    add("build ≤ 1.5 s wall", s, s and s.score <= 1500, pm(s.score, s.err, 1e-3) + " s" if s else "n/a")
    ratio_row("build ≥ 8× faster than naive", g(b, "naive"), s, lambda r: r >= 8)
    for cls, m, label, floor in [("RangeLookupBenchmark", "heapPrefix", "range lookups (heap)", 25e6),
                                 ("RangeLookupBenchmark", "mappedPrefix", "range lookups (mapped)", 25e6),
                                 ("SetLookupBenchmark", "heapPrefix", "membership (heap)", 8e6),
                                 ("SetLookupBenchmark", "mappedPrefix", "membership (mapped)", 8e6)]:
        r = g(cls, m)
        add(f"{label} ≥ {floor / 1e6:.0f} M/s", r, r and r.score >= floor,
            pm(r.score, r.err, 1e-6) + " M/s" if r else "n/a")
    rlk, slk = "RangeLookupBenchmark", "SetLookupBenchmark"
    for m, label in [("ip2region", "ip2region"), ("maxmindMemory", "MaxMind MEMORY"),
                     ("maxmindMapped", "MaxMind MEMORY_MAPPED")]:
        ratio_row(f"range lookups (label text) ≥ 10× {label}", g(rlk, "labelText"), g(rlk, m),
                  lambda r: r >= 10)
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
    return table(["goal (issues 2 and 8)", "measured (same run)", "verdict"], rows)


def run_info(run):
    m = run.machine
    jdk = " ".join(x for x in (run.jvm or ()) if x) or "n/a"
    any_r = run.entries[0] if run.entries else None
    minutes = f"{int(m['seconds']) / 60:.0f} min" if "seconds" in m else "n/a"
    sizes = (f"{int(run.param('SetLoadBenchmark', 'count') or 0):,} IPs; "
             f"{int(run.param('RangeLoadBenchmark', 'count') or 0):,} generated ranges; "
             f"{run.param('BufferSizeBenchmark', 'mb')} MiB buffer-size file; "
             f"{run.param('EpFileBenchmark', 'mb')} MB EP feed")
    rows = [["mode", m.get("mode", "n/a")], ["date", m.get("date", "n/a")],
            ["machine", f"{m.get('cpu', 'n/a')}, {m.get('cores', '?')} cores, "
                        f"{m.get('memory_gib', '?')} GiB, {m.get('os', '')}"],
            ["JDK", jdk], ["sizes", sizes],
            ["JMH", f"1 fork, {any_r.iterations if any_r else '?'} measurement iterations; "
                    "error = 99.9% confidence half-width"],
            ["duration of the whole run", minutes]]
    return table(["", ""], rows)


def commands(run):
    lines = []
    for path in sorted(glob.glob(os.path.join(run.dir, "*.cmd"))):
        with open(path, encoding="utf-8") as f:
            lines.append(f.read().strip())
    return "```\n" + "\n".join(lines) + "\n```" if lines else "(no commands recorded)"


def bars(ax, run, cls, spec, scale, xlabel, log):
    labels, values, errs, colors = [], [], [], []
    for m, label, color in spec:
        r = run.get(cls, m)
        if r:
            labels.append(re.sub(r"[`]", "", label))
            values.append(r.score * scale)
            errs.append(0 if not math.isfinite(r.err) else r.err * scale)
            colors.append(color)
    y = range(len(values))
    ax.barh(list(y), values, xerr=errs, color=colors, capsize=3)
    ax.set_yticks(list(y))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    if log:
        ax.set_xscale("log")
    ax.grid(axis="x", alpha=0.3)
    used = [(c, n) for c, n in ((SPINDEX, "Spindex"), (BASELINE, "baseline / reference"),
                                (COMPETITOR, "other library")) if c in colors]
    ax.legend(handles=[matplotlib.patches.Patch(color=c, label=n) for c, n in used], fontsize=8,
              loc="lower right")


def charts(run, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    made = []

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, name), dpi=100, metadata={"Software": None})
        plt.close(fig)
        made.append(name)

    fig, axes = plt.subplots(2, 1, figsize=(10, 8))
    bars(axes[0], run, "SetLoadBenchmark", SET_LOAD, 1, "ms per load (log scale), lower is better", True)
    axes[0].set_title(f"Load {int(run.param('SetLoadBenchmark', 'count') or 0):,} IPs")
    bars(axes[1], run, "RangeLoadBenchmark", RANGE_LOAD, 1, "ms until ready (log scale)", True)
    axes[1].set_title(f"Open {int(run.param('RangeLoadBenchmark', 'count') or 0):,} generated ranges")
    save(fig, "load.png")

    fig, axes = plt.subplots(2, 1, figsize=(10, 8))
    bars(axes[0], run, "SetLookupBenchmark", SET_LOOKUP, 1e-6, "M lookups/s, higher is better", False)
    axes[0].set_title("Membership, one thread")
    bars(axes[1], run, "RangeLookupBenchmark", RANGE_LOOKUP, 1e-6, "M lookups/s (log scale)", True)
    axes[1].set_title("Range lookups, one thread")
    save(fig, "lookups.png")

    fig, axes = plt.subplots(1, 2, figsize=(10, 3))
    names, secs, errs, heap = [], [], [], []
    for m in ("spindex", "naive"):
        r = run.get("BuildBenchmark", m)
        if r:
            names.append(m)
            secs.append(r.score / 1e3)
            errs.append(0 if not math.isfinite(r.err) else r.err / 1e3)
            heap.append(r.secondary.get("peak.heap", 0))
    colors = [SPINDEX, BASELINE][: len(names)]
    axes[0].bar(names, secs, yerr=errs, color=colors, capsize=4)
    axes[0].set_ylabel("s per build")
    axes[1].bar(names, heap, color=colors)
    axes[1].set_ylabel("peak heap MB")
    fig.suptitle("Build the set index from its text")
    save(fig, "build.png")

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for method, style in (("write", "o-"), ("read", "s-")):
        pts = sorted((int(r.params["bufferBytes"]), r.score, r.err)
                     for r in run.of_class("BufferSizeBenchmark") if r.method == method)
        if pts:
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                        yerr=[0 if not math.isfinite(p[2]) else p[2] for p in pts], fmt=style,
                        label=f"{method} ({run.param('BufferSizeBenchmark', 'mb')} MiB, this run)",
                        capsize=3)
    ks = sorted(ARTICLE_WRITE)
    ax.plot(ks, [ARTICLE_WRITE[k] for k in ks], "k--", alpha=0.5,
            label="article write (10 MB, its machine)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("bytes per write/read call")
    ax.set_ylabel("ms per file")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    save(fig, "buffers.png")

    fig, ax = plt.subplots(figsize=(10, 3.5))
    bars(ax, run, "EpFileBenchmark", [(m, lab, SPINDEX if m == "lineBytes" else BASELINE)
                                      for m, lab, _ in EP], 1, "ms per copy (log scale)", True)
    ax.set_title(f"Copy a {run.param('EpFileBenchmark', 'mb')} MB EP feed")
    save(fig, "ep.png")
    return made


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
              "interleaved": interleaved,
              "buffers": buffers, "streams": streams, "ep": ep, "commands": commands}
    for name, fn in blocks.items():
        text = replace_block(text, name, fn(run))
    with open(a.markdown, "w", encoding="utf-8") as f:
        f.write(text)
    print("report: charts", ", ".join(charts(run, a.images)))


if __name__ == "__main__":
    main()
