"""Python side of scripts/it-python-package: the two-line setup of the installed wheel,

    import spindex
    spark = spindex.configure(SparkSession.builder).getOrCreate()

in local mode, then spindex_label in SQL and spindex.label in the Column API, against the reference
of it_connect.py (bisect over the range text). Then, in the same session, spindex.udf's Python UDFs
(Arrow UDFs on pyspark 4.1 and later, pandas UDFs before) over indexes shipped with
spindex.udf.ship (SparkContext.addFile) and found by the workers in SparkFiles: every row against
the JVM's try_ function of the same session. Usage:

  it_package.py udf-data WORK    (from WORK/ranges6.txt: typed.txt, its ranges with typed labels,
                                  and edges.txt, addresses at and around range ends in several forms)
  it_package.py snippet WORK     (WORK holds ranges.txt, ranges.spx, queries.txt, and for the UDFs
                                  ranges6.spx, typed.spx, set.spx, udf-queries.txt)
  it_package.py no-jar           (a wheel without jars: configure() fails in one line)
"""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from it_connect import Reference, check, read_queries  # noqa: E402


def snippet(work):
    import pyspark
    from pyspark.sql import SparkSession
    import spindex

    spark = spindex.configure(SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                              .config("spark.ui.showConsoleProgress", "false")
                              # several Arrow batches a Python worker: its index is opened once
                              .config("spark.sql.execution.arrow.maxRecordsPerBatch", "500")
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
    udfs(spark, work)
    spark.stop()


# The typed index's label fields (every type --label-fields can declare; udf-data writes them to
# typed-fields.txt for the build) and how typed.txt makes each range's label from its row number:
# NULLs (\\N), empty fields, the bigint extremes, a uint64 beyond a BIGINT.
TYPED_FIELDS = "country,lat:double,asn:bigint,anycast:boolean,id:decimal(20,0)"


def typed_label(i, country):
    lat = "\\N" if i % 11 == 0 else "" if i % 13 == 0 else "%.4f" % ((i * 7919 % 180000) / 1000.0 - 90)
    asn = ("\\N" if i % 7 == 0 else "9223372036854775807" if i % 17 == 0 else
           "-9223372036854775808" if i % 19 == 0 else str(i * 104729 % 400000))
    anycast = "\\N" if i % 5 == 0 else "true" if i % 3 == 0 else "false"
    uid = "\\N" if i % 23 == 0 else "18446744073709551615" if i % 31 == 0 else str(i * 7)
    return "|".join(("\\N" if i % 29 == 0 else country, lat, asn, anycast, uid))


def udf_data(work):
    import ipaddress

    with open(os.path.join(work, "ranges6.txt"), encoding="utf-8") as f:
        ranges = [line.rstrip("\n").split("|")[:3] for line in f]
    with open(os.path.join(work, "typed-fields.txt"), "w", encoding="utf-8") as out:
        out.write(TYPED_FIELDS)
    with open(os.path.join(work, "typed.txt"), "w", encoding="utf-8") as out:
        for i, (start, end, country) in enumerate(ranges):
            out.write("%s|%s|%s\n" % (start, end, typed_label(i, country)))
    with open(os.path.join(work, "edges.txt"), "w", encoding="utf-8") as out:
        for i, (start, end, _) in enumerate(ranges[::10]):
            a, b = ipaddress.ip_address(start), ipaddress.ip_address(end)
            texts = [str(a), str(b)]
            if b < ipaddress.ip_address(2 ** (32 if a.version == 4 else 128) - 1):
                texts.append(str(b + 1))
            if i % 4 == 0:  # other forms of the same address
                if a.version == 4:
                    texts += ["::ffff:%s" % a, "%s:8080" % a, " %s" % a, "0%s" % a]
                else:
                    texts += [a.exploded.upper(), "[%s]:443" % a, "[%s]" % b, "%s%%eth0" % a]
            out.write("".join(t + "\n" for t in texts))


def udfs(spark, work):
    """spindex.udf.label (ranges6.spx, IPv4 and IPv6), lookup (typed.spx) and contains (set.spx)
    over udf-queries.txt (malformed inputs, IPv6, NULL), the indexes shipped with
    spindex.udf.ship: every row the answer of the JVM's try_ function in this session. A pandas UDF
    (pyspark before 4.1) answers a lookup that finds nothing (a miss, an unparseable or NULL input)
    with a struct of NULL fields, as udf.py documents: asserted as such."""
    import pyspark
    from pyspark.sql import functions as F
    import spindex.udf

    from it_connect import plain

    kind = "Arrow" if hasattr(F, "arrow_udf") else "pandas"
    check(kind == ("pandas" if pyspark.__version__.startswith("3.") else "Arrow"),
          "pyspark %s: spindex.udf makes %s UDFs" % (pyspark.__version__, kind))
    # Shipped from a directory of their own, under names found nowhere else: the UDFs name a
    # directory that does not exist, so the driver (lookup's type) and the Python workers can
    # only find them in SparkFiles.
    shipped = os.path.join(work, "ship")
    os.makedirs(shipped, exist_ok=True)
    paths = {}
    for name in ("ranges6.spx", "typed.spx", "set.spx"):
        copy = os.path.join(shipped, "shipped-" + name)
        shutil.copyfile(os.path.join(work, name), copy)
        check(spindex.udf.ship(spark, copy) == copy, "spindex.udf.ship(spark, %s): addFile" % name)
        paths[name] = os.path.join(work, "not-here", "shipped-" + name)
    with open(os.path.join(work, "udf-queries.txt"), encoding="utf-8") as f:
        texts = [t.rstrip("\n") for t in f] + [None]
    df = spark.createDataFrame(list(enumerate(texts)), "id INT, ip STRING").repartition(3)
    df.createOrReplaceTempView("u")
    label, lookup, contains = (spindex.udf.label(paths["ranges6.spx"]),
                               spindex.udf.lookup(paths["typed.spx"]),
                               spindex.udf.contains(paths["set.spx"]))
    rows = df.select("id", label("ip"), lookup("ip"), contains("ip")).collect()
    got = {r[0]: (r[1], plain(r[2]), r[3]) for r in rows}
    jvm_rows = spark.sql(
        "SELECT id, try_spindex_label(ip, '%s'), try_spindex_lookup(ip, '%s'), "
        "try_spindex_contains(ip, '%s') FROM u" % tuple(os.path.join(work, n) for n in
                                                         ("ranges6.spx", "typed.spx", "set.spx"))
    ).collect()
    jvm = {r[0]: (r[1], plain(r[2]), r[3]) for r in jvm_rows}
    check(len(got) == len(texts) and sorted(got) == sorted(jvm) == list(range(len(texts))),
          "%d rows through the UDFs and the JVM functions" % len(texts))
    # Split as --label-fields splits: at commas outside parentheses (decimal(20,0) is one entry).
    fields = [f.split(":")[0] for f in re.split(r",(?![^()]*\))", TYPED_FIELDS)]
    null_struct = dict.fromkeys(fields)
    for what, i in (("label", 0), ("lookup", 1), ("contains", 2)):
        if what == "lookup" and kind == "pandas":
            want = {k: (null_struct if v[i] is None else v[i]) for k, v in jvm.items()}
            how = "the JVM's, a struct of NULL fields where it is NULL (a pandas UDF)"
        else:
            want = {k: v[i] for k, v in jvm.items()}
            how = "the JVM's"
        bad = [(texts[k], got[k][i], want[k]) for k in sorted(got) if got[k][i] != want[k]]
        check(not bad, "spindex.udf.%s (%s UDF): %d rows equal %s%s"
              % (what, kind, len(texts), how, "; first: %r" % (bad[:3],) if bad else ""))
    # The inputs exercise every kind of answer.
    v6 = {k for k, t in enumerate(texts) if t is not None and ":" in t and "." not in t}
    labels = [k for k, v in jvm.items() if v[0] is not None]
    structs = [v[1] for v in jvm.values() if v[1] is not None]
    check(any(k in v6 for k in labels) and any(k not in v6 for k in labels)
          and sum(1 for v in jvm.values() if v[0] is None) > 20,
          "label: %d hits (%d IPv6), %d NULL" % (len(labels), sum(1 for k in labels if k in v6),
                                                 sum(1 for v in jvm.values() if v[0] is None)))
    check(all(any(s[f] is None for s in structs) and any(s[f] is not None for s in structs)
              for f in fields),
          "lookup: %d structs, every field both NULL and not" % len(structs))
    answers = [v[2] for v in jvm.values()]
    check(answers.count(True) > 20 and answers.count(False) > 20 and answers.count(None) > 20,
          "contains: %d true, %d false, %d NULL" % (answers.count(True), answers.count(False),
                                                   answers.count(None)))


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
    if sys.argv[1:2] == ["udf-data"]:
        udf_data(sys.argv[2])
    elif sys.argv[1:2] == ["snippet"]:
        snippet(sys.argv[2])
    elif sys.argv[1:2] == ["no-jar"]:
        no_jar()
    else:
        sys.exit("usage: it_package.py udf-data WORK | snippet WORK | no-jar")
