# Licensed under the Apache License, Version 2.0: http://www.apache.org/licenses/LICENSE-2.0
"""The charts of BENCHMARKS.md, drawn with matplotlib from a report.Run (see report.py)."""
import math
import os
import re

import matplotlib
import matplotlib.patches

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from specs import ARTICLE_WRITE, BASELINE, COMPETITOR, COPY, EP, EP_TRANSFORM  # noqa: E402
from specs import SQL_LABELS, mb_per_s, sql_stats  # noqa: E402
from specs import RANGE_LOAD, RANGE_LOOKUP, SET_LOAD, SET_LOOKUP, SPINDEX, STAGE_CHECKS  # noqa: E402


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
    # Error bars never reach below zero (or off a log axis): the lower arm is clipped.
    lower = [min(e, v * 0.95) for v, e in zip(values, errs)]
    ax.barh(list(y), values, xerr=[lower, errs], color=colors, capsize=3)
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


def make(run, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    made = []

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, name), dpi=100, metadata={"Software": None})
        plt.close(fig)
        made.append(name)

    def has(*classes):
        return all(run.of_class(c) for c in classes)

    if has("SetLoadBenchmark", "RangeLoadBenchmark"):
        load_chart(run, save)
    if has("SetLookupBenchmark", "RangeLookupBenchmark"):
        lookup_chart(run, save)
    if has("BuildBenchmark"):
        build_chart(run, save)
    if has("BufferSizeBenchmark"):
        buffer_chart(run, save)
    if has("EpFileBenchmark"):
        ep_charts(run, save)
    copy_chart(run, save)
    fetch_chart(run, save)
    spark_chart(run, save)
    sql_chart(run, save)
    shapes_chart(run, save)
    return made


def load_chart(run, save):
    fig, axes = plt.subplots(2, 1, figsize=(10, 8))
    bars(axes[0], run, "SetLoadBenchmark", SET_LOAD, 1, "ms per load (log scale), lower is better", True)
    axes[0].set_title(f"Load {int(run.param('SetLoadBenchmark', 'count') or 0):,} IPs")
    bars(axes[1], run, "RangeLoadBenchmark", RANGE_LOAD, 1, "ms until ready (log scale)", True)
    axes[1].set_title(f"Open {int(run.param('RangeLoadBenchmark', 'count') or 0):,} generated ranges")
    save(fig, "load.png")


def lookup_chart(run, save):
    fig, axes = plt.subplots(2, 1, figsize=(10, 8))
    bars(axes[0], run, "SetLookupBenchmark", SET_LOOKUP, 1e-6, "M lookups/s, higher is better", False)
    axes[0].set_title("Membership, one thread")
    bars(axes[1], run, "RangeLookupBenchmark", RANGE_LOOKUP, 1e-6, "M lookups/s (log scale)", True)
    axes[1].set_title("Range lookups, one thread")
    save(fig, "lookups.png")


def build_chart(run, save):
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
    axes[0].bar(names, secs, yerr=[[min(e, v * 0.95) for v, e in zip(secs, errs)], errs],
                color=colors, capsize=4)
    axes[0].set_ylabel("s per build")
    axes[1].bar(names, heap, color=colors)
    axes[1].set_ylabel("peak heap MB")
    fig.suptitle("Build the set index from its text")
    save(fig, "build.png")


def buffer_chart(run, save):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for method, style in (("write", "o-"), ("read", "s-")):
        pts = sorted((int(r.params["bufferBytes"]), r.score, r.err)
                     for r in run.of_class("BufferSizeBenchmark") if r.method == method)
        if pts:
            e = [0 if not math.isfinite(p[2]) else p[2] for p in pts]
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                        yerr=[[min(x, p[1] * 0.95) for x, p in zip(e, pts)], e], fmt=style,
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


