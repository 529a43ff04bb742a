/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import io.spindex.index.ProductIndex;

/** Integer fields of EP rows ({@code price_pc}, {@code shipping} ...) parsed from bytes. */
@Internal
public final class EpInts {
  /** Returned by {@link #parseLong} for a value that is not an integer. */
  public static final long NOT_A_NUMBER = Long.MIN_VALUE;

  private EpInts() {}

  /**
   * The integer in {@code b[from, to)}: an optional '-' and 1 to 18 ASCII digits, nothing else (no
   * spaces, '+', separators or fraction); otherwise {@link #NOT_A_NUMBER}.
   */
  public static long parseLong(byte[] b, int from, int to) {
    int i = from;
    boolean neg = i < to && b[i] == '-';
    if (neg) {
      i++;
    }
    if (i == to || to - i > 18) {
      return NOT_A_NUMBER;
    }
    long v = 0;
    for (; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return NOT_A_NUMBER;
      }
      v = v * 10 + d;
    }
    return neg ? -v : v;
  }

  /**
   * The value as stored in an int column of a product index: the integer when it fits an int and is
   * not {@link ProductIndex#NULL_INT}, else {@link ProductIndex#NULL_INT} (empty, not an integer,
   * or out of range).
   */
  public static int toColumn(byte[] b, int from, int to) {
    long v = parseLong(b, from, to);
    return v > Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (int) v : ProductIndex.NULL_INT;
  }
}
