"""Independent reference for scripts/it-spark-dist: recomputes what ip-lookup must write from the
range text and the input lines, with Python's re and bisect, and compares it with the job's
output directory and summary. Usage:

  it_check.py lookup RANGES_TXT INPUT_DIR OUTPUT_DIR EXPECTED_JVM_LOADS
  it_check.py compare OUTPUT_DIR EXPECTED_EXECUTORS
  it_check.py executor-loss RANGES_TXT INPUT_DIR UNDISTURBED_DIR OUTPUT_DIR EVENT_LOG_DIR KILL_JSON

executor-loss checks a run during which scripts/lib/kill_executor.py killed an executor JVM: the
output against the reference and the undisturbed run's output, the summary counts against the
undisturbed run's, and, from Spark's event log, that the kill cost the application an executor
and tasks, that every partition succeeded exactly once, and that the summary's per-executor task
counts and once-per-JVM index loads are exactly what the event log shows.

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
    s = reference(ranges_txt, input_dir, output_dir)
    loads = [e for e in s["index loads by JVM"] if e["event"] == "load"]
    check(s["index loads"] == jvm_loads, "summary: index loads %d (expected %d)" % (s["index loads"], jvm_loads))
    check(len({(e["executor"], e["pid"]) for e in loads}) == jvm_loads,
          "one load per executor JVM: %s" % [(e["executor"], e["pid"]) for e in loads])
    tasks = {t["executor"]: t["tasks"] for t in s["tasks by executor"]}
    check(len(tasks) == jvm_loads and sum(tasks.values()) >= 4 * jvm_loads
          and min(tasks.values()) >= 2, "tasks by executor %s" % tasks)


def reference(ranges_txt, input_dir, output_dir):
    """Checks output, rejects and summary balance against the reference; returns the summary."""
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
            rejects["no-ip-found"] = rejects.get("no-ip-found", 0) + 1
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
        source, offset, reason, _ = r.split("\t", 3)  # docs/BAD-INPUT.md "The reject record"
        check(source != "" and offset.isdigit(), "reject position " + source + " " + offset) if not by_reason else None
        by_reason[reason] = by_reason.get(reason, 0) + 1
    check(by_reason == rejects, "rejects by reason %s (reference %s)" % (by_reason, rejects))

    with open(os.path.join(output_dir, "_summary.json"), encoding="utf-8") as f:
        s = json.load(f)
    total = len(want) + sum(rejects.values())
    check(s["lines in"] == total, "summary: lines in %d" % s["lines in"])
    check(s["balanced"] is True and s["lines out"] == len(want), "summary: " + s["balance"])
    return s


def compare(output_dir, executors):
    with open(os.path.join(output_dir, "_summary.json"), encoding="utf-8") as f:
        s = json.load(f)
    check(s["jvms measured"] == executors, "loader-compare: %d executor JVMs measured" % s["jvms measured"])
    check(s["identical answers"] is True, "loader-compare: every loader gives the same answers")
    check(s["every loader loaded rounds x jvms times"] is True, "loader-compare: every load ran")
    names = [row["loader"] for row in s["loads"]]
    check(names == ["io", "nio", "mapped"], "loader-compare: loaders %s" % names)
    check(all(row["jvms"] == executors for row in s["loads"]), "loader-compare: every loader on every executor")


# Summary entries that count lines or tasks: after an executor loss they must equal the
# undisturbed run's (accumulators of result tasks are applied once per partition, docs/SPARK.md).
def counted(key):
    return key.startswith("lines ") or key.startswith("rejects ") or key in (
        "balanced", "balance", "lookups", "hits", "misses", "tasks")


def executor_loss(ranges_txt, input_dir, calm_dir, output_dir, event_dir, kill_json):
    with open(kill_json, encoding="utf-8") as f:
        kill = json.load(f)
    s = reference(ranges_txt, input_dir, output_dir)
    check(sorted(lines_of(os.path.join(output_dir, "part-*")))
          == sorted(lines_of(os.path.join(calm_dir, "part-*"))), "output equals the undisturbed run's")
    check(sorted(lines_of(os.path.join(output_dir, "_rejects", "part-*")))
          == sorted(lines_of(os.path.join(calm_dir, "_rejects", "part-*"))),
          "rejects equal the undisturbed run's")
    check(not os.path.exists(os.path.join(output_dir, "_temporary")), "no attempt files left behind")
    with open(os.path.join(calm_dir, "_summary.json"), encoding="utf-8") as f:
        calm = json.load(f)
    differ = {k: (calm[k], s.get(k)) for k in calm if counted(k) and calm[k] != s.get(k)}
    check(not differ and s["lines in"] == s["lines out"] + s["lines rejected"],
          "summary counts equal the undisturbed run's, %s (differ: %s)" % (s["balance"], differ))

    events = []
    with open(os.path.join(event_dir, kill["app"]), encoding="utf-8") as f:
        for line in f:
            events.append(json.loads(line))
    removed = [e for e in events if e["Event"] == "SparkListenerExecutorRemoved"
               and e["Executor ID"] == kill["executor"]]
    check(len(removed) == 1, "event log: executor %s removed (%s)"
          % (kill["executor"], removed[0]["Removed Reason"] if removed else "no removal"))
    ends = [e for e in events if e["Event"] == "SparkListenerTaskEnd" and e["Stage ID"] == kill["stage"]]
    lost = [e for e in ends if e["Task End Reason"]["Reason"] == "ExecutorLostFailure"]
    check(len(lost) >= 1 and all(e["Task End Reason"]["Executor ID"] == kill["executor"] for e in lost),
          "event log: %d task(s) lost with executor %s" % (len(lost), kill["executor"]))
    ok = [e["Task Info"] for e in ends if e["Task End Reason"]["Reason"] == "Success"]
    parts = sorted(t["Partition ID"] for t in ok)
    check(parts == list(range(kill["tasks"])) and kill["tasks"] == calm["tasks"],
          "event log: each of the %d partitions succeeded exactly once" % kill["tasks"])
    relaunched = {e["Task Info"]["Partition ID"] for e in lost}
    check(all(t["Attempt"] >= 1 for t in ok if t["Partition ID"] in relaunched),
          "event log: lost partitions %s succeeded on a later attempt" % sorted(relaunched))
    by_executor = {}
    for t in ok:
        by_executor[t["Executor ID"]] = by_executor.get(t["Executor ID"], 0) + 1
    tasks = {t["executor"]: t["tasks"] for t in s["tasks by executor"]}
    check(tasks == by_executor, "summary: tasks by executor %s, as the event log's successes" % tasks)
    check(by_executor.get(kill["executor"], 0) >= 1,
          "the killed executor %s had finished %d task(s)" % (kill["executor"], by_executor.get(kill["executor"], 0)))
    loads = [(e["executor"], str(e["pid"])) for e in s["index loads by JVM"] if e["event"] == "load"]
    check(s["index loads"] == len(loads) == len(set(loads)) == len(by_executor)
          and {x for x, _ in loads} == set(by_executor),
          "summary: one index load per JVM that succeeded a task, %s" % loads)
    check((kill["executor"], str(kill["pid"])) in loads,
          "summary: the killed JVM's load (pid %s) counted once" % kill["pid"])
    added = [e["Executor ID"] for e in events if e["Event"] == "SparkListenerExecutorAdded"]
    print("      executors %s; successful tasks by executor %s" % (added, by_executor))


if __name__ == "__main__":
    if sys.argv[1] == "lookup":
        lookup(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif sys.argv[1] == "executor-loss":
        executor_loss(*sys.argv[2:8])
    else:
        compare(sys.argv[2], int(sys.argv[3]))