def ep_charts(run, save):
    fig, ax = plt.subplots(figsize=(10, 3.5))
    bars(ax, run, "EpFileBenchmark", [(m, lab, SPINDEX if m == "lineBytes" else BASELINE)
                                      for m, lab, _ in EP], 1, "ms per copy (log scale)", True)
    ax.set_title(f"Copy a {run.param('EpFileBenchmark', 'mb')} MB EP feed")
    save(fig, "ep.png")

    mb = float(run.param("EpFileBenchmark", "mb") or "nan")
    pts = [(re.sub(r"[`]", "", label), run.get("EpFileBenchmark", m), color)
           for m, label, color in EP_TRANSFORM if run.get("EpFileBenchmark", m)]
    if pts:
        fig, ax = plt.subplots(figsize=(10, 3.5))
        y = list(range(len(pts)))
        wall = [mb / (r.score / 1e3) for _, r, _ in pts]
        cpu = [mb / (r.secondary["cpu.ms"] / 1e3) if r.secondary.get("cpu.ms") else 0
               for _, r, _ in pts]
        ax.barh([v - 0.2 for v in y], wall, height=0.4, color=[c for _, _, c in pts],
                label="MB per wall second")
        ax.barh([v + 0.2 for v in y], cpu, height=0.4, color=[c for _, _, c in pts], alpha=0.45,
                hatch="//", label="MB per CPU-second (per core)")
        ax.axvline(1000, color="k", ls="--", alpha=0.5, label="goal: 1 GB/s per core")
        ax.set_yticks(y)
        ax.set_yticklabels([p[0] for p in pts], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("MB/s, higher is better")
        ax.grid(axis="x", alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
        ax.set_title(f"EP transform of a {num(mb)} MB generated feed vs the two copy baselines")
        save(fig, "ep-transform.png")


def copy_chart(run, save):
    copy_mb = float(run.param("CopyBenchmark", "mb") or "nan")
    idx_mb = float(run.param("StageIndexBenchmark", "mb") or "nan")
    rows = [(label, run.find("CopyBenchmark", "copy", method=m), copy_mb,
             SPINDEX if m == "transfer-to" else BASELINE) for m, label in COPY]
    rows += [(label, run.find("StageIndexBenchmark", "stage", check=c), idx_mb, SPINDEX)
             for c, label in STAGE_CHECKS]
    rows = [r for r in rows if r[1]]
    if rows:
        fig, ax = plt.subplots(figsize=(10, 4.5))
        y = list(range(len(rows)))
        ax.barh(y, [size / (r.score / 1e3) for _, r, size, _ in rows], color=[c for *_, c in rows])
        ax.set_yticks(y)
        ax.set_yticklabels([re.sub(r"[`]", "", label) for label, *_ in rows], fontsize=8)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlabel("MB/s (log scale), higher is better")
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(f"Copy {num(copy_mb)} MB through stage, by method; stage a {num(idx_mb)} MB index")
        save(fig, "copy.png")


def fetch_chart(run, save):
    fetch = [r for r in run.csv("fetch.csv") if r["limited"] == "1"]
    if not fetch:
        return
    fig, ax = plt.subplots(figsize=(8, 4))
    ns = sorted({int(r["n"]) for r in fetch})
    rate = float(fetch[0]["rate_bytes_per_s"]) / 1e6
    top = 1.5
    for i, (tool, color) in enumerate((("spindex", SPINDEX), ("curl", BASELINE))):
        got = {int(r["n"]): mb_per_s(float(r["bytes"]), float(r["transfer_s"])) / (rate * int(r["n"]))
               for r in fetch if r["tool"].startswith(tool)}
        xs = [k + (i - 0.5) * 0.35 for k in range(len(ns))]
        ys = [got.get(n, float("nan")) for n in ns]
        shown = [min(y, top) if math.isfinite(y) else 0 for y in ys]
        ax.bar(xs, shown, width=0.35, color=color, label=f"{tool} (transfer)")
        for x, y, h in zip(xs, ys, shown):
            ax.annotate(f"{y:.2f}" if math.isfinite(y) else "n/a", (x, h), ha="center", va="bottom", fontsize=8)
    ax.axhline(0.9, color="k", ls=":", alpha=0.6, label="goal, one stream: 0.9")
    ax.axhline(0.8, color="k", ls="--", alpha=0.6, label="goal, N ranges: 0.8")
    ax.set_ylim(0, top + 0.1)
    ax.set_xticks(range(len(ns)))
    ax.set_xticklabels([f"N = {n}" for n in ns])
    ax.set_ylabel("download rate ÷ (N · R)")
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(f"Download, nginx limit_rate R = {rate:.1f} MB/s per connection")
    save(fig, "fetch.png")


def spark_chart(run, save):
    ready = run.csv(os.path.join("spark", "readiness.csv"))
    if ready:
        fig, ax = plt.subplots(figsize=(10, 3.5))
        y = list(range(len(ready)))
        colors = [BASELINE if r["variant"].startswith("broadcast") else SPINDEX for r in ready]
        ax.barh([v - 0.2 for v in y], [float(r["in_task_ms"]) for r in ready], height=0.4,
                color=colors, label="in-task ms to first lookup")
        ax.barh([v + 0.2 for v in y], [float(r["job_start_to_first_lookup_ms"]) for r in ready],
                height=0.4, color=colors, alpha=0.45, hatch="//",
                label="job start → first lookup ms")
        ax.set_yticks(y)
        ax.set_yticklabels([r["variant"] for r in ready], fontsize=8)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlabel("ms (log scale), lower is better; slowest executor")
        ax.grid(axis="x", alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
        ax.set_title("Spark executors ready to look up: Spindex holder per loader vs a broadcast")
        save(fig, "spark.png")


def shapes_chart(run, save):
    """Label lookups per shape and query set: Spindex single and batch, ip2region, MaxMind."""
    res = [r for r in run.of_class("ShapeLookupBenchmark")]
    if not res:
        return
    cases = [("uniform", "uniform", "uniform ranges,\nuniform addresses"),
             ("uniform", "ranges", "uniform ranges,\naddresses by range"),
             ("real", "uniform", "real-shaped ranges,\nuniform addresses"),
             ("real", "ranges", "real-shaped ranges,\naddresses by range")]
    series = [("heapBatchLabelText", "Spindex label, batch", SPINDEX, 1.0),
              ("heapLabelText", "Spindex label, single", SPINDEX, 0.55),
              ("ip2region", "ip2region content", COMPETITOR, 1.0),
              ("maxmindMemory", "MaxMind MEMORY", COMPETITOR, 0.55)]
    fig, ax = plt.subplots(figsize=(10, 4))
    width = 0.2
    for k, (method, name, color, alpha) in enumerate(series):
        xs, ys, es = [], [], []
        for i, (shape, query, _) in enumerate(cases):
            r = next((x for x in res if x.method == method and x.params.get("shape") == shape
                      and x.params.get("query") == query), None)
            if r:
                xs.append(i + (k - 1.5) * width)
                ys.append(r.score / 1e6)
                es.append(0 if not math.isfinite(r.err) else min(r.err, r.score * 0.95) / 1e6)
        ax.bar(xs, ys, width=width, yerr=es, color=color, alpha=alpha, label=name, capsize=2)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([c[2] for c in cases], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("M lookups/s, one thread (log scale)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    count = int(res[0].params.get("count", "0"))
    ax.set_title(f"IPv4 label lookups by data shape, {count:,} ranges", fontsize=10)
    save(fig, "shapes.png")


def sql_chart(run, save):
    st = sql_stats(run)
    # The scans have no lookup stage: their rows are what the others' stages are measured against.
    shown = [m for m in SQL_LABELS if m in st and m not in ("scan", "scan6")]
    if not shown:
        return
    colors = {"spindex": SPINDEX, "spindex-udf": SPINDEX, "spindex-lookup": SPINDEX,
              "spindex-rows": SPINDEX, "spindex-lookup-rows": SPINDEX,
              "spindex6": SPINDEX, "maxmind-udf": COMPETITOR, "maxmind-city-udf": COMPETITOR,
              "maxmind-city-struct-udf": COMPETITOR}
    fig, ax = plt.subplots(figsize=(11, 1.2 + 0.3 * len(shown)))
    rates = [st[m][2] for m in shown]
    lower = [max(0.0, min(st[m][2] - st[m][3], st[m][2] * 0.95)) for m in shown]
    upper = [max(0.0, st[m][4] - st[m][2]) for m in shown]
    ax.barh(range(len(shown)), rates, xerr=[lower, upper], capsize=3,
            color=[colors.get(m, BASELINE) for m in shown])
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels([re.sub(r"[`]", "", SQL_LABELS[m]) for m in shown], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("lookup-stage rows/s (log scale, higher is better); whiskers: slowest to fastest "
                  "run", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"IP labels in Spark SQL (local[2]), {st[shown[0]][0]:,}-row Parquet table",
                 fontsize=10)
    save(fig, "sql.png")


def num(x):
    return f"{x:,.0f}" if math.isfinite(x) else "?"
