/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.util.Arrays;

/**
 * {@link StaticTree4} for IPv6: a baseline of the class of PlanB's search written for the
 * benchmark, an S+-tree over the rows' 128-bit starts, {@value #B} keys a node (their high halves
 * in one 64-byte line, their low halves in another), counted without a branch on the keys; batches
 * walk {@value #GROUP} keys a level at a time. Keys are flipped (sign bit inverted) so that signed
 * order is unsigned order. Thread-safe: immutable.
 */
final class StaticTree6 {
  /** Keys a node. */
  static final int B = 8;

  /** Keys walked together by {@link #labelIds}. */
  static final int GROUP = 16;

  private final long[][] his;
  private final long[][] los;
  private final int[] sizes;
  private final int[] labelIds;
  private final int rows;
  private final boolean vector;

  /**
   * Over {@code rows > 0} starts (unflipped, ascending) and the rows' label ids (-1 a gap), its
   * nodes counted by the Vector API when {@code vector} ({@link StaticTree4#VECTOR_API}).
   */
  StaticTree6(long[] startHi, long[] startLo, int[] labelIds, int rows, boolean vector) {
    if (rows <= 0) {
      throw new IllegalArgumentException("no rows");
    }
    if (vector) {
      StaticTree4.requireVectorApi();
    }
    this.vector = vector;
    this.rows = rows;
    this.labelIds = labelIds;
    int depth = 1;
    for (long n = rows; n > B; n = (n + B - 1) / B) {
      depth++;
    }
    his = new long[depth][];
    los = new long[depth][];
    sizes = new int[depth];
    long[] h = new long[rows];
    long[] l = new long[rows];
    for (int i = 0; i < rows; i++) {
      h[i] = startHi[i] ^ Long.MIN_VALUE;
      l[i] = startLo[i] ^ Long.MIN_VALUE;
    }
    his[0] = pad(h, rows);
    los[0] = pad(l, rows);
    sizes[0] = rows;
    for (int d = 1; d < depth; d++) {
      int n = (sizes[d - 1] + B - 1) / B;
      long[] kh = new long[n];
      long[] kl = new long[n];
      for (int j = 0; j < n; j++) {
        kh[j] = his[d - 1][j * B];
        kl[j] = los[d - 1][j * B];
      }
      his[d] = pad(kh, n);
      los[d] = pad(kl, n);
      sizes[d] = n;
    }
  }

  private static long[] pad(long[] keys, int n) {
    long[] out = Arrays.copyOf(keys, (n + B - 1) / B * B + B);
    Arrays.fill(out, n, out.length, Long.MAX_VALUE);
    return out;
  }

  /** How many of the {@value #B} keys from {@code at} are at most the (flipped) key. */
  private int count(long[] hi, long[] lo, int at, long kh, long kl) {
    if (vector) {
      return VectorCount.count8(hi, lo, at, kh, kl);
    }
    int c = 0;
    for (int i = 0; i < B; i++) {
      long h = hi[at + i];
      c += (h < kh ? 1 : 0) | (h == kh & lo[at + i] <= kl ? 1 : 0);
    }
    return c;
  }

  private int child(int d, int at, long kh, long kl) {
    int from = at * B;
    return Math.min(from + Math.max(count(his[d], los[d], from, kh, kl) - 1, 0), sizes[d] - 1);
  }

  private int leaf(int at, long kh, long kl) {
    int from = at * B;
    return Math.min(from + count(his[0], los[0], from, kh, kl) - 1, rows - 1);
  }

  /** The label id of the range that holds the address (high and low 64 bits), or -1. */
  int labelId(long hi, long lo) {
    long kh = hi ^ Long.MIN_VALUE;
    long kl = lo ^ Long.MIN_VALUE;
    int at = 0;
    for (int d = his.length - 1; d >= 1; d--) {
      at = child(d, at, kh, kl);
    }
    int row = leaf(at, kh, kl);
    return row < 0 ? -1 : labelIds[row];
  }

  /**
   * {@link #labelId} without the tree, the baseline: a binary search over the leaves (the rows'
   * starts) alone.
   */
  int binarySearch(long hi, long lo) {
    long kh = hi ^ Long.MIN_VALUE;
    long kl = lo ^ Long.MIN_VALUE;
    long[] h = his[0];
    long[] l = los[0];
    int a = 0;
    int b = rows;
    while (a < b) {
      int mid = (a + b) >>> 1;
      if (h[mid] < kh || (h[mid] == kh && l[mid] <= kl)) {
        a = mid + 1;
      } else {
        b = mid;
      }
    }
    return a == 0 ? -1 : labelIds[a - 1];
  }

  /** {@code out[i] = labelId(hi[i], lo[i])}, {@value #GROUP} at a time, level by level. */
  int labelIds(long[] hi, long[] lo, int count, int[] out) {
    int[] at = new int[GROUP];
    long[] kh = new long[GROUP];
    long[] kl = new long[GROUP];
    int hits = 0;
    for (int g = 0; g < count; g += GROUP) {
      int m = Math.min(GROUP, count - g);
      for (int j = 0; j < m; j++) {
        kh[j] = hi[g + j] ^ Long.MIN_VALUE;
        kl[j] = lo[g + j] ^ Long.MIN_VALUE;
        at[j] = 0;
      }
      for (int d = his.length - 1; d >= 1; d--) {
        for (int j = 0; j < m; j++) {
          at[j] = child(d, at[j], kh[j], kl[j]);
        }
      }
      for (int j = 0; j < m; j++) {
        int row = leaf(at[j], kh[j], kl[j]);
        int id = row < 0 ? -1 : labelIds[row];
        out[g + j] = id;
        hits += id < 0 ? 0 : 1;
      }
    }
    return hits;
  }
}
