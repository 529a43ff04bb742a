"""Python side of scripts/it-spark-connect: every Spindex function and its try_ twin, through the
spindex package (Column API) and through SQL, checked against a reference computed here (bisect
over the range text, ipaddress for canonical text; independent of Spindex) and between a Spark
Connect session and a classic one. Usage:

  it_connect.py remote sc://HOST:PORT WORK   (server with the extension; writes WORK/remote.json;
                                              then every Spindex error, it_errors.py)
  spark-submit --jars JAR --conf spark.sql.extensions=... it_connect.py classic WORK
                                             (classic local session; writes WORK/classic.json)
  it_connect.py same WORK                    (remote.json and classic.json hold the same answers)
  it_connect.py bare sc://HOST:PORT WORK     (server without the extension, names-only, the indexes
                                              shipped with --files: register() and a call fail with
                                              the one-line message; then the Java UDFs and their
                                              errors)
  it_connect.py nojar sc://HOST:PORT WORK    (server without any Spindex jar: spindex.udf's Python
                                              UDFs, the index shipped as artifacts, answer as the
                                              JVM functions did in remote.json)

WORK holds ranges.txt (geo, configured as spark.spindex.index.geo on the server), ranges.spx,
fields.spx (the same ranges with --label-fields country,region,city,isp), set.txt and set.spx, and
queries.txt (one address text a line). Prints one line per check; exits non-zero on the first
mismatch.
"""
import bisect
import ipaddress
import json
import os
import sys

FIELDS = ("country", "region", "city", "isp")
checks = 0


def check(ok, what):
    global checks
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        sys.exit(1)
    checks += 1


class Reference:
    """What every function must answer, from the text side data."""

    def __init__(self, work):
        rows = []
        with open(os.path.join(work, "ranges.txt"), encoding="utf-8") as f:
            for line in f:
                s, e, label = line.rstrip("\n").split("|", 2)
                rows.append((int(ipaddress.IPv4Address(s)), int(ipaddress.IPv4Address(e)), label))
        rows.sort()
        self.starts = [r[0] for r in rows]
        self.rows = rows
        self.members = set()
        if os.path.exists(os.path.join(work, "set.txt")):  # it_package.py has ranges only
            with open(os.path.join(work, "set.txt"), encoding="utf-8") as f:
                self.members = {ipaddress.ip_address(t.strip()) for t in f if t.strip()}

    @staticmethod
    def address(text):
        if "%" in text:  # ipaddress takes IPv6 zone ids (fe80::1%eth0); an index has no zones
            return None
        try:
            return ipaddress.ip_address(text)
        except ValueError:
            return None

    def label(self, a):
        if a is None or a.version != 4:  # geo is an IPv4 index
            return None
        r = bisect.bisect_right(self.starts, int(a)) - 1
        return self.rows[r][2] if r >= 0 and self.rows[r][1] >= int(a) else None

    def answers(self, text):
        """{function: answer} for one input text (None: SQL NULL)."""
        a = None if text is None else self.address(text)
        label = self.label(a)
        return {
            "label": label,
            "lookup": None if label is None else {"label": label},
            "lookup_fields": None if label is None else dict(zip(FIELDS, label.split("|"))),
            "contains": None if a is None else a in self.members,
            "ip": None if a is None else str(a),
        }


def read_queries(work):
    with open(os.path.join(work, "queries.txt"), encoding="utf-8") as f:
        texts = [t.rstrip("\n") for t in f]
    return texts + [None]


def plain(v):
    """A collected value as JSON-able data (a STRUCT Row as a dict)."""
    return v.asDict() if hasattr(v, "asDict") else v


# (function, try twin, SQL name, index argument: name of the WORK file or the configured name)
FUNCTIONS = [
    ("label", "try_label", "spindex_label", "geo"),
    ("lookup", "try_lookup", "spindex_lookup", "geo"),
    ("lookup_fields", None, "spindex_lookup", "fields.spx"),
    ("contains", "try_contains", "spindex_contains", "set.spx"),
    ("ip", "try_ip", "spindex_ip", None),
]


