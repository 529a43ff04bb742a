/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

/** LSD radix sort of 64-bit keys in unsigned order, carrying an int payload along. */
final class RadixSort {
  private RadixSort() {}

  /**
   * Sorts {@code keys[0, n)} ascending as unsigned values, permuting {@code payload} the same way.
   * Stable; four passes of 16 bits; needs one extra copy of both arrays.
   */
  static void sortUnsigned(long[] keys, int[] payload, int n) {
    long[] k2 = new long[n];
    int[] p2 = new int[n];
    int[] count = new int[65537];
    long[] srcK = keys;
    int[] srcP = payload;
    long[] dstK = k2;
    int[] dstP = p2;
    for (int shift = 0; shift < 64; shift += 16) {
      java.util.Arrays.fill(count, 0);
      for (int i = 0; i < n; i++) {
        count[(int) (srcK[i] >>> shift) & 0xFFFF]++;
      }
      int sum = 0;
      for (int d = 0; d < 65536; d++) {
        int c = count[d];
        count[d] = sum;
        sum += c;
      }
      for (int i = 0; i < n; i++) {
        int d = (int) (srcK[i] >>> shift) & 0xFFFF;
        int at = count[d]++;
        dstK[at] = srcK[i];
        dstP[at] = srcP[i];
      }
      long[] tk = srcK;
      srcK = dstK;
      dstK = tk;
      int[] tp = srcP;
      srcP = dstP;
      dstP = tp;
    }
    // Four passes: the result is back in keys and payload.
  }
}
