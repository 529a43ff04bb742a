"""Spark side of scripts/bench-python (--spark): on one classic local session with the job jar,
over the same Parquet table of address strings, the native spindex_label against spindex.udf's
Python UDF (an Arrow UDF on Spark 4.1+), and a plain scan of the column for the cost of the rest
of the query. Each query aggregates the answers (the labels' total length and count) so that every row is
looked up and nothing large is collected; the repeats go round the queries. Then the size of the
Arrow batches the Python workers got (a Parquet scan hands them the reader's batches,
spark.sql.parquet.columnarReaderBatchSize, 4,096 rows by default).

  spark-submit --jars JOB_JAR bench_python_udf.py WORK REPEATS   (WORK: queries.txt, city-text.spx)
"""
import os
import statistics
import sys
import time


def main(work, repeats):
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    import spindex
    import spindex.udf

    spark = SparkSession.builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    spindex.register(spark)
    table = os.path.join(work, "queries.parquet")
    if not os.path.exists(table):
        # queries.txt ten times over, shuffled: long enough that the lookup stage stands out of
        # the scan's noise.
        spark.read.text(os.path.join(work, "queries.txt")).withColumnRenamed("value", "ip") \
            .crossJoin(spark.range(10).withColumnRenamed("id", "copy")) \
            .orderBy(F.rand(7)).select("ip").repartition(8).write.parquet(table)
    df = spark.read.parquet(table)
    n = df.count()
    index = os.path.join(work, "city-text.spx")  # ranges.txt as built from text (no types)
    py_label = spindex.udf.label(index)
    kind = "Arrow" if hasattr(F, "arrow_udf") else "pandas"
    if kind == "Arrow":
        import pyarrow as pa

        def same(ips: pa.Array) -> pa.Array:
            return ips

        identity = F.arrow_udf(same, "string")
    else:
        import pandas as pd

        def same_series(ips: pd.Series) -> pd.Series:
            return ips

        identity = F.pandas_udf(same_series, "string")
    # Factories: collecting one DataFrame twice would reuse its shuffle (the lookups ran once).
    queries = {
        "scan only (sum of length(ip))": lambda: df.agg(F.sum(F.length("ip")), F.count("ip")),
        "native spindex_label": lambda: df.select(spindex.label("ip", index).alias("g"))
        .agg(F.sum(F.length("g")), F.count("g")),
        "identity %s UDF (what any Python UDF costs)" % kind:
            lambda: df.select(identity("ip").alias("g")).agg(F.sum(F.length("g")), F.count("g")),
        "spindex.udf.label (Python %s UDF)" % kind:
            lambda: df.select(py_label("ip").alias("g")).agg(F.sum(F.length("g")), F.count("g")),
    }
    for q in queries.values():
        q().collect()  # warm: JIT, the index opened by each executor or Python worker
    # The repeats go round the queries (scan, native, identity, UDF, scan, ...): on a shared
    # machine a change of load then falls on every query alike, not on one query's repeats.
    results = {name: ([], None) for name in queries}
    for _ in range(repeats):
        for name, q in queries.items():
            t = time.perf_counter()
            row = q().collect()[0]
            results[name][0].append(time.perf_counter() - t)
            results[name] = (results[name][0], (row[0], row[1]))  # total label length, labels
    # The rows of each Arrow batch a Python worker gets: each row answers its batch's length.
    if kind == "Arrow":
        def batch_rows(ips: pa.Array) -> pa.Array:
            return pa.array([len(ips)] * len(ips), pa.int64())

        probe = F.arrow_udf(batch_rows, "bigint")
    else:
        def batch_rows_series(ips: pd.Series) -> pd.Series:
            return pd.Series([len(ips)] * len(ips), dtype="int64")

        probe = F.pandas_udf(batch_rows_series, "bigint")
    batches = df.select(probe("ip").alias("b")).agg(F.sum(1.0 / F.col("b"))).collect()[0][0]
    print("\n%d rows (Parquet, 8 files), local[2], %d repeats, spark.sql.execution.arrow."
          "maxRecordsPerBatch=%s: %.0f batches of %.0f rows on average in the Python workers"
          % (n, repeats, spark.conf.get("spark.sql.execution.arrow.maxRecordsPerBatch"), batches,
             n / batches))
    scan = statistics.median(results["scan only (sum of length(ip))"][0])
    native = None
    for name, (times, hits) in results.items():
        med = statistics.median(times)
        stage = med - scan if "scan" not in name else med
        rate = n / stage if stage > 0 else float("inf")
        if name.startswith("native"):
            native = rate
        print("%-40s %7.0f %7.0f %7.0f ms  answers %s  lookup stage %.2f M rows/s%s" % (
            name, min(times) * 1e3, med * 1e3, max(times) * 1e3, hits, rate / 1e6,
            "" if native is None or name.startswith(("native", "scan", "identity")) else
            "  (%.2fx native)" % (rate / native)))
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
