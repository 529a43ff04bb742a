/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

/**
 * Sorts unsigned 128-bit values held as two parallel {@code long} arrays (high and low halves) in
 * place, and removes duplicates: IPv6 addresses and range boundaries. A heap sort: no recursion, no
 * extra memory, O(n log n) whatever the input order.
 */
final class Sort128 {
  private Sort128() {}

  /** Sorts {@code [0, n)} of both arrays by (hi, lo), unsigned. */
  static void sort(long[] hi, long[] lo, int n) {
    for (int i = n / 2 - 1; i >= 0; i--) {
      siftDown(hi, lo, i, n);
    }
    for (int end = n - 1; end > 0; end--) {
      swap(hi, lo, 0, end);
      siftDown(hi, lo, 0, end);
    }
  }

  /** Sorts, then moves the distinct values to the front; returns how many there are. */
  static int sortUnique(long[] hi, long[] lo, int n) {
    sort(hi, lo, n);
    int u = 0;
    for (int i = 0; i < n; i++) {
      if (u == 0 || hi[u - 1] != hi[i] || lo[u - 1] != lo[i]) {
        hi[u] = hi[i];
        lo[u++] = lo[i];
      }
    }
    return u;
  }

  /** Unsigned comparison of (hi[i], lo[i]) with (hi[j], lo[j]). */
  static int compare(long[] hi, long[] lo, int i, int j) {
    int c = Long.compareUnsigned(hi[i], hi[j]);
    return c != 0 ? c : Long.compareUnsigned(lo[i], lo[j]);
  }

  private static void siftDown(long[] hi, long[] lo, int i, int n) {
    int root = i;
    while (true) {
      int child = 2 * root + 1;
      if (child >= n) {
        return;
      }
      if (child + 1 < n && compare(hi, lo, child, child + 1) < 0) {
        child++;
      }
      if (compare(hi, lo, root, child) >= 0) {
        return;
      }
      swap(hi, lo, root, child);
      root = child;
    }
  }

  private static void swap(long[] hi, long[] lo, int i, int j) {
    long h = hi[i];
    hi[i] = hi[j];
    hi[j] = h;
    long l = lo[i];
    lo[i] = lo[j];
    lo[j] = l;
  }
}
