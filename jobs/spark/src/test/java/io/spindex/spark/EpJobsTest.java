/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.ProductIndexBuilder;
import io.spindex.cli.local.LocalEpJobs;
import io.spindex.gen.EpGenerator;
import io.spindex.index.load.IndexHolder;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The EP jobs in local[2] with 256 KiB splits (so most splits start mid-file, without the header)
 * give exactly what the single-machine commands give: the same rows in the same order, the same
 * counts; parts are complete EP files, or one file with one header line with --single-file.
 */
class EpJobsTest {
  static final String TIME = "2024-05-01 12:00:00";

  @TempDir static Path dir;
  static SparkSession spark;
  static Path day1;
  static Path day2;
  static Path index;
  static Path spec;

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session();
    day1 = dir.resolve("in1/day1.tsv");
    day2 = dir.resolve("in2/day2.tsv");
    Files.createDirectories(day1.getParent());
    Files.createDirectories(day2.getParent());
    EpGenerator g = new EpGenerator(4000, 17, 0.03);
    try (OutputStream o = Files.newOutputStream(day1)) {
      g.writeTo(o);
    }
    try (OutputStream o = Files.newOutputStream(day2)) {
      g.writeNextDay(o, 0.05, 0.1, 0.05);
    }
    index = dir.resolve("day1.spx");
    new ProductIndexBuilder().build(List.of(day1), index);
    spec = SparkTests.repo("conf", "ep-transform.example.conf");
  }

  @BeforeEach
  void smallSplits() {
    IndexHolder.clear();
    conf().setLong("mapreduce.input.fileinputformat.split.maxsize", 256 << 10);
  }

  @AfterEach
  void resetSplits() {
    conf().unset("mapreduce.input.fileinputformat.split.maxsize");
  }

  private static Configuration conf() {
    return spark.sparkContext().hadoopConfiguration();
  }

  private static JobResult run(String job, String... args) throws Exception {
    JobResult r = SpindexSpark.run(spark, job, args);
    System.out.println(r.report.toText());
    return r;
  }

  @Test
  void transformSingleFileEqualsTheCommand() throws Exception {
    Path cli = dir.resolve("cli.tsv");
    var want = LocalEpJobs.transform(day1, cli, dir.resolve("cli.rej"), spec, 2);
    Path out = dir.resolve("t-single");
    JobResult r =
        run(
            io.spindex.job.EpTransformDefinition.NAME,
            "--input",
            day1.getParent().toString(),
            "--output",
            out.toString(),
            "--spec",
            spec.toString(),
            "--single-file",
            "true");
    assertTrue(r.ok, r.report.toText());
    assertEquals(Files.readString(cli), Files.readString(out.resolve("ep.tsv")));
    String json = Files.readString(out.resolve("_summary.json"));
    for (Map.Entry<String, Long> e : want.counts.asMap().entrySet()) {
      assertTrue(
          json.contains("\"" + e.getKey() + "\": " + e.getValue()), e.getKey() + " in " + json);
    }
    List<String> rejects = SparkTests.readParts(out.resolve("_rejects"));
    assertEquals(want.counts.rejected(), rejects.size());
    assertTrue(rejects.get(0).startsWith(day1.toUri().toString().replace("file:///", "file:/")));
  }

  @Test
  void transformPartsAreCompleteEpFiles() throws Exception {
    Path out = dir.resolve("t-parts");
    JobResult r =
        run(
            io.spindex.job.EpTransformDefinition.NAME,
            "--input",
            day1.toString(),
            "--output",
            out.toString(),
            "--spec",
            spec.toString());
    assertTrue(r.ok);
    List<Path> parts = new ArrayList<>();
    try (var s = Files.list(out)) {
      s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().forEach(parts::add);
    }
    assertTrue(parts.size() > 2, "several splits: " + parts);
    String header = Files.readAllLines(parts.get(0), StandardCharsets.UTF_8).get(0);
    assertTrue(header.startsWith("id\ttitle\tprice_pc"), header);
    long rows = 0;
    for (Path p : parts) {
      List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
      assertEquals(header, lines.get(0), p.toString());
      for (String l : lines.subList(1, lines.size())) {
        assertTrue(!l.equals(header), "one header per part");
        rows++;
      }
    }
    assertTrue(r.report.toJson().contains("\"rows out\": " + rows), r.report.toJson());
  }

  @Test
  void diffEqualsTheCommand() throws Exception {
    Path cli = dir.resolve("cli-summary.tsv");
    var want = LocalEpJobs.diff(day2, index, "nio", cli, dir.resolve("d.rej"), TIME, 65536, 2);
    assertTrue(want.counts.inserted() > 0 && want.counts.updated() > 0);
    assertTrue(want.counts.deleted() > 0);
    Path out = dir.resolve("d-single");
    JobResult r =
        run(
            io.spindex.job.EpDiffDefinition.NAME,
            "--input",
            day2.toString(),
            "--yesterday",
            index.toString(),
            "--output",
            out.toString(),
            "--update-time",
            TIME,
            "--delete-tasks",
            "3",
            "--single-file",
            "true");
    assertTrue(r.ok, r.report.toText());
    assertEquals(Files.readString(cli), Files.readString(out.resolve("summary.tsv")));
    String json = r.report.toJson();
    assertTrue(json.contains("\"deleted (D)\": " + want.counts.deleted()), json);
    assertTrue(json.contains("\"inserted (I)\": " + want.counts.inserted()), json);
    assertTrue(json.contains("\"updated (U)\": " + want.counts.updated()), json);

    Path parts = dir.resolve("d-parts");
    JobResult p =
        run(
            io.spindex.job.EpDiffDefinition.NAME,
            "--input",
            day2.toString(),
            "--yesterday",
            index.toString(),
            "--output",
            parts.toString(),
            "--update-time",
            TIME);
    assertTrue(p.ok);
    List<String> all = SparkTests.readParts(parts);
    String header = all.get(0);
    List<String> rows = new ArrayList<>();
    for (String l : all) {
      if (!l.equals(header)) {
        rows.add(l);
      }
    }
    List<String> cliRows = Files.readAllLines(cli, StandardCharsets.UTF_8);
    assertEquals(cliRows.get(0), header);
    // Parts are read in name order: part-d-* (D rows) before part-r-* (I and U rows).
    List<String> wantRows = new ArrayList<>(cliRows.subList(1, cliRows.size()));
    java.util.Collections.sort(wantRows);
    java.util.Collections.sort(rows);
    assertTrue(wantRows.equals(rows), "the parts hold the rows of the command's summary");
  }
}
