/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Word-at-a-time byte helpers (SWAR) shared by the EP scanners and the jobs' line loops; a plain
 * loop is kept in the tests as the reference. Stateless and thread-safe.
 */
@Internal
public final class Bytes {
  private static final VarHandle LE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private Bytes() {}

  /** Eight bytes at {@code i}, little-endian ({@code b[i]} is the low byte). */
  public static long le64(byte[] b, int i) {
    return (long) LE64.get(b, i);
  }

  /** Writes {@code v} little-endian into {@code b[i, i + 8)}. */
  public static void putLe64(byte[] b, int i, long v) {
    LE64.set(b, i, v);
  }

  /**
   * A word with the top bit set in each byte of {@code word} equal to {@code pattern} (a byte
   * repeated eight times), and possibly in bytes above a match: only the lowest set bit is exact.
   */
  public static long matches(long word, long pattern) {
    long x = word ^ pattern;
    return (x - ONES) & ~x & HIGHS;
  }

  /** {@code b} repeated in all eight bytes of a long. */
  public static long repeat(byte b) {
    return (b & 0xFFL) * ONES;
  }

  /** The top bit set in exactly the bytes of {@code word} equal to those of {@code pattern}. */
  public static long exactMatches(long word, long pattern) {
    long x = word ^ pattern;
    return ~(((x & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | x) & HIGHS;
  }

  /** How many bytes of {@code [from, to)} hold {@code value} ({@code pattern}: its repeat). */
  public static int count(byte[] b, int from, int to, byte value, long pattern) {
    int n = 0;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      n += Long.bitCount(exactMatches(le64(b, i), pattern));
    }
    for (; i < to; i++) {
      n += b[i] == value ? 1 : 0;
    }
    return n;
  }

  /** First index in {@code [from, to)} holding {@code value}, or {@code to}. */
  public static int indexOf(byte[] b, int from, int to, byte value, long pattern) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long m = matches(le64(b, i), pattern);
      if (m != 0) {
        return i + (Long.numberOfTrailingZeros(m) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == value) {
        return i;
      }
    }
    return to;
  }

  private static final long LFS = repeat((byte) '\n');

  /** The first LF in {@code b[from, to)}, or {@code to} when there is none. */
  public static int lineFeed(byte[] b, int from, int to) {
    return indexOf(b, from, to, (byte) '\n', LFS);
  }
}
