/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.lookup.LookupCounts;
import io.spindex.spark.side.JvmEvent;
import io.spindex.text.RejectReason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IpLookupJobTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;
  static SparkSession spark;

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir, 6000);
    spark = SparkTests.session();
  }

  @BeforeEach
  void freshJvmState() {
    IndexHolder.clear();
  }

  private static JobResult run(String... args) throws Exception {
    JobResult r = SpindexSpark.run(spark, io.spindex.job.IpLookupDefinition.NAME, args);
    System.out.println(r.report.toText());
    return r;
  }

  @Test
  void annotateWritesEveryLineWithItsLabelAndRejectsTheRest() throws Exception {
    Path out = dir.resolve("annotate");
    JobResult r =
        run(
            "--input", fx.inputDir.toString(),
            "--output", out.toString(),
            "--index", fx.ranges.toString(),
            "--loader", "mapped",
            "--split-mb", "0.25");
    List<String> wantOut = new ArrayList<>();
    List<String> wantRejects = new ArrayList<>();
    Map<RejectReason, Long> reasons = new HashMap<>();
    long hits = 0;
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (a < 0) {
        RejectReason why = RejectReason.ofCode(a);
        reasons.merge(why, 1L, Long::sum);
        String src = "file:" + fx.inputDir.resolve(l.file).toAbsolutePath();
        wantRejects.add(src + "\t" + l.offset + "\t" + why.label() + "\t\t" + l.text);
      } else {
        String label = fx.rangeLabel(a);
        hits += label.equals("\\N") ? 0 : 1;
        wantOut.add(l.text + "\t" + label);
      }
    }
    List<String> gotOut = SparkTests.readParts(out);
    List<String> gotRejects = SparkTests.readParts(out.resolve("_rejects"));
    Collections.sort(wantOut);
    Collections.sort(gotOut);
    Collections.sort(wantRejects);
    Collections.sort(gotRejects);
    assertEquals(wantOut, gotOut);
    assertEquals(wantRejects, gotRejects);

    LookupCounts c = r.counts();
    assertTrue(r.ok && c.balanced(), c.toString());
    assertEquals(fx.lines.size(), c.linesIn());
    assertEquals(wantOut.size(), c.linesOut());
    assertEquals(hits, c.hits());
    for (RejectReason why : RejectReason.LOOKUP) {
      assertEquals(reasons.getOrDefault(why, 0L), c.rejects(why), why.label());
    }
    assertTrue(reasons.get(RejectReason.BLANK_LINE) > 0 && reasons.size() >= 2, reasons.toString());
    // local[2] is one JVM: one load, however many tasks.
    long tasks = r.tasksByExecutor.values().stream().mapToLong(Long::longValue).sum();
    assertTrue(tasks >= 5, "tasks " + tasks);
    assertEquals(1, r.jvmEvents.stream().filter(e -> e.what.equals(JvmEvent.LOAD)).count());
    String summary =
        new String(Files.readAllBytes(out.resolve("_summary.json")), StandardCharsets.UTF_8);
    assertTrue(summary.contains("\"index loads\": 1"), summary);
    assertTrue(summary.contains("\"lines in\": " + fx.lines.size()), summary);
  }

  @Test
  void filterKeepsSetMissesAndCanCompressItsOutput() throws Exception {
    Path out = dir.resolve("filter");
    JobResult r =
        run(
            "--input", fx.inputDir.toString(),
            "--output", out.toString(),
            "--index", fx.set.toString(),
            "--mode", "filter",
            "--keep", "misses",
            "--ip", "0",
            "--delimiter", "space",
            "--compress", "gzip");
    List<String> want = new ArrayList<>();
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (a >= 0 && !fx.inSet(a)) {
        want.add(l.text);
      }
    }
    List<String> got = SparkTests.readParts(out);
    Collections.sort(want);
    Collections.sort(got);
    assertEquals(want, got);
    assertTrue(r.counts().balanced() && r.counts().filtered() > 0, r.counts().toString());
    assertEquals(want.size(), r.counts().linesOut());
    assertTrue(Files.list(out).anyMatch(p -> p.toString().endsWith(".gz")));
  }

  @Test
  void countWritesLabelsByLinesDescending() throws Exception {
    Path out = dir.resolve("count");
    JobResult r =
        run(
            "--input", fx.inputDir.resolve("b.log.gz").toString(),
            "--output", out.toString(),
            "--index", fx.ranges.toString(),
            "--mode", "count",
            "--loader", "io");
    Map<String, Long> want = new HashMap<>();
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (l.file.equals("b.log.gz") && a >= 0) {
        want.merge(fx.rangeLabel(a), 1L, Long::sum);
      }
    }
    List<String> got = SparkTests.readParts(out);
    Map<String, Long> gotMap = new HashMap<>();
    long prev = Long.MAX_VALUE;
    for (String line : got) {
      int tab = line.lastIndexOf('\t');
      long n = Long.parseLong(line.substring(tab + 1));
      assertTrue(n <= prev, "sorted by count: " + got);
      prev = n;
      gotMap.put(line.substring(0, tab), n);
    }
    assertEquals(want, gotMap);
    assertTrue(r.counts().balanced());
    assertEquals(want.values().stream().mapToLong(Long::longValue).sum(), r.counts().counted());
    assertTrue(!Files.exists(out.resolve("_partial-counts")));
  }

  @Test
  void badOptionsAreUsageErrors() {
    Exception e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.spindex.job.UsageException.class, () -> run("--input", "x", "--output", "y"));
    assertTrue(e.getMessage().contains("--index is required"), e.getMessage());
  }
}
