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

/** Writes small indexes straight through {@link IndexWriter} (independent of the builders). */
final class TestIndexes {
  private TestIndexes() {}

  static void writeSet(Path file, int[] addresses) throws IOException {
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
  static void writeRanges(Path file, long[][] ranges, String[] labels) throws IOException {
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
