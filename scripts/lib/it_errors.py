"""Every Spindex error a Spark SQL session can meet, tried from Python (PySpark classic or Spark
Connect), each checked to arrive as Spark's own errors do: pyspark.errors' typed exception
(AnalysisException, SparkRuntimeException) with Spindex's error condition and its documented
SQLSTATE (docs/SPARK.md, written out here), a one-line message of at most 400 characters that
starts with the condition and names the function. Where Spark itself wraps an error on its way (a
task's error on Spark 3.5, a Java UDF's error on every line), the check is that Spindex's error is
treated exactly as Spark's own of the same kind (CAST under ANSI mode, for a task's) and is the
cause inside. Used by it_sql.py (classic, every Spark line) and it_connect.py (Spark Connect).

  spark-submit [--jars JOB_JAR --conf spark.sql.extensions=...] it_errors.py probe WORK [sc://...]
      (print what each case raises; checks nothing: for a jar of before a change)
  it_errors.py sql WORK          (the cases as a spark-sql script, on stdout)
  it_errors.py check-sql OUTPUT WORK   (spark-sql's output of that script, checked)

WORK holds ranges.txt, ranges.spx (configured as spark.spindex.index.geo) and set.spx; the cases
make the other files they need there. Prints one line per case and exits non-zero on the first
mismatch.
"""
import os
import sys

# The documented SQLSTATE of each condition (docs/SPARK.md "Errors").
STATE = {
    "SPINDEX_WRONG_NUM_ARGS": "42605",
    "SPINDEX_INDEX_NOT_CONSTANT": "42K08",
    "SPINDEX_INDEX_NULL": "22004",
    "SPINDEX_INDEX_NAME_EMPTY": "22023",
    "SPINDEX_INDEX_NOT_FOUND": "42704",
    "SPINDEX_INDEX_NOT_CONFIGURED": "42704",
    "SPINDEX_INDEX_FILE_NOT_FOUND": "42K03",
    "SPINDEX_NOT_AN_INDEX": "22000",
    "SPINDEX_INDEX_READ_FAILED": "58030",
    "SPINDEX_WRONG_INDEX_KIND": "42809",
    "SPINDEX_INVALID_LOADER": "22022",
    "SPINDEX_INVALID_SETTING": "22022",
    "SPINDEX_UNKNOWN_SETTING": "42704",
    "SPINDEX_INDEX_TOO_OLD": "55000",
    "SPINDEX_INVALID_ADDRESS": "22018",
    "SPINDEX_INDEX_NOT_SHIPPED": "42704",
    "SPINDEX_INDEX_PATH_REFUSED": "42501",
}

# The longest message a Spindex error may have (its values are cut: io.spindex.text.Clip).
MAX_MESSAGE = 400

LONG = 1000000

