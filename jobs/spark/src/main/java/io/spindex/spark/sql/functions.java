/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import java.util.Arrays;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.Expression;
import scala.collection.JavaConverters;
import scala.collection.Seq;

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
    return new Column(SpindexFunctions.label(args(ip.expr(), literal(index))));
  }

  /** {@code spindex_lookup(ip, index)}: a STRUCT of the label's fields. */
  public static Column lookup(Column ip, String index) {
    return new Column(SpindexFunctions.lookup(args(ip.expr(), literal(index))));
  }

  /** {@code spindex_contains(ip, index)}. */
  public static Column contains(Column ip, String index) {
    return new Column(SpindexFunctions.contains(args(ip.expr(), literal(index))));
  }

  /** {@code spindex_ip(ip)}. */
  public static Column ip(Column ip) {
    return new Column(SpindexFunctions.ip(args(ip.expr())));
  }

  private static Expression literal(String s) {
    return org.apache.spark.sql.functions.lit(s).expr();
  }

  private static Seq<Expression> args(Expression... e) {
    return JavaConverters.asScalaBufferConverter(Arrays.asList(e)).asScala().toSeq();
  }
}
