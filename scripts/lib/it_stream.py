"""A Structured Streaming query over a database that `spindex update` keeps current, for
scripts/it-stream (spark-submit --jars JOB_JAR it_stream.py SPINDEX WORK UPDATES).

The query reads text files of addresses (one micro-batch a file) and labels each with
try_spindex_label(value, 'geo') in SQL and with the DataFrame function; after each micro-batch
the database's source changes and `spindex update` publishes the next version, so that batch i
must answer from version i. Every range of version i has the label `v<i>`, so a row's label says
which version answered it. Checked, one line each:

  - no micro-batch failed and the query is still running;
  - no micro-batch mixes two versions (every row of batch i, both functions, one label);
  - no micro-batch is late (batch i answers from version i, the one published before it);
  - after the updates: at most 2 versions held by the executor (the driver JVM in local mode),
    at most 2 of the index's files mapped (/proc/PID/maps), at most `keep` versions kept on disk,
    and the executor's heap after a full GC within 10 % of what it was after the first update
    (or 8 MiB, whichever is more: a small heap moves by that much).

Prints one line a check, a JSON summary last; exits non-zero at the first failure.
"""
import json
import os
import subprocess
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        sys.exit(1)


def write_source(path, version):
    """Version v of the database's source: 10.0.0.0/16 in 256 ranges, each labelled v<v>."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for i in range(256):
            f.write("10.0.%d.0|10.0.%d.255|v%d\n" % (i, i, version))
    os.replace(tmp, path)


def publish(spindex, source, index, version):
    write_source(source, version)
    r = subprocess.run(
        [spindex, "update", "ranges", source, "-o", index, "--keep", "3", "--json"],
        capture_output=True, text=True)
    out = json.loads(r.stdout) if r.stdout.strip() else {}
    check(r.returncode == 0 and out.get("status") == "updated",
          "spindex update published version %d (%s)" % (version, out.get("new", {}).get("header_crc")))


def addresses(batch):
    """Batch b's 200 addresses: 10.0.i.b, so that an address's last octet names its batch."""
    return ["10.0.%d.%d" % (i, batch) for i in range(200)]


def main():
    spindex, work, updates = sys.argv[1], sys.argv[2], int(sys.argv[3])
    index = os.path.join(work, "geo.spx")
    source = os.path.join(work, "geo.txt")
    inbox = os.path.join(work, "in")
    os.makedirs(inbox, exist_ok=True)
    publish(spindex, source, index, 0)

    spark = (SparkSession.builder.appName("spindex-it-stream")
             .config("spark.sql.extensions", "io.spindex.spark.sql.SpindexExtensions")
             .config("spark.spindex.index.geo", index)
             .config("spark.ui.enabled", "false")
             .getOrCreate())
    jvm = spark.sparkContext._jvm
    fn = jvm.io.spindex.spark.sql.functions
    stream = spark.readStream.text(inbox)
    label2 = F.Column(fn.try_label(stream._jc.apply("value"), "geo"))
    out = stream.select("value", F.expr("try_spindex_label(value, 'geo')").alias("sql"),
                        label2.alias("df"))
    query = (out.writeStream.format("memory").queryName("answers")
             .option("checkpointLocation", os.path.join(work, "checkpoint")).start())

    heap_after_first = None
    expected = {}
    for batch in range(updates + 1):
        tmp = os.path.join(work, "batch-%d.tmp" % batch)
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(addresses(batch)) + "\n")
        os.replace(tmp, os.path.join(inbox, "batch-%d.txt" % batch))
        query.processAllAvailable()
        expected[batch] = "v%d" % batch
        if batch == 1:
            heap_after_first = heap(jvm)
        if batch < updates:
            publish(spindex, source, index, batch + 1)

    check(query.exception() is None and query.isActive,
          "the query ran %d micro-batches over %d updates without failing" % (updates + 1, updates))
    labels = {}
    for row in spark.sql("SELECT value, sql, df FROM answers").collect():
        labels.setdefault(int(row.value.rsplit(".", 1)[1]), set()).update([row.sql, row.df])
    mixed = sorted(b for b, ls in labels.items() if len(ls) > 1)
    check(not mixed, "no micro-batch mixes two versions (mixed: %s)" % mixed[:5])
    late = [b for b in range(updates + 1) if labels.get(b) != {expected[b]}]
    check(not late, "every micro-batch answered from the version published before it (late: %s)"
          % late[:5])

    held = jvm.io.spindex.index.IndexHolder.versions()
    check(held <= 2, "%d versions held by the executor after %d updates" % (held, updates))
    pid = jvm.java.lang.ProcessHandle.current().pid()
    with open("/proc/%d/maps" % pid, encoding="utf-8") as f:
        mapped = {line.split()[-1] for line in f if "geo.spx" in line}
    check(len(mapped) <= 2, "%d index files mapped after %d updates" % (len(mapped), updates))
    kept = [n for n in os.listdir(index + ".versions") if n.endswith(".spx")]
    check(len(kept) <= 3, "%d versions kept on disk (--keep 3)" % len(kept))
    heap_now = heap(jvm)
    limit = max(heap_after_first * 1.10, heap_after_first + (8 << 20))
    check(heap_now <= limit, "executor heap %.1f MiB after %d updates, %.1f MiB after the first"
          % (heap_now / 2 ** 20, updates, heap_after_first / 2 ** 20))
    query.stop()
    print(json.dumps({"updates": updates, "batches": updates + 1, "failed": 0, "mixed": len(mixed),
                      "late": len(late), "versions_held": held, "files_mapped": len(mapped),
                      "kept_on_disk": len(kept), "heap_first_mib": round(heap_after_first / 2 ** 20, 1),
                      "heap_last_mib": round(heap_now / 2 ** 20, 1)}))
    spark.stop()


def heap(jvm):
    """The JVM's heap in use after a full collection, in bytes (the smallest of three)."""
    rt = jvm.java.lang.Runtime.getRuntime()
    used = []
    for _ in range(3):
        jvm.java.lang.System.gc()
        time.sleep(0.2)
        used.append(rt.totalMemory() - rt.freeMemory())
    return min(used)


if __name__ == "__main__":
    main()
