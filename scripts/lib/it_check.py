"""Independent reference for scripts/it-spark-dist: recomputes what ip-lookup must write from the
range text and the input lines, with Python's re and bisect, and compares it with the job's
output directory and summary. Usage:

  it_check.py lookup RANGES_TXT INPUT_DIR OUTPUT_DIR EXPECTED_JVM_LOADS
  it_check.py compare OUTPUT_DIR EXPECTED_EXECUTORS

Prints one line per check and exits non-zero on the first mismatch.
"""
import bisect
import glob
import json
import os
import re
import sys

OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
# The rule of IpLocator.first(): a dotted quad not preceded by a letter, digit, '_', '/', '-' or
# '.', optionally followed by dots, and then not by a letter or digit.
FIRST = re.compile(r"(?<![A-Za-z0-9_/.\-])(" + OCTET + r"(?:\." + OCTET + r"){3})\.*(?![0-9A-Za-z.])")


def ip(text):
    a, b, c, d = (int(x) for x in text.split("."))
    return (a << 24) | (b << 16) | (c << 8) | d


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        sys.exit(1)


def lines_of(pattern):
    out = []
    for path in sorted(glob.glob(pattern)):
        with open(path, "rb") as f:
            data = f.read().decode("utf-8")
        out.extend(data.split("\n")[:-1] if data else [])
    return out


def lookup(ranges_txt, input_dir, output_dir, jvm_loads):
    starts, ends, labels = [], [], []
    with open(ranges_txt, encoding="utf-8") as f:
        for line in f:
            s, e, label = line.rstrip("\n").split("|", 2)
            starts.append(ip(s))
            ends.append(ip(e))
            labels.append(label)
    order = sorted(range(len(starts)), key=lambda i: starts[i])
    starts = [starts[i] for i in order]
    ends = [ends[i] for i in order]
    labels = [labels[i] for i in order]

    want, rejects = [], {}
    for line in lines_of(os.path.join(input_dir, "part-*")):
        if line.strip(" \t\r") == "":
            rejects["blank-line"] = rejects.get("blank-line", 0) + 1
            continue
        m = FIRST.search(line)
        if not m:
            rejects["no-ipv4-found"] = rejects.get("no-ipv4-found", 0) + 1
            continue
        a = ip(m.group(1))
        r = bisect.bisect_right(starts, a) - 1
        label = labels[r] if r >= 0 and ends[r] >= a else "\\N"
        want.append(line + "\t" + label)
    got = lines_of(os.path.join(output_dir, "part-*"))
    check(len(got) == len(want), "%d annotated lines (reference %d)" % (len(got), len(want)))
    check(sorted(got) == sorted(want), "every annotated line equals the reference")
    got_rejects = lines_of(os.path.join(output_dir, "_rejects", "part-*"))
    by_reason = {}
    for r in got_rejects:
        reason, source, _ = r.split("\t", 2)
        check(re.match(r".+:\d+$", source) is not None, "reject position " + source) if not by_reason else None
        by_reason[reason] = by_reason.get(reason, 0) + 1
    check(by_reason == rejects, "rejects by reason %s (reference %s)" % (by_reason, rejects))

    with open(os.path.join(output_dir, "_summary.json"), encoding="utf-8") as f:
        s = json.load(f)
    total = len(want) + sum(rejects.values())
    check(s["lines in"] == total, "summary: lines in %d" % s["lines in"])
    check(s["balanced"] is True and s["lines out"] == len(want), "summary: " + s["balance"])
    loads = [e for e in s["index loads by JVM"] if e["event"] == "load"]
    check(s["index loads"] == jvm_loads, "summary: index loads %d (expected %d)" % (s["index loads"], jvm_loads))
    check(len({(e["executor"], e["pid"]) for e in loads}) == jvm_loads,
          "one load per executor JVM: %s" % [(e["executor"], e["pid"]) for e in loads])
    tasks = {t["executor"]: t["tasks"] for t in s["tasks by executor"]}
    check(len(tasks) == jvm_loads and sum(tasks.values()) >= 4 * jvm_loads
          and min(tasks.values()) >= 2, "tasks by executor %s" % tasks)


def compare(output_dir, executors):
    with open(os.path.join(output_dir, "loader-compare.json"), encoding="utf-8") as f:
        s = json.load(f)
    check(s["executors measured"] == executors, "loader-compare: %d executors measured" % s["executors measured"])
    check(s["identical answers"] is True, "loader-compare: every loader gives the same answers")
    names = [row["loader"] for row in s["loads"]]
    check(names == ["io", "nio", "mmap", "mapped"], "loader-compare: loaders %s" % names)
    check(all(row["executors"] == executors for row in s["loads"]), "loader-compare: every loader on every executor")


if __name__ == "__main__":
    if sys.argv[1] == "lookup":
        lookup(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        compare(sys.argv[2], int(sys.argv[3]))
