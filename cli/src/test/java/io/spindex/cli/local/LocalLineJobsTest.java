/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.ProductIndexBuilder;
import io.spindex.ep.TransformSpec;
import io.spindex.gen.EpGenerator;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.lookup.LookupCounts;
import java.io.OutputStream;
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
 * The job definitions through a test sink, against independent answers: the fixture's computed
 * labels for ip-lookup, the single-machine commands for the EP jobs. The engine tests then hold
 * Spark and MapReduce to this run.
 */
class LocalLineJobsTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir.resolve("logs"), 2000);
  }

  @Test
  void ipLookupAnnotatesRejectsAndCountsLikeTheFixture() throws Exception {
    LocalLineJobs.Result r =
        LocalLineJobs.run(
            new IpLookupDefinition(),
            "--input",
            fx.inputDir.toString(),
            "--output",
            "unused",
            "--index",
            fx.ranges.toString());
    List<List<String>> want =
        fx.annotateReference(f -> "file:" + fx.inputDir.resolve(f).toAbsolutePath());
    assertEquals(want.get(0), sorted(r.output));
    assertEquals(want.get(1), sorted(r.rejects));
    LookupCounts c = LookupCounts.fromMap(r.totals);
    assertTrue(r.reconciles && c.balanced());
    assertEquals(fx.lines.size(), c.linesIn());
    assertTrue(r.report.toJson().contains("\"balanced\": true"), r.report.toJson());
  }

  @Test
  void ipLookupCountsEveryLabelMostFirst() throws Exception {
    LocalLineJobs.Result r =
        LocalLineJobs.run(
            new IpLookupDefinition(),
            "--input",
            fx.inputDir.toString(),
            "--output",
            "unused",
            "--index",
            fx.set.toString(),
            "--mode",
            "count");
    assertEquals(fx.setCountsReference(), r.counts);
    assertTrue(r.output.isEmpty() && r.reconciles);
  }

  @Test
  void epTransformGivesTheCommandsRows() throws Exception {
    Path feed = LocalLineJobs.epFeed(dir.resolve("ep/feed.tsv"), 2000, 5, 0.05);
    Path spec = LocalLineJobs.EXAMPLE_SPEC;
    Path cli = dir.resolve("cli.tsv");
    var want = LocalEpJobs.transform(feed, cli, dir.resolve("cli.rej"), spec, 1);
    LocalLineJobs.Result r =
        LocalLineJobs.run(
            new EpTransformDefinition(),
            "--input",
            feed.toString(),
            "--output",
            "unused",
            "--spec",
            spec.toString());
    List<String> cliLines = Files.readAllLines(cli, StandardCharsets.UTF_8);
    assertEquals(cliLines, r.output, "one split: the header, then the rows in input order");
    assertEquals(want.counts.rejected(), r.rejects.size());
    assertEquals(want.counts.asMap().get("rows in"), r.totals.get("rows in"));
    assertEquals(want.counts.rejected(), (long) r.totals.get("rows rejected"));
    assertTrue(r.reconciles);
  }

  @Test
  void epDiffGivesTheCommandsRows() throws Exception {
    Path day1 = dir.resolve("diff/day1.tsv");
    Path day2 = dir.resolve("diff/day2.tsv");
    Files.createDirectories(day1.getParent());
    EpGenerator g = new EpGenerator(2000, 9, 0.0);
    try (OutputStream o = Files.newOutputStream(day1)) {
      g.writeTo(o);
    }
    try (OutputStream o = Files.newOutputStream(day2)) {
      g.writeNextDay(o, 0.05, 0.1, 0.05);
    }
    Path index = dir.resolve("diff/day1.spx");
    new ProductIndexBuilder().build(List.of(day1), index);
    String time = "2024-05-01 12:00:00";
    Path cli = dir.resolve("diff/cli.tsv");
    var want =
        LocalEpJobs.diff(
            day2,
            index,
            "nio",
            cli,
            dir.resolve("diff/cli.rej"),
            time,
            TransformSpec.DEFAULT_MAX_LINE_BYTES,
            1);
    LocalLineJobs.Result r =
        LocalLineJobs.run(
            new EpDiffDefinition(),
            "--input",
            day2.toString(),
            "--output",
            "unused",
            "--yesterday",
            index.toString(),
            "--update-time",
            time);
    List<String> cliLines = Files.readAllLines(cli, StandardCharsets.UTF_8);
    // One split: the I/U part (its header, rows in input order), then the D part (its header).
    List<String> got = new ArrayList<>(r.output);
    assertEquals(cliLines.get(0), got.get(0));
    got.removeIf(l -> l.equals(cliLines.get(0)));
    assertEquals(cliLines.subList(1, cliLines.size()), got);
    assertEquals(want.counts.deleted(), (long) r.totals.get(EpDiffDefinition.DELETED));
    assertEquals(want.counts.inserted(), (long) r.totals.get("inserted (I)"));
    assertTrue(r.reconciles && want.counts.deleted() > 0 && want.counts.updated() > 0);
  }

  private static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    Collections.sort(s);
    return s;
  }
}