# (case, Spark conf to set first or None, SQL, condition, start of the message after the
# condition). {w} is WORK. The query fails when it is analysed, before any task runs.
ANALYSIS = [
    ("unknown name", None, "SELECT spindex_label('8.8.8.8', 'nosuch')",
     "SPINDEX_INDEX_NOT_FOUND", "spindex_label: no index named 'nosuch'"),
    ("missing file", None, "SELECT spindex_label('8.8.8.8', '{w}/missing.spx')",
     "SPINDEX_INDEX_FILE_NOT_FOUND", "spindex_label: no index file at {w}/missing.spx."),
    ("directory", None, "SELECT spindex_label('8.8.8.8', '{w}/adir')",
     "SPINDEX_NOT_AN_INDEX", "spindex_label: {w}/adir is not a Spindex index: a directory"),
    ("not an index", None, "SELECT spindex_label('8.8.8.8', '{w}/ranges.txt')",
     "SPINDEX_NOT_AN_INDEX", "spindex_label: {w}/ranges.txt is not a Spindex index: header"),
    ("damaged index", None, "SELECT spindex_lookup('8.8.8.8', '{w}/damaged.spx')",
     "SPINDEX_NOT_AN_INDEX", "spindex_lookup: {w}/damaged.spx is not a Spindex index: section"),
    ("truncated index", None, "SELECT spindex_label('8.8.8.8', '{w}/truncated.spx')",
     "SPINDEX_NOT_AN_INDEX", "spindex_label: {w}/truncated.spx is not a Spindex index: header"),
    ("contains of a range index", None, "SELECT spindex_contains('8.8.8.8', 'geo')",
     "SPINDEX_WRONG_INDEX_KIND", "spindex_contains needs a set index, but {w}/ranges.spx is"),
    ("label of a set index", None, "SELECT spindex_label('8.8.8.8', '{w}/set.spx')",
     "SPINDEX_WRONG_INDEX_KIND", "spindex_label needs a range index, but {w}/set.spx is"),
    ("try_lookup of a set index", None, "SELECT try_spindex_lookup('8.8.8.8', '{w}/set.spx')",
     "SPINDEX_WRONG_INDEX_KIND", "try_spindex_lookup needs a range index"),
    ("bad loader", ("spark.spindex.loader", "bogus"), "SELECT spindex_label('8.8.8.8', 'geo')",
     "SPINDEX_INVALID_LOADER", "spindex_label: spark.spindex.loader: unknown loader 'bogus'"),
    ("unknown setting", ("spark.spindex.sql.namesOnly", "true"),
     "SELECT spindex_label('8.8.8.8', 'geo')", "SPINDEX_UNKNOWN_SETTING",
     "spindex_label: unknown setting spark.spindex.sql.namesOnly (nearest: spark.spindex.sql.names-only)"),
    ("max-age no age", ("spark.spindex.max-age", "month"),
     "SELECT spindex_label('8.8.8.8', 'geo')", "SPINDEX_INVALID_SETTING",
     "spindex_label: spark.spindex.max-age: expected an age"),
    ("non-constant index", None,
     "SELECT spindex_label(CAST(id AS STRING), CAST(id AS STRING)) FROM range(1)",
     "SPINDEX_INDEX_NOT_CONSTANT", "spindex_label: the index must be a constant STRING"),
    ("NULL index", None, "SELECT spindex_label('8.8.8.8', NULL)",
     "SPINDEX_INDEX_NULL", "spindex_label: the index is NULL"),
    ("NULL STRING index", None, "SELECT spindex_contains('8.8.8.8', CAST(NULL AS STRING))",
     "SPINDEX_INDEX_NULL", "spindex_contains: the index is NULL"),
    ("INT index", None, "SELECT spindex_label('8.8.8.8', 5)",
     "SPINDEX_INDEX_NOT_CONSTANT", "spindex_label: the index must be a constant STRING"),
    ("one argument", None, "SELECT spindex_label('8.8.8.8')",
     "SPINDEX_WRONG_NUM_ARGS", "spindex_label takes 2 arguments (ip, index), not 1."),
    ("three arguments", None, "SELECT spindex_label('8.8.8.8', 'geo', 'x')",
     "SPINDEX_WRONG_NUM_ARGS", "spindex_label takes 2 arguments (ip, index), not 3."),
    ("spindex_ip of two", None, "SELECT spindex_ip('8.8.8.8', 'geo')",
     "SPINDEX_WRONG_NUM_ARGS", "spindex_ip takes 1 argument (ip), not 2."),
    ("no argument", None, "SELECT try_spindex_lookup()",
     "SPINDEX_WRONG_NUM_ARGS", "try_spindex_lookup takes 2 arguments (ip, index), not 0."),
    ("empty name", None, "SELECT spindex_label('8.8.8.8', '')",
     "SPINDEX_INDEX_NAME_EMPTY", "spindex_label: the index name is empty"),
    ("blank name", None, "SELECT spindex_contains('8.8.8.8', '   ')",
     "SPINDEX_INDEX_NAME_EMPTY", "spindex_contains: the index name is empty"),
    ("no URI", None, "SELECT spindex_label('8.8.8.8', 'a b:c')",
     "SPINDEX_INDEX_READ_FAILED", "spindex_label: cannot read the index a b:c: "),
    ("long configured path", ("spark.spindex.index.long", "/" + "x" * LONG),
     "SELECT spindex_label('8.8.8.8', 'long')", "SPINDEX_INDEX_FILE_NOT_FOUND",
     "spindex_label: no index file at /" + "x" * 99 + "...(%d chars)." % (LONG + 1)),
    ("long name", None, "SELECT spindex_label('8.8.8.8', '" + "y" * LONG + "')",
     "SPINDEX_INDEX_NOT_FOUND", "spindex_label: no index named '" + "y" * 100 + "...(%d chars)'" % LONG),
]

