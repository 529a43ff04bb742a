/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.index.IndexKind;
import io.spindex.index.IndexWriter;
import io.spindex.index.Section;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes small indexes straight through {@link IndexWriter} (independent of the builders). Shared
 * with the job modules through the indexer test-jar.
 */
public final class TestIndexes {
  private TestIndexes() {}

  public static void writeSet(Path file, int[] addresses) throws IOException {
    long[] sorted =
        Arrays.stream(addresses).mapToLong(Integer::toUnsignedLong).sorted().distinct().toArray();
    int[] keys = new int[sorted.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = (int) sorted[i] ^ 0x80000000;
    }
    new IndexWriter(IndexKind.IPV4_SET, keys.length, new byte[32])
        .ints(Section.KEYS, keys, keys.length)
        .ints(Section.PREFIX16, prefix(sorted), 65537)
        .writeTo(file);
  }

  /** {@code ranges[i] = {start, end}} unsigned, sorted and disjoint; one label each. */
  public static void writeRanges(Path file, long[][] ranges, String[] labels) throws IOException {
    int n = ranges.length;
    int[] starts = new int[n];
    int[] ends = new int[n];
    int[] ids = new int[n];
    long[] startsUnsigned = new long[n];
    Map<String, Integer> dict = new LinkedHashMap<>();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int[] offsets = new int[n + 1];
    for (int i = 0; i < n; i++) {
      starts[i] = (int) ranges[i][0] ^ 0x80000000;
      ends[i] = (int) ranges[i][1] ^ 0x80000000;
      startsUnsigned[i] = ranges[i][0];
      Integer id = dict.get(labels[i]);
      if (id == null) {
        id = dict.size();
        dict.put(labels[i], id);
        byte[] b = labels[i].getBytes(StandardCharsets.UTF_8);
        bytes.write(b, 0, b.length);
        offsets[id + 1] = bytes.size();
      }
      ids[i] = id;
    }
    byte[] labelBytes = bytes.toByteArray();
    new IndexWriter(IndexKind.IPV4_RANGES, n, new byte[32])
        .ints(Section.RANGE_STARTS, starts, n)
        .ints(Section.RANGE_ENDS, ends, n)
        .ints(Section.RANGE_LABELS, ids, n)
        .ints(Section.LABEL_OFFSETS, offsets, dict.size() + 1)
        .bytes(Section.LABEL_BYTES, labelBytes, labelBytes.length)
        .writeTo(file);
  }

  /**
   * A dual-stack set: the IPv4 addresses and IPv6 ones ({@code {hi, lo}} each, none IPv4-mapped),
   * with both prefix tables.
   */
  public static void writeSet(Path file, int[] addresses, long[][] v6) throws IOException {
    long[] sorted =
        Arrays.stream(addresses).mapToLong(Integer::toUnsignedLong).sorted().distinct().toArray();
    int[] keys = new int[sorted.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = (int) sorted[i] ^ 0x80000000;
    }
    long[][] s6 = sorted128(v6);
    long[] hi = new long[s6.length];
    long[] lo = new long[s6.length];
    long[] top = new long[s6.length];
    for (int i = 0; i < s6.length; i++) {
      hi[i] = s6[i][0] ^ Long.MIN_VALUE;
      lo[i] = s6[i][1] ^ Long.MIN_VALUE;
      top[i] = (s6[i][0] >>> 48) << 16;
    }
    new IndexWriter(IndexKind.IPV4_SET, keys.length + s6.length, new byte[32])
        .ints(Section.KEYS, keys, keys.length)
        .ints(Section.PREFIX16, prefix(sorted), 65537)
        .longs(Section.KEYS6_HI, hi, hi.length)
        .longs(Section.KEYS6_LO, lo, lo.length)
        .ints(Section.PREFIX16_V6, prefix(top), 65537)
        .writeTo(file);
  }

  /**
   * A dual-stack range index: {@code ranges6[i] = {startHi, startLo, endHi, endLo}}, sorted and
   * disjoint, outside the IPv4-mapped block, labelled from the same dictionary as the IPv4 ranges;
   * no IPv6 prefix table (the search over all IPv6 rows).
   */
  public static void writeRanges(
      Path file, long[][] ranges, String[] labels, long[][] ranges6, String[] labels6)
      throws IOException {
    int n = ranges.length;
    int m = ranges6.length;
    String[] all = Arrays.copyOf(labels, n + m);
    System.arraycopy(labels6, 0, all, n, m);
    Map<String, Integer> dict = new LinkedHashMap<>();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int[] offsets = new int[n + m + 1];
    int[] ids = new int[n + m];
    for (int i = 0; i < n + m; i++) {
      Integer id = dict.get(all[i]);
      if (id == null) {
        id = dict.size();
        dict.put(all[i], id);
        byte[] b = all[i].getBytes(StandardCharsets.UTF_8);
        bytes.write(b, 0, b.length);
        offsets[id + 1] = bytes.size();
      }
      ids[i] = id;
    }
    int[] starts = new int[n];
    int[] ends = new int[n];
    for (int i = 0; i < n; i++) {
      starts[i] = (int) ranges[i][0] ^ 0x80000000;
      ends[i] = (int) ranges[i][1] ^ 0x80000000;
    }
    long[][] cols = new long[4][m];
    for (int i = 0; i < m; i++) {
      for (int c = 0; c < 4; c++) {
        cols[c][i] = ranges6[i][c] ^ Long.MIN_VALUE;
      }
    }
    byte[] labelBytes = bytes.toByteArray();
    new IndexWriter(IndexKind.IPV4_RANGES, n + m, new byte[32])
        .ints(Section.RANGE_STARTS, starts, n)
        .ints(Section.RANGE_ENDS, ends, n)
        .ints(Section.RANGE_LABELS, Arrays.copyOf(ids, n), n)
        .ints(Section.LABEL_OFFSETS, offsets, dict.size() + 1)
        .bytes(Section.LABEL_BYTES, labelBytes, labelBytes.length)
        .longs(Section.RANGE6_STARTS_HI, cols[0], m)
        .longs(Section.RANGE6_STARTS_LO, cols[1], m)
        .longs(Section.RANGE6_ENDS_HI, cols[2], m)
        .longs(Section.RANGE6_ENDS_LO, cols[3], m)
        .ints(Section.RANGE6_LABELS, Arrays.copyOfRange(ids, n, n + m), m)
        .writeTo(file);
  }

  private static long[][] sorted128(long[][] v) {
    return Arrays.stream(v)
        .sorted(
            (x, y) -> {
              int c = Long.compareUnsigned(x[0], y[0]);
              return c != 0 ? c : Long.compareUnsigned(x[1], y[1]);
            })
        .filter(
            new java.util.function.Predicate<long[]>() {
              private long[] last;

              @Override
              public boolean test(long[] x) {
                boolean fresh = last == null || last[0] != x[0] || last[1] != x[1];
                last = x;
                return fresh;
              }
            })
        .toArray(long[][]::new);
  }

  private static int[] prefix(long[] sortedUnsigned) {
    int[] p = new int[65537];
    int row = 0;
    for (int b = 0; b <= 65536; b++) {
      while (row < sortedUnsigned.length && (sortedUnsigned[row] >>> 16) < b) {
        row++;
      }
      p[b] = row;
    }
    return p;
  }
}
