/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.cli.local.LocalEpJobs;
import io.spindex.ep.EpCounts;
import io.spindex.ep.feed.EpHeader;
import io.spindex.gen.EpGenerator;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.LineJob;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ep-transform on the LocalJobRunner against the single-machine core ({@link LocalEpJobs}, what
 * {@code spindex ep transform} runs) on the same generated feed and the example spec: data rows
 * byte for byte, rejects by reason and line, counters against the core's counts.
 */
class EpTransformToolTest {
  /** The example spec; its side files (category map, blocked words) sit next to it. */
  static final Path SPEC =
      Paths.get("../../../conf/ep-transform.example.conf").toAbsolutePath().normalize();

  @TempDir static Path dir;
  static Path input;
  static LocalEpJobs.Result<EpCounts> core;
  static byte[] coreOut;
  static List<String> coreRejects;

  @BeforeAll
  static void setUp() throws Exception {
    input = dir.resolve("in/ep.tsv");
    Files.createDirectories(input.getParent());
    try (OutputStream out = Files.newOutputStream(input)) {
      new EpGenerator(3000, 42, 0.05).writeTo(out);
    }
    Path out = dir.resolve("core.tsv");
    Path rej = dir.resolve("core-rejects.tsv");
    core = LocalEpJobs.transform(input, out, rej, SPEC, 2);
    coreOut = Files.readAllBytes(out);
    coreRejects = MrTests.lines(Files.readAllBytes(rej));
  }

  private static EpTransformTool run(int wantExit, String... args) throws Exception {
    EpTransformTool tool = new EpTransformTool();
    assertEquals(wantExit, ToolRunner.run(MrTests.local(), tool, args));
    return tool;
  }

  private static List<Path> parts(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> p.getFileName().toString().startsWith("part-"))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /** The lines of the rejects parts of {@code out}, one char per byte. */
  static List<String> rejectLines(Path out) throws Exception {
    List<String> rejectLines = new ArrayList<>();
    for (Path p : parts(out.resolve("_rejects"))) {
      rejectLines.addAll(MrTests.lines(Files.readAllBytes(p)));
    }
    return rejectLines;
  }

  private static int afterFirstLine(byte[] b) {
    int i = 0;
    while (b[i] != '\n') {
      i++;
    }
    return i + 1;
  }

  @Test
  void matchesTheCoreRowsRejectsAndCounts() throws Exception {
    assertTrue(core.counts.rejected() > 0, "the generated feed has defects");
    Path out = dir.resolve("mr-out");
    // Small splits: several map tasks, most without the file's header line.
    EpTransformTool tool =
        run(
            0,
            "--input",
            input.toString(),
            "--output",
            out.toString(),
            "--spec",
            SPEC.toString(),
            "--split-mb",
            "0.25");

    // Every part is an EP file with exactly one header line: the core's output header.
    byte[] header = core.outputHeader.toLine();
    List<Path> parts = parts(out);
    assertTrue(parts.size() > 1, "several map tasks: " + parts);
    ByteArrayOutputStream rows = new ByteArrayOutputStream();
    for (Path p : parts) {
      byte[] b = Files.readAllBytes(p);
      int h = afterFirstLine(b);
      assertArrayEquals(header, Arrays.copyOf(b, h), p.toString());
      rows.write(b, h, b.length - h);
    }
    int coreH = afterFirstLine(coreOut);
    assertArrayEquals(header, Arrays.copyOf(coreOut, coreH));
    assertArrayEquals(Arrays.copyOfRange(coreOut, coreH, coreOut.length), rows.toByteArray());

    // Rejects: the command's records but for the source's name (a Hadoop path here): the same
    // byte offsets, which point at the rejected lines, reasons, details and lines.
    byte[] in = Files.readAllBytes(input);
    List<String> mine = new ArrayList<>();
    for (String line : rejectLines(out)) {
      String[] f = line.split("\t", 5);
      assertTrue(f[0].endsWith(input.getFileName().toString()), f[0]);
      int offset = Integer.parseInt(f[1]);
      assertTrue(offset == 0 || in[offset - 1] == '\n', "offset at a line start: " + line);
      byte[] raw = f[4].getBytes(StandardCharsets.ISO_8859_1);
      assertArrayEquals(raw, Arrays.copyOfRange(in, offset, offset + raw.length), line);
      mine.add(line.substring(f[0].length()));
    }
    List<String> theirs = new ArrayList<>();
    for (String line : coreRejects) {
      theirs.add(line.substring(line.indexOf('\t')));
    }
    Collections.sort(mine);
    Collections.sort(theirs);
    assertEquals(theirs, mine);

    // Counters: the core's counts, name for name (the summary shows the zeros too); the report
    // balances.
    Map<String, Long> totals = MrTests.totals(tool.counters);
    assertEquals(MrTests.jobCounts(core.counts.asMap()), MrTests.jobCounts(totals));
    String json = tool.report.toJson();
    for (Map.Entry<String, Long> e : core.counts.asMap().entrySet()) {
      assertTrue(json.contains(MrTests.json(e.getKey(), e.getValue())), e.getKey() + " in " + json);
    }
    assertTrue(core.counts.reconciles());
    assertEquals(
        core.counts.in()
            + " in = "
            + core.counts.out()
            + " out + "
            + core.counts.rejected()
            + " rejected",
        json.contains(MrTests.json("balanced", true)) ? balance(tool) : "unbalanced");
    assertEquals(parts.size(), (long) totals.get(LineJob.TASKS));
    assertEquals(json, Files.readString(out.resolve("_summary.json")));
  }

