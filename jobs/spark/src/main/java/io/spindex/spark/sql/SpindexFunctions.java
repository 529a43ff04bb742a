/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.index.IndexKind;
import io.spindex.spark.line.SparkLine;
import io.spindex.spark.side.SpindexConf;
import io.spindex.spark.sql.SpindexExpression.Fn;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.StringType;
import scala.collection.Seq;
import scala.runtime.AbstractFunction1;

/**
 * The Spindex SQL functions and their registration: {@code spindex_label(ip, index)}, {@code
 * spindex_lookup(ip, index)}, {@code spindex_contains(ip, index)}, {@code spindex_ip(ip)} and their
 * {@code try_} twins, and {@code spindex_version(index)}, the version a query answers from.
 * Register them in a running session with {@link #register}, or for every session with {@code
 * --conf spark.sql.extensions=io.spindex.spark.sql.SpindexExtensions}.
 *
 * <p>{@code index} is a constant string: a name configured as {@code spark.spindex.index.NAME =
 * PATH}, or a path (local, {@code hdfs://}, or a file shipped with {@code --files}). It is resolved
 * and the file checked (header and every section checksum) when the query is analysed; a
 * non-constant index, a missing, damaged or wrong-kind file is an {@link AnalysisException} naming
 * it, and so is one older than {@code spark.spindex.max-age} ({@code spark.spindex.warn-age}: one
 * warning line in the driver's log). Each has one of Spindex's error conditions ({@code
 * SPINDEX_INDEX_NOT_FOUND}, ...: {@link SparkErrors}).
 *
 * <p>A non-NULL address that does not parse gives NULL (counted in the accumulator {@code
 * spindex.unparseable(FUNCTION)}) when ANSI mode is off; with {@code spark.sql.ansi.enabled=true}
 * (Spark 4's default) it raises {@link InvalidAddressException}, and the {@code try_} twin gives
 * NULL, as Spark's {@code try_cast} does.
 */
public final class SpindexFunctions {
  private SpindexFunctions() {}

  /** One function: its name, builder and description. */
  static final class Entry {
    final FunctionIdentifier name;
    final ExpressionInfo info;
    final Builder builder;

    Entry(Fn fn, boolean orNull) {
      String n = fn.name(orNull);
      this.name = FunctionIdentifier.apply(n);
      this.builder = new Builder(fn, orNull);
      this.info =
          new ExpressionInfo(
              SpindexExpression.class.getName(),
              null,
              n,
              usage(fn, orNull),
              arguments(fn),
              examples(fn, n),
              "",
              "misc_funcs",
              "",
              "",
              "java_udf");
    }
  }

  /** Every function, as the extension injects them and {@link #register} registers them. */
  static List<Entry> all() {
    List<Entry> all = new ArrayList<>();
    for (Fn fn : Fn.values()) {
      all.add(new Entry(fn, false));
      if (fn != Fn.VERSION) { // it reads no address, so it has nothing to give NULL for
        all.add(new Entry(fn, true));
      }
    }
    return all;
  }

  /**
   * Registers the functions in {@code spark}'s function registry (a running classic session).
   *
   * @throws IllegalStateException one line when this jar is not built for the session's Spark line
   */
  public static void register(SparkSession spark) {
    SparkLine.check();
    SparkErrors.register(); // Spindex's error conditions, known to Spark and PySpark
    for (Entry e : all()) {
      Shims.register(spark, e.name, e.info, e.builder);
    }
  }

  /** Builds a function's expression from its arguments (the registry's function builder). */
  static final class Builder extends AbstractFunction1<Seq<Expression>, Expression>
      implements Serializable {
    private static final long serialVersionUID = 1L;
    private final Fn fn;
    private final boolean orNull;

    Builder(Fn fn, boolean orNull) {
      this.fn = fn;
      this.orNull = orNull;
    }

    @Override
    public Expression apply(Seq<Expression> args) {
      return build(fn, orNull, args, args.isEmpty() ? "" : args.apply(0).sql());
    }
  }

  /** The expression of a call; {@code column} is the address argument as the query wrote it. */
  static Expression build(Fn fn, boolean orNull, Seq<Expression> args, String column) {
    return build(fn, orNull, args, column, null);
  }

