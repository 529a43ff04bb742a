/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's B+-tree, its nodes counted in scalar code and by the Vector API (the tests run
 * with its module), against {@link Arrays#binarySearch} over the same starts.
 */
class StaticTree4Test {
  @Test
  void answersAsABinarySearchAtEverySizeAndEdge() {
    SplittableRandom rnd = new SplittableRandom(42);
    for (int n : new int[] {1, 2, 15, 16, 17, 255, 256, 257, 4_097, 70_001}) {
      int[] unflipped = rnd.ints(n).distinct().sorted().toArray();
      // Sorted as unsigned: flipped starts in ascending signed order.
      int[] starts = Arrays.stream(unflipped).map(a -> a ^ Integer.MIN_VALUE).sorted().toArray();
      int rows = starts.length;
      int[] labels = new int[rows];
      for (int i = 0; i < rows; i++) {
        labels[i] = i % 7 == 3 ? -1 : i;
      }
      StaticTree4 scalar = new StaticTree4(starts, labels, rows, false);
      StaticTree4 vector = new StaticTree4(starts, labels, rows, true);
      int[] queries = new int[20_000];
      for (int i = 0; i < queries.length; i++) {
        int s = starts[rnd.nextInt(rows)] ^ Integer.MIN_VALUE;
        int kind = i % 5;
        queries[i] =
            kind == 0
                ? s
                : kind == 1 ? s - 1 : kind == 2 ? s + 1 : kind == 3 ? -(i % 2) : rnd.nextInt();
      }
      for (StaticTree4 tree : new StaticTree4[] {scalar, vector}) {
        int[] batch = new int[queries.length];
        tree.labelIds(queries, queries.length, batch);
        for (int i = 0; i < queries.length; i++) {
          int k = Arrays.binarySearch(starts, queries[i] ^ Integer.MIN_VALUE);
          int row = k >= 0 ? k : -k - 2;
          int want = row < 0 ? -1 : labels[row];
          String where =
              (tree == vector ? "vector, " : "")
                  + n
                  + " rows, address "
                  + Integer.toHexString(queries[i]);
          assertEquals(want, tree.labelId(queries[i]), where);
          assertEquals(want, batch[i], where);
        }
      }
    }
  }
}