  private static String balance(EpTransformTool tool) {
    String j = tool.report.toJson();
    int at = j.indexOf("\"balance\"");
    int from = j.indexOf('"', j.indexOf(':', at) + 1) + 1;
    return j.substring(from, j.indexOf('"', from));
  }

  /** The data rows of the parts of {@code out}, without their header lines. */
  private static byte[] rows(Path out) throws Exception {
    ByteArrayOutputStream rows = new ByteArrayOutputStream();
    for (Path p : parts(out)) {
      byte[] b = Files.readAllBytes(p);
      int h = afterFirstLine(b);
      rows.write(b, h, b.length - h);
    }
    return rows.toByteArray();
  }

  /** The side files the spec names, shipped with -files: the driver finds them there by path. */
  @Test
  void sideFilesShippedWithFiles() throws Exception {
    Path out = dir.resolve("mr-files");
    Path conf = SPEC.getParent();
    EpTransformTool tool =
        run(
            0,
            "-files",
            conf.resolve("ep-blocked.example.tsv")
                + ","
                + conf.resolve("ep-category-map.example.tsv"),
            "--input",
            input.toString(),
            "--output",
            out.toString(),
            "--spec",
            SPEC.toString());
    int coreH = afterFirstLine(coreOut);
    assertArrayEquals(Arrays.copyOfRange(coreOut, coreH, coreOut.length), rows(out));
    String shipped = shippedAs(tool);
    assertTrue(
        shipped.contains("files:ep-blocked.example.tsv")
            && shipped.contains("files:ep-category-map.example.tsv"),
        shipped);
    // Taken from -files, not shipped a second time by the driver.
    for (String name : new String[] {"ep-blocked.example.tsv", "ep-category-map.example.tsv"}) {
      long n =
          Arrays.stream(tool.job.getCacheFiles())
              .filter(u -> u.getPath().endsWith("/" + name) || name.equals(u.getFragment()))
              .count();
      assertEquals(1, n, name + " in " + Arrays.toString(tool.job.getCacheFiles()));
    }
  }

  /** {@code --index-ship local}: the side files are opened in place, nothing is shipped. */
  @Test
  void sideFilesOpenedInPlace() throws Exception {
    Path out = dir.resolve("mr-local");
    EpTransformTool tool =
        run(
            0,
            "--input",
            input.toString(),
            "--output",
            out.toString(),
            "--spec",
            SPEC.toString(),
            "--index-ship",
            "local");
    int coreH = afterFirstLine(coreOut);
    assertArrayEquals(Arrays.copyOfRange(coreOut, coreH, coreOut.length), rows(out));
    String shipped = shippedAs(tool);
    assertTrue(shipped.contains("local:" + SPEC.getParent()), shipped);
    assertTrue(!shipped.contains("files:"), shipped);
  }

  /** {@code --single-file true}: one OUT/ep.tsv, byte for byte the core's output. */
  @Test
  void singleFileIsTheCoresOutput() throws Exception {
    Path out = dir.resolve("mr-single");
    run(
        0,
        "--input",
        input.toString(),
        "--output",
        out.toString(),
        "--spec",
        SPEC.toString(),
        "--split-mb",
        "0.25",
        "--single-file",
        "true");
    assertArrayEquals(coreOut, Files.readAllBytes(out.resolve("ep.tsv")));
    assertEquals(List.of(), parts(out), "the parts were merged");
    assertEquals(coreRejects.size(), rejectLines(out).size());
  }

  private static String shippedAs(EpTransformTool tool) {
    String j = tool.report.toJson();
    int at = j.indexOf("\"side files shipped as\"");
    int from = j.indexOf('"', j.indexOf(':', at) + 1) + 1;
    return j.substring(from, j.indexOf('"', from));
  }

  @Test
  void aFileWithAnotherHeaderFailsTheJob() throws Exception {
    Path two = dir.resolve("two");
    Files.createDirectories(two);
    Files.copy(input, two.resolve("a.tsv"));
    List<String> names = new ArrayList<>(EpHeader.read(input).names());
    Collections.swap(names, 1, 2);
    Files.write(
        two.resolve("b.tsv"), (String.join("\t", names) + "\n").getBytes(StandardCharsets.UTF_8));
    run(
        1,
        "--input",
        two.toString(),
        "--output",
        dir.resolve("bad-out").toString(),
        "--spec",
        SPEC.toString());
  }

  @Test
  void isInTheDispatcherAndAMissingSpecIsOneLineAndExitOne() throws Exception {
    assertTrue(SpindexMapReduce.jobs().containsKey(EpTransformDefinition.NAME));
    Path missing = dir.resolve("missing.conf");
    String err =
        MrTests.stderr(
            1,
            MrTests.local(),
            EpTransformDefinition.NAME,
            "--input",
            input.toString(),
            "--output",
            dir.resolve("x").toString(),
            "--spec",
            missing.toString());
    assertTrue(err.contains(missing.toString()), err);
    assertTrue(!Files.exists(dir.resolve("x")));
  }
}
