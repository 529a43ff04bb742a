/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes an ip2region v2 {@code .xdb} file. The {@code org.lionsoul:ip2region} 2.7.0 jar holds only
 * the searcher (its maker is a separate program, not on Maven Central), so this follows the maker's
 * published layout: a 256-byte header (version 2, vector index policy, index pointers), a 256x256
 * vector index of {first, last+1} segment pointers per /16, the region strings once each, then
 * 14-byte segment entries {start, end (little-endian), region length, region pointer}. Like the
 * maker, segments are split at /16 boundaries, and like ip2region's own data the whole space is
 * covered: gaps get the region {@link #GAP} (ip2region's "unknown").
 */
final class Ip2RegionXdb {
  static final String GAP = "0|0|0|0";
  private static final int HEADER = 256;
  private static final int VECTOR = 256 * 256 * 8;
  private static final int SEGMENT = 14;

  private Ip2RegionXdb() {}

  static void write(RangeTable t, Path out) throws IOException {
    List<long[]> segs = new ArrayList<>(); // {start, end, label id or -1 for the gap region}
    long next = 0;
    for (int i = 0; i < t.size(); i++) {
      if (t.starts[i] > next) {
        segs.add(new long[] {next, t.starts[i] - 1, -1});
      }
      segs.add(new long[] {t.starts[i], t.ends[i], t.labelIds[i]});
      next = t.ends[i] + 1;
    }
    if (next <= 0xFFFFFFFFL) {
      segs.add(new long[] {next, 0xFFFFFFFFL, -1});
    }

    ByteArrayOutputStream regions = new ByteArrayOutputStream();
    int[] regionPtr = new int[t.labels.length + 1];
    int[] regionLen = new int[t.labels.length + 1];
    int dataStart = HEADER + VECTOR;
    for (int i = 0; i <= t.labels.length; i++) {
      byte[] b = (i < t.labels.length ? t.labels[i] : GAP).getBytes(StandardCharsets.UTF_8);
      regionPtr[i] = dataStart + regions.size();
      regionLen[i] = b.length;
      regions.write(b);
    }

    List<long[]> split = new ArrayList<>(segs.size() * 2);
    for (long[] s : segs) {
      for (long a = s[0]; a <= s[1]; ) {
        long blockEnd = a | 0xFFFFL;
        long e = Math.min(blockEnd, s[1]);
        split.add(new long[] {a, e, s[2]});
        a = e + 1;
      }
    }

    int indexStart = dataStart + regions.size();
    ByteBuffer file =
        ByteBuffer.allocate(indexStart + split.size() * SEGMENT).order(ByteOrder.LITTLE_ENDIAN);
    file.putShort(0, (short) 2); // xdb version
    file.putShort(2, (short) 1); // index policy: vector index
    file.putInt(4, 0); // created at (fixed, reproducible)
    file.putInt(8, indexStart);
    file.putInt(12, indexStart + (split.size() - 1) * SEGMENT);
    file.position(dataStart);
    file.put(regions.toByteArray());
    int ptr = indexStart;
    for (long[] s : split) {
      int label = s[2] < 0 ? t.labels.length : (int) s[2];
      file.putInt(ptr, (int) s[0]);
      file.putInt(ptr + 4, (int) s[1]);
      file.putShort(ptr + 8, (short) regionLen[label]);
      file.putInt(ptr + 10, regionPtr[label]);
      int v = HEADER + (int) (s[0] >>> 16) * 8;
      if (file.getInt(v) == 0) {
        file.putInt(v, ptr);
      }
      file.putInt(v + 4, ptr + SEGMENT);
      ptr += SEGMENT;
    }
    Files.write(out, file.array());
  }
}
