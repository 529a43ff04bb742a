/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.util.SplittableRandom;

/**
 * Dependent random reads over an {@code int[]} as large as an index: one random cycle through the
 * array, each read's address the value of the one before, so no two reads overlap and no prefetcher
 * can guess the next. Its time per read is the cost of one cache miss at that size (L2, L3 or
 * DRAM), the floor under each step of a search over a structure of that size.
 */
final class MemoryChase {
  private final int[] next;
  private int at;

  /** A chase over {@code bytes} bytes (at least 256 KiB). */
  MemoryChase(long bytes, long seed) {
    int n = (int) Math.max(1 << 16, Math.min(bytes / 4, Integer.MAX_VALUE - 8));
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    next = new int[n];
    for (int i = 0; i < n; i++) {
      next[order[i]] = order[(i + 1) % n];
    }
  }

  /** Makes {@code reads} dependent reads; returns where it stopped (for the benchmark to sink). */
  int run(int reads) {
    int a = at;
    for (int i = 0; i < reads; i++) {
      a = next[a];
    }
    at = a;
    return a;
  }
}
