/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link LockStep} against the plain answer, a linear scan: for searches over runs of every length
 * from empty to a few hundred rows (duplicates included), in full and partial groups, each search
 * ends on the last row of its run whose key is at most its key, or on the run's first row when none
 * is; an empty run is {@link LockStep#empty}.
 */
class LockStepTest {
  @Test
  void endsWhereALinearScanDoes() {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] values = new int[2000];
    for (int i = 0; i < values.length; i++) {
      values[i] = rnd.nextInt(-500, 500);
    }
    Arrays.sort(values);
    LockStep.IntKeys probe = new LockStep.IntKeys(IntColumn.of(values));
    LockStep search = new LockStep();
    for (int round = 0; round < 2000; round++) {
      int m = 1 + rnd.nextInt(LockStep.GROUP);
      int[] from = new int[m];
      int[] n = new int[m];
      search.clear();
      for (int j = 0; j < m; j++) {
        n[j] = rnd.nextInt(8) == 0 ? 0 : rnd.nextInt(1 + rnd.nextInt(300));
        from[j] = rnd.nextInt(values.length - n[j] + 1);
        assertEquals(j, search.add(from[j], n[j]));
        probe.key[j] = rnd.nextInt(-520, 520);
      }
      assertEquals(m, search.size());
      search.search(probe);
      for (int j = 0; j < m; j++) {
        String ctx = "seed " + seed + ", round " + round + ", search " + j;
        assertEquals(n[j] == 0, search.empty(j), ctx);
        if (n[j] > 0) {
          int expected = from[j];
          for (int r = from[j]; r < from[j] + n[j]; r++) {
            if (values[r] <= probe.key[j]) {
              expected = r;
            }
          }
          assertEquals(expected, search.row(j), ctx);
        }
      }
    }
  }
}
