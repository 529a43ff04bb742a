"""Python side of scripts/it-python-package: the two-line setup of the installed wheel,

    import spindex
    spark = spindex.configure(SparkSession.builder).getOrCreate()

in local mode, then spindex_label in SQL and spindex.label in the Column API, against the reference
of it_connect.py (bisect over the range text). Usage:

  it_package.py snippet WORK     (WORK holds ranges.txt, ranges.spx, queries.txt)
  it_package.py no-jar           (a wheel without jars: configure() fails in one line)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from it_connect import Reference, check, read_queries  # noqa: E402


def snippet(work):
    import pyspark
    from pyspark.sql import SparkSession
    import spindex

    spark = spindex.configure(SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
                              .config("spark.ui.showConsoleProgress", "false")
                              .config("spark.spindex.index.geo", os.path.join(work, "ranges.spx"))).getOrCreate()
    line = "3.5_2.12" if pyspark.__version__.startswith("3.5") else "4.x_2.13"
    jar = spark.conf.get("spark.jars")
    check(os.path.basename(jar).startswith("spindex-spark-%s-" % line) and os.path.dirname(jar).endswith("spindex/jars"),
          "pyspark %s: configure() put the wheel's %s jar on spark.jars" % (pyspark.__version__, line))
    ref = Reference(work)
    texts = [t for t in read_queries(work) if t is None or Reference.address(t) is not None]
    want = sorted([i, ref.answers(t)["label"]] for i, t in enumerate(texts))
    df = spark.createDataFrame(list(enumerate(texts)), "id INT, ip STRING")
    df.createOrReplaceTempView("q")
    sql = sorted([r[0], r[1]] for r in spark.sql("SELECT id, spindex_label(ip, 'geo') FROM q").collect())
    check(sql == want, "SQL spindex_label(ip, 'geo'): %d rows equal the reference" % len(sql))
    api = sorted([r[0], r[1]] for r in df.select("id", spindex.label("ip", "geo")).collect())
    check(api == want, "Column API spindex.label('ip', 'geo'): %d rows equal the reference" % len(api))
    hits = sum(1 for _, label in want if label is not None)
    check(hits > len(want) // 4, "%d of %d inputs in a range" % (hits, len(want)))
    spark.stop()


def no_jar():
    import pyspark
    import spindex

    try:
        spindex.configure(object())
        check(False, "configure() fails when the package carries no jar")
    except spindex.SpindexUnavailableError as e:
        print("      " + str(e))
        check("\n" not in str(e) and ("Spark %s" % pyspark.__version__) in str(e) and "carries: none" in str(e),
              "no jar for pyspark %s: one line naming the version" % pyspark.__version__)


if __name__ == "__main__":
    if sys.argv[1:2] == ["snippet"]:
        snippet(sys.argv[2])
    elif sys.argv[1:2] == ["no-jar"]:
        no_jar()
    else:
        sys.exit("usage: it_package.py snippet WORK | no-jar")
