/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.Spindex;
import io.spindex.builder.BuildReport;
import io.spindex.builder.IpSetBuilder;
import io.spindex.index.IpSet;
import io.spindex.index.SpindexIndex;
import io.spindex.job.BuildIndexDefinition;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * build-index against the one-machine build of the same input (the reference: byte for byte, the
 * creation time and the header checksum over it aside) and against what the test itself wrote: the
 * distinct addresses, and every bad line with its position.
 */
class BuildIndexJobTest {
  @TempDir static Path dir;

  static Path plain;
  static Path gzip;

  /** Addresses the input holds, as the test wrote them (canonical text). */
  static final Set<String> WANT_V4 = new TreeSet<>();

  static final Set<String> WANT_V6 = new TreeSet<>();

  /** Bad lines by position, {@code file:offset -> line}. */
  static final Map<String, String> WANT_REJECTS = new java.util.LinkedHashMap<>();

  @BeforeAll
  static void input() throws Exception {
    Files.createDirectories(dir.resolve("in"));
    plain = dir.resolve("in/a.txt");
    gzip = dir.resolve("in/b.txt.gz");
    Random rnd = new Random(7);
    try (OutputStream out = Files.newOutputStream(plain)) {
      write(out, plain, rnd, 260_000);
    }
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzip))) {
      write(out, gzip, rnd, 20_000);
    }
  }

  /** Clustered IPv4 (duplicates, CRLF, padding), IPv6, mapped, comments, blanks and bad lines. */
  private static void write(OutputStream out, Path file, Random rnd, int lines) throws Exception {
    String[] bad = {"1.2.3.256", "hello", "1.2.3", "2001:db8::g", "10.0.0.1 x", "::ffff:1.2.3"};
    long offset = 0;
    for (int i = 0; i < lines; i++) {
      String line;
      int kind = rnd.nextInt(1000);
      if (kind < 5) {
        line = bad[rnd.nextInt(bad.length)];
        WANT_REJECTS.put(new org.apache.hadoop.fs.Path(file.toUri()) + ":" + offset, line);
      } else if (kind < 10) {
        line = rnd.nextBoolean() ? "# comment " + i : "  ";
      } else if (kind < 40) {
        byte[] a = new byte[16];
        a[0] = 0x20;
        a[1] = 0x01;
        a[2] = 0x0d;
        a[3] = (byte) 0xb8;
        a[15] = (byte) rnd.nextInt(200);
        a[14] = (byte) rnd.nextInt(4);
        String t = InetAddress.getByAddress(a).getHostAddress();
        WANT_V6.add(InetAddress.getByName(t).getHostAddress());
        line = t;
      } else {
        // Dense in a few /8s, a long sparse tail; about one in three a repeat.
        int first =
            rnd.nextInt(10) < 8
                ? new int[] {1, 36, 101, 223}[rnd.nextInt(4)]
                : 1 + rnd.nextInt(223);
        String a = first + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256);
        WANT_V4.add(a);
        line = kind < 60 ? "::ffff:" + a : kind < 80 ? " " + a + "\t\r" : a;
      }
      byte[] b = (line + "\n").getBytes(StandardCharsets.UTF_8);
      out.write(b);
      offset += b.length;
    }
  }

  private static int sparkRun(String... args) {
    return SpindexSpark.run(
        SparkTests.session(),
        args,
        new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(new ByteArrayOutputStream()));
  }

  private static Path cliBuild() throws Exception {
    Path cli = dir.resolve("cli.spx");
    if (!Files.exists(cli)) {
      BuildReport r = new IpSetBuilder().threads(2).build(Arrays.asList(plain, gzip), cli);
      assertEquals(WANT_REJECTS.size(), r.count("rejected"));
    }
    return cli;
  }

  @Test
  void sameIndexAsTheCliWithEveryRejectByPosition() throws Exception {
    Path out = dir.resolve("out/spark.spx");
    JobResult r =
        SpindexSpark.run(
            SparkTests.session(),
            BuildIndexDefinition.NAME,
            new String[] {
              "--kind", "ips",
              "--input", dir.resolve("in/*").toString(),
              "--output", out.toString(),
              "--split-mb", "1",
              "--partitions", "5"
            });
    assertTrue(r.ok, r.report.toText());
    assertEquals(WANT_V4.size() + WANT_V6.size(), (long) r.totals.get("addresses"));
    assertSameExceptCreationTime(Files.readAllBytes(cliBuild()), Files.readAllBytes(out));

    // The index holds exactly the addresses written (an independent check of both builds).
    SpindexIndex index = Spindex.open(out);
    IpSet set = index.asSet();
    assertEquals(WANT_V4.size() + WANT_V6.size(), index.header().rowCount());
    for (String a : WANT_V4) {
      assertTrue(set.contains(ByteBuffer.wrap(InetAddress.getByName(a).getAddress()).getInt()), a);
    }

    // Every bad line, once, at its position, with its text.
    Map<String, String> got = new TreeMap<>();
    Set<String> reasons = new HashSet<>();
    for (String rec : SparkTests.readParts(dir.resolve("out/spark.spx.build/_rejects"))) {
      String[] f = rec.split("\t", 5); // source, offset, reason, detail, line
      assertEquals(null, got.put(f[0] + ":" + f[1], f[4]), "twice: " + rec);
      assertEquals("expected one IPv4 or IPv6 address per line", f[3]);
      reasons.add(f[2]);
    }
    assertEquals(WANT_REJECTS, got);
    assertTrue(reasons.size() >= 3, reasons.toString());
    assertTrue(Files.exists(dir.resolve("out/spark.spx.build/_summary.json")));
  }

  /** The file format's header: bytes 24-31 hold the creation time, 124-127 its checksum. */
  static void assertSameExceptCreationTime(byte[] want, byte[] got) {
    assertEquals(want.length, got.length, "file length");
    byte[] a = want.clone();
    byte[] b = got.clone();
    for (int i : new int[] {24, 25, 26, 27, 28, 29, 30, 31, 124, 125, 126, 127}) {
      a[i] = 0;
      b[i] = 0;
    }
    assertArrayEquals(a, b);
  }

  @Test
  void oneSortPartitionGivesTheSameIndex() throws Exception {
    Path out = dir.resolve("one/spark.spx");
    assertEquals(
        0,
        sparkRun(
            BuildIndexDefinition.NAME,
            "--kind=ips",
            "--input=" + plain + "," + gzip,
            "--output=" + out,
            "--partitions=1"));
    assertSameExceptCreationTime(Files.readAllBytes(cliBuild()), Files.readAllBytes(out));
  }

  @Test
  void strictFailsOnTheFirstBadLineAndWritesNothing() throws Exception {
    Path out = dir.resolve("strict/spark.spx");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SpindexSpark.run(
            SparkTests.session(),
            new String[] {
              BuildIndexDefinition.NAME,
              "--kind",
              "ips",
              "--input",
              plain.toString(),
              "--output",
              out.toString(),
              "--strict",
              "true"
            },
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err));
    assertEquals(1, code);
    String first =
        WANT_REJECTS.keySet().stream().filter(k -> k.contains("a.txt")).findFirst().get();
    String msg = err.toString("UTF-8");
    assertTrue(msg.contains("rejected line (--strict): " + first + ": "), msg);
    assertEquals(1, msg.split("\n").length, msg);
    assertFalse(Files.exists(out));
  }

  /**
   * A build that accepts nothing (bare addresses are no ranges; an empty file) fails with one line
   * naming the input and leaves the index already at the output as it was; {@code --allow-empty
   * true} writes the empty index.
   */
  @Test
  void aBuildThatAcceptsNothingLeavesTheOldIndex() throws Exception {
    Path out = dir.resolve("empty/geo.spx");
    Files.createDirectories(out.getParent());
    Path good = dir.resolve("empty/good.csv");
    Files.write(good, "1.2.3.0,1.2.3.255,GOOD\n".getBytes(StandardCharsets.UTF_8));
    assertEquals(
        0,
        sparkRun(BuildIndexDefinition.NAME, "--kind=ranges", "--input=" + good, "--output=" + out));
    byte[] before = Files.readAllBytes(out);
    Path bare = dir.resolve("empty/bare.txt");
    Files.write(bare, "1.2.3.4\n5.6.7.8\n".getBytes(StandardCharsets.UTF_8));
    Path zero = dir.resolve("empty/zero.csv");
    Files.write(zero, new byte[0]);
    for (Path in : new Path[] {bare, zero}) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code =
          SpindexSpark.run(
              SparkTests.session(),
              new String[] {
                BuildIndexDefinition.NAME, "--kind=ranges", "--input=" + in, "--output=" + out
              },
              new PrintStream(new ByteArrayOutputStream()),
              new PrintStream(err));
      String msg = err.toString("UTF-8");
      assertEquals(1, code, msg);
      assertEquals(1, msg.split("\n").length, msg);
      assertTrue(msg.contains(in.getFileName() + ": nothing accepted ("), msg);
      assertTrue(msg.contains(in == bare ? "missing-end 2" : "(0 bytes)"), msg);
      assertTrue(msg.contains("geo.spx left as it was (--allow-empty"), msg);
      assertArrayEquals(before, Files.readAllBytes(out), in.toString());
    }
    assertEquals(
        0,
        sparkRun(
            BuildIndexDefinition.NAME,
            "--kind=ranges",
            "--input=" + bare,
            "--output=" + out,
            "--allow-empty=true"));
    assertEquals(0, Spindex.open(out).asRanges().rangeCount());
  }

  @Test
  void usageMistakesExitTwo() {
    assertEquals(
        2, sparkRun(BuildIndexDefinition.NAME, "--input", plain.toString(), "--output", "x"));
    assertEquals(
        2,
        sparkRun(
            BuildIndexDefinition.NAME, "--kind", "trees", "--input", "in", "--output", "x.spx"));
    assertEquals(
        2,
        sparkRun(
            BuildIndexDefinition.NAME,
            "--kind",
            "ips",
            "--input",
            plain.toString(),
            "--output",
            plain.toString()));
  }

  @Test
  void writesTheIndexAtomicallyToHdfs() throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    try {
      String uri = dfs.getFileSystem().getUri() + "/indexes/ips.spx";
      // An older index at the target is replaced.
      FileSystem fs = dfs.getFileSystem();
      try (OutputStream o = fs.create(new org.apache.hadoop.fs.Path(uri))) {
        o.write(new byte[] {1, 2, 3});
      }
      assertEquals(
          0,
          sparkRun(
              BuildIndexDefinition.NAME,
              "--kind",
              "ips",
              "--input",
              plain + "," + gzip,
              "--output",
              uri));
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try (java.io.InputStream in = fs.open(new org.apache.hadoop.fs.Path(uri))) {
        in.transferTo(got);
      }
      assertSameExceptCreationTime(Files.readAllBytes(cliBuild()), got.toByteArray());
      List<String> left = new ArrayList<>();
      for (org.apache.hadoop.fs.FileStatus s :
          fs.listStatus(new org.apache.hadoop.fs.Path(uri).getParent())) {
        left.add(s.getPath().getName());
      }
      assertEquals(Arrays.asList("ips.spx", "ips.spx.build"), left);
    } finally {
      dfs.shutdown();
    }
  }
}
