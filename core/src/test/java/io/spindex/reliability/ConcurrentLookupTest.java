/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.IpRanges;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.Loader;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One index object shared by 16 threads answers exactly as it does on one thread. */
class ConcurrentLookupTest {
  @TempDir Path dir;

  @Test
  void manyThreadsGetTheSameAnswersAsOne() throws Exception {
    Path src = dir.resolve("ranges.txt");
    try (OutputStream out = Files.newOutputStream(src)) {
      new RangeGenerator(50_000, 3, RangeGenerator.Format.RANGE).writeTo(out);
    }
    Path idx = dir.resolve("ranges.spx");
    new IpRangeBuilder().build(List.of(src), idx);
    long seed = System.nanoTime();
    int[] probes = new SplittableRandom(seed).ints(200_000).toArray();
    for (IndexLoader loader : new IndexLoader[] {Loader.MAPPED, Loader.NIO}) {
      IpRanges ranges = loader.load(idx).asRanges();
      String[] expected = new String[probes.length];
      for (int i = 0; i < probes.length; i++) {
        expected[i] = ranges.label(probes[i]);
      }
      ExecutorService pool = Executors.newFixedThreadPool(16);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<String[]>> results = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        int offset = t * 997;
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  String[] got = new String[probes.length];
                  // Each thread walks the probes from a different start, to interleave.
                  for (int k = 0; k < probes.length; k++) {
                    int i = (k + offset) % probes.length;
                    got[i] = ranges.label(probes[i]);
                  }
                  return got;
                }));
      }
      go.countDown();
      for (Future<String[]> f : results) {
        assertArrayEquals(expected, f.get(), "seed " + seed + ", " + loader.loaderName());
      }
      pool.shutdown();
    }
  }
}