def run_queries(spark, work, quiet=None):
    """Every function through the package and SQL: the plain ones over the parseable inputs, the
    try_ ones over all. Returns {query name: [[id, answer], ...]}, and checks it against the
    reference."""
    import spindex
    from pyspark.sql import functions as F

    ref = Reference(work)
    texts = read_queries(work)
    want = [ref.answers(t) for t in texts]
    df = spark.createDataFrame(list(enumerate(texts)), "id INT, ip STRING")
    df.createOrReplaceTempView("q")
    valid = [i for i, t in enumerate(texts) if t is None or Reference.address(t) is not None]
    check(len(valid) < len(texts) - 20 and len(valid) > len(texts) // 2,
          "%d inputs, %d of them parseable or NULL" % (len(texts), len(valid)))
    spark.createDataFrame([(i, texts[i]) for i in valid], "id INT, ip STRING").createOrReplaceTempView("v")
    v = spark.table("v")

    def arg(index):
        return None if index is None else (index if "." not in index else os.path.join(work, index))

    answers = {}
    for fn, try_fn, sql_name, index in FUNCTIONS:
        sql_args = "ip" if index is None else "ip, '%s'" % arg(index)
        api_args = [] if index is None else [arg(index)]
        # Column API: a Column for some, a column name for others (both paths of remote detection).
        col = F.col("ip") if fn in ("label", "contains") else "ip"
        sql_label = sql_name + (" " + index if index and "." in index else "")
        runs = [("api " + fn, v, getattr(spindex, fn.split("_")[0])(col, *api_args), valid),
                ("sql " + sql_label, None, "SELECT id, %s(%s) FROM v" % (sql_name, sql_args), valid)]
        if try_fn:
            runs += [("api " + try_fn, df, getattr(spindex, try_fn)(col, *api_args), range(len(texts))),
                     ("sql try_" + sql_name, None, "SELECT id, try_%s(%s) FROM q" % (sql_name, sql_args),
                      range(len(texts)))]
        for name, frame, query, ids in runs:
            rows = (spark.sql(query) if frame is None else frame.select("id", query)).collect()
            got = sorted([r[0], plain(r[1])] for r in rows)
            expected = [[i, want[i][fn]] for i in ids]
            bad = [(texts[i], g, e) for (i, g), (_, e) in zip(got, expected) if g != e]
            check(len(got) == len(expected) and not bad,
                  "%s: %d rows equal the reference%s" % (name, len(got), "; first: %r" % (bad[:3],) if bad else ""))
            answers[name] = got
    hits = sum(1 for w in want if w["label"] is not None)
    members = sum(1 for w in want if w["contains"])
    check(hits > len(texts) // 4 and members > 20,
          "the inputs exercise both answers: %d in a range, %d in the set" % (hits, members))

    # ANSI mode (Spark 4's default): the plain functions fail on an unparseable address, naming it.
    if quiet:
        quiet()  # the failing tasks' expected stack traces
    for name, query in (("label", spindex.label(F.lit("host-1.example"), "geo")),
                        ("ip", spindex.ip(F.lit("host-1.example")))):
        try:
            spark.range(1).select(query).collect()
            check(False, "an unparseable address fails in ANSI mode")
        except Exception as e:  # pyspark's server-side error types differ between modes
            check("SPINDEX_INVALID_ADDRESS" in str(e) and "host-1.example" in str(e),
                  "ANSI: spindex.%s('host-1.example') fails with SPINDEX_INVALID_ADDRESS naming the value"
                  % name)
    return answers


# spindex.udf function, the index file, the JVM query of remote.json / classic.json it must equal
# (the try_ twins: a Python UDF answers NULL for an unparseable address, as they do).
UDFS = [("label", "ranges.spx", "api try_label"), ("lookup", "fields.spx", None),
        ("contains", "set.spx", "api try_contains")]


def make_udfs(paths):
    """spindex.udf's UDFs over the index files ``paths`` (name -> path; lookup reads its STRUCT
    type from the file here, on the driver or client)."""
    import spindex.udf

    return {fn: getattr(spindex.udf, fn)(paths[f]) for fn, f, _ in UDFS}


