/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.lookup.IpLookupFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spindex run}: the job jars' jobs on one machine, in the engines' output layout, against
 * independent answers (the fixture's labels, the EP command's file), and the dispatcher's answers.
 */
class LocalJobsTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir.resolve("logs"), 1500);
  }

  /** Exit code, standard output, standard error of {@code spindex run ARGS}. */
  private static Object[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        LocalJobs.main(
            args,
            2,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Object[] {
      code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
    };
  }

  /** {@code spindex run ip-lookup} over the fixture's logs into {@code out}. */
  private static Object[] ipLookup(Path out, Path index, String... more) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "ip-lookup",
                "--input",
                fx.inputDir.toString(),
                "--output",
                out.toString(),
                "--index",
                index.toString()));
    a.addAll(List.of(more));
    return run(a.toArray(new String[0]));
  }

  private static List<String> lines(Path p) throws Exception {
    List<String> l = new ArrayList<>(Files.readAllLines(p, StandardCharsets.UTF_8));
    Collections.sort(l);
    return l;
  }

  @Test
  void ipLookupWritesTheEnginesLayoutWithTheFixturesAnswers() throws Exception {
    Path out = dir.resolve("annotated");
    IndexHolder.clear(); // so that this run loads the index
    Object[] r = ipLookup(out, fx.ranges);
    assertEquals(0, r[0], r[2].toString());
    List<List<String>> want =
        fx.annotateReference(f -> "file:" + fx.inputDir.resolve(f).toAbsolutePath());
    assertEquals(want.get(0), lines(out.resolve("part-00000")));
    assertEquals(want.get(1), lines(out.resolve("_rejects/part-00000")));
    String summary = Files.readString(out.resolve("_summary.json"));
    assertTrue(summary.contains("\"balanced\": true"), summary);
    assertTrue(summary.contains("\"index loads\": 1,"), summary);
    assertTrue(r[1].toString().contains("balanced"), r[1].toString());
    try (var s = Files.list(dir)) {
      assertFalse(
          s.anyMatch(p -> p.getFileName().toString().startsWith(".annotated")),
          "no temporary directory left");
    }
  }

  @Test
  void countModeWritesLabelsMostFirst() throws Exception {
    Path out = dir.resolve("counted");
    Object[] r = ipLookup(out, fx.set, "--mode", "count");
    assertEquals(0, r[0], r[2].toString());
    assertEquals(fx.setCountsReference(), Files.readAllLines(out.resolve("part-00000")));
  }

  @Test
  void epTransformSingleFileIsTheCommandsFile() throws Exception {
    Path feed = LocalLineJobs.epFeed(dir.resolve("ep/feed.tsv"), 3000, 5, 0.05);
    Path spec = LocalLineJobs.EXAMPLE_SPEC;
    Path cli = dir.resolve("cli.tsv");
    LocalEpJobs.transform(feed, cli, dir.resolve("cli.rej"), spec, 1);
    Path out = dir.resolve("ep-out");
    Object[] r =
        run(
            "ep-transform",
            "--input",
            feed.toString(),
            "--output",
            out.toString(),
            "--spec",
            spec.toString(),
            "--single-file",
            "true");
    assertEquals(0, r[0], r[2].toString());
    assertArrayEquals(Files.readAllBytes(cli), Files.readAllBytes(out.resolve("ep.tsv")));
    assertEquals(
        newlines(Files.readAllBytes(dir.resolve("cli.rej"))),
        newlines(Files.readAllBytes(out.resolve("_rejects/part-00000"))),
        "as many rejects (their lines may be any bytes)");
  }

  private static long newlines(byte[] b) {
    long n = 0;
    for (byte x : b) {
      n += x == '\n' ? 1 : 0;
    }
    return n;
  }

  @Test
  void mistakesAreOneLineWithTheEnginesExitCodes() throws Exception {
    Object[] none = run();
    assertEquals(2, none[0]);
    assertTrue(none[2].toString().startsWith("spindex: no job given: expected one of ip-lookup"));
    Object[] help = run("--help");
    assertEquals(0, help[0]);
    assertTrue(
        help[1].toString().startsWith("usage: spindex run <job> [options]"), help[1].toString());
    Object[] unknown =
        run("ip-lookup", "--input", "x", "--output", "y", "--index", "z", "--fast", "1");
    assertEquals(2, unknown[0]);
    assertEquals(
        "ip-lookup: unknown option --fast ('ip-lookup --help' lists the options)\n",
        unknown[2].toString());
    Path exists = Files.createDirectories(dir.resolve("exists"));
    Object[] again = ipLookup(exists, fx.ranges);
    assertEquals(1, again[0]);
    assertEquals("spindex ip-lookup: output " + exists + " already exists\n", again[2].toString());
  }
}
