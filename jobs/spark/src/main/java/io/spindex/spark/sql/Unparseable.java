/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.text.Clip;
import java.io.Serializable;
import java.util.Locale;
import org.apache.spark.unsafe.types.UTF8String;
import org.apache.spark.util.LongAccumulator;

/**
 * What one SQL function does with an address it cannot use: a NULL address is counted (its answer
 * is NULL); an unparseable one is counted too, or — under ANSI mode, for the function that is not a
 * {@code try_} twin — raises {@link InvalidAddressException}. The count is the accumulator {@code
 * spindex.unparseable(FUNCTION)}. Decided when the query is analysed, from the session's {@code
 * spark.sql.ansi.enabled}, as Spark's own casts decide.
 */
final class Unparseable implements Serializable {
  private static final long serialVersionUID = 1L;

  private final LongAccumulator count;
  private final boolean error;
  private final String function;
  private final String column;

  Unparseable(LongAccumulator count, boolean error, String function, String column) {
    this.count = count;
    this.error = error;
    this.function = function;
    this.column = column;
  }

  /** A NULL address. */
  void nullInput() {
    count.add(1);
  }

  /** {@code n} NULL or unparseable addresses, counted at once (none of them an error). */
  void counted(int n) {
    if (n > 0) {
      count.add(n);
    }
  }

  /** The count so far: NULL and unparseable addresses (on the driver, of the finished tasks). */
  long count() {
    return count.value();
  }

  /** The function's SQL name. */
  String function() {
    return function;
  }

  /** Whether an unparseable address is an error rather than NULL. */
  boolean strict() {
    return error;
  }

  /** An address that does not parse: counted, or an error under ANSI mode. */
  void miss(Object value) {
    if (error) {
      throw SparkErrors.invalidAddress(function, text(value), column);
    }
    count.add(1);
  }

  /**
   * The value as Spark SQL writes a literal of its type, its text cut to {@link
   * SparkErrors#VALUE_CHARS} characters (with the length of the whole after it).
   */
  static String text(Object v) {
    if (v instanceof UTF8String || v instanceof String) {
      String s = v.toString();
      return "'" + Clip.of(s, SparkErrors.VALUE_CHARS).replace("'", "\\'") + "'";
    }
    if (v instanceof byte[]) {
      byte[] b = (byte[]) v;
      int n = Math.min(b.length, SparkErrors.VALUE_CHARS / 2);
      StringBuilder s = new StringBuilder("X'");
      for (int i = 0; i < n; i++) {
        s.append(String.format(Locale.ROOT, "%02X", b[i] & 0xFF));
      }
      if (n < b.length) {
        s.append("...(").append(b.length).append(" bytes)");
      }
      return s.append("'").toString();
    }
    return String.valueOf(v);
  }
}
