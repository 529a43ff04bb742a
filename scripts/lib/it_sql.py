"""Spark SQL and PySpark checks for scripts/it-spark-dist, against a reference computed here with
bisect over the range text (independent of Spindex). Usage:

  spark-submit --jars JOB_JAR it_sql.py pyspark RANGES_TXT INPUT_DIR INDEX [TABLE_OUTPUT]
      (a PySpark job: spindex.register(spark), SQL and the Column API, every row compared; with
      TABLE_OUTPUT, also the lines per label of an ip-lookup --format parquet output and rejects)
  it_sql.py counts RANGES_TXT INPUT_DIR SPARK_SQL_OUTPUT
      (the `label<TAB>count` lines a spark-sql query printed, compared with the reference)
  it_sql.py functions RANGES_TXT SET_TXT INPUT_DIR SPARK_SQL_OUTPUT
      (`token<TAB>label<TAB>lookup.label<TAB>contains<TAB>canonical` per log line: every function)
  spark-submit --jars JOB_JAR --conf spark.sql.extensions=... it_sql.py errors WORK
      (every Spindex error from PySpark classic: it_errors.py, the index files in WORK)
  spark-submit ... --conf spark.spindex.sql.names-only=true --files WORK/ranges.spx
      --conf spark.spindex.index.geo=ranges.spx it_sql.py errors-names-only WORK
      (the errors of a shared server: paths and session names refused, UDF names not shipped)
  it_sql.py sql-errors OUTPUT VERSION       (spark-sql's MINIMAL JSON errors of it_errors.py sql)
  it_sql.py ansi-error STDERR FUNCTION      (the error of an unparseable address under ANSI mode)
  it_sql.py explain OUTPUT                  (EXPLAIN and DESCRIBE FUNCTION EXTENDED output)
  it_sql.py wrong-line STDERR VERSION MODULE  (a jar of another Spark line: one line, no trace)

Prints one line per check and exits non-zero on the first mismatch.
"""
import bisect
import collections
import glob
import re
import sys

QUAD = re.compile(r"^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$")


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        sys.exit(1)


class Reference:
    def __init__(self, ranges_txt):
        rows = []
        with open(ranges_txt, encoding="utf-8") as f:
            for line in f:
                s, e, label = line.rstrip("\n").split("|", 2)
                rows.append((self.ip(s), self.ip(e), label))
        rows.sort()
        self.starts = [r[0] for r in rows]
        self.rows = rows

    @staticmethod
    def ip(text):
        a, b, c, d = (int(x) for x in text.split("."))
        return (a << 24) | (b << 16) | (c << 8) | d

    def label(self, text):
        """The label of a dotted-quad address text, None when unparseable or in no range."""
        if text is None or not QUAD.match(text):
            return None
        a = self.ip(text)
        r = bisect.bisect_right(self.starts, a) - 1
        return self.rows[r][2] if r >= 0 and self.rows[r][1] >= a else None


def first_tokens(input_dir):
    out = []
    for path in sorted(glob.glob(input_dir + "/part-*")):
        with open(path, encoding="utf-8") as f:
            for line in f:
                out.append(line.rstrip("\n").split(" ", 1)[0])
    return out


