/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.annotations.Internal;
import org.apache.spark.QueryContext;
import org.apache.spark.SparkRuntimeException;

/**
 * A non-NULL address that does not parse, under ANSI mode ({@code spark.sql.ansi.enabled=true},
 * Spark 4's default): the error condition {@code SPINDEX_INVALID_ADDRESS} (SQLSTATE 22018, as
 * Spark's {@code CAST_INVALID_INPUT}) naming the function, the value and the input column (both cut
 * to 40 characters), with the way out ({@code try_} twin or ANSI off). A {@link
 * SparkRuntimeException}, so Spark reports it as its own and PySpark raises {@code
 * pyspark.errors.SparkRuntimeException} for it, classic and Connect.
 */
@Internal
public final class InvalidAddressException extends SparkRuntimeException {
  private static final long serialVersionUID = 1L;

  /** The error condition. */
  public static final String CONDITION = SparkErrors.INVALID_ADDRESS;

  /**
   * Made only once the conditions are registered in this JVM ({@link SparkErrors#invalidAddress}).
   */
  InvalidAddressException(java.util.Map<String, String> params) {
    super(CONDITION, SparkErrors.scala(params), null, new QueryContext[0], "");
  }

  /** The condition (Spark 4's name for the error class; Spark 3.5 calls it the error class). */
  public String getCondition() {
    return CONDITION;
  }
}
