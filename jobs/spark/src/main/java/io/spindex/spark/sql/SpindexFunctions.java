/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.index.IndexKind;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.types.StringType;
import scala.Function1;
import scala.Option;
import scala.Tuple3;
import scala.collection.Seq;

/**
 * The Spindex SQL functions and their registration: {@code spindex_label(ip, index)}, {@code
 * spindex_lookup(ip, index)}, {@code spindex_contains(ip, index)} and {@code spindex_ip(ip)}.
 * Register them in a running session with {@link #register}, or for every session with {@code
 * --conf spark.sql.extensions=io.spindex.spark.sql.SpindexExtensions}.
 *
 * <p>{@code index} is a constant string: a name configured as {@code spark.spindex.index.NAME =
 * PATH}, or a path (local, {@code hdfs://}, or a file shipped with {@code --files}). It is resolved
 * and the file checked (header and every section checksum) when the query is analysed; a
 * non-constant index, a missing, damaged or wrong-kind file is an {@link AnalysisException} naming
 * it.
 */
public final class SpindexFunctions {
  private SpindexFunctions() {}

  /** The functions as {@code SparkSessionExtensions.injectFunction} takes them. */
  static java.util.List<
          Tuple3<FunctionIdentifier, ExpressionInfo, Function1<Seq<Expression>, Expression>>>
      all() {
    return java.util.Arrays.asList(
        entry(
            "spindex_label",
            "spindex_label(ip, index) - the label of the range of a range index that holds the"
                + " address, or NULL",
            SpindexFunctions::label),
        entry(
            "spindex_lookup",
            "spindex_lookup(ip, index) - the label of the range holding the address as a STRUCT"
                + " of the fields the index declares (else STRUCT<label>), or NULL",
            SpindexFunctions::lookup),
        entry(
            "spindex_contains",
            "spindex_contains(ip, index) - whether a set index holds the address (NULL when it"
                + " does not parse)",
            SpindexFunctions::contains),
        entry(
            "spindex_ip",
            "spindex_ip(ip) - the canonical text of the address (RFC 5952 for IPv6), or NULL",
            SpindexFunctions::ip));
  }

  private static Tuple3<FunctionIdentifier, ExpressionInfo, Function1<Seq<Expression>, Expression>>
      entry(String name, String usage, Function1<Seq<Expression>, Expression> builder) {
    ExpressionInfo info =
        new ExpressionInfo(
            SpindexFunctions.class.getName(),
            null,
            name,
            usage,
            "",
            "",
            "",
            "",
            "",
            "",
            "java_udf");
    return new Tuple3<>(FunctionIdentifier.apply(name), info, builder);
  }

  /** Registers the functions in {@code spark}'s function registry (a running session). */
  public static void register(SparkSession spark) {
    for (Tuple3<FunctionIdentifier, ExpressionInfo, Function1<Seq<Expression>, Expression>> f :
        all()) {
      spark.sessionState().functionRegistry().registerFunction(f._1(), f._2(), f._3());
    }
  }

  static Expression label(Seq<Expression> args) {
    arity("spindex_label", args, 2);
    return new SpindexLabel(
        args.apply(0), index("spindex_label", args.apply(1), IndexKind.IPV4_RANGES));
  }

  static Expression lookup(Seq<Expression> args) {
    arity("spindex_lookup", args, 2);
    return new SpindexLookup(
        args.apply(0), index("spindex_lookup", args.apply(1), IndexKind.IPV4_RANGES));
  }

  static Expression contains(Seq<Expression> args) {
    arity("spindex_contains", args, 2);
    return new SpindexContains(
        args.apply(0), index("spindex_contains", args.apply(1), IndexKind.IPV4_SET));
  }

  static Expression ip(Seq<Expression> args) {
    arity("spindex_ip", args, 1);
    SparkSession spark = SparkSession.active();
    return new SpindexIp(
        args.apply(0), new IpText(spark.sparkContext().longAccumulator("spindex.unparseable")));
  }

  private static void arity(String fn, Seq<Expression> args, int n) {
    if (args.size() != n) {
      throw analysis(
          fn + " takes " + n + " argument" + (n == 1 ? "" : "s") + ", not " + args.size());
    }
  }

  private static IndexRef index(String fn, Expression index, IndexKind kind) {
    if (!index.foldable() || !(index.dataType() instanceof StringType)) {
      throw analysis(
          fn
              + ": the index must be a constant string (a name configured as"
              + " spark.spindex.index.NAME, or a path), not "
              + index.sql());
    }
    Object name = index.eval(null);
    if (name == null) {
      throw analysis(fn + ": the index is NULL");
    }
    try {
      return IndexRef.resolve(SparkSession.active(), name.toString(), fn, kind);
    } catch (IllegalArgumentException e) {
      throw analysis(e.getMessage());
    }
  }

  /**
   * An {@link AnalysisException}, thrown as Scala code throws it: the function builders are Scala
   * functions, which declare no checked exceptions, and Spark reports an AnalysisException from a
   * builder as a query error.
   */
  static RuntimeException analysis(String message) {
    return sneaky(
        new AnalysisException(
            message,
            Option.empty(),
            Option.empty(),
            Option.empty(),
            Option.empty(),
            scala.collection.immutable.Map$.MODULE$.empty(),
            new org.apache.spark.QueryContext[0]));
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }
}
