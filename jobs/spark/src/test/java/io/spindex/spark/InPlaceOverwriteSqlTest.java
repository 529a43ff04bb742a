/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.lookup.TestIndexes;
import io.spindex.spark.sql.SpindexFunctions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spindex_label} queries run one after another in a local[2] session with the {@code mapped}
 * loader while the index file is written over in place ({@code cp}'s way: the same inode truncated,
 * then written piece by piece) again and again: the session survives (no executor JVM fault), every
 * row's label is the answer of one complete version, every task's rows come from one version, and a
 * query that fails does so with an error naming the file.
 */
class InPlaceOverwriteSqlTest {
  private static final int RANGES = 65_536;
  private static final int ROWS = 400_000;

  @TempDir static Path dir;
  static SparkSession spark;
  static Path live;
  static byte[][] versions = new byte[2][];

  @BeforeAll
  static void setUp() throws Exception {
    for (int v = 0; v < 2; v++) {
      long[][] ranges = new long[RANGES][];
      String[] labels = new String[RANGES];
      long step = (1L << 32) / RANGES;
      for (int i = 0; i < RANGES; i++) {
        // Version 1's ranges are shifted a quarter step: some addresses have a label in both
        // versions (a different one), some in one of them, some in neither.
        long start = i * step + v * (step / 4);
        ranges[i] = new long[] {start, start + step / 2 - 1};
        labels[i] = "v" + v + "-" + i;
      }
      Path f = dir.resolve("v" + v + ".spx");
      TestIndexes.writeRanges(f, ranges, labels);
      versions[v] = Files.readAllBytes(f);
    }
    live = dir.resolve("live.spx");
    Files.write(live, versions[0]);
    spark = SparkTests.session();
    SpindexFunctions.register(spark);
    spark.conf().set("spark.spindex.index.live", live.toString());
    spark.conf().set("spark.spindex.loader", "mapped");
  }

  @AfterAll
  static void tearDown() {
    spark.conf().unset("spark.spindex.index.live");
    spark.conf().unset("spark.spindex.loader");
    IndexHolder.clear();
  }

  /** The label version {@code v} gives address {@code a} (unsigned), or null. */
  private static String expected(int v, long a) {
    long step = (1L << 32) / RANGES;
    long shifted = a - v * (step / 4);
    if (shifted < 0) {
      return null;
    }
    long i = shifted / step;
    return i < RANGES && shifted % step < step / 2 ? "v" + v + "-" + i : null;
  }

  @Test
  void queriesSurviveAnIndexOverwrittenInPlaceAndAnswerFromOneVersion() throws Exception {
    check(query()); // planned, generated and loaded once before the writes start
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicInteger answered = new AtomicInteger();
    AtomicInteger failedCleanly = new AtomicInteger();
    AtomicInteger queried = new AtomicInteger();
    Thread queries =
        new Thread(
            () -> {
              try {
                while (!done.get()) {
                  try {
                    check(query());
                    answered.incrementAndGet();
                  } catch (Exception e) {
                    assertNamesTheFile(e);
                    failedCleanly.incrementAndGet();
                  }
                  queried.incrementAndGet();
                }
              } catch (Throwable e) {
                failure.compareAndSet(null, e);
              }
            },
            "queries");
    queries.start();
    try {
      // At least 20 overwrites, and on until 8 queries have run while the file kept changing; an
      // even count, so that the file ends as version 0.
      for (int k = 1; (k <= 20 || queried.get() < 8 || k % 2 == 0) && failure.get() == null; k++) {
        overwriteInPlace(versions[k % 2]);
        Thread.sleep(10);
      }
    } finally {
      done.set(true);
      queries.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    // The session lives on and answers from what the file now holds.
    List<Row> after = query();
    check(after);
    for (Row r : after) {
      assertEquals(expected(0, r.getLong(0)), r.getString(1), "version 0 at " + r.getLong(0));
    }
    assertTrue(
        queried.get() >= 8,
        queried
            + " queries while the file changed ("
            + answered
            + " answered, "
            + failedCleanly
            + " failed naming the file)");
  }

  private static List<Row> query() {
    return spark
        .sql(
            "SELECT a, spindex_label(concat_ws('.', shiftright(a, 24), shiftright(a, 16) & 255,"
                + " shiftright(a, 8) & 255, a & 255), 'live') AS label, spark_partition_id() AS p"
                + " FROM (SELECT pmod(id * 2654435761, 4294967296) AS a FROM range(0, "
                + ROWS
                + ", 1, 4))")
        .collectAsList();
  }

  /** Every label the answer of a version; every partition's answers all of one version. */
  private static void check(List<Row> rows) {
    Map<Integer, Integer> versionsOfPartition = new HashMap<>();
    for (Row r : rows) {
      long a = r.getLong(0);
      String label = r.getString(1);
      // Bit v set: version v gives this answer.
      int versions =
          (Objects.equals(expected(0, a), label) ? 1 : 0)
              | (Objects.equals(expected(1, a), label) ? 2 : 0);
      if (versions == 0) {
        throw new AssertionError(
            "label " + label + " for " + a + ": " + expected(0, a) + " or " + expected(1, a));
      }
      int p = r.getInt(2);
      int left = versionsOfPartition.getOrDefault(p, 3) & versions;
      assertTrue(left != 0, "partition " + p + " answered from both versions");
      versionsOfPartition.put(p, left);
    }
  }

  private static void assertNamesTheFile(Throwable e) {
    Throwable t = e;
    while (t != null) {
      String m = String.valueOf(t.getMessage());
      if (m.contains(live.toString())) {
        return;
      }
      t = t.getCause();
    }
    throw new AssertionError("a failed query that does not name " + live, e);
  }

  /** {@code cp}'s way: the same inode opened with O_TRUNC, then written piece by piece. */
  private static void overwriteInPlace(byte[] bytes) throws Exception {
    try (FileChannel ch =
        FileChannel.open(live, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      Thread.sleep(5); // empty for a moment
      int piece = bytes.length / 4 + 1;
      for (int at = 0; at < bytes.length; at += piece) {
        ch.write(ByteBuffer.wrap(bytes, at, Math.min(piece, bytes.length - at)));
        Thread.sleep(2);
      }
    }
  }
}
