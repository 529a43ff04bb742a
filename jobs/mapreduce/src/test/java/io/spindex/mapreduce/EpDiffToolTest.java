/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.ProductIndexBuilder;
import io.spindex.cli.local.LocalEpJobs;
import io.spindex.ep.DiffCounts;
import io.spindex.gen.EpGenerator;
import io.spindex.index.load.IndexHolder;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.LineJob;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ep-diff on the LocalJobRunner against the single-machine command ({@link LocalEpJobs}, what
 * {@code spindex ep diff} runs) on the same generated feeds: several map tasks (small splits, most
 * without the header line), the seen-row bitmap sliced over two delete reducers. The summary rows
 * are the command's (I and U rows in input order, then the D rows in index order), the rejects and
 * every count too; with {@code --single-file true} the summary file is the command's, byte for
 * byte.
 */
class EpDiffToolTest {
  static final String TIME = "2024-05-01 12:00:00";

  @TempDir static Path dir;
  static Path day2;
  static Path index;
  static LocalEpJobs.Result<DiffCounts> want;
  static byte[] cliSummary;
  static List<String> cliRejects;

  @BeforeAll
  static void setUp() throws Exception {
    Path day1 = dir.resolve("in1/day1.tsv");
    day2 = dir.resolve("in2/day2.tsv");
    Files.createDirectories(day1.getParent());
    Files.createDirectories(day2.getParent());
    EpGenerator g = new EpGenerator(4000, 17, 0.03);
    try (OutputStream o = Files.newOutputStream(day1)) {
      g.writeTo(o);
    }
    ByteArrayOutputStream next = new ByteArrayOutputStream();
    g.writeNextDay(next, 0.05, 0.1, 0.05);
    Files.write(day2, withDefects(next.toByteArray()));
    index = dir.resolve("day1.spx");
    new ProductIndexBuilder().build(List.of(day1), index);

    Path cli = dir.resolve("cli-summary.tsv");
    Path rej = dir.resolve("cli.rej");
    want = LocalEpJobs.diff(day2, index, "nio", cli, rej, TIME, 65536, 2);
    cliSummary = Files.readAllBytes(cli);
    cliRejects = MrTests.lines(Files.readAllBytes(rej));
    assertTrue(want.counts.inserted() > 0 && want.counts.updated() > 0, "I and U rows");
    assertTrue(want.counts.deleted() > 0 && want.counts.unchanged() > 0, "D and unchanged rows");
    assertTrue(want.counts.rejected() > 0, "the planted defects are rejected");
    assertTrue(want.counts.asMap().get("rejected, id known (kept)") > 0, "kept products");
    assertTrue(want.counts.reconciles());
  }

