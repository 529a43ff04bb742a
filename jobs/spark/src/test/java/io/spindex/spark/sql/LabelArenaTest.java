/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * The labels Spark reads, packed per JVM: every label reads back as the bytes it was added with,
 * text and rows, across array boundaries, for labels larger than an array, and when threads add the
 * same labels at once.
 */
class LabelArenaTest {
  /**
   * Text of {@code n} bytes, distinct per id: a reader that returns another label's bytes fails.
   */
  private static byte[] text(int id, int n) {
    byte[] b = new byte[n];
    Random r = new Random(id);
    for (int i = 0; i < n; i++) {
      b[i] = (byte) ('a' + r.nextInt(26));
    }
    return b;
  }

  @Test
  void textReadsBackAcrossArraysAndForLabelsLargerThanOne() {
    Random r = new Random(7);
    int n = 60_000;
    LabelArena arena = new LabelArena(n);
    int[] lengths = new int[n];
    int[] order = new Random(3).ints(0, n).distinct().limit(n).toArray();
    long total = 0;
    for (int id : order) {
      // Mostly short, some empty, a few of several megabytes (each then an array of its own).
      int len = id % 20_000 == 5 ? 3_000_000 + id : id % 97 == 0 ? 0 : r.nextInt(200);
      lengths[id] = len;
      total += len;
      assertEquals(0, arena.slot(id), "made before it was added");
      int s = arena.add(id, text(id, len));
      assertTrue(s != 0);
      assertEquals(s, arena.slot(id));
      assertEquals(s, arena.add(id, new byte[] {1}), "a second add keeps the first");
    }
    assertTrue(total > 10 << 20, "spans many arrays: " + total);
    for (int id = 0; id < n; id++) {
      UTF8String t = arena.text(arena.slot(id));
      assertEquals(lengths[id], t.numBytes(), "label " + id);
      assertArrayEquals(text(id, lengths[id]), t.getBytes(), "label " + id);
    }
  }

  @Test
  void rowsReadBackFieldByField() {
    int n = 5_000;
    LabelArena arena = new LabelArena(n);
    List<UnsafeRow> made = new ArrayList<>();
    for (int id = 0; id < n; id++) {
      UnsafeRowWriter w = new UnsafeRowWriter(4, 64);
      w.reset();
      w.zeroOutNullBytes();
      w.write(0, UTF8String.fromBytes(text(id, id % 50)));
      if (id % 3 == 0) {
        w.setNullAt(1);
      } else {
        w.write(1, id * 0.5);
      }
      w.write(2, (long) id << 20);
      w.write(3, id % 2 == 0);
      UnsafeRow row = w.getRow().copy();
      made.add(row);
      arena.add(id, row.getBytes());
    }
    for (int id = n - 1; id >= 0; id--) {
      UnsafeRow row = arena.row(arena.slot(id), 4);
      UnsafeRow want = made.get(id);
      assertEquals(want, row, "label " + id);
      assertEquals(
          new String(text(id, id % 50), StandardCharsets.UTF_8), row.getUTF8String(0).toString());
      assertEquals(id % 3 == 0, row.isNullAt(1));
      if (id % 3 != 0) {
        assertEquals(id * 0.5, row.getDouble(1));
      }
      assertEquals((long) id << 20, row.getLong(2));
      assertEquals(id % 2 == 0, row.getBoolean(3));
    }
  }

  @Test
  void threadsAddingTheSameLabelsShareOneCopyOfEach() throws Exception {
    int n = 20_000;
    int threads = 4;
    LabelArena arena = new LabelArena(n);
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<int[]>> seen = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        seen.add(
            pool.submit(
                () -> {
                  start.await();
                  int[] slots = new int[n];
                  // Each thread in its own order, reading as soon as it has a slot.
                  for (int id : new Random(seed).ints(0, n).distinct().limit(n).toArray()) {
                    int s = arena.slot(id);
                    if (s == 0) {
                      s = arena.add(id, text(id, 1 + id % 300));
                    }
                    assertArrayEquals(text(id, 1 + id % 300), arena.text(s).getBytes());
                    slots[id] = s;
                  }
                  return slots;
                }));
      }
      start.countDown();
      int[] first = seen.get(0).get(60, TimeUnit.SECONDS);
      for (Future<int[]> f : seen) {
        assertArrayEquals(first, f.get(60, TimeUnit.SECONDS), "one slot per label");
      }
      Set<Integer> distinct = new HashSet<>();
      for (int s : first) {
        distinct.add(s);
      }
      assertEquals(n, distinct.size(), "no two labels share bytes");
    } finally {
      pool.shutdownNow();
    }
  }
}
