"""A Structured Streaming query over a database that `spindex update` keeps current, for
scripts/it-stream (spark-submit --jars JOB_JAR it_stream.py SPINDEX WORK UPDATES).

The query reads text files of addresses (one micro-batch a file) and labels each with
try_spindex_label(value, 'geo') in SQL, with the DataFrame function and, where pyarrow is
installed (Spark 4's venvs), with spindex.udf.label (the Python reader in the Python workers); after each micro-batch
the database's source changes and `spindex update` publishes the next version, so that batch i
must answer from version i. Every range of version i has the label `v<i>`, so a row's label says
which version answered it. Checked, one line each:

  - no micro-batch failed and the query is still running;
  - no micro-batch mixes two versions (every row of batch i, every function, one label);
  - no micro-batch is late (batch i answers from version i, the one published before it);
  - after the updates, in the executor JVM (local-cluster mode: an executor of its own, reading the
    kept versions in place, spark.spindex.index-ship=local): at most 2 of the index's files
    mapped (/proc/PID/maps: the versions it holds), its heap after a full GC (jcmd GC.run,
    GC.heap_info) within 10 % of what it was after the first update (25 % for fewer than 50
    updates); at most `keep` versions kept on disk.

Prints one line a check, a JSON summary last; exits non-zero at the first failure.
"""
import json
import os
import re
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
    # baseline: the same micro-batches without the updates, for the heap the batches alone take
    baseline = len(sys.argv) > 4 and sys.argv[4] == "baseline"
    index = os.path.join(work, "geo.spx")
    source = os.path.join(work, "geo.txt")
    inbox = os.path.join(work, "in")
    os.makedirs(inbox, exist_ok=True)
    publish(spindex, source, index, 0)

    spark = (SparkSession.builder.appName("spindex-it-stream")
             .master("local-cluster[1,1,1024]")
             .config("spark.spindex.index-ship", "local")
             .config("spark.sql.extensions", "io.spindex.spark.sql.SpindexExtensions")
             .config("spark.spindex.index.geo", index)
             .config("spark.ui.enabled", "false")
             .getOrCreate())
    jvm = spark.sparkContext._jvm
    fn = jvm.io.spindex.spark.sql.functions
    stream = spark.readStream.text(inbox)
    label2 = F.Column(fn.try_label(stream._jdf.apply("value"), "geo"))
    columns = [F.col("value"), F.expr("try_spindex_label(value, 'geo')").alias("sql"),
               label2.alias("df")]
    try:  # spindex.udf (the Python reader in the Python workers) where pyarrow is installed
        import google_crc32c  # noqa: F401
        import pyarrow  # noqa: F401
        from spindex import udf
        columns.append(udf.label(index)("value").alias("udf"))
    except ImportError:
        pass
    out = stream.select(*columns)
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
        expected[batch] = "v0" if baseline else "v%d" % batch
        if batch == 1:
            heap_after_first = executor_heap(spark)
        if batch < updates and not baseline:
            publish(spindex, source, index, batch + 1)

    check(query.exception() is None and query.isActive,
          "the query ran %d micro-batches over %d updates without failing" % (updates + 1, updates))
    labels = {}
    answers = spark.table("answers")
    functions = [c for c in answers.columns if c != "value"]
    check(True, "functions compared: %s" % ", ".join(functions))
    for row in answers.collect():
        labels.setdefault(int(row.value.rsplit(".", 1)[1]), set()).update(
            row[f] for f in functions)
    mixed = sorted(b for b, ls in labels.items() if len(ls) > 1)
    check(not mixed, "no micro-batch mixes two versions (mixed: %s)" % mixed[:5])
    late = [b for b in range(updates + 1) if labels.get(b) != {expected[b]}]
    check(not late, "every micro-batch answered from the version published before it (late: %s)"
          % late[:5])

    pid = executor_pid(spark)
    heap_now = executor_heap(spark)  # a full collection first: dropped versions' mappings go
    with open("/proc/%d/maps" % pid, encoding="utf-8") as f:
        mapped = sorted({line.split()[-1] for line in f if line.rstrip().endswith(".spx")})
    check(len(mapped) <= 2, "%d index files mapped by the executor after %d updates %s"
          % (len(mapped), updates, [os.path.basename(m) for m in mapped]))
    kept = [n for n in os.listdir(index + ".versions") if n.endswith(".spx")]
    check(len(kept) <= 3, "%d versions kept on disk (--keep 3)" % len(kept))
    # The soak's goal (50 updates and more): within 10 %. A short run's heap moves more by the
    # warm-up of what the first batches start (Python workers, Arrow), not by the versions: 25 %.
    limit = heap_after_first * (1.10 if updates >= 50 else 1.25)
    check(heap_now <= limit, "executor heap %.1f MiB after %d updates, %.1f MiB after the first"
          % (heap_now / 2 ** 20, updates, heap_after_first / 2 ** 20))
    query.stop()
    print(json.dumps({"updates": updates, "batches": updates + 1, "failed": 0, "mixed": len(mixed),
                      "late": len(late), "files_mapped": len(mapped),
                      "kept_on_disk": len(kept), "heap_first_mib": round(heap_after_first / 2 ** 20, 1),
                      "heap_last_mib": round(heap_now / 2 ** 20, 1)}))
    spark.stop()


def executor_pid(spark):
    """The process id of the application's one executor JVM."""
    app = spark.sparkContext.applicationId
    out = subprocess.run(["pgrep", "-f", "CoarseGrainedExecutorBackend.*" + app],
                         capture_output=True, text=True).stdout.split()
    check(len(out) == 1, "one executor JVM for %s (found %s)" % (app, out))
    return int(out[0])


def executor_heap(spark):
    """The executor's heap in use after full collections, in bytes (the smallest of three)."""
    # The driver first: Spark frees a broadcast (a micro-batch's task binary, cached by the
    # executor) when the driver has collected its last reference to it.
    spark.sparkContext._jvm.java.lang.System.gc()
    time.sleep(2)
    pid = str(executor_pid(spark))
    used = []
    for _ in range(3):
        subprocess.run(["jcmd", pid, "GC.run"], capture_output=True, check=True)
        info = subprocess.run(["jcmd", pid, "GC.heap_info"], capture_output=True, text=True,
                              check=True).stdout
        used.append(int(re.search(r"used (\d+)K", info).group(1)) * 1024)
    return min(used)


if __name__ == "__main__":
    main()