def udf_queries(spark, work, udfs, jvm):
    """spindex.udf's UDFs over every input: the same answers as the JVM functions (``jvm``, the
    answers of run_queries), and for lookup on fields.spx the reference's fields."""
    ref = Reference(work)
    texts = read_queries(work)
    df = spark.createDataFrame(list(enumerate(texts)), "id INT, ip STRING")
    df.createOrReplaceTempView("q")
    for fn, f, query in UDFS:
        got = sorted([r[0], plain(r[1])] for r in df.select("id", udfs[fn]("ip")).collect())
        if query:
            want = jvm[query]
        else:
            want = [[i, a["lookup_fields"]] for i, a in enumerate(ref.answers(t) for t in texts)]
        bad = [(texts[g[0]], g, w) for g, w in zip(got, want) if g != w]
        check(len(got) == len(want) and not bad,
              "spindex.udf.%s(%s): %d rows equal the %s%s" % (
                  fn, f, len(got), "JVM's %s" % query if query else "reference",
                  "; first: %r" % (bad[:3],) if bad else ""))
    spark.udf.register("py_spindex_label", udfs["label"])
    rows = sorted([r[0], r[1]] for r in spark.sql("SELECT id, py_spindex_label(ip) FROM q").collect())
    check(rows == jvm["api try_label"], "spark.udf.register(spindex.udf.label(...)) in SQL: the same")


def nojar(url, work):
    import shutil

    from pyspark.sql import SparkSession
    import spindex.udf

    spark = SparkSession.builder.remote(url).getOrCreate()
    check(type(spark).__module__.startswith("pyspark.sql.connect."), "a Spark Connect session")
    functions = spark.sql("SHOW FUNCTIONS LIKE 'spindex*'").collect()
    jars = spark.conf.get("spark.jars", "")
    check(not functions and "spindex" not in jars,
          "the server has no Spindex jar (spark.jars %r) and no Spindex function" % jars)
    with open(os.path.join(work, "remote.json"), encoding="utf-8") as f:
        jvm = json.load(f)
    # Shipped from a directory of the client that is gone when the queries run: the workers can
    # only answer from the session's artifacts.
    ship = os.path.join(work, "client-only")
    os.makedirs(ship, exist_ok=True)
    paths = {}
    for _, name, _ in UDFS:
        shutil.copyfile(os.path.join(work, name), os.path.join(ship, name))
        paths[name] = spindex.udf.ship(spark, os.path.join(ship, name))
    udfs = make_udfs(paths)
    shutil.rmtree(ship)
    udf_queries(spark, work, udfs, jvm)
    spark.stop()


def remote(url, work):
    from pyspark.sql import SparkSession
    import spindex
    from spindex import _functions

    spark = SparkSession.builder.remote(url).getOrCreate()
    check(type(spark).__module__.startswith("pyspark.sql.connect."), "a Spark Connect session")
    spindex.register(spark)
    check(spark in _functions._seen, "register(): the server has the functions (asked once)")
    spindex.register(spark)
    check(spark.conf.get("spark.sql.ansi.enabled") == "true", "ANSI mode on (Spark 4's default)")
    answers = run_queries(spark, work)
    with open(os.path.join(work, "remote.json"), "w", encoding="utf-8") as f:
        json.dump(answers, f, sort_keys=True)
    # Every Spindex error through Spark Connect: pyspark.errors' typed exceptions with Spindex's
    # conditions and SQLSTATEs (it_errors.py).
    import it_errors

    it_errors.errors(spark, work, False)
    global checks
    checks += it_errors.checks
    spark.stop()


def classic(work):
    from pyspark.sql import SparkSession
    import spindex

    spark = SparkSession.builder.getOrCreate()
    check(not type(spark).__module__.startswith("pyspark.sql.connect."), "a classic session")
    spindex.register(spark)
    answers = run_queries(spark, work, quiet=lambda: spark.sparkContext.setLogLevel("OFF"))
    # spindex.udf on the classic session: the index by SparkContext.addFile, the UDFs naming the
    # file only (found in SparkFiles), against the JVM functions of this same session.
    import shutil

    import spindex.udf

    paths = {}
    os.makedirs(os.path.join(work, "addfile"), exist_ok=True)
    for _, name, _ in UDFS:
        shipped = os.path.join(work, "addfile", "addfile-" + name)
        shutil.copyfile(os.path.join(work, name), shipped)
        spindex.udf.ship(spark, shipped)
        paths[name] = "addfile-" + name
    cwd = os.getcwd()
    os.chdir("/")  # not the work directory: the name is found in SparkFiles only
    try:
        udfs = make_udfs(paths)
    finally:
        os.chdir(cwd)
    udf_queries(spark, work, udfs, answers)
    with open(os.path.join(work, "classic.json"), "w", encoding="utf-8") as f:
        json.dump(answers, f, sort_keys=True)
    spark.stop()