# (case, SQL, condition, start): under ANSI mode, an address that does not parse, read by a task
# (FROM range(1) or a Parquet file, not a local relation the optimizer would evaluate on the
# driver).
RUNTIME = [
    ("label of a bad address", "SELECT spindex_label(concat('host-', id, '.example'), 'geo') FROM range(1)",
     "SPINDEX_INVALID_ADDRESS", "spindex_label: the value 'host-0.example' of the input column concat("),
    ("lookup of a bad address", "SELECT spindex_lookup(concat('host-', id), 'geo') FROM range(1)",
     "SPINDEX_INVALID_ADDRESS", "spindex_lookup: the value 'host-0' of the input column"),
    ("contains of a bad address", "SELECT spindex_contains(concat('x', id), '{w}/set.spx') FROM range(1)",
     "SPINDEX_INVALID_ADDRESS", "spindex_contains: the value 'x0' of the input column"),
    ("ip of a bad address", "SELECT spindex_ip(concat('1.2.3.', id + 256)) FROM range(1)",
     "SPINDEX_INVALID_ADDRESS", "spindex_ip: the value '1.2.3.256' of the input column"),
    ("BIGINT out of range", "SELECT spindex_label(id - 1, 'geo') FROM range(1)",
     "SPINDEX_INVALID_ADDRESS", "spindex_label: the value -1 of the input column"),
    ("BINARY of 5 bytes", "SELECT spindex_ip(unhex(concat('0102030405', id))) FROM range(1)",
     "SPINDEX_INVALID_ADDRESS", "spindex_ip: the value X'001020304050' of the input column"),
    ("long bad address", "SELECT spindex_label(concat(repeat('z', %d), id), 'geo') FROM range(1)" % LONG,
     "SPINDEX_INVALID_ADDRESS",
     "spindex_label: the value '" + "z" * 40 + "...(%d chars)' of the input column" % (LONG + 1)),
    ("batch operator", "SELECT spindex_label(ip, 'geo') FROM parquet.`{w}/bad.parquet`",
     "SPINDEX_INVALID_ADDRESS", "spindex_label: the value 'host-"),
]

# Java UDFs (SpindexUdfs): the index is opened in the task, and Spark wraps every UDF's error in
# its own FAILED_EXECUTE_UDF.
UDFS = [
    ("UDF: name not shipped", "SELECT j_spindex_label(concat('8.8.8.', id), 'city') FROM range(1)",
     "SPINDEX_INDEX_NOT_SHIPPED", "SpindexUdfs.Label: no index named 'city' was shipped with --files."),
    ("UDF: missing file", "SELECT j_spindex_label(concat('8.8.8.', id), '{w}/missing.spx') FROM range(1)",
     "SPINDEX_INDEX_FILE_NOT_FOUND", "SpindexUdfs.Label: no index file at {w}/missing.spx."),
    ("UDF: not an index", "SELECT j_spindex_label(concat('8.8.8.', id), '{w}/ranges.txt') FROM range(1)",
     "SPINDEX_NOT_AN_INDEX", "SpindexUdfs.Label: {w}/ranges.txt is not a Spindex index: header"),
    ("UDF: a set index", "SELECT j_spindex_label(concat('8.8.8.', id), '{w}/set.spx') FROM range(1)",
     "SPINDEX_WRONG_INDEX_KIND", "SpindexUdfs.Label needs a range index, but {w}/set.spx is"),
]

# Spark's own error of the same kind as RUNTIME's, for comparison: CAST under ANSI mode in a task.
SPARK_OWN = "SELECT CAST(concat('x', id) AS INT) FROM range(1)"

# Not errors (any more): an untyped NULL address is NULL.
ANSWERS = [
    ("NULL address", "SELECT spindex_label(NULL, 'geo'), spindex_lookup(NULL, 'geo')", [(None, None)]),
    ("try_ NULL address", "SELECT try_spindex_ip(NULL), spindex_contains(NULL, '{w}/set.spx')",
     [(None, None)]),
]

