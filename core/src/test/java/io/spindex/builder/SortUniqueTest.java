/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The bucket sort agrees with a TreeSet on both of its paths (comparison and bitmap). */
class SortUniqueTest {
  @Test
  void agreesWithTreeSet() {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] bits = new long[1024];
    for (int round = 0; round < 300; round++) {
      int high = rnd.nextInt() & 0xFFFF0000;
      int n = rnd.nextInt(3) == 0 ? rnd.nextInt(IpSetBuilder.BITMAP_MIN) : rnd.nextInt(5000);
      int spread = rnd.nextBoolean() ? 65536 : 1 + rnd.nextInt(300); // many duplicates
      int pad = rnd.nextInt(5);
      int[] keys = new int[n + 2 * pad];
      TreeSet<Integer> reference = new TreeSet<>();
      for (int i = 0; i < n; i++) {
        int k = high | rnd.nextInt(spread);
        keys[pad + i] = k;
        reference.add(k);
      }
      int u = IpSetBuilder.sortUnique(keys, pad, pad + n, bits);
      String ctx = "seed " + seed + ", round " + round;
      assertEquals(reference.size(), u, ctx);
      int[] expected = reference.stream().mapToInt(Integer::intValue).toArray();
      assertArrayEquals(expected, Arrays.copyOfRange(keys, pad, pad + u), ctx);
      assertArrayEquals(new long[1024], bits, ctx + ": bitmap left clean");
    }
  }
}
