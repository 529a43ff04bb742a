/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.build.ProductIndexBuilder;
import io.spindex.gen.EpGenerator;
import io.spindex.index.IndexHolder;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.LineJob;
import io.spindex.job.LocalLineJobs;
import io.spindex.lookup.IpLookupFixture;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each job's core definition, run without an engine ({@link LocalLineJobs}: one split per file),
 * and the same job on the LocalJobRunner with small splits give the same records, rejects and
 * counts: the engine adds nothing and drops nothing. (The Spark module holds the same test for
 * Spark local[2].)
 */
class EnginesAgreeTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;
  static Path day1;
  static Path day2;
  static Path index;
  static Path spec;

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir.resolve("logs"), 3000);
    day1 = dir.resolve("in1/day1.tsv");
    day2 = dir.resolve("in2/day2.tsv");
    Files.createDirectories(day1.getParent());
    Files.createDirectories(day2.getParent());
    EpGenerator g = new EpGenerator(3000, 23, 0.03);
    try (OutputStream o = Files.newOutputStream(day1)) {
      g.writeTo(o);
    }
    try (OutputStream o = Files.newOutputStream(day2)) {
      g.writeNextDay(o, 0.05, 0.1, 0.05);
    }
    index = dir.resolve("day1.spx");
    new ProductIndexBuilder().build(List.of(day1), index);
    spec = EpTransformToolTest.SPEC;
  }

  @BeforeEach
  void freshJvmState() {
    IndexHolder.clear();
  }

  @Test
  void ipLookupAnnotate() throws Exception {
    agree(
        new IpLookupDefinition(),
        "annotate",
        "--input",
        fx.inputDir.toString(),
        "--index",
        fx.ranges.toString(),
        "--split-mb",
        "0.1");
  }

  @Test
  void ipLookupFilterOnAField() throws Exception {
    agree(
        new IpLookupDefinition(),
        "filter",
        "--input",
        fx.inputDir.toString(),
        "--index",
        fx.set.toString(),
        "--mode",
        "filter",
        "--keep",
        "misses",
        "--ip",
        "0",
        "--delimiter",
        "space");
  }

  @Test
  void ipLookupCount() throws Exception {
    agree(
        new IpLookupDefinition(),
        "count",
        "--input",
        fx.inputDir.toString(),
        "--index",
        fx.ranges.toString(),
        "--mode",
        "count",
        "--split-mb",
        "0.1");
  }

  @Test
  void epTransformWithSideFiles() throws Exception {
    agree(
        new EpTransformDefinition(),
        "transform",
        "--input",
        day1.toString(),
        "--spec",
        spec.toString(),
        "--split-mb",
        "0.25");
  }

  @Test
  void epDiff() throws Exception {
    agree(
        new EpDiffDefinition(),
        "diff",
        "--input",
        day2.toString(),
        "--yesterday",
        index.toString(),
        "--update-time",
        "2024-05-01 12:00:00",
        "--split-mb",
        "0.25",
        "--delete-tasks",
        "3");
  }

  /** Runs {@code job} with {@code args} on both, writing Spark's output to {@code name}. */
  private static void agree(LineJob<?> job, String name, String... args) throws Exception {
    LocalLineJobs.Result want = LocalLineJobs.run(job, with(args, dir.resolve("unused-" + name)));
    Path out = dir.resolve(name);
    LineJobTool<?> tool = (LineJobTool<?>) SpindexMapReduce.jobs().get(job.name()).get();
    int code = ToolRunner.run(MrTests.local(), tool, with(args, out));

    assertTrue(want.reconciles && code == 0, "both reconcile");
    assertTrue(!want.output.isEmpty() || !want.counts.isEmpty(), "the job wrote something");
    // The next-day feed has no planted defects; every other input has rejects of several kinds.
    assertTrue(!want.rejects.isEmpty() || job instanceof EpDiffDefinition, "rejects");
    if (!want.counts.isEmpty()) {
      assertEquals(want.counts, MrTests.readParts(out), "part-00000, byte for byte");
    } else {
      assertEquals(sorted(rows(want.output)), sorted(rows(MrTests.readParts(out))));
      assertEquals(1, headers(MrTests.readParts(out)).size(), "one header, in every part");
    }
    assertEquals(sorted(want.rejects), sorted(MrTests.readParts(out.resolve("_rejects"))));
    assertEquals(jobCounts(want.totals), jobCounts(MrTests.totals(tool.counters)));
  }

  private static String[] with(String[] args, Path output) {
    List<String> a = new ArrayList<>(Arrays.asList(args));
    a.add("--output");
    a.add(output.toString());
    return a.toArray(new String[0]);
  }

  /** The job's own counts: without what the engine adds (tasks, loads), which differ by engine. */
  private static Map<String, Long> jobCounts(Map<String, Long> totals) {
    Map<String, Long> m = new TreeMap<>(totals);
    m.keySet()
        .removeAll(
            Arrays.asList(
                LineJob.TASKS,
                LineJob.INDEX_LOADS,
                LineJob.INDEX_LOAD_MS,
                LineJob.INDEX_BYTES,
                LineJob.STAGE_MS));
    m.values().removeIf(v -> v == 0);
    return m;
  }

  /** EP parts start with the header: the distinct header lines (none for ip-lookup). */
  private static List<String> headers(List<String> lines) {
    List<String> h = new ArrayList<>();
    for (String l : lines) {
      if (l.startsWith("id\t") && !h.contains(l)) {
        h.add(l);
      }
    }
    return h.isEmpty() ? Collections.singletonList("") : h;
  }

  private static List<String> rows(List<String> lines) {
    List<String> r = new ArrayList<>(lines);
    r.removeIf(l -> l.startsWith("id\t"));
    return r;
  }

  private static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    Collections.sort(s);
    return s;
  }
}