  /**
   * The next-day feed has no defects: every 300th data row loses its last column (its id still
   * read: yesterday's product is kept, not deleted), and every 1000th its id.
   */
  private static byte[] withDefects(byte[] feed) {
    List<String> in = MrTests.lines(feed);
    StringBuilder out = new StringBuilder(feed.length);
    int id = EpGenerator.HEADER.indexOf("id");
    for (int i = 0; i < in.size(); i++) {
      String line = in.get(i);
      if (i > 0 && i % 300 == 7) {
        line = line.substring(0, line.lastIndexOf('\t'));
      } else if (i > 0 && i % 1000 == 501) {
        String[] f = line.split("\t", -1);
        f[id] = "";
        line = String.join("\t", f);
      }
      out.append(line).append('\n');
    }
    return out.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  @BeforeEach
  void freshJvmState() {
    IndexHolder.clear();
  }

  private static EpDiffTool run(int wantExit, String... args) throws Exception {
    EpDiffTool tool = new EpDiffTool();
    List<String> a =
        new ArrayList<>(
            Arrays.asList(
                "--input",
                day2.toString(),
                "--yesterday",
                index.toString(),
                "--update-time",
                TIME,
                "--max-line-bytes",
                "65536"));
    a.addAll(Arrays.asList(args));
    assertEquals(wantExit, ToolRunner.run(MrTests.local(), tool, a.toArray(new String[0])));
    return tool;
  }

  private static List<Path> parts(Path d, String prefix) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /** Reason and line of each reject (the position differs: line number vs byte offset), sorted. */
  /** Reject records without their source (a Hadoop path in the job, as given to the command). */
  private static List<String> withoutSource(List<String> rejects) {
    List<String> l = new ArrayList<>();
    for (String r : rejects) {
      l.add(r.substring(r.indexOf('\t')));
    }
    Collections.sort(l);
    return l;
  }

  /** The rejects under {@code out}, each checked to point at the start of its line in day2. */
  private static List<String> rejects(Path out) throws Exception {
    byte[] in = Files.readAllBytes(day2);
    List<String> all = new ArrayList<>();
    for (Path p : parts(out.resolve("_rejects"), "part-")) {
      all.addAll(MrTests.lines(Files.readAllBytes(p)));
    }
    for (String r : all) {
      String[] f = r.split("\t", 5);
      assertTrue(f[0].endsWith(day2.getFileName().toString()), f[0]);
      int offset = Integer.parseInt(f[1]);
      assertTrue(offset == 0 || in[offset - 1] == '\n', "offset at a line start: " + r);
      byte[] raw = f[4].getBytes(StandardCharsets.ISO_8859_1);
      assertArrayEquals(raw, Arrays.copyOfRange(in, offset, offset + raw.length), r);
    }
    return all;
  }

  /** Every count of the command's, as the summary shows it and as the counters added it up. */
  private static void sameCounts(EpDiffTool tool) {
    String json = tool.report.toJson();
    for (Map.Entry<String, Long> e : want.counts.asMap().entrySet()) {
      assertTrue(json.contains(MrTests.json(e.getKey(), e.getValue())), e.getKey() + " in " + json);
    }
    assertTrue(json.contains(MrTests.json("balanced", true)), json);
    // The tasks' "rows out" are their I and U rows; the D rows are counted by the reducers.
    Map<String, Long> got = MrTests.jobCounts(MrTests.totals(tool.counters));
    Map<String, Long> wanted = MrTests.jobCounts(want.counts.asMap());
    got.remove("rows out");
    wanted.remove("rows out");
    assertEquals(wanted, got);
  }

  @Test
  void partsHoldTheCommandsRowsInItsOrderAndTheSameRejectsAndCounts() throws Exception {
    Path out = dir.resolve("parts");
    EpDiffTool tool =
        run(0, "--output", out.toString(), "--split-mb", "0.25", "--delete-tasks", "2");
    long maps = MrTests.count(tool.counters, LineJob.TASKS);
    assertTrue(maps >= 2, "map tasks " + maps);
    assertEquals(2, tool.job.getNumReduceTasks());

    // Every map task and every delete reducer wrote a complete EP file: the summary header, then
    // rows. Map parts in name order hold the I and U rows in input order; the reducers' parts
    // (part-d-*) the D rows in index order: together, the command's summary.
    List<String> cli = MrTests.lines(cliSummary);
    String header = cli.get(0);
    List<Path> mapParts = parts(out, "part-m-");
    List<Path> deleteParts = parts(out, "part-d-");
    assertEquals(maps, mapParts.size(), mapParts.toString());
    assertEquals(
        List.of("part-d-00000", "part-d-00001"),
        deleteParts.stream().map(p -> p.getFileName().toString()).collect(Collectors.toList()));
    assertEquals(mapParts.size() + deleteParts.size(), parts(out, "part-").size());
    List<String> rows = new ArrayList<>();
    List<Path> all = new ArrayList<>(mapParts);
    all.addAll(deleteParts);
    for (Path p : all) {
      List<String> l = MrTests.lines(Files.readAllBytes(p));
      assertEquals(header, l.get(0), p.toString());
      rows.addAll(l.subList(1, l.size()));
    }
    assertEquals(cli.subList(1, cli.size()), rows);
    long d = 0;
    for (Path p : deleteParts) {
      List<String> l = MrTests.lines(Files.readAllBytes(p));
      for (String row : l.subList(1, l.size())) {
        assertTrue(row.endsWith("\tD\t" + TIME), row);
        d++;
      }
    }
    assertEquals(want.counts.deleted(), d);
    assertTrue(!Files.exists(out.resolve(EpDiffTool.DELETES_DIR)), "no _deletes left");

    assertEquals(withoutSource(cliRejects), withoutSource(rejects(out)));
    sameCounts(tool);
    assertEquals(tool.report.toJson(), Files.readString(out.resolve("_summary.json")));
  }

  @Test
  void singleFileIsTheCommandsSummaryByteForByte() throws Exception {
    Path out = dir.resolve("single");
    EpDiffTool tool =
        run(
            0,
            "--output",
            out.toString(),
            "--split-mb",
            "0.25",
            "--delete-tasks",
            "2",
            "--single-file",
            "true");
    assertTrue(MrTests.count(tool.counters, LineJob.TASKS) >= 2);
    assertEquals(2, tool.job.getNumReduceTasks());
    assertArrayEquals(cliSummary, Files.readAllBytes(out.resolve("summary.tsv")));
    assertEquals(List.of(), parts(out, "part-"), "the parts were merged");
    assertEquals(cliRejects.size(), rejects(out).size());
    sameCounts(tool);
    assertTrue(tool.report.toJson().contains(MrTests.json("single file", true)));
  }

  /** Without --delete-tasks, one delete reducer per input split; any loader gives the same rows. */
  @Test
  void deleteTasksDefaultToTheSplits() throws Exception {
    Path out = dir.resolve("default-deletes");
    EpDiffTool tool = run(0, "--output", out.toString(), "--split-mb", "0.5", "--loader", "io");
    long maps = MrTests.count(tool.counters, LineJob.TASKS);
    assertEquals(maps, tool.job.getNumReduceTasks());
    assertEquals(maps, parts(out, "part-d-").size());
    List<String> cli = MrTests.lines(cliSummary);
    List<String> rows = new ArrayList<>();
    for (Path p : parts(out, "part-")) {
      List<String> l = MrTests.lines(Files.readAllBytes(p));
      assertEquals(cli.get(0), l.get(0), p.toString());
      rows.addAll(l.subList(1, l.size()));
    }
    List<String> wantRows = new ArrayList<>(cli.subList(1, cli.size()));
    Collections.sort(wantRows);
    Collections.sort(rows);
    assertEquals(wantRows, rows);
    assertTrue(tool.report.toJson().contains("\"index load ms (io, sum)\""), tool.report.toJson());
    sameCounts(tool);
  }

  @Test
  void isInTheDispatcher() {
    assertTrue(SpindexMapReduce.jobs().containsKey(EpDiffDefinition.NAME));
  }
}