checks = 0

# What Python received for each Spindex error, by type: "AnalysisException", "Py4JJavaError", ...
received = {}


def receive(e):
    name = type(e).__name__
    received[name] = received.get(name, 0) + 1


def received_line():
    return "received in Python: " + ", ".join(
        "%d %s" % (n, k) for k, n in sorted(received.items(), key=lambda kv: -kv[1]))


def check(ok, what):
    global checks
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        sys.exit(1)
    checks += 1


def files(work):
    """The broken inputs of the cases, made in WORK: a directory, a damaged and a truncated copy of
    ranges.spx (ranges.txt is the text file that is not an index)."""
    os.makedirs(os.path.join(work, "adir"), exist_ok=True)
    with open(os.path.join(work, "ranges.spx"), "rb") as f:
        data = bytearray(f.read())
    damaged = bytearray(data)
    damaged[len(damaged) // 2] ^= 0xFF  # inside a section: its checksum fails
    with open(os.path.join(work, "damaged.spx"), "wb") as f:
        f.write(damaged)
    with open(os.path.join(work, "truncated.spx"), "wb") as f:
        f.write(data[: len(data) // 2])


def run(spark, query):
    try:
        return ("rows", spark.sql(query).collect())
    except Exception as e:  # noqa: BLE001 - every kind is what this records
        return ("error", e)


def pytype(e):
    return type(e).__module__ + "." + type(e).__name__


def first_line(text):
    """A message's own line: its first, without the position Spark adds (; line 1 pos 7)."""
    import re

    line = text.strip().split("\n")[0]
    return re.sub(r";? line \d+ pos \d+;?$", "", line)


def condition_of(e):
    for getter in ("getCondition", "getErrorClass"):
        if hasattr(e, getter):
            try:
                return getattr(e, getter)()
            except Exception as inner:  # noqa: BLE001 - the NPE of issue "round 4"
                return "<%s failed: %s>" % (getter, str(inner).splitlines()[0][:160])
    return None


def describe(e):
    """What Python raised: (type name, condition, SQLSTATE, message without Spark's JVM trace)."""
    state = None
    if hasattr(e, "getSqlState"):
        try:
            state = e.getSqlState()
        except Exception as inner:  # noqa: BLE001
            state = "<getSqlState: %s>" % str(inner).splitlines()[0][:120]
    return pytype(e), condition_of(e), state, str(e).split("\n\nJVM stacktrace:")[0]


def jvm_chain(e):
    """The JVM exceptions of a Py4JJavaError, outermost first: (class, condition, message)."""
    from pyspark import SparkContext
    from py4j.java_gateway import is_instance_of

    gw = SparkContext._gateway
    out = []
    t = getattr(e, "java_exception", None)
    while t is not None and len(out) < 10:
        cond = t.getErrorClass() if is_instance_of(gw, t, "org.apache.spark.SparkThrowable") else None
        state = t.getSqlState() if cond else None
        out.append((t.getClass().getName(), cond, state, t.getMessage() or ""))
        t = t.getCause()
    return out


def is_typed(e, kind):
    """Whether ``e`` is pyspark.errors' ``kind`` (classic or Connect), not an untyped wrapper."""
    import pyspark.errors as pe

    return isinstance(e, getattr(pe, kind)) and not isinstance(e, pe.UnknownException)


def check_typed(case, e, kind, condition, starts, classic4):
    cond = condition_of(e)
    state = e.getSqlState()
    text = first_line(str(e).split("\n\nJVM stacktrace:")[0])
    check(is_typed(e, kind) and cond == condition and state == STATE[condition]
          and text.startswith("[%s] %s" % (condition, starts)) and len(text) <= MAX_MESSAGE,
          "%s: %s %s (SQLSTATE %s), %d characters: %s"
          % (case, pytype(e).split(".")[-1], cond, state, len(text), text[:150]))
    if classic4:
        # What PySpark classic 4.x calls for a logged error (the NullPointerException of before).
        m = e.getMessage()
        check(m.startswith("[%s] " % condition) and "SQLSTATE: %s" % STATE[condition] in m,
              "%s: getMessage() through SparkThrowableHelper: %s" % (case, m[:80]))


def check_wrapped(case, e, condition, starts, classic, wrapper):
    """Spindex's error inside Spark's wrapper (a Py4JJavaError in classic, the wrapper's own
    exception over Connect): the condition and message are those of Spindex's."""
    if classic:
        chain = jvm_chain(e)
        ours = [c for c in chain if c[1] == condition]
        text = first_line(ours[0][3]) if ours else ""
        check(pytype(e) == "py4j.protocol.Py4JJavaError" and ours and ours[0][2] == STATE[condition]
              and text.startswith("[%s] %s" % (condition, starts)) and len(text) <= MAX_MESSAGE
              and (wrapper is None or any(c[1] == wrapper for c in chain)),
              "%s: Py4JJavaError over %s, cause %s (SQLSTATE %s): %s"
              % (case, " > ".join(c[0].split(".")[-1] for c in chain[:3]), condition,
                 ours[0][2] if ours else None, text[:120]))
    else:
        cond = condition_of(e)
        text = str(e)
        check(cond == wrapper and "[%s] %s" % (condition, starts) in text and "userFiles" not in text,
              "%s: %s %s holding [%s] %s" % (case, pytype(e).split(".")[-1], cond, condition, starts[:60]))


def errors(spark, work, classic):
    """Every case in ``spark`` (a classic session when ``classic``, else Spark Connect), checked.
    Returns the counts of what Python received."""
    import pyspark

    files(work)
    four = pyspark.__version__.startswith("4.")
    spark.conf.set("spark.spindex.index.geo", os.path.join(work, "ranges.spx"))
    spark.conf.set("spark.sql.ansi.enabled", "true")
    bad = os.path.join(work, "bad.parquet")
    if not os.path.exists(bad):
        spark.range(3).selectExpr("concat('host-', id) AS ip").write.parquet(bad)
    counts = {"typed": 0, "wrapped as Spark's own": 0, "untyped": 0}

    for case, conf, query, condition, starts in ANALYSIS:
        if conf:
            spark.conf.set(*conf)
        what, value = run(spark, query.replace("{w}", work))
        if conf:
            spark.conf.unset(conf[0])
        check(what == "error", "%s fails" % case)
        receive(value)
        check_typed(case, value, "AnalysisException", condition, starts.replace("{w}", work), classic and four)
        counts["typed"] += 1

    # How Spark delivers its own error of a task on this line: typed, or wrapped (Spark 3.5).
    what, own = run(spark, SPARK_OWN)
    check(what == "error", "Spark's own CAST fails under ANSI mode")
    own_typed = not pytype(own).startswith("py4j.") and not is_typed(own, "UnknownException")
    print("      Spark's own CAST_INVALID_INPUT in a task arrives as %s" % pytype(own))
    for case, query, condition, starts in RUNTIME:
        what, value = run(spark, query.replace("{w}", work))
        check(what == "error", "%s fails under ANSI mode" % case)
        receive(value)
        if own_typed:
            check_typed(case, value, "SparkRuntimeException", condition, starts, classic and four)
            counts["typed"] += 1
        else:
            check_wrapped(case, value, condition, starts, classic, None)
            counts["wrapped as Spark's own"] += 1

    spark.udf.registerJavaFunction("j_spindex_label", "io.spindex.spark.sql.SpindexUdfs$Label", "string")
    for case, query, condition, starts in UDFS:
        what, value = run(spark, query.replace("{w}", work))
        check(what == "error", "%s fails" % case)
        receive(value)
        check_wrapped(case, value, condition, starts.replace("{w}", work), classic, "FAILED_EXECUTE_UDF")
        counts["wrapped as Spark's own"] += 1
    for case, query, want in ANSWERS:
        what, value = run(spark, query.replace("{w}", work))
        check(what == "rows" and [tuple(r) for r in value] == want,
              "%s: %r" % (case, value if what == "rows" else describe(value)[:2]))
    spark.conf.unset("spark.sql.ansi.enabled")
    print("      %d Spindex errors: %s" % (sum(counts.values()),
                                         ", ".join("%d %s" % (n, k) for k, n in counts.items())))
    print("      " + received_line())
    return counts


def errors_names_only(spark, work, classic, shipped):
    """On a session whose launch configuration has spark.spindex.sql.names-only=true and
    spark.spindex.index.geo naming the file ``shipped`` (shipped with --files): paths and session
    names are refused, the shipped name answers."""
    spark.conf.set("spark.spindex.index.mine", os.path.join(work, "ranges.spx"))  # a session SET
    for case, query, condition, starts in [
            ("names-only: a path", "SELECT spindex_label('8.8.8.8', '%s/ranges.spx')" % work,
             "SPINDEX_INDEX_NOT_CONFIGURED", "spindex_label: no index named '%s/ranges.spx' in" % work),
            ("names-only: a session's name", "SELECT spindex_label('8.8.8.8', 'mine')",
             "SPINDEX_INDEX_NOT_CONFIGURED", "spindex_label: no index named 'mine' in the server's")]:
        what, value = run(spark, query)
        check(what == "error", "%s fails" % case)
        receive(value)
        check_typed(case, value, "AnalysisException", condition, starts, False)
    spark.conf.unset("spark.spindex.index.mine")
    what, rows = run(spark, "SELECT spindex_label('1.0.0.1', 'geo')")
    check(what == "rows", "names-only: the launch configuration's name answers")
    udf_names_only(spark, work, classic, shipped)


def udf_names_only(spark, work, classic, shipped):
    """The Java UDF on a names-only session: a path refused, a name not shipped named as given
    (not as the executor's directory), the shipped name ``shipped`` answers."""
    spark.udf.registerJavaFunction("j_names", "io.spindex.spark.sql.SpindexUdfs$Label", "string")
    for case, query, condition, starts in [
            ("names-only UDF: a path", "SELECT j_names(concat('8.8.8.', id), '%s/ranges.spx') FROM range(1)" % work,
             "SPINDEX_INDEX_PATH_REFUSED", "SpindexUdfs.Label: '%s/ranges.spx' is a path;" % work),
            ("names-only UDF: a name not shipped", "SELECT j_names(concat('8.8.8.', id), 'city') FROM range(1)",
             "SPINDEX_INDEX_NOT_SHIPPED", "SpindexUdfs.Label: no index named 'city' was shipped with --files.")]:
        what, value = run(spark, query)
        check(what == "error", "%s fails" % case)
        receive(value)
        check_wrapped(case, value, condition, starts, classic, "FAILED_EXECUTE_UDF")
        check("userFiles" not in str(value).split("JVM stacktrace")[0].split("\n\tat ")[0],
              "%s: no executor directory in the message" % case)
    what, rows = run(spark, "SELECT j_names('1.0.0.1', '%s')" % shipped)
    check(what == "rows", "names-only UDF: the shipped name %s answers" % shipped)


MARK = "-- it_errors case: "


def sql_script(work):
    """The analysis and task cases as one spark-sql script (spark.spindex.index.geo set at launch):
    each case after a line that names it, for spark-sql with hive.cli.errors.ignore=true (it goes
    on after an error) and spark.sql.error.messageFormat=MINIMAL (an error as Spark's JSON)."""
    out = ["SET spark.sql.ansi.enabled=true;",
           # The batch operator's case reads a Parquet file of addresses that do not parse.
           "INSERT OVERWRITE DIRECTORY '%s/bad.parquet' USING parquet"
           " SELECT concat('host-', id) AS ip FROM range(3);" % work]

    def case(name, query, conf=None):
        out.append("SELECT '%s%s';" % (MARK, name))
        if conf:
            # A key with a '-' (spark.spindex.max-age) is one identifier only in backquotes.
            out.append("SET `%s`=%s;" % conf)
        out.append(query.replace("{w}", work) + ";")
        if conf:
            out.append("RESET `%s`;" % conf[0])

    for name, conf, query, _, _ in ANALYSIS:
        case(name, query, conf)
    case("Spark CAST", SPARK_OWN)
    for name, query, _, _ in RUNTIME:
        case(name, query)
    out.append("SELECT '%send';" % MARK)
    return "\n".join(out) + "\n"


def check_sql(output, work):
    """spark-sql's output of sql_script: each error as Spark's JSON, with Spindex's condition and
    the SQLSTATE Spark's own registry gives it; a task's error as Spark delivers its own CAST's."""
    import json

    text = open(output, encoding="utf-8", errors="replace").read()
    sections = {}
    for part in text.split(MARK)[1:]:
        name, _, rest = part.partition("\n")
        sections[name.strip()] = rest
    check("end" in sections, "spark-sql ran every case (%d sections)" % len(sections))

    def error(name):
        rest = sections.get(name, "")
        i = rest.find("\n{")
        start = 0 if rest.startswith("{") else (i + 1 if i >= 0 else -1)
        if start < 0:
            return None
        return json.JSONDecoder().raw_decode(rest[start:])[0]

    own = error("Spark CAST")
    check(own is not None, "spark-sql: Spark's CAST fails: %s" % (own or {}).get("errorClass"))
    own_typed = own.get("errorClass") == "CAST_INVALID_INPUT"
    for name, _, _, condition, starts in ANALYSIS:
        e = error(name) or {}
        check(e.get("errorClass") == condition and e.get("sqlState") == STATE[condition]
              and e.get("messageParameters", {}).get("function", "") in starts,
              "spark-sql %s: errorClass %s, sqlState %s" % (name, e.get("errorClass"), e.get("sqlState")))
    for name, _, condition, starts in RUNTIME:
        e = error(name) or {}
        if own_typed:
            ok = e.get("errorClass") == condition and e.get("sqlState") == STATE[condition]
        else:  # wrapped by Spark, as its own CAST is ("LEGACY": Job aborted ...)
            ok = (e.get("errorClass") == own.get("errorClass")
                  and "[%s] %s" % (condition, starts) in e.get("messageParameters", {}).get("message", ""))
        check(ok, "spark-sql %s: errorClass %s, sqlState %s (Spark's CAST: %s)"
              % (name, e.get("errorClass"), e.get("sqlState"), own.get("errorClass")))


def show(results):
    for group, case, (what, value) in results:
        if what == "rows":
            print("%-9s %-30s rows %r" % (group, case, [tuple(r) for r in value][:3]))
            continue
        kind, condition, state, text = describe(value)
        first = text.strip().splitlines()[0] if text.strip() else ""
        print("%-9s %-30s %s cond=%s state=%s len=%d | %s" % (
            group, case, kind, condition, state, len(text), first[:160]))


def probe(spark, work):
    """Every case in ``spark``, unchecked: [(group, case, outcome)]."""
    files(work)
    spark.conf.set("spark.spindex.index.geo", os.path.join(work, "ranges.spx"))
    spark.conf.set("spark.sql.ansi.enabled", "true")
    bad = os.path.join(work, "bad.parquet")
    if not os.path.exists(bad):
        spark.range(3).selectExpr("concat('host-', id) AS ip").write.parquet(bad)
    results = []
    for case, conf, query, _, _ in ANALYSIS:
        if conf:
            spark.conf.set(*conf)
        results.append(("analysis", case, run(spark, query.replace("{w}", work))))
        if conf:
            spark.conf.unset(conf[0])
    for case, query, _, _ in RUNTIME:
        results.append(("runtime", case, run(spark, query.replace("{w}", work))))
    spark.udf.registerJavaFunction("j_spindex_label", "io.spindex.spark.sql.SpindexUdfs$Label", "string")
    for case, query, _, _ in UDFS:
        results.append(("udf", case, run(spark, query.replace("{w}", work))))
    results.append(("spark", "Spark's CAST", run(spark, SPARK_OWN)))
    for case, query, _ in ANSWERS:
        results.append(("answer", case, run(spark, query.replace("{w}", work))))
    return results


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "probe":
        from pyspark.sql import SparkSession

        builder = SparkSession.builder
        if len(sys.argv) > 3:
            builder = builder.remote(sys.argv[3])
        session = builder.getOrCreate()
        show(probe(session, sys.argv[2]))
        session.stop()
    elif len(sys.argv) == 3 and sys.argv[1] == "sql":
        files(sys.argv[2])
        sys.stdout.write(sql_script(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "check-sql":
        check_sql(sys.argv[2], sys.argv[3])
        print("spark-sql errors: %d checks passed" % checks)
    else:
        sys.exit("usage: it_errors.py probe WORK [sc://HOST:PORT] | sql WORK | check-sql OUTPUT WORK")
