/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.IndexHolder;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.RejectReason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ip-lookup on the LocalJobRunner: outputs, rejects and counters against answers computed
 * independently of the job (the fixture's TreeMap and HashMap references).
 */
class IpLookupToolTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir, 6000);
  }

  @BeforeEach
  void freshJvmState() {
    IndexHolder.clear();
  }

  private static IpLookupTool run(int wantExit, String... args) throws Exception {
    IpLookupTool tool = new IpLookupTool();
    assertEquals(wantExit, ToolRunner.run(MrTests.local(), tool, args));
    return tool;
  }

  /** Expected annotate output and rejects for the fixture's ranges index. */
  static List<List<String>> expectedAnnotate() {
    List<String> wantOut = new ArrayList<>();
    List<String> wantRejects = new ArrayList<>();
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (a < 0) {
        String src = "file:" + fx.inputDir.resolve(l.file).toAbsolutePath();
        wantRejects.add(
            RejectReason.ofCode(a).label() + "\t" + src + ":" + l.offset + "\t" + l.text);
      } else {
        wantOut.add(l.text + "\t" + fx.rangeLabel(a));
      }
    }
    Collections.sort(wantOut);
    Collections.sort(wantRejects);
    return List.of(wantOut, wantRejects);
  }

  @Test
  void annotateWritesEveryLineWithItsLabelAndRejectsTheRest() throws Exception {
    Path out = dir.resolve("annotate");
    IpLookupTool tool =
        run(
            0,
            "--input",
            fx.inputDir.toString(),
            "--output",
            out.toString(),
            "--index",
            fx.ranges.toString(),
            "--split-mb",
            "0.25");
    List<List<String>> want = expectedAnnotate();
    List<String> gotOut = MrTests.readParts(out);
    List<String> gotRejects = MrTests.readParts(out.resolve("_rejects"));
    Collections.sort(gotOut);
    Collections.sort(gotRejects);
    assertEquals(want.get(0), gotOut);
    assertEquals(want.get(1), gotRejects);

    Map<RejectReason, Long> reasons = new HashMap<>();
    long hits = 0;
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (a < 0) {
        reasons.merge(RejectReason.ofCode(a), 1L, Long::sum);
      } else if (!fx.rangeLabel(a).equals("\\N")) {
        hits++;
      }
    }
    Counters c = tool.counters;
    LookupCounts t = IpLookupTool.totals(c);
    assertTrue(t.balanced(), t.toString());
    assertEquals(fx.lines.size(), t.linesIn());
    assertEquals(want.get(0).size(), t.linesOut());
    assertEquals(hits, t.hits());
    assertEquals(t.lookups() - hits, IpLookupTool.value(c, SpindexCounter.MISSES));
    for (RejectReason why : RejectReason.values()) {
      assertEquals(reasons.getOrDefault(why, 0L), t.rejects(why), why.label());
    }
    assertEquals(want.get(1).size(), IpLookupTool.value(c, SpindexCounter.REJECTED));
    assertTrue(reasons.get(RejectReason.BLANK_LINE) > 0 && reasons.size() >= 2, reasons.toString());
    // The LocalJobRunner runs every task in this JVM: one load however many tasks. (It keeps no
    // job counters such as TOTAL_LAUNCHED_MAPS: the map tasks count themselves.)
    long maps = IpLookupTool.value(c, SpindexCounter.TASKS);
    assertTrue(maps >= 4, "map tasks " + maps);
    assertEquals(1, IpLookupTool.value(c, SpindexCounter.INDEX_LOADS));
    assertEquals(1, IpLookupTool.value(c, SpindexCounter.LOADS_MAPPED));
    assertEquals(Files.size(fx.ranges), IpLookupTool.value(c, SpindexCounter.INDEX_BYTES));
    assertEquals(0, IpLookupTool.value(c, SpindexCounter.LOADS_IO));
    String summary =
        new String(Files.readAllBytes(out.resolve("_summary.json")), StandardCharsets.UTF_8);
    assertTrue(summary.contains("\"index loads\": 1"), summary);
    assertTrue(summary.contains("\"lines in\": " + fx.lines.size()), summary);
    assertTrue(summary.contains("\"balanced\": true"), summary);
  }

  @Test
  void filterWithTheIndexShippedByFilesKeepsMissesAndCompresses() throws Exception {
    Path out = dir.resolve("filter");
    IpLookupTool tool =
        run(
            0,
            "-files",
            fx.set.toString(),
            "--input",
            fx.inputDir.toString(),
            "--output",
            out.toString(),
            "--index",
            fx.set.getFileName().toString(),
            "--mode",
            "filter",
            "--keep",
            "misses",
            "--ip",
            "0",
            "--delimiter",
            "space",
            "--loader",
            "nio",
            "--compress",
            "gzip");
    List<String> want = new ArrayList<>();
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (a >= 0 && !fx.inSet(a)) {
        want.add(l.text);
      }
    }
    List<String> got = MrTests.readParts(out);
    Collections.sort(want);
    Collections.sort(got);
    assertEquals(want, got);
    LookupCounts t = IpLookupTool.totals(tool.counters);
    assertTrue(t.balanced() && t.filtered() > 0, t.toString());
    assertEquals(want.size(), t.linesOut());
    assertEquals(1, IpLookupTool.value(tool.counters, SpindexCounter.LOADS_NIO));
    assertTrue(tool.report.toText().contains("-files "), tool.report.toText());
    try (Stream<Path> s = Files.list(out)) {
      assertTrue(s.anyMatch(p -> p.toString().endsWith(".gz")));
    }
  }

  @Test
  void countSumsLabelsThroughCombinerAndReducer() throws Exception {
    Path out = dir.resolve("count");
    IpLookupTool tool =
        run(
            0,
            "--input",
            fx.inputDir.toString(),
            "--output",
            out.toString(),
            "--index",
            fx.ranges.toString(),
            "--mode",
            "count",
            "--loader",
            "io");
    Map<String, Long> want = new HashMap<>();
    long rejected = 0;
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (a >= 0) {
        want.merge(fx.rangeLabel(a), 1L, Long::sum);
      } else {
        rejected++;
      }
    }
    Map<String, Long> got = new HashMap<>();
    for (String line : MrTests.readParts(out)) {
      int tab = line.lastIndexOf('\t');
      assertEquals(null, got.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1))));
    }
    assertEquals(want, got);
    assertEquals(rejected, MrTests.readParts(out.resolve("_rejects")).size());
    Counters c = tool.counters;
    LookupCounts t = IpLookupTool.totals(c);
    assertTrue(t.balanced(), t.toString());
    assertEquals(want.values().stream().mapToLong(Long::longValue).sum(), t.counted());
    // In-mapper totals: each map task emits at most one record per label; the combiner ran.
    long maps = IpLookupTool.value(c, SpindexCounter.TASKS);
    assertTrue(
        IpLookupTool.value(c, TaskCounter.MAP_OUTPUT_RECORDS) <= maps * want.size(),
        "map output records");
    assertTrue(IpLookupTool.value(c, TaskCounter.COMBINE_INPUT_RECORDS) > 0, "combiner ran");
    assertEquals(want.size(), IpLookupTool.value(c, TaskCounter.REDUCE_OUTPUT_RECORDS));
  }

  @Test
  void badOptionsAndMissingIndexAreUsageErrorsOrFailures() throws Exception {
    run(2, "--input", "x", "--output", "y");
    run(2, "--input", "x", "--output", "y", "--index", fx.ranges.toString(), "--mode", "sum");
    Exception e =
        org.junit.jupiter.api.Assertions.assertThrows(
            java.io.FileNotFoundException.class,
            () ->
                run(
                    1,
                    "--input",
                    fx.inputDir.toString(),
                    "--output",
                    dir.resolve("none").toString(),
                    "--index",
                    dir.resolve("missing.spx").toString()));
    assertTrue(e.getMessage().contains("missing.spx"), e.getMessage());
  }
}