  /**
   * The expression of a call whose index is loaded with {@code loader}, or with the one {@code
   * spark.spindex.loader} names when null. An unknown {@code spark.spindex.} key of the session or
   * of the launch configuration is an analysis error first.
   */
  static Expression build(
      Fn fn, boolean orNull, Seq<Expression> args, String column, String loader) {
    SparkErrors.register();
    String name = fn.name(orNull);
    int n = fn == Fn.IP || fn == Fn.VERSION ? 1 : 2;
    if (args.length() != n) {
      throw SparkErrors.analysis(
          SparkErrors.WRONG_NUM_ARGS,
          SparkErrors.params(
              "function",
              name,
              "expected",
              fn == Fn.VERSION
                  ? "1 argument (index)"
                  : n == 1 ? "1 argument (ip)" : "2 arguments (ip, index)",
              "actual",
              String.valueOf(args.length())),
          null);
    }
    Expression ip = args.apply(0);
    boolean strict = !orNull && SQLConf.get().ansiEnabled();
    SparkSession spark = SparkSession.active();
    String unknown = SpindexConf.unknown(spark);
    if (unknown != null) {
      throw SparkErrors.analysis(
          SparkErrors.UNKNOWN_SETTING,
          SparkErrors.params("function", name, "reason", unknown),
          null);
    }
    if (fn == Fn.IP) {
      return new SpindexExpression(
          ip,
          fn,
          orNull,
          new IpText(
              new Unparseable(
                  spark.sparkContext().longAccumulator("spindex.unparseable(" + name + ")"),
                  strict,
                  name,
                  column)));
    }
    Expression index = args.apply(fn == Fn.VERSION ? 0 : 1);
    boolean isNull = index.foldable() && index.dataType() instanceof NullType;
    if (!isNull && (!index.foldable() || !(index.dataType() instanceof StringType))) {
      throw SparkErrors.analysis(
          SparkErrors.INDEX_NOT_CONSTANT,
          SparkErrors.params("function", name, "index", index.sql()),
          null);
    }
    Object path = isNull ? null : index.eval(null);
    if (path == null) {
      throw SparkErrors.analysis(
          SparkErrors.INDEX_NULL, SparkErrors.params("function", name), null);
    }
    IndexKind kind =
        fn == Fn.VERSION ? null : fn == Fn.CONTAINS ? IndexKind.IPV4_SET : IndexKind.IPV4_RANGES;
    // spindex_version's child is its constant index argument: it reads no address.
    return new SpindexExpression(
        fn == Fn.VERSION ? index : ip,
        fn,
        orNull,
        IndexRef.resolve(spark, path.toString(), name, kind, strict, column, loader));
  }

  private static String usage(Fn fn, boolean orNull) {
    String n = fn.name(orNull);
    String bad =
        orNull
            ? "NULL when the address does not parse"
            : "when the address does not parse: NULL, or under ANSI mode an error (use try_"
                + fn.sql
                + " for NULL)";
    switch (fn) {
      case LABEL:
        return n
            + "(ip, index) - The label of the range of a range index that holds the address,"
            + " or NULL when no range holds it; "
            + bad
            + ".";
      case LOOKUP:
        return n
            + "(ip, index) - The label of the range holding the address as a STRUCT of the"
            + " fields the index declares (else STRUCT<label>), or NULL; "
            + bad
            + ".";
      case CONTAINS:
        return n + "(ip, index) - Whether a set index holds the address; " + bad + ".";
      case VERSION:
        return n
            + "(index) - The version of the index the query, or the streaming micro-batch,"
            + " answers from: STRUCT<header_crc STRING, source_sha256 STRING, built TIMESTAMP,"
            + " source_time TIMESTAMP> (source_time: when the index's source was built, NULL when"
            + " the file does not say). Dataset.observe puts it into each streaming progress.";
      default:
        return n + "(ip) - The canonical text of the address (RFC 5952 for IPv6); " + bad + ".";
    }
  }

  private static String arguments(Fn fn) {
    if (fn == Fn.VERSION) {
      return "\n    Arguments:\n      * index - a constant STRING: a name configured as"
          + " spark.spindex.index.NAME, or the path of an index (local, hdfs://, or shipped with"
          + " --files)\n  ";
    }
    String ip =
        "\n    Arguments:\n      * ip - the address: STRING (IPv4, IPv6, [addr], [addr]:port, any"
            + " collation), INT or BIGINT (unsigned IPv4), or BINARY (4 or 16 bytes)\n";
    if (fn == Fn.IP) {
      return ip + "  ";
    }
    return ip
        + "      * index - a constant STRING: a name configured as spark.spindex.index.NAME, or the"
        + " path of a "
        + (fn == Fn.CONTAINS ? "set" : "range")
        + " index (local, hdfs://, or shipped with --files)\n  ";
  }

  private static String examples(Fn fn, String n) {
    if (fn == Fn.VERSION) {
      return "\n    Examples:\n      > SELECT "
          + n
          + "('geo');\n       {\"header_crc\":\"a38f42af\",\"source_sha256\":\"3f2a…\","
          + "\"built\":2026-11-29 03:00:00,\"source_time\":2026-11-28 22:00:00}\n  ";
    }
    String call = fn == Fn.IP ? n + "('2001:DB8::0:1')" : n + "(client_ip, 'geo')";
    String out;
    switch (fn) {
      case LABEL:
        out = "AU,Sydney";
        break;
      case LOOKUP:
        out = "{\"country\":\"AU\",\"city\":\"Sydney\"}";
        break;
      case CONTAINS:
        out = "true";
        break;
      default:
        out = "2001:db8::1";
    }
    String from = fn == Fn.IP ? "" : " FROM logs";
    return "\n    Examples:\n      > SELECT " + call + from + ";\n       " + out + "\n  ";
  }
}
