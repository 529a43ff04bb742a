/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.IndexHolder;
import io.spindex.index.Loader;
import io.spindex.index.SpindexIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark tools measure the right thing: identity copies, readiness answers agree. */
class BenchToolsTest {
  @TempDir Path dir;

  @Test
  void identityCopiesEveryLineBothWays() throws Exception {
    List<String> lines = Arrays.asList("a", "", "b\tc", "ünï");
    Path in = Files.createDirectories(dir.resolve("in"));
    Files.write(in.resolve("x.txt"), lines);
    for (String via : new String[] {"strings", "bytes"}) {
      Path out = dir.resolve("out-" + via);
      SpindexSpark.run(
          SparkTests.session(),
          IdentityJob.NAME,
          new String[] {"--input", in.toString(), "--output", out.toString(), "--via", via});
      List<String> got = new ArrayList<>(SparkTests.readParts(out));
      List<String> want = new ArrayList<>(lines);
      Collections.sort(got);
      Collections.sort(want);
      assertEquals(want, got, via);
    }
  }

  @Test
  void broadcastArraysAnswerLikeTheIndex() throws Exception {
    long[][] ranges = {{10, 20}, {100, 0xFFFF_FFF0L}};
    Path r = dir.resolve("r.spx");
    TestIndexes.writeRanges(r, ranges, new String[] {"a", "b"});
    int[] set = new Random(3).ints(1000).toArray();
    Path s = dir.resolve("s.spx");
    TestIndexes.writeSet(s, set);
    SpindexIndex ri = Loader.IO.load(r);
    SpindexIndex si = Loader.IO.load(s);
    int[][] ra = ReadinessJob.arrays(ri);
    int[][] sa = ReadinessJob.arrays(si);
    Random rnd = new Random(4);
    for (int i = 0; i < 10_000; i++) {
      int a = i % 3 == 0 ? set[i % set.length] : rnd.nextInt();
      assertEquals(ri.asRanges().labelId(a), ReadinessJob.lookup(ra, a));
      assertEquals(si.asSet().contains(a) ? 1 : 0, ReadinessJob.lookup(sa, a));
    }
  }

  @Test
  void readinessReportsEveryExecutorForBothWays() throws Exception {
    int[] set = new Random(3).ints(10_000).toArray();
    Path s = dir.resolve("ready.spx");
    TestIndexes.writeSet(s, set);
    for (String via : new String[] {"holder", "broadcast"}) {
      IndexHolder.clear();
      JobResult res =
          SpindexSpark.run(
              SparkTests.session(),
              ReadinessJob.NAME,
              new String[] {"--index", s.toString(), "--via", via, "--tasks", "4"});
      String json = res.report.toJson();
      assertTrue(json.contains("\"executors\": 1"), json);
      assertTrue(json.contains("\"answer\": 0"), json);
    }
  }
}
