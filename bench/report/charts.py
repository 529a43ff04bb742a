# Licensed under the Apache License, Version 2.0: http://www.apache.org/licenses/LICENSE-2.0
"""The charts of BENCHMARKS.md, drawn with matplotlib from a report.Run (see report.py)."""
import math
import os
import re

import matplotlib
import matplotlib.patches

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from specs import ARTICLE_WRITE, BASELINE, COMPETITOR, EP, RANGE_LOAD, RANGE_LOOKUP  # noqa: E402
from specs import SET_LOAD, SET_LOOKUP, SPINDEX  # noqa: E402


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
    axes[0].bar(names, secs, yerr=[[min(e, v * 0.95) for v, e in zip(secs, errs)], errs],
                color=colors, capsize=4)
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

    fig, ax = plt.subplots(figsize=(10, 3.5))
    bars(ax, run, "EpFileBenchmark", [(m, lab, SPINDEX if m == "lineBytes" else BASELINE)
                                      for m, lab, _ in EP], 1, "ms per copy (log scale)", True)
    ax.set_title(f"Copy a {run.param('EpFileBenchmark', 'mb')} MB EP feed")
    save(fig, "ep.png")
    return made
