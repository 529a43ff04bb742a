/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.spark.sql.SpindexExpression.Fn;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;

/**
 * The Spindex SQL functions for the DataFrame API, as {@code org.apache.spark.sql.functions} has
 * Spark's: {@code df.select(label(col("ip"), "geo"))}. The index is resolved and checked when the
 * column is made (the active session's {@code spark.spindex.index.NAME}, or a path).
 */
@SuppressWarnings("checkstyle:TypeName")
public final class functions {
  private functions() {}

  /** {@code spindex_label(ip, index)}. */
  public static Column label(Column ip, String index) {
    return call(Fn.LABEL, false, ip, index);
  }

  /** {@code try_spindex_label(ip, index)}: NULL for an unparseable address, also under ANSI. */
  public static Column try_label(Column ip, String index) {
    return call(Fn.LABEL, true, ip, index);
  }

  /** {@code spindex_lookup(ip, index)}: a STRUCT of the label's fields. */
  public static Column lookup(Column ip, String index) {
    return call(Fn.LOOKUP, false, ip, index);
  }

  /** {@code try_spindex_lookup(ip, index)}. */
  public static Column try_lookup(Column ip, String index) {
    return call(Fn.LOOKUP, true, ip, index);
  }

  /** {@code spindex_contains(ip, index)}. */
  public static Column contains(Column ip, String index) {
    return call(Fn.CONTAINS, false, ip, index);
  }

  /** {@code try_spindex_contains(ip, index)}. */
  public static Column try_contains(Column ip, String index) {
    return call(Fn.CONTAINS, true, ip, index);
  }

  /** {@code spindex_ip(ip)}. */
  public static Column ip(Column ip) {
    return call(Fn.IP, false, ip, null);
  }

  /** {@code try_spindex_ip(ip)}. */
  public static Column try_ip(Column ip) {
    return call(Fn.IP, true, ip, null);
  }

  /**
   * {@code spindex_version(index)}: the version of the index the query, or the streaming
   * micro-batch, answers from; {@code df.observe("versions", max(version("geo")).alias("geo"))}
   * puts it into each streaming query progress.
   */
  public static Column version(String index) {
    return Shims.column(
        SpindexFunctions.build(
            Fn.VERSION, false, Scala.list(Literal$.MODULE$.apply(index)), "'" + index + "'"));
  }

  private static Column call(Fn fn, boolean orNull, Column ip, String index) {
    return call(fn, orNull, ip, index, null);
  }

  /** A call whose index is loaded with {@code loader} (null: {@code spark.spindex.loader}). */
  static Column call(Fn fn, boolean orNull, Column ip, String index, String loader) {
    Expression e = Shims.expression(ip);
    // The index as a literal expression, not a Column: under Spark 4 a column converts to its
    // expression only when the plan is analysed, and the index is resolved now.
    Expression built =
        index == null
            ? SpindexFunctions.build(fn, orNull, Scala.list(e), ip.toString(), loader)
            : SpindexFunctions.build(
                fn, orNull, Scala.list(e, Literal$.MODULE$.apply(index)), ip.toString(), loader);
    return Shims.column(built);
  }
}
