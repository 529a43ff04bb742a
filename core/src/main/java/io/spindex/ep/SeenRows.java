/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.annotations.Internal;
import java.io.Serializable;
import java.util.Arrays;

/**
 * A bitmap over the rows of a product index: bit {@code r} set when today's feed has the product of
 * row {@code r}. Each task (partition, thread) fills its own; merged with {@link #or} (a Spark
 * accumulator or reduce), the clear bits are the products gone since yesterday, the D rows of the
 * summary EP. No id is collected anywhere: {@code rows / 8} bytes per bitmap (2.5 MB for 20 M
 * products). Not thread-safe; serializable.
 */
@Internal
public final class SeenRows implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int rows;
  private final long[] words;

  /** An empty bitmap over {@code rows} rows. */
  public SeenRows(int rows) {
    this.rows = rows;
    this.words = new long[(rows + 63) >>> 6];
  }

  /** Number of rows the bitmap covers. */
  public int rows() {
    return rows;
  }

  public void set(int row) {
    words[row >>> 6] |= 1L << row;
  }

  public boolean get(int row) {
    return (words[row >>> 6] & (1L << row)) != 0;
  }

  /** Adds the bits of {@code other} (same row count) to this bitmap; returns this. */
  public SeenRows or(SeenRows other) {
    if (other.rows != rows) {
      throw new IllegalArgumentException(
          "bitmaps over different indexes: " + rows + " and " + other.rows + " rows");
    }
    for (int i = 0; i < words.length; i++) {
      words[i] |= other.words[i];
    }
    return this;
  }

  /** Writes words {@code [from, to)} to {@code out} (engines ship bitmap slices this way). */
  public void writeWords(int from, int to, java.io.DataOutput out) throws java.io.IOException {
    for (int i = from; i < to; i++) {
      out.writeLong(words[i]);
    }
  }

  /** Adds words {@code [from, to)} read from {@code in}, as {@link #writeWords} wrote them. */
  public void orWords(int from, int to, java.io.DataInput in) throws java.io.IOException {
    for (int i = from; i < to; i++) {
      words[i] |= in.readLong();
    }
  }

  /** Number of set bits. */
  public int cardinality() {
    int n = 0;
    for (long w : words) {
      n += Long.bitCount(w);
    }
    return n;
  }

  /** The first clear row at or after {@code from}, or {@link #rows()} when there is none. */
  public int nextClear(int from) {
    int i = from >>> 6;
    if (i >= words.length) {
      return rows;
    }
    long w = ~words[i] & (-1L << from);
    while (w == 0) {
      if (++i == words.length) {
        return rows;
      }
      w = ~words[i];
    }
    return Math.min(rows, (i << 6) + Long.numberOfTrailingZeros(w));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SeenRows
        && ((SeenRows) o).rows == rows
        && Arrays.equals(((SeenRows) o).words, words);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(words) * 31 + rows;
  }
}
