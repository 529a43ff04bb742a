/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.annotations.Internal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkThrowable;

/**
 * A non-NULL address that does not parse, under ANSI mode ({@code spark.sql.ansi.enabled=true},
 * Spark 4's default): the error condition {@code SPINDEX_INVALID_ADDRESS} (SQLSTATE 22018, as
 * Spark's {@code CAST_INVALID_INPUT}) naming the function, the value and the input column, with the
 * way out ({@code try_} twin or ANSI off). A {@link SparkThrowable}, so Spark and PySpark report
 * its condition and parameters like their own.
 */
@Internal
public final class InvalidAddressException extends RuntimeException implements SparkThrowable {
  private static final long serialVersionUID = 1L;

  /** The error condition. */
  public static final String CONDITION = "SPINDEX_INVALID_ADDRESS";

  private final String function;
  private final String value;
  private final String column;

  InvalidAddressException(String function, String value, String column) {
    super(
        "["
            + CONDITION
            + "] "
            + function
            + ": the value "
            + value
            + " of the input column "
            + column
            + " is not an IP address (IPv4, IPv6, [addr] or [addr]:port; INT/BIGINT 0 to"
            + " 4294967295; BINARY of 4 or 16 bytes). Use try_"
            + function
            + " to get NULL for it, or set spark.sql.ansi.enabled to false. SQLSTATE: 22018",
        null,
        false,
        false);
    this.function = function;
    this.value = value;
    this.column = column;
  }

  /** The condition (Spark 4's name for the error class). */
  public String getCondition() {
    return CONDITION;
  }

  /** The condition (Spark 3.5's name for it). */
  @Override
  @SuppressWarnings("deprecation")
  public String getErrorClass() {
    return CONDITION;
  }

  @Override
  public String getSqlState() {
    return "22018";
  }

  @Override
  public Map<String, String> getMessageParameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("function", function);
    m.put("value", value);
    m.put("column", column);
    return m;
  }
}
