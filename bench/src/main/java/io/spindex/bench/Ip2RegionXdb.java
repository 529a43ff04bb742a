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
import java.util.Arrays;
import java.util.List;

/**
 * Writes an ip2region v2 {@code .xdb} file. The {@code org.lionsoul:ip2region} 2.7.0 jar holds only
 * the searcher (its maker is a separate program, not on Maven Central), so this follows the maker's
 * published layout: a 256-byte header (version 2, vector index policy, index pointers), a 256x256
 * vector index of {first, last+1} segment pointers per /16, the region strings once each, then
 * 14-byte segment entries {start, end (little-endian), region length, region pointer}. Like the
 * maker, segments are split at /16 boundaries, and like ip2region's own data the whole space is
 * covered: gaps get the region {@link #GAP} (ip2region's "unknown").
 *
 * <p>{@link #writeIpv6} writes the IPv6 file of ip2region's xdb 3.0 structure, which the 3.x
 * searcher reads (see {@link Ip2Region3}): the same layout with the IP version (6) and pointer size
 * (4) in the header, the vector index keyed by the first two bytes of the address, and 38-byte
 * segment entries whose addresses are big-endian (network order), as ip2region's 3.x maker writes
 * them; segments split at /16 boundaries and gaps filled with {@link #GAP}, as above.
 */
final class Ip2RegionXdb {
  static final String GAP = "0|0|0|0";
  private static final int HEADER = 256;
  private static final int VECTOR = 256 * 256 * 8;
  private static final int SEGMENT = 14;

  /** IPv6 segment entries of the 3.0 structure: start, end (16 bytes each), length, pointer. */
  private static final int SEGMENT6 = 38;

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

  /** The IPv6 ranges as an xdb 3.0 IPv6 file (see the class comment). */
  static void writeIpv6(Range6Table t, Path out) throws IOException {
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
    Segments6 segs = new Segments6();
    // The whole space in order: each gap, then each range; every piece split at /16 boundaries.
    long nextHi = 0;
    long nextLo = 0;
    boolean done = false;
    for (int i = 0; i < t.size() && !done; i++) {
      if (Range6Table.compare(t.startHi[i], t.startLo[i], nextHi, nextLo) > 0) {
        long eLo = t.startLo[i] - 1;
        long eHi = t.startLo[i] == 0 ? t.startHi[i] - 1 : t.startHi[i];
        segs.add(nextHi, nextLo, eHi, eLo, t.labels.length);
      }
      segs.add(t.startHi[i], t.startLo[i], t.endHi[i], t.endLo[i], t.labelIds[i]);
      done = t.endHi[i] == -1L && t.endLo[i] == -1L;
      nextLo = t.endLo[i] + 1;
      nextHi = nextLo == 0 ? t.endHi[i] + 1 : t.endHi[i];
    }
    if (!done) {
      segs.add(nextHi, nextLo, -1L, -1L, t.labels.length);
    }

    int indexStart = dataStart + regions.size();
    ByteBuffer file =
        ByteBuffer.allocate(indexStart + segs.count * SEGMENT6).order(ByteOrder.LITTLE_ENDIAN);
    file.putShort(0, (short) 3); // xdb structure 3.0
    file.putShort(2, (short) 1); // index policy: vector index
    file.putInt(4, 0); // created at (fixed, reproducible)
    file.putInt(8, indexStart);
    file.putInt(12, indexStart + (segs.count - 1) * SEGMENT6);
    file.putShort(16, (short) 6); // IP version
    file.putShort(18, (short) 4); // runtime pointer bytes
    file.position(dataStart);
    file.put(regions.toByteArray());
    int ptr = indexStart;
    for (int k = 0; k < segs.count; k++) {
      int label = segs.labels[k];
      file.putLong(ptr, Long.reverseBytes(segs.startHi[k])); // big-endian, as the maker
      file.putLong(ptr + 8, Long.reverseBytes(segs.startLo[k]));
      file.putLong(ptr + 16, Long.reverseBytes(segs.endHi[k]));
      file.putLong(ptr + 24, Long.reverseBytes(segs.endLo[k]));
      file.putShort(ptr + 32, (short) regionLen[label]);
      file.putInt(ptr + 34, regionPtr[label]);
      int v = HEADER + (int) (segs.startHi[k] >>> 48) * 8;
      if (file.getInt(v) == 0) {
        file.putInt(v, ptr);
      }
      file.putInt(v + 4, ptr + SEGMENT6);
      ptr += SEGMENT6;
    }
    Files.write(out, file.array());
  }

  /** IPv6 segments {start, end, label index}, each inside one /16 block. */
  private static final class Segments6 {
    long[] startHi = new long[1 << 16];
    long[] startLo = new long[1 << 16];
    long[] endHi = new long[1 << 16];
    long[] endLo = new long[1 << 16];
    int[] labels = new int[1 << 16];
    int count;

    /** Adds {@code [start, end]} split at /16 boundaries (the vector index's blocks). */
    void add(long sHi, long sLo, long eHi, long eLo, int label) {
      long hi = sHi;
      long lo = sLo;
      while (true) {
        long blockEndHi = hi | 0x0000_FFFF_FFFF_FFFFL;
        boolean last = Long.compareUnsigned(blockEndHi, eHi) >= 0;
        long toHi = last ? eHi : blockEndHi;
        long toLo = last ? eLo : -1L;
        append(hi, lo, toHi, toLo, label);
        if (last) {
          return;
        }
        hi = blockEndHi + 1;
        lo = 0;
      }
    }

    private void append(long sHi, long sLo, long eHi, long eLo, int label) {
      if (count == labels.length) {
        int n = count * 2;
        startHi = Arrays.copyOf(startHi, n);
        startLo = Arrays.copyOf(startLo, n);
        endHi = Arrays.copyOf(endHi, n);
        endLo = Arrays.copyOf(endLo, n);
        labels = Arrays.copyOf(labels, n);
      }
      startHi[count] = sHi;
      startLo[count] = sLo;
      endHi[count] = eHi;
      endLo[count] = eLo;
      labels[count] = label;
      count++;
    }
  }
}
