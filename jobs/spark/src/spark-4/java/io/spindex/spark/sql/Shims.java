/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import java.lang.reflect.Method;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry$;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.classic.ExpressionUtils$;
import scala.Function1;

/**
 * What differs between Spark lines for the SQL functions, for Spark 4: {@code SparkSession} is an
 * API class whose classic implementation holds the function registry, a {@code Column} holds a
 * column node that {@code classic.ExpressionUtils} converts, and from 4.3 on the registry keeps
 * functions under three-part names. Everything else is written once in {@code src/main/java}.
 */
final class Shims {
  private Shims() {}

  /** Registers a function builder in a running (classic) session's function registry. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static void register(
      SparkSession spark, FunctionIdentifier name, ExpressionInfo info, Function1 builder) {
    ((org.apache.spark.sql.classic.SparkSession) spark)
        .sessionState()
        .functionRegistry()
        .registerFunction(qualified(name), info, builder);
  }

  /**
   * The name as the running line's registry takes it: Spark 4.3 refuses a bare name ("must be fully
   * qualified (3-part)") and files built-in and injected functions as {@code system.builtin.NAME}
   * ({@code FunctionRegistry.builtinFunctionIdentifier}, which is what its extensions use); 4.0 to
   * 4.2 have no such method and take the bare name. Looked up by name, since this jar is compiled
   * against 4.0.
   */
  private static FunctionIdentifier qualified(FunctionIdentifier name) {
    Method m;
    try {
      m = FunctionRegistry$.class.getMethod("builtinFunctionIdentifier", String.class);
    } catch (NoSuchMethodException e) {
      return name;
    }
    try {
      return (FunctionIdentifier) m.invoke(FunctionRegistry$.MODULE$, name.funcName());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("spindex: cannot qualify " + name.funcName(), e);
    }
  }

  /** A DataFrame column of a Catalyst expression. */
  static Column column(Expression e) {
    return ExpressionUtils$.MODULE$.column(e);
  }

  /** The Catalyst expression of a DataFrame column. */
  static Expression expression(Column c) {
    return ExpressionUtils$.MODULE$.expression(c);
  }
}
