/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.lookup.IpLookupFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ip-lookup over a table in filter mode: the rows the filter leaves out are counted on their own,
 * so that {@code balanced} can be false.
 */
class TableLookupTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;
  static SparkSession spark;
  static Path csv;
  static long rows;
  static long inSet;
  static long unparseable;

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session();
    fx = new IpLookupFixture(dir.resolve("fx"), 200);
    List<String> lines = new ArrayList<>();
    lines.add("id,ip");
    for (IpLookupFixture.Line l : fx.lines) {
      String ip = l.text.split(" ", 2)[0];
      if (ip.isEmpty() || ip.contains(",") || ip.contains("\"")) {
        continue;
      }
      long a = IpLookupFixture.address(ip);
      boolean parses = a >= 0 && com.google.common.net.InetAddresses.isInetAddress(ip);
      if (!parses) {
        unparseable++;
      } else if (fx.inSet(a)) {
        inSet++;
      }
      lines.add("r" + rows++ + "," + ip);
    }
    csv = dir.resolve("clients.csv");
    Files.write(csv, lines, StandardCharsets.UTF_8);
  }

  /** The summary before this fix derived the left-out rows from the others: always balanced. */
  @Test
  void countsThatDoNotAddUpAreNotBalanced() {
    assertTrue(TableLookup.balanced(10, 6, 3, 1));
    assertFalse(TableLookup.balanced(10, 6, 2, 1), "a lost row");
    assertFalse(TableLookup.balanced(10, 6, 4, 1), "a row counted twice");
  }

  @Test
  void filterCountsTheRowsItLeavesOut() throws Exception {
    JobResult hits = filter("hits");
    JobResult misses = filter("misses");
    assertTrue(hits.ok, hits.report.toText());
    assertTrue(misses.ok, misses.report.toText());
    assertEquals(rows, (long) hits.totals.get("rows in"));
    assertEquals(inSet, (long) hits.totals.get("rows out"));
    assertEquals(unparseable, (long) hits.totals.get("rows rejected"));
    assertEquals(rows - unparseable - inSet, (long) hits.totals.get("rows filtered out"));
    assertEquals(hits.totals.get("rows out"), misses.totals.get("rows filtered out"));
    assertEquals(hits.totals.get("rows filtered out"), misses.totals.get("rows out"));
  }

  /**
   * The table path's SQL functions load the index with --loader, as the text path does: the job
   * gives it to its calls as a value; the session's spark.spindex.loader (the queries' loader) is
   * neither taken nor touched.
   */
  @Test
  void theIndexIsLoadedWithTheLoaderGiven() throws Exception {
    String loader = "nio"; // not the default, mapped
    spark.conf().set("spark.spindex.loader", "io");
    try {
      IndexHolder.clear();
      JobResult r = filter("hits", "--loader", loader);
      assertTrue(r.ok, r.report.toText());
      assertEquals(inSet, (long) r.totals.get("rows out"));
      assertEquals(1, IndexHolder.size(), "one version held");
      assertFalse(
          IndexHolder.acquire(fx.set, Loader.forOption(loader)).loadedByThisCall(),
          "the job loaded the index with --loader");
      assertTrue(r.report.toJson().contains("\"loader\": \"nio\""), r.report.toJson());
      assertTrue(
          IndexHolder.acquire(fx.set, Loader.forOption("io")).loadedByThisCall(),
          "not with the session's loader");
      assertEquals("io", spark.conf().get("spark.spindex.loader", null), "the session's as before");
    } finally {
      spark.conf().unset("spark.spindex.loader");
      IndexHolder.clear();
    }
  }

  /** As on text input: an index older than --max-age is refused, and the summary names it. */
  @Test
  void anOldIndexIsRefusedAndTheSummaryNamesTheVersion() throws Exception {
    JobResult r = filter("hits", "--warn-age", "none"); // an output directory of its own
    assertTrue(
        r.report.toText().contains(io.spindex.index.load.Loader.readVersion(fx.set).versionText()),
        r.report.toText());
    Path old = dir.resolve("old-set.spx");
    Files.write(dir.resolve("old-set.txt"), List.of("10.0.0.1"), StandardCharsets.UTF_8);
    long built = System.currentTimeMillis() - 41L * 86_400_000 - 3_600_000;
    new io.spindex.builder.IpSetBuilder()
        .createdMillis(built)
        .build(List.of(dir.resolve("old-set.txt")), old);
    io.spindex.job.StaleIndexException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.spindex.job.StaleIndexException.class,
            () -> filter("hits", "--index", old.toString(), "--max-age", "30d"));
    assertEquals(
        old
            + ": the database is 41 days old (source built "
            + io.spindex.index.SourceInfo.timeText(built)
            + "); max-age is 30 days",
        e.getMessage());
  }

  private static JobResult filter(String keep, String... more) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--input",
                csv.toString(),
                "--format",
                "csv",
                "--ip-column",
                "ip",
                "--mode",
                "filter",
                "--keep",
                keep,
                "--index",
                fx.set.toString(),
                "--output",
                dir.resolve("out-" + keep + String.join("", more)).toString()));
    args.addAll(List.of(more));
    return SpindexSpark.run(spark, "ip-lookup", args.toArray(new String[0]));
  }

  /**
   * A column is named as it is: a dot is part of its name (and the SQL back-quoted form works too);
   * a column of a type no address has, and --ip-column on text input, are usage mistakes in one
   * line, exit 2.
   */
  @Test
  void columnsAreNamedAsTheyAreAndTheirTypeIsChecked() throws Exception {
    Path dotted = dir.resolve("dotted.parquet");
    spark
        .read()
        .option("header", "true")
        .csv(csv.toString())
        .withColumnRenamed("ip", "we.ird")
        .withColumn("score", org.apache.spark.sql.functions.lit(1.5))
        .write()
        .parquet(dotted.toString());
    for (String column : new String[] {"we.ird", "`we.ird`"}) {
      JobResult r =
          SpindexSpark.run(
              spark,
              "ip-lookup",
              new String[] {
                "--input",
                dotted.toString(),
                "--format",
                "parquet",
                "--ip-column",
                column,
                "--mode",
                "filter",
                "--keep",
                "hits",
                "--index",
                fx.set.toString(),
                "--output",
                dir.resolve("out-dotted-" + column.length()).toString()
              });
      assertTrue(r.ok, r.report.toText());
      assertEquals(inSet, (long) r.totals.get("rows out"), column);
      assertEquals(unparseable, (long) r.totals.get("rows rejected"), column);
    }
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    int code =
        SpindexSpark.run(
            spark,
            new String[] {
              "ip-lookup",
              "--input",
              dotted.toString(),
              "--format",
              "parquet",
              "--ip-column",
              "score",
              "--index",
              fx.set.toString(),
              "--output",
              dir.resolve("out-score").toString()
            },
            new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
            new java.io.PrintStream(err));
    String msg = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code, msg);
    assertEquals(
        "ip-lookup: --ip-column score is DOUBLE; an address column is STRING (text), INT or"
            + " BIGINT (an IPv4 value) or BINARY (4 or 16 bytes)",
        msg.trim().replaceFirst("^[^:]*: (?=ip-lookup)", ""));
    err.reset();
    code =
        SpindexSpark.run(
            spark,
            new String[] {
              "ip-lookup",
              "--input",
              fx.inputDir.toString(),
              "--ip-column",
              "ip",
              "--index",
              fx.set.toString(),
              "--output",
              dir.resolve("out-text").toString()
            },
            new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
            new java.io.PrintStream(err));
    msg = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code, msg);
    assertTrue(msg.contains("--ip-column is for table input"), msg);
    assertEquals(1, msg.trim().split("\n").length, msg);
  }
}
