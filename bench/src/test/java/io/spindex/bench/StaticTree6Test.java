/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's IPv6 B+-tree, scalar and on the Vector API, and its binary search against a
 * {@link TreeMap} of the starts as 128-bit integers.
 */
class StaticTree6Test {
  private static BigInteger unsigned(long hi, long lo) {
    return new BigInteger(1, java.nio.ByteBuffer.allocate(16).putLong(hi).putLong(lo).array());
  }

  @Test
  void answersAsAFloorOfTheStartsAtEverySizeAndEdge() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int n : new int[] {1, 2, 7, 8, 9, 63, 64, 65, 513, 20_001}) {
      TreeMap<BigInteger, long[]> sorted = new TreeMap<>();
      while (sorted.size() < n) {
        // Many starts share a high half (ties there), some differ only in the sign bits.
        long hi = rnd.nextInt(3) == 0 ? rnd.nextLong() : (rnd.nextBoolean() ? 1L : -1L) << 60;
        long lo = rnd.nextInt(4) == 0 ? 0 : rnd.nextLong();
        sorted.put(unsigned(hi, lo), new long[] {hi, lo});
      }
      long[] his = new long[n];
      long[] los = new long[n];
      int[] labels = new int[n];
      TreeMap<BigInteger, Integer> reference = new TreeMap<>();
      int i = 0;
      for (Map.Entry<BigInteger, long[]> e : sorted.entrySet()) {
        his[i] = e.getValue()[0];
        los[i] = e.getValue()[1];
        labels[i] = i % 5 == 2 ? -1 : i;
        reference.put(e.getKey(), labels[i]);
        i++;
      }
      StaticTree6 scalar = new StaticTree6(his, los, labels, n, false);
      StaticTree6 vector = new StaticTree6(his, los, labels, n, true);
      int q = 5_000;
      long[] qh = new long[q];
      long[] ql = new long[q];
      for (int k = 0; k < q; k++) {
        int row = rnd.nextInt(n);
        int kind = k % 4;
        qh[k] = kind == 3 ? rnd.nextLong() : his[row];
        ql[k] = kind == 0 ? los[row] : kind == 1 ? los[row] - 1 : kind == 2 ? los[row] + 1 : 0;
      }
      for (StaticTree6 tree : new StaticTree6[] {scalar, vector}) {
        int[] batch = new int[q];
        tree.labelIds(qh, ql, q, batch);
        for (int k = 0; k < q; k++) {
          Map.Entry<BigInteger, Integer> f = reference.floorEntry(unsigned(qh[k], ql[k]));
          int want = f == null ? -1 : f.getValue();
          String where =
              (tree == vector ? "vector, " : "")
                  + n
                  + " rows, key "
                  + Long.toHexString(qh[k])
                  + ":"
                  + Long.toHexString(ql[k]);
          assertEquals(want, tree.labelId(qh[k], ql[k]), where);
          assertEquals(want, batch[k], where);
          assertEquals(want, tree.binarySearch(qh[k], ql[k]), where);
        }
      }
    }
  }
}
