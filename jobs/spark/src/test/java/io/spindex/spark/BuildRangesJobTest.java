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

import io.spindex.Spindex;
import io.spindex.builder.BuildReport;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.OverlapPolicy;
import io.spindex.builder.RangePart;
import io.spindex.index.IpRanges;
import io.spindex.job.BuildIndexDefinition;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * build-index --kind ranges against the one-machine build of the same input (byte for byte, the
 * creation time aside) and against what the test wrote: every bad line at its position, and the
 * label of random addresses by the last range that holds them (a scan of the ranges as written).
 * The plain file is cut into many splits, so that splits start after its header and after the line
 * that settled its delimiter.
 */
class BuildRangesJobTest {
  @TempDir static Path dir;

  static Path plain;
  static Path gzip;

  /** IPv4 ranges as written, in input order: start, end (unsigned), label. */
  static final List<long[]> RANGES = new ArrayList<>();

  static final List<String> LABELS = new ArrayList<>();

  static final Map<String, String> WANT_REJECTS = new LinkedHashMap<>();

  @BeforeAll
  static void input() throws Exception {
    Files.createDirectories(dir.resolve("in"));
    plain = dir.resolve("in/a.txt");
    gzip = dir.resolve("in/b.csv.gz");
    Random rnd = new Random(11);
    try (OutputStream out = Files.newOutputStream(plain)) {
      write(out, plain, rnd, 40_000, '|', "start|end|country|city");
    }
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzip))) {
      // The labels' delimiter of the first header: the index declares one for every file's labels.
      write(out, gzip, rnd, 5_000, '|', "start|end|country|city");
    }
  }

  /**
   * Ranges clustered in a few /8s (so that they overlap), as dotted quads, decimals or CIDR blocks;
   * a few IPv6 and IPv4-mapped ones, comments, blanks, CRLF and bad lines.
   */
  private static void write(
      OutputStream out, Path file, Random rnd, int lines, char d, String header) throws Exception {
    String[] bad = {"1.2.3.4" + d + "1.2.3.1" + d + "x", "hello", "10.0.0.0/33" + d + "x"};
    long offset = 0;
    for (int i = -1; i < lines; i++) {
      String line;
      int kind = rnd.nextInt(1000);
      if (i < 0) {
        line = header;
      } else if (kind < 5) {
        line = bad[rnd.nextInt(bad.length)];
        WANT_REJECTS.put(new org.apache.hadoop.fs.Path(file.toUri()) + ":" + offset, line);
      } else if (kind < 10) {
        line = rnd.nextBoolean() ? "# comment " + i : "";
      } else if (kind < 30) {
        int a = rnd.nextInt(250);
        line =
            "2001:db8:"
                + Integer.toHexString(a)
                + "::"
                + d
                + "2001:db8:"
                + Integer.toHexString(a)
                + "::ffff"
                + d
                + "v6-"
                + (a % 7)
                + d
                + "c";
      } else {
        long first = new long[] {1, 36, 101}[rnd.nextInt(3)];
        long start = (first << 24) | (rnd.nextInt(1 << 16) << 8);
        int form = rnd.nextInt(3);
        long end;
        String ends;
        if (form == 2) {
          int len = 20 + rnd.nextInt(13);
          start &= -(1L << (32 - len)) & 0xFFFF_FFFFL;
          end = start + (1L << (32 - len)) - 1;
          ends = quad(start) + "/" + len;
        } else {
          end = start + rnd.nextInt(4096);
          ends = form == 0 ? quad(start) + d + quad(end) : start + "" + d + end;
        }
        String label = "c" + rnd.nextInt(40) + d + "city" + rnd.nextInt(300);
        RANGES.add(new long[] {start, end, LABELS.size()});
        LABELS.add(label);
        line = ends + d + label + (rnd.nextInt(10) == 0 ? "\r" : "");
      }
      byte[] b = (line + "\n").getBytes(StandardCharsets.UTF_8);
      out.write(b);
      offset += b.length;
    }
  }

  private static String quad(long a) {
    return (a >>> 24) + "." + ((a >>> 16) & 255) + "." + ((a >>> 8) & 255) + "." + (a & 255);
  }

  private static int run(PrintStream err, String... args) {
    return SpindexSpark.run(
        SparkTests.session(), args, new PrintStream(new ByteArrayOutputStream()), err);
  }

  @Test
  void sameIndexAsTheCliWithEveryRejectByPosition() throws Exception {
    Path cli = dir.resolve("cli.spx");
    BuildReport want =
        new IpRangeBuilder()
            .onOverlap(OverlapPolicy.LAST)
            .labelFieldsFromHeader()
            .build(Arrays.asList(plain, gzip), cli);
    assertEquals(WANT_REJECTS.size(), want.count("rejected"));

    Path out = dir.resolve("out/spark.spx");
    JobResult r =
        SpindexSpark.run(
            SparkTests.session(),
            BuildIndexDefinition.NAME,
            new String[] {
              "--kind", "ranges",
              "--input", dir.resolve("in/*").toString(),
              "--output", out.toString(),
              "--on-overlap", "last",
              "--label-fields-from-header", "true",
              "--split-mb", "0.1"
            });
    assertTrue(r.ok, r.report.toText());
    assertTrue(
        r.report.toJson().matches("(?s).*\"splits\": ?([89]|\\d\\d+)\\b.*"), r.report.toJson());
    assertEquals(want.count("ranges"), (long) r.totals.get("ranges"));
    assertSameExceptCreationTime(Files.readAllBytes(cli), Files.readAllBytes(out));

    // Independent of both builds: the last range written that holds an address labels it.
    IpRanges index = Spindex.open(out).asRanges();
    assertEquals(Arrays.asList("country", "city"), index.labelFields());
    Random rnd = new Random(3);
    for (int i = 0; i < 3000; i++) {
      long[] pick = RANGES.get(rnd.nextInt(RANGES.size()));
      long a = pick[0] + (long) (rnd.nextDouble() * (pick[1] - pick[0] + 1));
      String expected = null;
      for (int k = RANGES.size() - 1; k >= 0 && expected == null; k--) {
        long[] g = RANGES.get(k);
        if (g[0] <= a && a <= g[1]) {
          expected = LABELS.get((int) g[2]);
        }
      }
      assertEquals(expected, index.label((int) a), quad(a));
    }

    // Every bad line, once, at its position, with its text.
    Map<String, String> got = new TreeMap<>();
    for (String rec : SparkTests.readParts(dir.resolve("out/spark.spx.build/_rejects"))) {
      String[] f = rec.split("\t", 5); // source, offset, reason, detail, line
      assertEquals(null, got.put(f[0] + ":" + f[1], f[4]), "twice: " + rec);
      assertEquals(RangePart.EXPECTED, f[3]);
    }
    assertEquals(new TreeMap<>(WANT_REJECTS), got);
  }

  @Test
  void overlapsFailByDefaultNamingBothPositions() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path out = dir.resolve("fail/spark.spx");
    int code =
        run(
            new PrintStream(err),
            BuildIndexDefinition.NAME,
            "--kind=ranges",
            "--input=" + plain,
            "--output=" + out,
            "--split-mb=0.1");
    assertEquals(1, code);
    String msg = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, msg.trim().split("\n").length, msg);
    assertTrue(msg.contains("overlap") && msg.split("a\\.txt:").length >= 3, msg);
    assertFalse(Files.exists(out));
  }

  @Test
  void rangeOptionsAreForRangesOnly() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(
        2,
        run(
            new PrintStream(err),
            BuildIndexDefinition.NAME,
            "--kind=ips",
            "--input=" + plain,
            "--output=" + dir.resolve("x.spx"),
            "--on-overlap=last"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--on-overlap is for --kind ranges"));
    assertEquals(
        2,
        run(
            new PrintStream(new ByteArrayOutputStream()),
            BuildIndexDefinition.NAME,
            "--kind=ranges",
            "--input=" + plain,
            "--output=" + dir.resolve("x.spx"),
            "--delimiter=ab"));
  }

  /**
   * MaxMind databases: build-index reads them whole on the driver and writes the file the command
   * line writes from the same databases (two joined, one gzipped); one database among text inputs
   * is a usage mistake.
   */
  @Test
  void maxMindDatabasesGiveTheCommandsIndex() throws Exception {
    Path in = Files.createDirectories(dir.resolve("mmdb"));
    io.spindex.testing.MmdbTestWriter city =
        io.spindex.testing.MmdbTestWriter.ipv6().databaseType("Test-City").aliasIpv4();
    io.spindex.testing.MmdbTestWriter asn =
        io.spindex.testing.MmdbTestWriter.ipv4().databaseType("Test-ASN");
    Random rnd = new Random(28);
    for (int i = 0; i < 500; i++) {
      int len = 12 + rnd.nextInt(17);
      long a = ((rnd.nextLong() & 0xFFFF_FFFFL) >>> (32 - len)) << (32 - len);
      city.insert(
          quad(a) + "/" + len,
          Map.of(
              "country",
              Map.of("iso_code", "C" + i % 30),
              "location",
              Map.of("latitude", i * 0.5)));
      city.insert(
          "2001:db8:" + Integer.toHexString(i) + "::/48",
          Map.of("country", Map.of("iso_code", "V6")));
      int len2 = 8 + rnd.nextInt(13);
      long b = ((rnd.nextLong() & 0xFFFF_FFFFL) >>> (32 - len2)) << (32 - len2);
      asn.insert(quad(b) + "/" + len2, Map.of("asn", io.spindex.testing.MmdbTestWriter.uint32(i)));
    }
    Path cityDb = in.resolve("City.mmdb");
    city.write(cityDb);
    Path plainAsn = dir.resolve("ASN.mmdb");
    asn.write(plainAsn);
    Path asnDb = in.resolve("ASN.mmdb.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(asnDb))) {
      Files.copy(plainAsn, o);
    }
    List<String> fields =
        Arrays.asList(
            "country=City.mmdb:country.iso_code",
            "asn=ASN.mmdb.gz:asn",
            "lat=City.mmdb:location.latitude");
    Path cli = dir.resolve("mmdb-cli.spx");
    new IpRangeBuilder().mmdbFields(fields, false).build(Arrays.asList(asnDb, cityDb), cli);
    Path out = dir.resolve("mmdb-out/spark.spx");
    JobResult r =
        SpindexSpark.run(
            SparkTests.session(),
            BuildIndexDefinition.NAME,
            new String[] {
              "--kind", "ranges",
              "--input", in.toString(),
              "--output", out.toString(),
              "--field", String.join(",", fields)
            });
    assertTrue(r.ok, r.report.toText());
    assertSameExceptCreationTime(Files.readAllBytes(cli), Files.readAllBytes(out));
    IpRanges index = Spindex.open(out).asRanges();
    assertEquals(Arrays.asList("country", "asn", "lat"), index.labelFields());
    assertTrue(index.size() > 500, "ranges: " + index.size());

    Files.copy(plain, in.resolve("a.txt"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(
        2,
        run(
            new PrintStream(err),
            BuildIndexDefinition.NAME,
            "--kind=ranges",
            "--input=" + in,
            "--output=" + dir.resolve("mixed.spx"),
            "--field=asn=asn"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("2 of 3 inputs are MaxMind DB files"),
        err.toString(StandardCharsets.UTF_8));
  }
}
