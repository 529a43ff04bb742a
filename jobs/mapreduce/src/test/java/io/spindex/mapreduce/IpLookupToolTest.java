/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.LineJob;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.lookup.LookupCounts;
import io.spindex.text.RejectReason;
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
    return fx.annotateReference(f -> "file:" + fx.inputDir.resolve(f).toAbsolutePath());
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
    LookupCounts t = MrTests.lookupCounts(c);
    assertTrue(t.balanced(), t.toString());
    assertEquals(fx.lines.size(), t.linesIn());
    assertEquals(want.get(0).size(), t.linesOut());
    assertEquals(want.get(0).size(), t.lookups());
    assertEquals(hits, t.hits());
    assertEquals(want.get(0).size() - hits, t.misses());
    for (RejectReason why : RejectReason.LOOKUP) {
      assertEquals(reasons.getOrDefault(why, 0L), t.rejects(why), why.label());
    }
    assertEquals(want.get(1).size(), t.rejected());
    assertTrue(reasons.get(RejectReason.BLANK_LINE) > 0 && reasons.size() >= 2, reasons.toString());
    // The LocalJobRunner runs every task in this JVM: one load however many tasks. (It keeps no
    // job counters such as TOTAL_LAUNCHED_MAPS: the map tasks count themselves.)
    long maps = MrTests.count(c, LineJob.TASKS);
    assertTrue(maps >= 4, "map tasks " + maps);
    assertEquals(1, MrTests.count(c, LineJob.INDEX_LOADS));
    assertEquals(Files.size(fx.ranges), MrTests.count(c, LineJob.INDEX_BYTES));
    // The summary shows the counters' totals; without --loader, the option table's default.
    String summary =
        new String(Files.readAllBytes(out.resolve("_summary.json")), StandardCharsets.UTF_8);
    assertEquals(tool.report.toJson(), summary);
    String loader =
        new IpLookupDefinition()
            .options().stream()
                .filter(o -> o.name().equals("loader"))
                .findFirst()
                .orElseThrow()
                .defaultValue();
    assertTrue(summary.contains(MrTests.json("loader", loader)), summary);
    assertTrue(summary.contains(MrTests.json(LineJob.INDEX_LOADS, 1)), summary);
    assertTrue(summary.contains(MrTests.json(LineJob.TASKS, maps)), summary);
    assertTrue(summary.contains(MrTests.json("lines in", fx.lines.size())), summary);
    assertTrue(summary.contains(MrTests.json("lines rejected", want.get(1).size())), summary);
    assertTrue(summary.contains(MrTests.json("misses", want.get(0).size() - hits)), summary);
    for (RejectReason why : RejectReason.LOOKUP) {
      assertTrue(
          summary.contains(MrTests.json("rejects " + why.label(), reasons.getOrDefault(why, 0L))),
          why.label());
    }
    assertTrue(summary.contains(MrTests.json("balanced", true)), summary);
  }

  @Test
  void filterWithTheIndexShippedByFilesKeepsMissesAndCompresses() throws Exception {
    Path out = dir.resolve("filter");
    IpLookupTool tool =
        run(
            0,
            "-D",
            "spindex.loader=nio",
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
    LookupCounts t = MrTests.lookupCounts(tool.counters);
    assertTrue(t.balanced() && t.filtered() > 0, t.toString());
    assertEquals(want.size(), t.linesOut());
    assertEquals(1, MrTests.count(tool.counters, LineJob.INDEX_LOADS));
    assertEquals(Files.size(fx.set), MrTests.count(tool.counters, LineJob.INDEX_BYTES));
    // The loader came from -D spindex.loader; the index from -files, found by its name.
    String json = tool.report.toJson();
    assertTrue(json.contains(MrTests.json("loader", "nio")), json);
    assertTrue(json.contains(MrTests.json("keep", "misses")), json);
    assertTrue(json.contains(MrTests.json("lines filtered out", t.filtered())), json);
    assertTrue(
        json.contains(MrTests.json("index shipped as", "files:" + fx.set.getFileName())), json);
    try (Stream<Path> s = Files.list(out)) {
      assertTrue(s.anyMatch(p -> p.toString().endsWith(".gz")));
    }
  }

  /**
   * Count mode: per-label counts summed by a combiner and three reducers, written as one {@code
   * OUT/part-00000} of {@code label<TAB>count}, most lines first, ties by label (as on Spark).
   */
  @Test
  void countSumsLabelsThroughCombinerAndReducersIntoOneFileMostFirst() throws Exception {
    Path out = dir.resolve("count");
    IpLookupTool tool =
        run(
            0,
            "-D",
            "spindex.loader=nio",
            "--input",
            fx.inputDir.toString(),
            "--output",
            out.toString(),
            "--index",
            fx.ranges.toString(),
            "--mode",
            "count",
            "--loader",
            "io",
            "--reducers",
            "3",
            "--split-mb",
            "0.25");
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
    List<Map.Entry<String, Long>> order = new ArrayList<>(want.entrySet());
    order.sort(
        Map.Entry.<String, Long>comparingByValue()
            .reversed()
            .thenComparing(Map.Entry.comparingByKey()));
    List<String> wantLines = new ArrayList<>();
    for (Map.Entry<String, Long> e : order) {
      wantLines.add(e.getKey() + "\t" + e.getValue());
    }
    try (Stream<Path> s = Files.list(out)) {
      List<String> names = new ArrayList<>();
      s.map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith("."))
          .sorted()
          .forEach(names::add);
      assertEquals(List.of("_SUCCESS", "_rejects", "_summary.json", "part-00000"), names);
    }
    assertEquals(wantLines, Files.readAllLines(out.resolve("part-00000"), StandardCharsets.UTF_8));
    assertEquals(rejected, MrTests.readParts(out.resolve("_rejects")).size());
    Counters c = tool.counters;
    LookupCounts t = MrTests.lookupCounts(c);
    assertTrue(t.balanced(), t.toString());
    assertEquals(want.values().stream().mapToLong(Long::longValue).sum(), t.counted());
    // In-mapper totals: each map task emits at most one record per label; the combiner ran; the
    // reducers saw each label once.
    long maps = MrTests.count(c, LineJob.TASKS);
    assertTrue(maps >= 4, "map tasks " + maps);
    assertTrue(
        MrTests.value(c, TaskCounter.MAP_OUTPUT_RECORDS) <= maps * want.size(),
        "map output records");
    assertTrue(MrTests.value(c, TaskCounter.COMBINE_INPUT_RECORDS) > 0, "combiner ran");
    assertEquals(want.size(), MrTests.value(c, TaskCounter.REDUCE_INPUT_GROUPS));
    // --loader on the command line wins over -D spindex.loader.
    String json = tool.report.toJson();
    assertTrue(json.contains(MrTests.json("loader", "io")), json);
    assertTrue(json.contains(MrTests.json("labels", want.size())), json);
    assertTrue(json.contains(MrTests.json("lines counted", t.counted())), json);
    assertTrue(json.contains("\"top labels\": ["), json);
  }

  /** Labels with equal counts are ordered by label (String order, as on Spark). */
  @Test
  void countTiesAreOrderedByLabel() throws Exception {
    // Two lines of every label the fixture's addresses fall in, with one line for the first: all
    // labels tie at 2 but one, which comes last.
    Map<String, List<String>> byLabel = new java.util.TreeMap<>();
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (a >= 0) {
        List<String> ls = byLabel.computeIfAbsent(fx.rangeLabel(a), k -> new ArrayList<>());
        if (ls.size() < 2) {
          ls.add(l.text);
        }
      }
    }
    assertTrue(byLabel.size() >= 3, byLabel.keySet().toString());
    String first = byLabel.keySet().iterator().next();
    byLabel.get(first).remove(1);
    List<String> input = new ArrayList<>();
    byLabel.values().forEach(input::addAll);
    Collections.reverse(input);
    Path in = Files.createDirectories(dir.resolve("ties-in"));
    Files.write(in.resolve("ties.log"), input, StandardCharsets.UTF_8);
    Path out = dir.resolve("ties");
    run(
        0,
        "--input",
        in.toString(),
        "--output",
        out.toString(),
        "--index",
        fx.ranges.toString(),
        "--mode",
        "count",
        "--reducers",
        "2");
    List<String> want = new ArrayList<>();
    for (String label : byLabel.keySet()) {
      if (!label.equals(first)) {
        want.add(label + "\t2");
      }
    }
    want.add(first + "\t1");
    assertEquals(want, Files.readAllLines(out.resolve("part-00000"), StandardCharsets.UTF_8));
  }

  @Test
  void badOptionsAreUsageErrorsAndAMissingIndexFailsBeforeTheJob() throws Exception {
    run(2, "--input", "x", "--output", "y");
    run(2, "--input", "x", "--output", "y", "--index", fx.ranges.toString(), "--mode", "sum");
    Path none = dir.resolve("none");
    IpLookupTool tool =
        run(
            1,
            "--input",
            fx.inputDir.toString(),
            "--output",
            none.toString(),
            "--index",
            dir.resolve("missing.spx").toString());
    assertEquals(null, tool.job, "no job was submitted");
    assertTrue(!Files.exists(none), "no output directory");
  }
}