def same(work):
    with open(os.path.join(work, "remote.json"), encoding="utf-8") as f:
        remote_answers = json.load(f)
    with open(os.path.join(work, "classic.json"), encoding="utf-8") as f:
        classic_answers = json.load(f)
    check(sorted(remote_answers) == sorted(classic_answers), "the same %d queries" % len(remote_answers))
    for name in sorted(remote_answers):
        check(remote_answers[name] == classic_answers[name],
              "%s: Spark Connect and classic give the same %d answers" % (name, len(remote_answers[name])))


def bare(url, work):
    from pyspark.sql import SparkSession
    import spindex

    spark = SparkSession.builder.remote(url).getOrCreate()
    expected = ("spindex: the Spark Connect server has no function spindex_label: start the server"
                " with the job jar (--jars spindex-spark-4.x_2.13-")
    extension = "and --conf spark.sql.extensions=io.spindex.spark.sql.SpindexExtensions"
    udf = ('spark.udf.registerJavaFunction("spindex_label", "io.spindex.spark.sql.SpindexUdfs$Label",'
           ' "string")')
    for what, attempt in (("register(spark)", lambda: spindex.register(spark)),
                          ("spindex.label(...)", lambda: spindex.label("ip", "geo"))):
        try:
            attempt()
            check(False, "%s fails on a server without the extension" % what)
        except spindex.SpindexUnavailableError as e:
            text = str(e)
            print("      " + text)
            check(isinstance(e, RuntimeError) and e.__cause__ is None and e.__context__ is None
                  and "\n" not in text and text.startswith(expected) and extension in text and udf in text,
                  "%s: one line naming the server's missing configuration" % what)
    for what, attempt in (("spindex.label(\"ip\", 5)", lambda: spindex.label("ip", 5)),
                          ("spindex.lookup(3.5, \"geo\")", lambda: spindex.lookup(3.5, "geo")),
                          ("spindex.contains(\"ip\", \"\")", lambda: spindex.contains("ip", ""))):
        try:
            attempt()
            check(False, "%s is refused" % what)
        except TypeError as e:
            print("      " + str(e))
            check("\n" not in str(e) and str(e).startswith("spindex_"),
                  "%s: a TypeError naming the function, before any call" % what)
    try:
        spindex.try_lookup("ip", "geo")
        check(False, "try_lookup fails on a server without the extension")
    except spindex.SpindexUnavailableError as e:
        check("try_spindex_lookup" in str(e) and "registerJavaFunction" not in str(e),
              "try_lookup: the message offers the extension only (no Java UDF for it)")

    # The message's other remedy: the jar is on this server's class path; register the Java UDFs.
    for name, cls, kind in (("spindex_label", "Label", "string"), ("spindex_contains", "Contains", "boolean"),
                            ("spindex_ip", "Ip", "string")):
        spark.udf.registerJavaFunction(name, "io.spindex.spark.sql.SpindexUdfs$" + cls, kind)
    spindex.register(spark)
    check(True, "register(spark) passes once the Java UDFs are registered")
    ref = Reference(work)
    texts = read_queries(work)
    df = spark.createDataFrame(list(enumerate(texts)), "id INT, ip STRING")
    # A shared server (spark.spindex.sql.names-only): the indexes by the names they were shipped as.
    rows = df.select("id", spindex.label("ip", "ranges.spx"),
                     spindex.contains("ip", "set.spx"), spindex.ip("ip")).collect()
    got = sorted([r[0], r[1], r[2], r[3]] for r in rows)
    want = [[i, a["label"], a["contains"], a["ip"]] for i, a in enumerate(ref.answers(t) for t in texts)]
    bad = [(texts[g[0]], g, w) for g, w in zip(got, want) if g != w]
    check(not bad, "Java UDFs through spindex.label/contains/ip: %d rows equal the reference%s"
          % (len(got), "; first: %r" % (bad[:3],) if bad else ""))
    # The UDF's errors there: a path refused, a name not shipped named as given.
    import it_errors

    it_errors.udf_names_only(spark, work, False, "ranges.spx")
    print("      " + it_errors.received_line())
    global checks
    checks += it_errors.checks
    spark.stop()


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "remote":
        remote(sys.argv[2], sys.argv[3])
    elif mode == "classic":
        classic(sys.argv[2])
    elif mode == "same":
        same(sys.argv[2])
    elif mode == "bare":
        bare(sys.argv[2], sys.argv[3])
    elif mode == "nojar":
        nojar(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: it_connect.py remote|classic|same|bare|nojar ...")
    print("%s: %d checks passed" % (mode, checks))
