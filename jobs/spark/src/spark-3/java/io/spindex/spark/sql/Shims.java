/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import scala.Function1;

/**
 * What differs between Spark lines for the SQL functions, for Spark 3.5 (Scala 2.12 and 2.13):
 * {@code SparkSession} is the classic session and {@code Column} wraps a Catalyst expression.
 * Everything else is written once in {@code src/main/java}.
 */
final class Shims {
  private Shims() {}

  /** Registers a function builder in a running (classic) session's function registry. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static void register(
      SparkSession spark, FunctionIdentifier name, ExpressionInfo info, Function1 builder) {
    spark.sessionState().functionRegistry().registerFunction(name, info, builder);
  }

  /** A DataFrame column of a Catalyst expression. */
  static Column column(Expression e) {
    return new Column(e);
  }

  /** The Catalyst expression of a DataFrame column. */
  static Expression expression(Column c) {
    return c.expr();
  }
}
