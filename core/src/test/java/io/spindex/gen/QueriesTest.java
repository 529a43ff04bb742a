/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Uniform and range-weighted query sets against a real-shaped range index. */
class QueriesTest {
  @TempDir static Path dir;

  private static IpRanges ranges;

  @BeforeAll
  static void buildIndex() throws IOException {
    Path src = dir.resolve("real.txt");
    Files.writeString(
        src,
        RealShapeTest.text(50_000, 11, RangeGenerator.Format.RANGE, 4),
        StandardCharsets.UTF_8);
    Path idx = dir.resolve("real.spx");
    new IpRangeBuilder().build(List.of(src), idx);
    ranges = Loader.NIO.load(idx).asRanges();
  }

  @Test
  void uniformQueriesAreTheAddressesOfGenIps() throws IOException {
    int[] q = Queries.uniform(10_000, 9);
    assertArrayEquals(q, Queries.uniform(10_000, 9));
    assertFalse(Arrays.equals(q, Queries.uniform(10_000, 10)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new IpListGenerator(10_000, 9, 0).writeTo(out);
    String[] lines = out.toString(StandardCharsets.US_ASCII).split("\n");
    assertEquals(q.length, lines.length);
    for (int i = 0; i < q.length; i++) {
      assertEquals(lines[i], io.spindex.text.Ipv4Text.format(q[i]));
    }
  }

  @Test
  void uniformQueriesHitAsOftenAsTheRangesCover() {
    long covered = 0;
    for (int row = 0; row < ranges.size(); row++) {
      if (ranges.labelIdOfRow(row) == IpRanges.NONE) {
        continue; // a gap row of a tiled index
      }
      covered +=
          Integer.toUnsignedLong(ranges.end(row)) - Integer.toUnsignedLong(ranges.start(row));
      covered++;
    }
    double p = covered / (double) (1L << 32);
    int n = 200_000;
    int[] q = Queries.uniform(n, 4);
    int hits = ranges.labelIds(q, n, new int[n]);
    double sd = Math.sqrt(p * (1 - p) / n);
    assertTrue(
        Math.abs((double) hits / n - p) < 5 * sd, hits + " hits of " + n + ", coverage " + p);
    assertTrue(p > 0.2 && p < 0.6, "coverage " + p);
  }

  @Test
  void weightedQueriesAllHitAndSpreadOverTheRanges() {
    int n = 2 * ranges.rangeCount();
    int[] q = Queries.weighted(ranges, n, 5);
    assertArrayEquals(q, Queries.weighted(ranges, n, 5));
    assertFalse(Arrays.equals(q, Queries.weighted(ranges, n, 6)));
    assertEquals(n, ranges.labelIds(q, n, new int[n]));
    // Every range is as likely as any other: 2 draws per range miss a range with e^-2 = 13.5%.
    boolean[] hit = new boolean[ranges.size()];
    int distinct = 0;
    long inSingleAddressRanges = 0;
    for (int a : q) {
      int row = ranges.row(a);
      distinct += hit[row] ? 0 : 1;
      hit[row] = true;
      inSingleAddressRanges += ranges.start(row) == ranges.end(row) ? 1 : 0;
    }
    double share = (double) distinct / ranges.rangeCount();
    assertTrue(share > 0.85 && share < 0.88, "ranges hit: " + share);
    // About 4% of the ranges are single addresses, and so about 4% of the queries.
    assertTrue(inSingleAddressRanges > n * 0.03 && inSingleAddressRanges < n * 0.05);
  }

  @Test
  void weightedQueriesNeedIpv4Ranges() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new RangeGenerator(10, 1, RangeGenerator.Format.RANGE).family(6).writeTo(out);
    Path src = dir.resolve("v6.txt");
    Files.write(src, out.toByteArray());
    Path idx = dir.resolve("v6.spx");
    new IpRangeBuilder().build(List.of(src), idx);
    IpRanges v6 = Loader.NIO.load(idx).asRanges();
    assertThrows(IllegalArgumentException.class, () -> Queries.weighted(v6, 1, 1));
  }
}
