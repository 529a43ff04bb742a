/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static io.spindex.spark.BuildIndexJobTest.assertSameExceptCreationTime;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.BuildReport;
import io.spindex.builder.ProductIndexBuilder;
import io.spindex.gen.EpGenerator;
import io.spindex.job.BuildIndexDefinition;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * build-index --kind products against the one-machine build of the same feeds (byte for byte, the
 * creation time aside), with every rejected line, defective rows and repeated ids alike, found once
 * at its byte offset in the feed.
 */
class BuildProductsJobTest {
  @TempDir static Path dir;

  static Path plain;
  static Path gzip;

  /** Offsets of the rows this test repeated (a later row with an id seen before). */
  static final Set<Long> REPEATS = new HashSet<>();

  @BeforeAll
  static void input() throws Exception {
    Files.createDirectories(dir.resolve("in"));
    plain = dir.resolve("in/a.tsv");
    gzip = dir.resolve("in/b.tsv.gz");
    ByteArrayOutputStream feed = new ByteArrayOutputStream();
    new EpGenerator(4000, 5, 0.02).writeTo(feed);
    byte[] b = feed.toByteArray();
    // Every 500th row again at the end: a duplicate id, rejected in favour of the first.
    int lf = indexOf(b, 0, '\n');
    ByteArrayOutputStream repeats = new ByteArrayOutputStream();
    for (int row = 0, at = lf + 1; at < b.length; row++) {
      int end = indexOf(b, at, '\n');
      if (row % 500 == 499) {
        REPEATS.add((long) b.length + repeats.size());
        repeats.write(b, at, end + 1 - at);
      }
      at = end + 1;
    }
    try (OutputStream out = Files.newOutputStream(plain)) {
      out.write(b);
      out.write(repeats.toByteArray());
    }
    // A second feed whose ids are its own (the generator numbers ids alike in every feed).
    ByteArrayOutputStream small = new ByteArrayOutputStream();
    new EpGenerator(300, 6, 0.05).writeTo(small);
    String[] lines = small.toString(StandardCharsets.UTF_8).split("\n", -1);
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzip))) {
      for (int i = 0; i < lines.length; i++) {
        String l = i == 0 || lines[i].isEmpty() ? lines[i] : "g-" + lines[i];
        out.write((l + (i < lines.length - 1 ? "\n" : "")).getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private static int indexOf(byte[] b, int from, char c) {
    int i = from;
    while (b[i] != c) {
      i++;
    }
    return i;
  }

  @Test
  void sameIndexAsTheCliWithEveryRejectByPosition() throws Exception {
    Path cli = dir.resolve("cli.spx");
    BuildReport want =
        new ProductIndexBuilder()
            .extraIntFields(List.of("review_count"))
            .build(Arrays.asList(plain, gzip), cli);
    assertEquals(REPEATS.size(), want.count("duplicates"));
    assertEquals(
        want.count("lines"),
        want.count("skipped") + want.count("accepted") + want.count("rejected"));

    Path out = dir.resolve("out/spark.spx");
    JobResult r =
        SpindexSpark.run(
            SparkTests.session(),
            BuildIndexDefinition.NAME,
            new String[] {
              "--kind", "products",
              "--input", dir.resolve("in/*").toString(),
              "--output", out.toString(),
              "--int-field", "review_count",
              "--split-mb", "0.25"
            });
    assertTrue(r.ok, r.report.toText());
    assertTrue(r.report.toJson().matches("(?s).*\"splits\": ?([5-9]|\\d\\d+)\\b.*"));
    assertEquals(want.count("products"), (long) r.totals.get("products"));
    assertEquals(want.count("rejected"), (long) r.totals.get("rejected"));
    assertSameExceptCreationTime(Files.readAllBytes(cli), Files.readAllBytes(out));

    // Each reject names a line of the plain feed by its offset: the text there is the record's
    // (a repeated row's record holds its id, the start of that line).
    byte[] feed = Files.readAllBytes(plain);
    Map<Long, String> reasons = new TreeMap<>();
    int fromGzip = 0;
    for (String rec : SparkTests.readParts(dir.resolve("out/spark.spx.build/_rejects"))) {
      String[] f = rec.split("\t", 5); // source, offset, reason, detail, line
      if (f[0].contains("b.tsv.gz")) {
        fromGzip++;
        continue;
      }
      long offset = Long.parseLong(f[1]);
      assertEquals(null, reasons.put(offset, f[2]), "twice: " + rec);
      int end = indexOf(feed, (int) offset, '\n');
      String line = new String(feed, (int) offset, end - (int) offset, StandardCharsets.UTF_8);
      if (f[2].equals("duplicate-id")) {
        assertTrue(line.startsWith(f[4] + "\t"), rec);
      } else if (f[4].indexOf('\uFFFD') < 0) {
        assertEquals(line.replace("\r", ""), f[4], rec);
      }
    }
    assertEquals(want.count("rejected"), reasons.size() + fromGzip);
    Set<Long> duplicates = new HashSet<>();
    reasons.forEach(
        (o, why) -> {
          if (why.equals("duplicate-id")) {
            duplicates.add(o);
          }
        });
    assertEquals(REPEATS, duplicates);
  }

  @Test
  void aFeedWithoutANeededFieldIsOneLine() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SpindexSpark.run(
            SparkTests.session(),
            new String[] {
              BuildIndexDefinition.NAME,
              "--kind=products",
              "--input=" + plain,
              "--output=" + dir.resolve("none/x.spx"),
              "--int-field=no_such_field"
            },
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err));
    assertEquals(1, code);
    String msg = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, msg.trim().split("\n").length, msg);
    assertTrue(msg.contains("no field 'no_such_field'"), msg);
    assertFalse(Files.exists(dir.resolve("none/x.spx")));
  }
}