def pyspark_checks(ranges_txt, input_dir, index, table_output=None):
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    import spindex

    ref = Reference(ranges_txt)
    # ANSI off, as Spark 3.5's default: unparseable addresses are NULL through every form here
    # (it-spark-dist checks ANSI mode and the try_ twins with spark-sql).
    spark = (SparkSession.builder.config("spark.spindex.index.geo", index)
             .config("spark.sql.ansi.enabled", "false").getOrCreate())
    spindex.register(spark)
    logs = spark.read.text(input_dir).select(F.split("value", " ").getItem(0).alias("ip"))
    logs.createOrReplaceTempView("logs")

    rows = spark.sql("SELECT ip, try_spindex_label(ip, 'geo') AS l FROM logs").collect()
    want = [(t, ref.label(t)) for t in first_tokens(input_dir)]
    check(len(rows) == len(want), "SQL: %d rows (reference %d)" % (len(rows), len(want)))
    check(collections.Counter((r.ip, r.l) for r in rows) == collections.Counter(want),
          "SQL try_spindex_label(ip, 'geo') equals the reference on every row")
    hits = sum(1 for _, l in want if l is not None)
    check(hits > len(want) // 2, "%d of %d rows in a range" % (hits, len(want)))

    cols = logs.select("ip", spindex.label("ip", index).alias("l"), spindex.ip("ip").alias("t")).collect()
    check(collections.Counter((r.ip, r.l) for r in cols) == collections.Counter(want),
          "Column API spindex.label(col, path) equals the reference on every row")
    check(all(r.t == (r.ip if QUAD.match(r.ip or "") else None) for r in cols),
          "spindex.ip: a dotted quad is its own canonical text, anything else NULL")
    plan = spark.sql("SELECT spindex_label(ip, 'geo') FROM logs")._jdf.queryExecution().executedPlan().toString()
    check("*(" in plan and "spindex_label" in plan, "the lookup runs in whole-stage generated code")
    if table_output:
        out = spark.read.parquet(table_output).groupBy("spindex_label").count().collect()
        got = {r.spindex_label if r.spindex_label is not None else "\\N": r["count"] for r in out}
        rejects = spark.read.parquet(table_output + "/_rejects").count()
        got["\\N"] = got.get("\\N", 0) + rejects
        check_counts(ref, input_dir, got, "ip-lookup --format parquet (%d rejects)" % rejects)
    spark.stop()


def check_counts(ref, input_dir, got, what):
    """got: lines per label (unlabelled and rejected lines under \\N), against the reference."""
    want = collections.Counter(ref.label(t) or "\\N" for t in first_tokens(input_dir))
    check(sum(got.values()) == sum(want.values()), "%s: %d rows counted (reference %d)"
          % (what, sum(got.values()), sum(want.values())))
    check(got == dict(want), "%s: lines per label equal the reference (%d labels)" % (what, len(got)))


def counts(ranges_txt, input_dir, output):
    got = {}
    with open(output, encoding="utf-8") as f:
        for line in f:
            label, n = line.rstrip("\n").rsplit("\t", 1)
            got[label] = int(n)
    check_counts(Reference(ranges_txt), input_dir, got, "spark-sql")


def functions(ranges_txt, set_txt, input_dir, output):
    ref = Reference(ranges_txt)
    with open(set_txt, encoding="utf-8") as f:
        members = {line.strip() for line in f if line.strip()}
    tokens = first_tokens(input_dir)
    want = collections.Counter()
    for t in tokens:
        ok = bool(QUAD.match(t))
        label = ref.label(t) if ok else None
        show = lambda v: "NULL" if v is None else v
        want[(t, show(label), show(label), show(("true" if t in members else "false") if ok else None),
              show(t if ok else None))] += 1
    got = collections.Counter()
    with open(output, encoding="utf-8") as f:
        for line in f:
            got[tuple(line.rstrip("\n").split("\t"))] += 1
    check(sum(got.values()) == len(tokens), "spark-sql: %d rows (reference %d)" % (sum(got.values()), len(tokens)))
    check(got == want, "spark-sql: try_spindex_label, try_spindex_lookup(..).label, try_spindex_contains,"
          " try_spindex_ip equal the reference on every row")
    check(sum(n for k, n in want.items() if k[1] != "NULL") > len(tokens) // 2, "most rows in a range")
    check(sum(n for k, n in want.items() if k[3] == "true") > len(tokens) // 10, "many rows in the set")
    check(sum(n for k, n in want.items() if k[4] == "NULL") > 0, "some rows unparseable")


def errors(work, names_only=False):
    """Every Spindex error from PySpark classic (it_errors.py), in a session of its own."""
    from pyspark.sql import SparkSession
    import it_errors

    spark = SparkSession.builder.getOrCreate()
    spark.sparkContext.setLogLevel("OFF")  # the failing tasks' expected stack traces
    if names_only:
        it_errors.errors_names_only(spark, work, True, "ranges.spx")
    else:
        it_errors.errors(spark, work, True)
    spark.stop()
    if names_only:
        print("      " + it_errors.received_line())
    print("errors: %d checks passed" % it_errors.checks)


def ansi_error(stderr, function):
    text = open(stderr, encoding="utf-8", errors="replace").read()
    check("[SPINDEX_INVALID_ADDRESS] %s: the value '" % function in text,
          "ANSI mode: an unparseable address is SPINDEX_INVALID_ADDRESS naming %s and the value" % function)
    check("of the input column" in text and "Use try_%s to get NULL" % function in text,
          "the error names the input column and the try_ twin")
    check("AbstractMethodError" not in text, "no AbstractMethodError")


def explain(output):
    text = open(output, encoding="utf-8").read()
    plan = [l for l in text.splitlines() if "try_spindex_label" in l]
    check(any("*(" in l for l in plan) or ("WholeStageCodegen" in text and plan),
          "EXPLAIN: try_spindex_label runs inside whole-stage generated code")
    for f in ("spindex_label", "try_spindex_contains"):
        check("Function: %s" % f in text and "Usage: %s(ip, index)" % f in text,
              "DESCRIBE FUNCTION EXTENDED %s: usage" % f)
    check(text.count("Examples:") >= 2 and "> SELECT spindex_label(client_ip, 'geo')" in text,
          "DESCRIBE FUNCTION EXTENDED: examples")


def explain_batch(output):
    lines = open(output, encoding="utf-8").read().splitlines()
    batch = [l for l in lines if "SpindexBatch" in l]
    check(len(batch) == 1 and any("ColumnarToRow" in l for l in lines),
          "EXPLAIN over Parquet: the lookups run a batch at a time (SpindexBatch), read into rows after")
    check(all(f in batch[0] for f in ("try_spindex_label", "try_spindex_lookup", "try_spindex_contains")),
          "EXPLAIN over Parquet: label, lookup and contains in the batch operator")
    check(any("Project" in l and "try_spindex_ip" in l for l in lines),
          "EXPLAIN over Parquet: spindex_ip in the projection above it")


def wrong_line(stderr, version, module):
    lines = open(stderr, encoding="utf-8", errors="replace").read().splitlines()
    ours = [l for l in lines if "spindex: spindex-spark-" in l]
    check(len(ours) >= 1, "a jar of another line: %s" % (ours[0] if ours else lines[-3:]))
    check("but this session runs Spark %s / Scala" % version in ours[0] and ours[0].endswith("use spindex-spark-"
          + module.replace("spark-", "", 1)), "the line names Spark %s and spindex-spark-%s" % (version, module[6:]))
    check(not any(l.lstrip().startswith("at ") for l in lines) and not any("AbstractMethodError" in l for l in lines),
          "no stack trace, no AbstractMethodError")


if __name__ == "__main__":
    if sys.argv[1] == "pyspark":
        pyspark_checks(*sys.argv[2:6])
    elif sys.argv[1] == "counts":
        counts(*sys.argv[2:5])
    elif sys.argv[1] == "functions":
        functions(*sys.argv[2:6])
    elif sys.argv[1] == "errors":
        errors(sys.argv[2])
    elif sys.argv[1] == "errors-names-only":
        errors(sys.argv[2], names_only=True)
    elif sys.argv[1] == "ansi-error":
        ansi_error(*sys.argv[2:4])
    elif sys.argv[1] == "explain":
        explain(sys.argv[2])
    elif sys.argv[1] == "explain-batch":
        explain_batch(sys.argv[2])
    elif sys.argv[1] == "wrong-line":
        wrong_line(*sys.argv[2:5])
    else:
        sys.exit("usage: it_sql.py pyspark|counts ...")
