/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.index.IndexKind;
import io.spindex.index.IndexWriter;
import io.spindex.index.Section;
import io.spindex.index.search.PackedRows;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes small indexes straight through {@link IndexWriter} (independent of the builders). Shared
 * with the job modules through the core test-jar.
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
    writeRanges(file, ranges, labels, new long[0][], new String[0]);
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
   * the rows of docs/FORMAT.md (a row a range, a row a gap after one), with the /16 prefix tables
   * and no prefix6 tables.
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
    // IPv4 rows: each range, and a gap row after one that the next does not touch.
    List<Long> starts = new ArrayList<>();
    List<Integer> rowIds = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      starts.add(ranges[i][0]);
      rowIds.add(ids[i]);
      long next = ranges[i][1] + 1;
      if (next <= 0xFFFF_FFFFL && (i + 1 == n || ranges[i + 1][0] != next)) {
        starts.add(next);
        rowIds.add(-1);
      }
    }
    int rows = starts.size();
    int[] flipped = new int[rows];
    long[] unsigned = new long[rows];
    int[] rowLabels = new int[rows];
    for (int i = 0; i < rows; i++) {
      unsigned[i] = starts.get(i);
      flipped[i] = (int) unsigned[i] ^ 0x80000000;
      rowLabels[i] = rowIds.get(i);
    }
    // IPv6 rows likewise (128-bit: a borrow into the high half when the low one wraps).
    List<long[]> starts6 = new ArrayList<>();
    List<Integer> rowIds6 = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      starts6.add(new long[] {ranges6[i][0], ranges6[i][1]});
      rowIds6.add(ids[n + i]);
      long lo = ranges6[i][3] + 1;
      long hi = lo == 0 ? ranges6[i][2] + 1 : ranges6[i][2];
      boolean top = ranges6[i][2] == -1L && ranges6[i][3] == -1L;
      if (!top && (i + 1 == m || ranges6[i + 1][0] != hi || ranges6[i + 1][1] != lo)) {
        starts6.add(new long[] {hi, lo});
        rowIds6.add(-1);
      }
    }
    int rows6 = starts6.size();
    long[] hi6 = new long[rows6];
    long[] lo6 = new long[rows6];
    int[] labels6Out = new int[rows6];
    for (int i = 0; i < rows6; i++) {
      hi6[i] = starts6.get(i)[0] ^ Long.MIN_VALUE;
      lo6[i] = starts6.get(i)[1] ^ Long.MIN_VALUE;
      labels6Out[i] = rowIds6.get(i);
    }
    byte[] labelBytes = bytes.toByteArray();
    byte[] low = PackedRows.lows(flipped, rows);
    byte[] rowLabelIds = PackedRows.labelIds(rowLabels, rows, PackedRows.labelIdBytes(dict.size()));
    IndexWriter w =
        new IndexWriter(IndexKind.IPV4_RANGES, rows + rows6, new byte[32])
            .bytes(Section.RANGE_STARTS_LOW, low, low.length)
            .bytes(Section.ROW_LABEL_IDS, rowLabelIds, rowLabelIds.length)
            .ints(Section.LABEL_OFFSETS, offsets, dict.size() + 1)
            .bytes(Section.LABEL_BYTES, labelBytes, labelBytes.length);
    if (rows > 0) {
      w.ints(Section.PREFIX16, prefix(unsigned), 65537);
    }
    if (rows6 > 0) {
      int[] prefix6 = IndexWriter.prefixTable128(hi6, rows6);
      w.longs(Section.RANGE6_STARTS_HI, hi6, rows6)
          .longs(Section.RANGE6_STARTS_LO, lo6, rows6)
          .ints(Section.PREFIX16_V6, prefix6, prefix6.length)
          .longs(
              Section.RANGE6_ROWS,
              IndexWriter.rows6(hi6, lo6, labels6Out, rows6, prefix6, null),
              rows6);
    }
    w.writeTo(file);
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
