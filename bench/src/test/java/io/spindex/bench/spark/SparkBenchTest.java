/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.lookup.TestIndexes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Spark benchmarks measure the right thing: identity copies, readiness answers agree. */
class SparkBenchTest {
  private static JavaSparkContext sc;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    sc =
        new JavaSparkContext(
            new SparkConf()
                .setMaster("local[2]")
                .setAppName("spindex-bench-tests")
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1"));
  }

  @AfterAll
  static void stop() {
    sc.stop();
  }

  @Test
  void identityCopiesEveryLineBothWays() throws Exception {
    List<String> lines = Arrays.asList("a", "", "b\tc", "ünï");
    Path in = Files.createDirectories(dir.resolve("in"));
    Files.write(in.resolve("x.txt"), lines);
    for (String via : new String[] {"strings", "bytes"}) {
      Path out = dir.resolve("out-" + via);
      SparkBench.report(
          sc,
          IdentityJob.NAME,
          new String[] {"--input", in.toString(), "--output", out.toString(), "--via", via});
      List<String> got = readParts(out);
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
      Path json = dir.resolve("readiness-" + via + ".json");
      ByteArrayOutputStream text = new ByteArrayOutputStream();
      int code =
          SparkBench.run(
              sc,
              ReadinessJob.NAME,
              new String[] {
                "--index", s.toString(), "--via", via, "--tasks", "4", "--output", json.toString()
              },
              new PrintStream(text, true, StandardCharsets.UTF_8));
      assertEquals(0, code);
      // What scripts/bench-spark reads: the printed lines and the JSON file.
      String printed = text.toString(StandardCharsets.UTF_8);
      assertTrue(printed.contains("in-task ms to first lookup"), printed);
      String report = Files.readString(json);
      assertTrue(report.contains("\"executors\": 1"), report);
      assertTrue(report.contains("\"answer\": 0"), report);
    }
  }

  @Test
  void aMistakeIsOneLineAndExitTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SparkBench.JOBS.run(
            new String[] {"identity", "--input", "in", "--output", "out", "--via", "lines"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            (job, rest) -> SparkBench.run(sc, job, rest, System.out));
    assertEquals(2, code);
    String msg = err.toString(StandardCharsets.UTF_8);
    assertTrue(msg.startsWith("identity: --via"), msg);
  }

  /** Lines of every {@code part-*} file in {@code out}, in name order. */
  private static List<String> readParts(Path out) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> parts = Files.list(out)) {
      for (Path p : (Iterable<Path>) parts.sorted()::iterator) {
        if (p.getFileName().toString().startsWith("part-")) {
          lines.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
        }
      }
    }
    return lines;
  }
}
